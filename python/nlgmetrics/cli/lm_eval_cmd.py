"""``nlgmetrics lm-eval OUTPUT_DIR``: an lm-evaluation-harness output folder re-scored from
its samples files.

    nlgmetrics lm-eval out/                      # lm-eval's tables, rebuilt
    nlgmetrics lm-eval out/ -f json              # results / groups key by key, + signature
    nlgmetrics lm-eval out/ --check              # exit 1 when a key differs from results_*.json
    nlgmetrics lm-eval out/ --preset open-llm-leaderboard-v2

The tables are lm-eval's ``make_table`` (``Tasks|Version|Filter|n-shot|Metric| |Value| |Stderr``,
values ``%.4f``, pytablewriter's Markdown: text left, numbers right, columns padded).
"""

from __future__ import annotations

import argparse
import math

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

HELP = "re-score an lm-evaluation-harness output folder from its samples files (its table, results and groups)"
PRESETS = ("open-llm-leaderboard-v2",)


def add_parser(sub: Any) -> None:
    c = sub.add_parser("lm-eval", help=HELP)
    c.add_argument("output_dir", metavar="OUTPUT_DIR", help="lm-eval's --output_path (or its model folder, or a results_*.json)")
    c.add_argument("-t", "--tasks", nargs="+", default=None, help="re-score these tasks only (default: every task of the run)")
    c.add_argument("--bootstrap-iters", dest="bootstrap_iters", type=int, default=None,
                   help="resamples of the bootstrap stderr (default: the run's own config.bootstrap_iters; 0: none)")
    c.add_argument("--check", action="store_true", help="exit 1 (one line per differing key on stderr) unless every key equals results_*.json")
    c.add_argument("--preset", choices=PRESETS, default=None, help="open-llm-leaderboard-v2: the leaderboard's normalised task scores and their average")
    c.add_argument("--compare", metavar="OTHER_DIR", default=None, help="paired significance of OUTPUT_DIR (A) against another run (B) on the same documents, per task, paired on doc_id")
    c.add_argument("--test", choices=["bs", "ar"], default="bs", help="with --compare: paired bootstrap (default) or approximate randomisation")
    c.add_argument("--n-samples", dest="n_samples", type=int, default=None, help="with --compare: resamples (bs, default 1000) or trials (ar, default 10000)")
    c.add_argument("--seed", type=int, default=12345, help="with --compare: the resampling seed (default 12345)")
    c.add_argument("-f", "--format", choices=["table", "json"], default="table", help="table: lm-eval's Markdown tables (default); json: results / groups and the signature")


def _cell(value: Any) -> tuple[str, bool]:
    """(text, is a number) as pytablewriter sees a cell: a float with no fraction prints as
    an integer (lm-eval's ``1.0`` versions show ``1``), a numeric string stays as written."""
    if isinstance(value, bool):
        return str(value), False
    if isinstance(value, int):
        return str(value), True
    if isinstance(value, float):
        return (str(int(value)) if value.is_integer() else repr(value)), math.isfinite(value)
    text = str(value)
    try:
        return text, math.isfinite(float(text)) and text == text.strip()
    except ValueError:
        return text, False


def _width(text: str) -> int:
    """Display columns: wide and full-width East Asian characters count two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def markdown(headers: list[str], rows: list[list[Any]]) -> str:
    """pytablewriter's ``MarkdownTableWriter.dumps()`` for lm-eval's cells."""
    cells = [[_cell(v) for v in row] for row in rows]
    ncol = len(headers)
    numeric = [bool(cells) and all(r[j][1] or r[j][0] == "" for r in cells) and any(r[j][1] for r in cells) for j in range(ncol)]
    widths = [max([3, _width(headers[j])] + [_width(r[j][0]) for r in cells]) for j in range(ncol)]

    def pad(text: str, j: int, right: bool) -> str:
        fill = " " * (widths[j] - _width(text))
        return fill + text if right else text + fill

    def centre(text: str, j: int) -> str:
        room = widths[j] - _width(text)
        return " " * (room // 2) + text + " " * (room - room // 2)

    head = "|" + "|".join(centre(h, j) for j, h in enumerate(headers)) + "|"
    rule = "|" + "|".join("-" * (widths[j] - 1) + ":" if numeric[j] else "-" * widths[j] for j in range(ncol)) + "|"
    body = ["|" + "|".join(pad(t, j, isnum) for j, (t, isnum) in enumerate(r)) + "|" for r in cells]
    return "\n".join([head, rule, *body]) + "\n"


def _hierarchy(group_subtasks: dict, keys: list[str]) -> tuple[dict[str, int], list[str]]:
    depth: dict[str, int] = {}
    ordered: list[str] = []
    available = set(keys)

    def visit(name: str, d: int) -> None:
        depth[name] = d
        if name in available:
            ordered.append(name)
        for child in sorted(group_subtasks.get(name, [])):
            visit(child, d + 1)

    children = {c for cs in group_subtasks.values() for c in cs}
    for name in sorted(group_subtasks):
        if name not in children:
            visit(name, 0)
    ordered.extend(k for k in sorted(available) if k not in depth)
    return depth, ordered


def make_table(section: dict, results_file: dict, column: str = "results") -> str:
    """lm-eval's ``utils.make_table`` of ``section`` (our rebuilt results or groups), its
    versions, n-shot and higher_is_better read from the results file."""
    headers = ["Groups" if column == "groups" else "Tasks", "Version", "Filter", "n-shot", "Metric", "", "Value", "", "Stderr"]
    depth, keys = _hierarchy(results_file.get("group_subtasks", {}), list(section))
    rows = []
    for k in keys:
        dic = dict(section[k])
        version = results_file.get("versions", {}).get(k, "    N/A")
        n = str(results_file.get("n-shot", {}).get(k, " "))
        hib = results_file.get("higher_is_better", {}).get(k, {})
        name = dic.pop("alias", k)
        for drop in ("name", "sample_len", "sample_count"):
            dic.pop(drop, None)
        if depth.get(k, 0) > 0:
            name = " " * depth[k] + "- " + name
        first = True
        for mf, v in sorted(dic.items()):
            m, _, f = mf.partition(",")
            if m.endswith("_stderr"):
                continue
            arrow = {True: "↑", False: "↓"}.get(hib.get(m), "")
            v = f"{v:.4f}" if isinstance(v, float) else v
            label, ver = (name, version) if first else ("", "")
            se_key = m + "_stderr" + "," + f
            if se_key in dic:
                se = dic[se_key]
                se = "   N/A" if se == "N/A" else f"{se:.4f}"
                rows.append([label, ver, f, n, m, arrow, v, "±", se])
            else:
                rows.append([label, ver, f, n, m, arrow, v, "", ""])
            first = False
    return markdown(headers, rows)


def run(args: argparse.Namespace, out, err) -> int:
    from ..tasks.lm_eval_folder import REFERENCE, rescore_folder

    from .guard import UsageError

    from ..metrics.llm.lm_eval_stderr import MAX_BOOTSTRAP_ITERS

    if args.bootstrap_iters is not None and not 0 <= args.bootstrap_iters <= MAX_BOOTSTRAP_ITERS:
        raise UsageError(f"--bootstrap-iters must be between 0 and {MAX_BOOTSTRAP_ITERS}, got {args.bootstrap_iters}")
    if args.compare is not None:
        if args.preset is not None or args.check:
            raise UsageError("--compare does not combine with --preset or --check")
        return _compare(args, out)
    scores = rescore_folder(args.output_dir, bootstrap_iters=args.bootstrap_iters, tasks=args.tasks)
    iters = args.bootstrap_iters if args.bootstrap_iters is not None else (scores.run.results.get("config") or {}).get("bootstrap_iters", 100000)
    from .. import __version__

    signature = f"lm-eval-folder|ref:{REFERENCE}|bootstrap_iters:{iters}|version:{__version__}"
    if args.preset is not None:
        from ..tasks.lm_eval_folder import choice_counts
        from ..tasks.open_llm_leaderboard import SOURCE, leaderboard_scores

        subtasks = [t for t in scores.results if t.startswith(("leaderboard_bbh_", "leaderboard_musr_"))]
        board = leaderboard_scores(scores.results, choice_counts(scores.run, subtasks))
        if args.format == "json":
            from .jsonout import json_text

            out.write(json_text({"preset": args.preset, "scores": board, "signature": signature + "|preset:" + args.preset, "source": SOURCE}, indent=2) + "\n")
        else:
            width = max(len(k) for k in board)
            out.write("".join(f"{k:<{width}}  {v:8.4f}\n" for k, v in board.items()))
    elif args.format == "json":
        from .jsonout import json_text

        doc: dict[str, Any] = {"results": scores.results}
        if scores.groups:
            doc["groups"] = scores.groups
        doc["differences"] = [{"where": w, "key": k, "file": a, "rescored": b} for w, k, a, b in scores.differences]
        doc["signature"] = signature
        out.write(json_text(doc, indent=2) + "\n")
    else:
        out.write(make_table(scores.results, scores.run.results))
        if scores.groups:
            out.write("\n" + make_table(scores.groups, scores.run.results, "groups"))
    if args.check and scores.differences:
        for where, key, a, b in scores.differences:
            err.write(f"{where}: {key}: results file {a!r}, re-scored {b!r}\n")
        return 1
    return 0


def _compare(args: argparse.Namespace, out) -> int:
    from ..tasks.lm_eval_compare import compare_folders

    from .guard import UsageError

    if args.n_samples is not None and args.n_samples < 1:
        raise UsageError(f"--n-samples must be >= 1, got {args.n_samples}")
    rows, skipped = compare_folders(args.output_dir, args.compare, test=args.test, n_samples=args.n_samples, seed=args.seed, tasks=args.tasks)
    if args.format == "json":
        from .jsonout import json_text

        signature = rows[0].signature if rows else None
        out.write(json_text({"comparisons": [r.to_dict() for r in rows], "skipped": skipped, "signature": signature}, indent=2) + "\n")
        return 0
    headers = ["Tasks", "Filter", "Metric", "A", "B", "p-value", "paired", "A only", "B only"]
    table = [[r.task, r.filter, r.metric, f"{r.score_a:.4f}", f"{r.score_b:.4f}", f"{r.p_value:.4f}", r.n_paired, r.only_a, r.only_b] for r in rows]
    out.write(markdown(headers, table))
    for line in skipped:
        out.write(f"skipped: {line}\n")
    if rows:
        out.write(f"paired {'bootstrap' if args.test == 'bs' else 'approximate randomisation'}: {rows[0].signature}\n")
    return 0
