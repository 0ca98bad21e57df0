"""``nlgmetrics compare`` (paired significance tests) and ``score --confidence``.

``compare -r REF -i BASELINE SYS1 SYS2 ... -m bleu --paired-bs|--paired-ar`` prints the
table sacrebleu prints (``-f text``: a box-drawn grid; ``latex``: booktabs; ``json``:
sacrebleu's list of ``{"system", "<metric>": {score, p_value, mean, ci}}``), then the
signatures. The explanation of the test (sacrebleu prints it on stdout) goes to stderr:
stdout carries data only.
"""

from __future__ import annotations

import argparse
import sys

from .extend import ExtendAction
from .jsonout import json_text
from .resampling_flags import add_confidence_flags, add_resampling_flags  # noqa: F401 - compare's flags, and score's

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Sequence

    from ..engines.significance import ConfidenceInterval, PairedTestResult


def add_parser(sub: Any, common: Any) -> None:
    """Register ``compare``; ``common(parser)`` adds the shared metric flags."""
    c = sub.add_parser("compare", help="paired significance tests of systems against a baseline")
    c.add_argument("-r", "--references", action="append", default=[], metavar="REF", help="a reference file (repeat for several references)")
    c.add_argument("-i", "--input", nargs="+", action=ExtendAction, required=True, metavar="HYP", help="baseline system output, then the systems to compare with it")
    c.add_argument("-m", "--metrics", nargs="+", action=ExtendAction, default=["bleu"], metavar="METRIC", help="metrics to compare (default: bleu)")
    c.add_argument("-f", "--format", choices=["text", "json", "latex"], default="text", help="output format (default: text)")
    c.add_argument("-w", "--width", type=int, default=1, help="decimal places (default: 1, as sacrebleu)")
    c.add_argument("--short", action="store_true", help="short signatures")
    test = c.add_mutually_exclusive_group(required=True)
    test.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling")
    test.add_argument("--paired-ar", "-par", action="store_true", help="paired approximate randomization")
    c.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, help="bootstrap resamples (default: 1000)")
    c.add_argument("--paired-ar-n", "-parn", type=int, default=10000, help="randomization trials (default: 10000)")
    add_resampling_flags(c)
    from ..engines.progress import add_flags as add_progress_flags  # progress bars (--quiet)

    add_progress_flags(c, chunk_size=False)
    common(c)


# -- score --confidence -----------------------------------------------------------------
def confidence(metric: Any, hyps: list[str], refs: list[list[str]], args: argparse.Namespace) -> "ConfidenceInterval":
    from ..engines.significance import bootstrap_ci

    return bootstrap_ci(
        metric, metric.stats(hyps, refs), n_resamples=args.confidence_n, seed=args.seed,
        method=args.method, resampling=args.resampling, n_threads=args.n_threads,
    )


def decorate(d: dict[str, Any], ci: "ConfidenceInterval", args: argparse.Namespace) -> None:
    """Put the interval into one ``score`` result row (text, JSON and signature)."""
    w = args.width
    number = f"{ci.score.score:.{w}f}"
    conf = f"μ = {ci.mean:.{w}f} ± {ci.ci:.{w}f}"
    d["_text"] = d["_text"].replace(number, f"{number} ({conf})", 1)
    if not args.score_only:  # which resampler made the interval, in words (not only the signature's resampling:philox)
        from .resampling_flags import method_words

        d["_text"] += f"\n95% CI: {method_words(args.method, args.resampling)}"
        d["confidence_method"] = "sacrebleu-2.6" if args.method == "sacrebleu" else f"nlgmetrics-{args.resampling}"
    d["signature"] = ci.signature.format(short=args.short)
    d["signature_fields"] = ci.signature.as_dict()
    d.update(confidence_mean=ci.mean, confidence_ci=ci.ci, confidence_lower=ci.lower, confidence_upper=ci.upper, confidence=conf)


# -- compare ---------------------------------------------------------------------------
def run(args: argparse.Namespace, out, load_metric, read_lines, references) -> int:
    """``nlgmetrics compare``: helpers come from cli/main.py so both share file handling."""
    from ..errors import NlgMetricsError
    from ..engines.progress import display_names, wrap
    from ..engines.significance import paired_test_stats
    from .guard import UsageError

    if len(args.input) < 2:
        raise UsageError("compare needs a baseline and at least one system: -i BASELINE SYS [SYS ...]")
    if len(set(args.input)) != len(args.input):
        raise UsageError("each system file may be given once")
    systems = [(path, read_lines(path)) for path in args.input]
    refs = references(args.references, len(systems[0][1]))
    test = "bs" if args.paired_bs else "ar"
    n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    shown = display_names([path for path, _ in systems])  # the bars' labels, as the report's
    results = []
    for name in args.metrics:
        metric = load_metric(name, args)
        stats = []
        for path, hyps in systems:
            if len(hyps) != len(refs):
                raise NlgMetricsError(f"{path} has {len(hyps)} lines but the references have {len(refs)}")
            ((_, extracting),) = wrap([(name, metric)], args, shown[path])  # chunked behind a bar on a terminal
            stats.append((path, extracting.stats(hyps, refs)))
        results.append(
            paired_test_stats(
                metric, (f"Baseline: {stats[0][0]}", stats[0][1]), stats[1:], test=test, n_samples=n,
                seed=args.seed, method=args.method,
                resampling=args.resampling if test == "bs" else "multinomial", n_threads=args.n_threads,
            )
        )
    out.write(format_paired(results, fmt=args.format, width=args.width, short=args.short))
    if args.format != "json":
        sys.stderr.write(explanation(results[0], test, n, args.method, args.resampling))
    return 0


def _cell(r: Any, width: int, multiline: bool) -> str:
    s = f"{r.score:.{width}f}"
    if r.mean is not None:
        s += f" ({r.mean:.{width}f} ± {r.ci:.{width}f})"
    if r.p_value is not None:
        p = f"(p = {r.p_value:.4f})"
        s += ("\n" if multiline else " ") + (p if r.p_value > 0.05 else p + "*")
    return s


def format_paired(results: Sequence["PairedTestResult"], fmt: str = "text", width: int = 1, short: bool = False) -> str:
    """sacrebleu's multi-system table for one or more metrics' paired tests."""
    names = [r.name for r in results[0].systems]
    if fmt == "json":
        rows = []
        for i, name in enumerate(names):
            row: dict[str, Any] = {"system": name}
            for res in results:  # each metric's numbers with the signature they were made under
                row[res.metric] = {**res.systems[i].to_dict(), "signature": res.signature.format(short=short)}
            rows.append(row)
        return json_text(rows, indent=4) + "\n"
    multiline = fmt == "text"
    headers = ["System"]
    columns = [names]
    for res in results:
        boot = any(s.mean is not None for s in res.systems)
        headers.append(res.metric + (" (μ ± 95% CI)" if boot else ""))
        columns.append([_cell(s, width, multiline) for s in res.systems])
    rows = [list(r) for r in zip(*columns)]
    table = latex_booktabs(headers, rows) if fmt == "latex" else fancy_grid(headers, rows)
    sigs = "".join(f" - {res.metric:<10} {res.signature.format(short=short)}\n" for res in results)
    return table + "\n\n-----------------\nMetric signatures\n-----------------\n" + sigs


def _pad(s: str, width: int, align: str) -> str:
    extra = width - len(s)
    if align == "right":
        return " " * extra + s
    left = extra // 2
    return " " * left + s + " " * (extra - left)


def _widths(headers: list[str], rows: list[list[str]]) -> list[int]:
    return [
        max([len(h) + 2] + [len(line) for row in rows for line in row[j].split("\n")])
        for j, h in enumerate(headers)
    ]


def fancy_grid(headers: list[str], rows: list[list[str]]) -> str:
    """A box-drawn grid (first column right-aligned, others centred; multi-line cells)."""
    w = _widths(headers, rows)
    aligns = ["right"] + ["center"] * (len(headers) - 1)

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (x + 2) for x in w) + right

    def line(cells: list[str]) -> list[str]:
        split = [c.split("\n") for c in cells]
        height = max(len(s) for s in split)
        return [
            "│" + "│".join(" " + _pad(s[k] if k < len(s) else "", w[j], aligns[j]) + " " for j, s in enumerate(split)) + "│"
            for k in range(height)
        ]

    out = [rule("╒", "═", "╤", "╕"), *line(headers), rule("╞", "═", "╪", "╡")]
    for i, row in enumerate(rows):
        out += line(row)
        out.append(rule("├", "─", "┼", "┤") if i < len(rows) - 1 else rule("╘", "═", "╧", "╛"))
    return "\n".join(out)


_LATEX_ESCAPES = {
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "^": r"\^{}", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "\\": r"\textbackslash{}", "<": r"\ensuremath{<}", ">": r"\ensuremath{>}",
}


def latex_booktabs(headers: list[str], rows: list[list[str]]) -> str:
    """A booktabs ``tabular`` (special characters escaped)."""
    w = _widths(headers, rows)
    aligns = ["right"] + ["center"] * (len(headers) - 1)

    def line(cells: list[str]) -> str:
        padded = [" " + _pad(c, w[j], aligns[j]) + " " for j, c in enumerate(cells)]
        return "&".join("".join(_LATEX_ESCAPES.get(ch, ch) for ch in c) for c in padded) + "\\\\"

    spec = "r" + "c" * (len(headers) - 1)
    body = [line(r) for r in rows]
    return "\n".join([f"\\begin{{tabular}}{{{spec}}}", "\\toprule", line(headers), "\\midrule", *body, "\\bottomrule", "\\end{tabular}"])


def explanation(result: "PairedTestResult", test: str, n: int, method: str = "sacrebleu", resampling: str = "multinomial") -> str:
    """sacrebleu's description of the test, for people (written to stderr), and which
    resampler ran it (``method``)."""
    from .resampling_flags import method_words

    kind, unit = ("bootstrap resampling", "resampling trials") if test == "bs" else ("approximate randomization", "trials")
    msg = f"Paired {kind} test with {n} {unit}"
    what = (
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if test == "bs" else "   Actual system score is provided for each metric."
    )
    return "\n".join([
        "", "-" * len(msg), msg, "-" * len(msg),
        f" - Each system is pairwise compared to {result.baseline.name}.", what, "",
        f" - Resampling: {method_words(method, resampling if test == 'bs' else 'multinomial', kind)}.", "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis is correct.", "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        '   to chance, hence the system is significantly "different" than the baseline.', "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.', "",
    ])
