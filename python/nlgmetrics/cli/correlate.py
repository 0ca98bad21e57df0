"""``nlgmetrics correlate``: agreement of a metric with human judgments.

System level: ``--human`` is a TSV of ``system<TAB>score`` (a header line is skipped);
the metric's corpus score of each ``-i`` file is correlated with its human score.
Segment level (``--level segment``): ``--human`` rows are ``system<TAB>line<TAB>score``
(1-based line of the system file); only judged lines are used, grouped by line for
``kendall-like`` and for resampling. System names are the file names unless ``--names``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .extend import ExtendAction
from .resampling_flags import add_resampling_flags
from .jsonout import json_text


# meta.CORRELATIONS, named here so that building the parser imports no NumPy code
_CORRELATIONS = ("pearson", "spearman", "kendall", "kendall-c", "kendall-like", "pairwise-accuracy")


def add_parser(sub: Any, common: Any) -> None:
    c = sub.add_parser("correlate", help="correlate metric scores with human judgments")
    c.add_argument("-r", "--references", action="append", default=[], metavar="REF", help="a reference file (repeat for several references)")
    c.add_argument("-i", "--input", nargs="+", action=ExtendAction, required=True, metavar="HYP", help="system output files")
    c.add_argument("--names", nargs="+", default=None, help="system names matching --human (default: file names)")
    c.add_argument("--human", required=True, help="TSV of human scores (see `nlgmetrics correlate --help`)")
    c.add_argument("-m", "--metrics", nargs="+", action=ExtendAction, default=["bleu"], metavar="METRIC", help="metrics (default: bleu)")
    c.add_argument("--level", choices=["system", "segment"], default="system")
    c.add_argument("--correlation", nargs="+", default=None, choices=_CORRELATIONS, help="pearson, spearman, kendall, kendall-c, kendall-like, pairwise-accuracy (default: pearson; kendall-like at segment level)")
    c.add_argument("--threshold", type=float, default=25.0, help="kendall-like: minimum human score difference of a pair (default: 25)")
    c.add_argument("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples for the interval; 0 = none (default: 1000)")
    c.add_argument("-f", "--format", choices=["text", "json"], default="text")
    c.add_argument("-w", "--width", type=int, default=4)
    add_resampling_flags(c)
    common(c)


def _read_human(path: str, level: str) -> list[list[str]]:
    """Rows of the human-score TSV. A score must be a finite number: a ``nan`` or ``inf``
    judgment is an error naming its line (it would make every correlation NaN). A row may
    be given once: a system (or system and line) judged twice is an error."""
    from ..errors import InvalidInputError
    from ..io.text import read_lines

    want = 2 if level == "system" else 3
    out = []
    seen: dict[tuple[str, ...], int] = {}
    first = True
    for no, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        row = line.split("\t")
        if len(row) != want:
            raise InvalidInputError(f"{path}:{no}: {len(row)} columns, expected {want} (system<TAB>{'line<TAB>' if want == 3 else ''}score)")
        is_header, first = first, False
        try:
            value = float(row[-1])
        except ValueError:
            if is_header:
                continue
            raise InvalidInputError(f"{path}:{no}: {row[-1]!r} is not a number") from None
        if not math.isfinite(value):
            raise InvalidInputError(f"{path}:{no}: the human score {row[-1]!r} is not a finite number")
        if want == 3:
            try:
                row[1] = str(int(row[1]))
            except ValueError:
                raise InvalidInputError(f"{path}:{no}: line number {row[1]!r} is not an integer") from None
        key = tuple(row[:-1])
        if key in seen:
            raise InvalidInputError(f"{path}:{no}: {' line '.join(key)} was already scored on line {seen[key]}")
        seen[key] = no
        out.append(row)
    if not out:
        raise InvalidInputError(f"{path}: no human scores")
    return out


def run(args: argparse.Namespace, out, load_metric, read_lines, references) -> int:
    from ..errors import InvalidInputError
    from ..engines.meta import segment_level, system_level

    from .guard import UsageError

    names = args.names or [os.path.basename(p) for p in args.input]
    if len(names) != len(args.input):
        raise UsageError(f"{len(names)} --names for {len(args.input)} system files")
    if len(set(names)) != len(names):
        raise UsageError("two systems have the same name: give --names")
    if args.level == "system" and "kendall-like" in (args.correlation or []):
        raise UsageError("--correlation kendall-like is a segment-level statistic: add --level segment")
    texts = {n: read_lines(p) for n, p in zip(names, args.input)}
    n_lines = len(next(iter(texts.values())))
    refs = references(args.references, n_lines)
    human = _read_human(args.human, args.level)
    default = "pearson" if args.level == "system" else "kendall-like"
    results = []
    for metric_name in args.metrics:
        metric = load_metric(metric_name, args)
        stats = {}
        for n, hyps in texts.items():
            if len(hyps) != n_lines:
                raise InvalidInputError(f"system {n!r} has {len(hyps)} lines but the references have {n_lines}")
            stats[n] = metric.stats(hyps, refs)
        for corr in args.correlation or [default]:
            if args.level == "system":
                scores = {row[0]: float(row[1]) for row in human}
                res = system_level(metric, {n: s for n, s in stats.items() if n in scores}, scores, correlation=corr, n_resamples=args.confidence_n, seed=args.seed, n_threads=args.n_threads)
            else:
                sent = {n: metric._sentence_scores(s) for n, s in stats.items()}
                m, h, g = [], [], []
                for sys_name, line, score in human:
                    if sys_name not in sent:
                        continue
                    i = int(line) - 1
                    if not 0 <= i < n_lines:
                        raise InvalidInputError(f"{args.human}: line number {line} outside 1..{n_lines}")
                    m.append(sent[sys_name][i]), h.append(float(score)), g.append(i)
                if not m:
                    raise InvalidInputError(f"{args.human}: no judged line belongs to a given system ({', '.join(sent)})")
                res = segment_level(m, h, groups=g, correlation=corr, threshold=args.threshold, n_resamples=args.confidence_n, seed=args.seed, n_threads=args.n_threads)
            sig = metric.signature(next(iter(stats.values())).total()).format()  # the metric's scores the correlation is of
            results.append({"metric": metric.name, **res.to_dict(), "signature": sig})
    if args.format == "json":
        out.write(json_text(results, indent=1) + "\n")
        return 0
    w = args.width
    for r in results:
        ci = f" [{r['lower']:.{w}f}, {r['upper']:.{w}f}]" if r["lower"] is not None else ""
        out.write(f"{r['metric']}\t{r['level']}\t{r['correlation']}\t{r['value']:.{w}f}{ci}\tn={r['n']}\n")
    if any(r["lower"] is not None for r in results) and sys.stderr is not None:  # which resampler made the intervals, in words
        unit = "segments" if args.level == "system" else "items (source segments)"
        sys.stderr.write(f"95% CI: nlgmetrics' percentile bootstrap over {unit} (Philox draws, seed {args.seed}); "
                         "not sacrebleu's bootstrap, which intervals a score, not a correlation\n")
    return 0
