"""Re-score an lm-evaluation-harness output folder from its samples files.

lm-eval 0.4.x with ``--log_samples --output_path OUT`` writes ``OUT/<model>/results_<ts>.json``
and one ``samples_<task>_<ts>.jsonl`` per task. :func:`rescore_folder` rebuilds that
``results`` / ``groups`` from the samples alone, as ``lm_eval/evaluator_utils.py`` and
``lm_eval/api/group.py`` (0.4.13) build them:

- per task, per filter (the records' ``filter``), per metric the per-document values in file
  order; ``acc`` / ``acc_norm`` / ``acc_bytes`` / ``acc_mutual_info`` of ``multiple_choice``
  tasks are recomputed from the logged log-likelihoods (``metrics.llm.multiple_choice``); every
  other metric takes the value each record logs (lm-eval's ``process_results`` output);
- each metric's aggregation (the task config's ``metric_list``, else lm-eval's registered
  default) and its stderr (``mean_stderr`` for ``mean``, the exact bootstrap replay for
  ``median`` / ``perplexity`` / ``f1`` / ``matthews_corrcoef`` / ``nanmean`` with the run's
  ``bootstrap_iters``, ``"N/A"`` otherwise or for one document);
- groups: the size-weighted (or plain) mean and pooled (or unweighted) stderr of their leaf
  tasks. The results file does not keep a group's ``aggregate_metric_list``: the metrics
  are those its ``groups`` entry reports, and ``weight_by_size`` comes from ``group_config``
  when given, otherwise it is read off the file (the weighting whose value the file holds;
  ``True``, lm-eval's default, when neither matches).

No formatting here: :mod:`nlgmetrics.cli.lm_eval_cmd` prints lm-eval's table.
"""
from __future__ import annotations

import math
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..errors import InputTypeError, InvalidInputError, InvalidOptionError
from ..io.text import parse_json
from .lm_eval_checks import check_record, check_shape, logged_value

REFERENCE = "lm-eval-0.4.13"
_MC_SCORES = ("acc", "acc_norm", "acc_bytes", "acc_mutual_info")
_RESULTS = re.compile(r"^results_(.+)\.json$")


@dataclass
class LmEvalRun:
    """One run of an output folder: its results file, parsed, and its samples files by task."""

    results_path: Path
    results: dict
    samples: dict[str, Path]


@dataclass
class FolderScores:
    """The rebuilt ``results`` / ``groups`` (lm-eval's keys and order) and, per metric key,
    where the rebuilt value differs from the results file (``(task, key, file, ours)``)."""

    run: LmEvalRun
    results: dict
    groups: dict
    differences: list = field(default_factory=list)
    weight_by_size: dict = field(default_factory=dict)


def _load_json(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInputError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise InvalidInputError(f"{path}: cannot read ({e.strerror})") from None
    data = parse_json(text, str(path))
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path}: expected lm-eval's results object")
    for key in ("results", "configs"):
        if not isinstance(data.get(key), dict):
            raise InvalidInputError(f'{path}: missing "{key}" (not an lm-eval results file)')
    check_shape(data, path)
    return data


def find_run(path: Any) -> LmEvalRun:
    """The newest run under ``path``: a results file itself, a model folder holding
    ``results_<ts>.json``, or lm-eval's ``--output_path`` with one model folder."""
    p = Path(path)
    if p.is_file():
        results_path = p
    elif p.is_dir():
        try:
            os.listdir(p)  # glob hides an unreadable folder as an empty one
        except OSError as e:
            raise InvalidInputError(f"{p}: cannot read ({e.strerror})") from None
        found = sorted(p.glob("results_*.json"))
        if not found:
            subs = sorted({f.parent for f in p.glob("*/results_*.json")})
            if len(subs) > 1:
                names = ", ".join(s.name for s in subs)
                raise InvalidInputError(f"{p}: several model folders ({names}); name one")
            found = sorted(subs[0].glob("results_*.json")) if subs else []
        if not found:
            raise InvalidInputError(f"{p}: no results_*.json here nor in a model folder below")
        results_path = found[-1]  # lm-eval's timestamps sort in time order
    elif p.is_symlink():
        raise InvalidInputError(f"{p}: a symbolic link to nothing (broken, or a loop)")
    elif p.exists():
        raise InvalidInputError(f"{p}: not a file or folder")
    else:
        raise InvalidInputError(f"{p}: no such file or folder")
    m = _RESULTS.match(results_path.name)
    if not m:
        raise InvalidInputError(f"{results_path}: not a results_<timestamp>.json file")
    stamp = m.group(1)
    results = _load_json(results_path)
    samples = {}
    for task in results["configs"]:
        candidate = results_path.parent / f"samples_{task}_{stamp}.jsonl"
        if candidate.is_file():
            samples[task] = candidate
    return LmEvalRun(results_path, results, samples)


def _metric_list(config: dict, task: str) -> list[tuple[str, str]]:
    """``(metric, aggregation name)`` in the config's order."""
    from ..metrics.llm.lm_eval_stderr import METRICS

    out = []
    for entry in config.get("metric_list") or []:
        name = entry.get("metric") if isinstance(entry, dict) else entry
        if not isinstance(name, str):
            raise InvalidInputError(f"configs[{task!r}].metric_list: an entry without a metric name: {entry!r}")
        agg = entry.get("aggregation") if isinstance(entry, dict) else None
        if name.startswith("inst_level_") and (agg is None or "agg_inst_level_acc" in str(agg)):
            agg = "inst_level_acc"  # ifeval's own function: the mean over every instruction
        if not isinstance(agg, str):
            agg = METRICS.get(name, (True, "mean"))[1]
        out.append((name, agg))
    return out


def _metric_options(config: dict, metric: str) -> dict:
    for entry in config.get("metric_list") or []:
        if isinstance(entry, dict) and entry.get("metric") == metric:
            return {k: entry[k] for k in ("regexes_to_ignore", "ignore_case", "ignore_punctuation", "ignore_numbers") if k in entry}
    return {}


def _exact_match_values(path: Path, config: dict, filt: str, recs: list) -> list | None:
    """``exact_match`` of a ``generate_until`` task recomputed: the filter pipeline of the
    config's ``filter_list`` on the logged generations (``resps``), then lm-eval's
    ``exact_match`` with the metric's options against the logged ``target``."""
    from ..metrics.llm.answer_filters import Pipeline, exact_match

    filter_list = config.get("filter_list")
    if filter_list is not None and not isinstance(filter_list, list):
        raise InvalidInputError(f"{path}: the task's filter_list must be a list of filters, got {filter_list!r:.60}")
    if filt == "none":
        steps = [{"function": "take_first"}]
    else:
        entries = [e for e in filter_list or [] if isinstance(e, dict) and e.get("name") == filt]
        if len(entries) != 1:
            return None
        steps = entries[0].get("filter")
    resps, docs, targets = [], [], []
    for lineno, rec in recs:
        r = rec.get("resps")
        if not isinstance(r, list) or len(r) != 1 or not isinstance(r[0], list):
            raise InvalidInputError(f'{path}:{lineno}: "resps" must hold one request\'s generations')
        for j, generation in enumerate(r[0]):
            if not isinstance(generation, str):
                raise InvalidInputError(f'{path}:{lineno}: resps[0][{j}] must be a generated text, got {generation!r:.60}')
        if "target" not in rec:
            raise InvalidInputError(f'{path}:{lineno}: missing "target"')
        target = rec["target"]
        if not isinstance(target, str):
            return None  # a list of golds or an index: compared as the task's own code does
        resps.append(r[0])
        docs.append(rec.get("doc"))
        targets.append(target)
    try:
        filtered = Pipeline(filt, steps).apply(resps, docs)
    except InvalidOptionError as e:
        raise InvalidInputError(f"{path}: filter {filt!r}: {e}") from None
    if not all(isinstance(f, str) for f in filtered):
        return None
    return exact_match(filtered, targets, **_metric_options(config, "exact_match")).tolist()


def _aggregate(aggregation: str, values: list, where: str) -> Any:
    from ..metrics.llm import lm_eval_aggregates as agg
    from ..metrics.llm import lm_eval_stderr as st

    functions = {
        "mean": st.mean, "inst_level_acc": lambda xs: st.mean([x for row in xs for x in row]),
        "median": lambda xs: st.aggregation_value("median", xs), "perplexity": agg.perplexity,
        "weighted_perplexity": agg.word_perplexity, "bits_per_byte": agg.bits_per_byte, "f1": agg.f1,
        "nanmean": lambda xs: st.aggregation_value("nanmean", xs),
        "matthews_corrcoef": lambda xs: st.aggregation_value("matthews_corrcoef", xs),
    }
    if aggregation not in functions:
        known = ", ".join(sorted(functions))
        named = re.search(r"def\s+(\w+)", aggregation)
        if named:  # lm-eval writes a task's own aggregation function as its source
            aggregation = f"{named.group(1)} (the task's own function)"
        raise InvalidInputError(f"{where}: aggregation {aggregation!r} is not re-scored here; known: {known}")
    return functions[aggregation](values)


def _stderr(aggregation: str, metric: str, values: list, iters: int, where: str) -> Any:
    from ..metrics.llm.lm_eval_stderr import stderr_for_aggregation

    if metric in ("bleu", "chrf", "chrf++", "ter"):
        iters = min(iters, 100)
    try:
        fn = stderr_for_aggregation(aggregation, iters)
    except InvalidOptionError as e:
        raise InvalidInputError(f"{where}: {e}") from None
    return fn(values) if fn is not None and len(values) > 1 else "N/A"


def _records(path: Path) -> list[tuple[int, dict]]:
    from ..io.text import read_jsonl_records

    out = []
    try:
        records = read_jsonl_records(str(path))
    except OSError as e:
        raise InvalidInputError(f"{path}: cannot read ({e.strerror})") from None
    seen: dict[tuple[str, int], int] = {}
    for lineno, rec in records:
        check_record(rec, f"{path}:{lineno}", lineno, seen)
        out.append((lineno, rec))
    if not out:
        raise InvalidInputError(f"{path}: no samples")
    return out


def task_values(path: Path, config: dict, task: str) -> dict[tuple[str, str], list]:
    """``{(metric, filter): [per-document values]}`` in lm-eval's order (filters as the
    records meet them, then the metrics of the config)."""
    return task_values_by_doc(path, config, task)[0]


def task_values_by_doc(path: Path, config: dict, task: str) -> tuple[dict[tuple[str, str], list], dict[str, list]]:
    """:func:`task_values` and, per filter, the records' ``doc_id`` in the same order."""
    records = _records(path)
    metrics = _metric_list(config, task)
    aggregations = dict(metrics)
    by_filter: dict[str, list] = {}
    for lineno, rec in records:
        by_filter.setdefault(rec.get("filter", "none"), []).append((lineno, rec))
    recomputed: dict[str, dict] = {}
    if config.get("output_type") == "multiple_choice" and not config.get("process_results") and any(m in _MC_SCORES for m, _ in metrics):
        from ..metrics.llm.multiple_choice import lm_eval_samples

        delim = config.get("target_delimiter", " ")
        for filt, recs in by_filter.items():
            recomputed[filt] = lm_eval_samples(recs, str(path), target_delimiter=delim if isinstance(delim, str) else " ").recomputed
    own_code = bool(config.get("process_results"))  # the task scores with its own function (MATH's is_equiv...)
    if config.get("output_type") == "generate_until" and not own_code and any(m == "exact_match" for m, _ in metrics):
        for filt, recs in by_filter.items():
            values = _exact_match_values(path, config, filt, recs)
            if values is not None:
                recomputed.setdefault(filt, {})["exact_match"] = values
    if any(m == "prompt_level_strict_acc" for m, _ in metrics):
        from ..metrics.llm.ifeval import lm_eval_ifeval_samples

        for filt, recs in by_filter.items():
            recomputed.setdefault(filt, {}).update(lm_eval_ifeval_samples(recs, str(path)).recomputed)
    out: dict[tuple[str, str], list] = {}
    for filt, recs in by_filter.items():
        for metric, _ in metrics:
            if metric in recomputed.get(filt, {}) and metric in recs[0][1]:
                out[(metric, filt)] = recomputed[filt][metric]
                continue
            values = []
            for lineno, rec in recs:
                if metric not in rec:
                    raise InvalidInputError(f'{path}:{lineno}: missing "{metric}" (the task\'s metric_list names it)')
                values.append(logged_value(rec[metric], aggregations[metric], f"{path}:{lineno}: {metric!r}"))
            out[(metric, filt)] = values
    ids = {filt: [rec["doc_id"] for _, rec in recs] for filt, recs in by_filter.items()}
    return out, ids


def _task_entry(task: str, run: LmEvalRun, iters: int) -> dict:
    config = run.results["configs"][task]
    if not isinstance(config, dict):
        raise InvalidInputError(f"{run.results_path}: configs[{task!r}] is not an object")
    if task not in run.samples:
        raise InvalidInputError(f"{run.results_path.parent}: no samples file for task {task!r} (run lm-eval with --log_samples)")
    path = run.samples[task]
    aggregations = dict(_metric_list(config, task))
    logged = run.results["results"].get(task, {})
    entry: dict[str, Any] = {}
    for key in ("name", "alias"):
        if key in logged:
            entry[key] = logged[key]
    entry.setdefault("alias", config.get("task_alias", task))
    values = task_values(path, config, task)
    sample_len = max((len(v) for v in values.values()), default=0)
    if "sample_len" in logged:
        entry["sample_len"] = sample_len
    for (metric, filt), items in values.items():
        where = f"{path.name}: {metric},{filt}"
        with _naming_the_line(path, metric, filt):
            entry[f"{metric},{filt}"] = _aggregate(aggregations[metric], list(items), where)
            entry[f"{metric}_stderr,{filt}"] = _stderr(aggregations[metric], metric, list(items), iters, where) if iters > 0 else "N/A"
    entry["_sample_len"] = sample_len
    return entry


@contextmanager
def _naming_the_line(path: Path, metric: str, filt: str) -> Iterator[None]:
    """An aggregation's refusal of the n-th value, told as the samples file's line."""
    try:
        yield
    except (InputTypeError, InvalidInputError) as e:
        if str(e).startswith(str(path)):
            raise
        lines = [lineno for lineno, rec in _records(path) if rec.get("filter", "none") == filt]
        item = re.search(r"\bitem (\d+)", str(e))
        at = f"{path}:{lines[int(item.group(1))]}" if item and int(item.group(1)) < len(lines) else str(path)
        raise InvalidInputError(f"{at}: {metric},{filt}: {e}") from None


def _leaves(group: str, subtasks: dict) -> list[str]:
    out: list[str] = []
    for child in subtasks.get(group, []):
        out.extend(_leaves(child, subtasks) if child in subtasks else [child])
    return out


def _bottom_up(subtasks: dict) -> list[str]:
    order: list[str] = []

    def visit(g: str) -> None:
        if g in order:
            return
        for child in subtasks.get(g, []):
            if child in subtasks:
                visit(child)
        order.append(g)

    children = {c for cs in subtasks.values() for c in cs}
    for g in subtasks:
        if g not in children:
            visit(g)
    return order


def _group_entry(group: str, leaves: list[str], logged: dict, tasks: dict, weights: dict) -> dict:
    from ..metrics.llm.lm_eval_stderr import aggregate_subtask_metrics, pooled_sample_stderr, unweighted_mean_stderr

    entry: dict[str, Any] = {k: logged[k] for k in ("alias", "name") if k in logged}
    entry.setdefault("alias", group)
    if "sample_len" in logged:
        entry["sample_len"] = sum(tasks[t]["_sample_len"] for t in leaves if t in tasks)
    counts = {}
    for key in logged:
        metric, _, filt = key.partition(",")
        if not filt or metric.endswith("_stderr"):
            continue
        present = [t for t in leaves if t in tasks and key in tasks[t]]
        vals = [tasks[t][key] for t in present]
        sizes = [tasks[t]["_sample_len"] for t in present]
        stderrs = [tasks[t].get(f"{metric}_stderr,{filt}") for t in present]
        if not vals:
            raise InvalidInputError(f"group {group!r}: no subtask reports {key}")
        weighted = weights.get((group, metric))
        if weighted is None:  # read off the file: the weighting whose value it holds
            plain_only = aggregate_subtask_metrics(vals, sizes, False) == logged[key] != aggregate_subtask_metrics(vals, sizes, True)
            weighted = not plain_only
            weights[(group, metric)] = weighted
        entry[key] = aggregate_subtask_metrics(vals, sizes, weighted)
        counts[key] = sum(sizes)
        if "N/A" not in stderrs and None not in stderrs:
            entry[f"{metric}_stderr,{filt}"] = float(pooled_sample_stderr(stderrs, sizes) if weighted else unweighted_mean_stderr(stderrs))
        else:
            entry[f"{metric}_stderr,{filt}"] = "N/A"
    if "sample_count" in logged:
        entry["sample_count"] = counts
    tasks[group] = {**entry, "_sample_len": entry.get("sample_len", sum(counts.values()))}
    return entry


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def rescore_folder(path: Any, *, bootstrap_iters: int | None = None, group_config: dict | None = None,
                   tasks: list[str] | None = None) -> FolderScores:
    """Rebuild ``results`` / ``groups`` of the run under ``path`` from its samples files.
    ``bootstrap_iters``: the run's own (``config.bootstrap_iters``) unless given.
    ``group_config``: ``{group: {metric: weight_by_size}}`` where the file should not be read."""
    run = find_run(path)
    res = run.results
    iters = bootstrap_iters
    if iters is None:
        iters = (res.get("config") or {}).get("bootstrap_iters", 100000)
        iters = 100000 if iters is None else iters
    if isinstance(iters, bool) or not isinstance(iters, int):
        raise InvalidInputError(f"{run.results_path}: config.bootstrap_iters is not an integer: {iters!r}")
    from ..metrics.llm.lm_eval_stderr import MAX_BOOTSTRAP_ITERS

    if iters > MAX_BOOTSTRAP_ITERS:
        where = "bootstrap_iters" if bootstrap_iters is not None else f"{run.results_path}: config.bootstrap_iters"
        raise InvalidInputError(f"{where}: {iters} is past the {MAX_BOOTSTRAP_ITERS} resamples done here (lm-eval's default is 100000)")
    subtasks = res.get("group_subtasks") or {}
    known = list(res["configs"])
    chosen: list[str] = []
    for t in known if tasks is None else tasks:
        if t in subtasks:  # a group: its leaf tasks
            chosen.extend(leaf for leaf in _leaves(t, subtasks) if leaf not in chosen)
        elif t in res["configs"]:
            if t not in chosen:
                chosen.append(t)
        else:
            raise InvalidInputError(f"unknown task {t!r}; this run has: {', '.join([*subtasks, *known])}")
    entries = {t: _task_entry(t, run, iters) for t in chosen}
    weights = {(g, m): bool(w) for g, ms in (group_config or {}).items() for m, w in ms.items()}
    groups_logged = res.get("groups") or {}
    groups = {}
    for g in _bottom_up(subtasks):
        leaves = _leaves(g, subtasks)
        if g in groups_logged and all(t in entries for t in leaves):
            groups[g] = _group_entry(g, leaves, groups_logged[g], entries, weights)
    results: dict[str, Any] = {}
    for name, logged in res["results"].items():
        if name in groups:
            results[name] = dict(groups[name])
        elif name in entries:
            results[name] = {k: v for k, v in entries[name].items() if k != "_sample_len"}
        elif name in subtasks and all(t in entries for t in _leaves(name, subtasks)):
            results[name] = {k: logged[k] for k in ("name", "alias") if k in logged}
    differences = []
    for section, ours in (("results", results), ("groups", groups)):
        for name, entry in ours.items():
            file_entry = (res.get(section) or {}).get(name, {})
            for key in sorted(set(entry) | set(file_entry)):
                if key not in entry or key not in file_entry or not _same(entry[key], file_entry[key]):
                    differences.append((f"{section}.{name}", key, file_entry.get(key), entry.get(key)))
    return FolderScores(run, results, groups, differences, {f"{g}/{m}": w for (g, m), w in weights.items()})


def choice_counts(run: LmEvalRun, tasks: list[str]) -> dict[str, int]:
    """The number of choices of each multiple-choice task: its config's ``doc_to_choice``
    list, else the requests each logged document made (the same for every document)."""
    out = {}
    for task in tasks:
        config = run.results["configs"].get(task) or {}
        choices = config.get("doc_to_choice")
        if isinstance(choices, list) and choices:
            out[task] = len(choices)
            continue
        if task not in run.samples:
            raise InvalidInputError(f"{run.results_path.parent}: no samples file for task {task!r}, whose number of choices is needed")
        counts = set()
        for lineno, rec in _records(run.samples[task]):
            args = rec.get("arguments")
            if not isinstance(args, (list, dict)) or not args:
                raise InvalidInputError(f'{run.samples[task]}:{lineno}: missing "arguments" (one request per choice)')
            counts.add(len(args))
        if len(counts) != 1:
            raise InvalidInputError(f"{run.samples[task]}: documents with different numbers of choices ({sorted(counts)}): no one random baseline")
        out[task] = counts.pop()
    return out
