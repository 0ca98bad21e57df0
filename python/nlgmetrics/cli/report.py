"""``nlgmetrics report``: one self-contained HTML file.

Text generation: ``report -r REF -i BASELINE SYS1 SYS2 ... -m bleu chrf rouge -o report.html``
(the first system is the baseline of the significance tests; intervals and p-values use
the defaults of ``score --confidence`` and ``compare --paired-bs``, so the report shows
their numbers).

Binary classification: ``report --labels y.txt --scores s1.txt s2.txt -o report.html``
(one value per line; predictions are ``score >= --threshold`` unless ``--predictions``
gives one file per score file), with the numbers of ``nlgmetrics classify``.

The HTML goes to ``-o`` (``-`` for stdout); progress bars and messages go to stderr.
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable

from ..engines.progress import add_flags as add_progress_flags
from .guard import UsageError


def add_parser(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    r = sub.add_parser("report", help="a self-contained HTML report of systems (or classifiers), with plots and significance")
    r.add_argument("-o", "--output", required=True, metavar="HTML", help="the report file ('-' for stdout)")
    r.add_argument("--title", default=None, help="the report's title")
    r.add_argument("--export-dir", default=None, metavar="DIR", help="also write every table as DIR/NAME.csv (exact values) and DIR/NAME.tex (booktabs, as shown); the page itself links the same files")
    r.add_argument("--overwrite", action="store_true", help="replace existing output files that nlgmetrics did not write (and symbolic links, the link itself); without it only files nlgmetrics wrote are replaced. An output is never one of the inputs")
    g = r.add_argument_group("text generation")
    g.add_argument("-r", "--references", action="append", default=[], metavar="REF", help="a reference file (repeat for several references)")
    g.add_argument("-i", "--input", nargs="+", default=None, metavar="HYP", help="system outputs; the first is the baseline")
    g.add_argument("-m", "--metrics", nargs="+", default=["bleu", "chrf"], metavar="METRIC", help="metrics (default: bleu chrf)")
    g.add_argument("--names", nargs="+", default=None, metavar="NAME", help="short names, one per -i file (or per --scores file of a classification report) (default: the distinct part of the file names)")
    g.add_argument("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples for intervals and paired tests (default: 1000)")
    g.add_argument("--seed", type=int, default=12345, help="random seed of the resampling (default: 12345)")
    g.add_argument("--method", choices=["nlgmetrics", "sacrebleu"], default="nlgmetrics", help="resampling of the intervals and paired tests: nlgmetrics (exact sums, Philox draws) or sacrebleu (sacrebleu 2.6's draws and numbers) (default: nlgmetrics)")
    g.add_argument("--alpha", type=float, default=0.05, help="significance level of the markers (default: 0.05)")
    g.add_argument("--top-k", type=int, default=5, help="segments shown per system where it differs most from the baseline (default: 5)")
    c = r.add_argument_group("classification (two or more classes)")
    c.add_argument("--labels", default=None, metavar="FILE", help="true labels, one per line (switches to a classification report)")
    c.add_argument("--scores", nargs="+", default=None, metavar="FILE", help="scores of each classifier: one per line (higher = positive), or one per class (columns in the sorted order of the labels)")
    c.add_argument("--predictions", nargs="+", default=None, metavar="FILE", help="predicted labels, one file per score file (default: score >= --threshold)")
    c.add_argument("--threshold", type=float, default=0.5, help="decision threshold on the scores (default: 0.5)")
    c.add_argument("--pos-label", default=None, help="the positive label (default: 1, or the larger label)")
    add_progress_flags(r)
    common(r)


def _check_outputs(args: argparse.Namespace) -> list[str]:
    """Every output path is checked before any scoring (cli/outputs.py); the inputs it must not be."""
    from .outputs import check_export_dir, check_page, named_files

    inputs = named_files(args)
    check_page(args.output, inputs, args.overwrite)
    if args.export_dir is not None:
        check_export_dir(args.export_dir, inputs)
    return inputs


def _write(args: argparse.Namespace, text: str, out: Any, inputs: list[str]) -> None:
    """The page and the exports, all or none; every path is validated before any is written."""
    from .outputs import check_exports, check_page, export_files, write_all

    files: dict[str, bytes] = {}
    exports: dict[str, bytes] = {}
    if args.export_dir is not None:
        from ..report.export import exports_of

        exports = exports_of(text)
        check_exports(args.export_dir, list(exports), inputs, args.overwrite)
        files = export_files(args.export_dir, exports)
    check_page(args.output, inputs, args.overwrite)  # again: scoring may have taken a while
    if args.output != "-":
        import os

        if os.path.realpath(args.output) in {os.path.realpath(p) for p in files}:
            raise UsageError(f"-o {args.output} is one of the --export-dir files: choose another path")
        files = {args.output: text.encode("utf-8"), **files}
    if files:
        write_all(files, args.export_dir)
    if args.output == "-":
        out.write(text)
    else:
        print(f"nlgmetrics: wrote {args.output}", file=sys.stderr)
    if args.export_dir is not None:
        print(f"nlgmetrics: wrote {len(exports)} table files to {args.export_dir}", file=sys.stderr)


def _classification(args: argparse.Namespace, read_lines: Callable[[str], list[str]]) -> str:
    from ..report import classification_report, render_classification

    if not args.scores:
        raise UsageError("a classification report needs --scores FILE [FILE ...]")
    if len(set(args.scores)) != len(args.scores):
        raise UsageError("each --scores file may be given once")
    if args.names is not None and (len(args.names) != len(args.scores) or len(set(args.names)) != len(args.names)):
        raise UsageError(f"--names: give {len(args.scores)} distinct names, one per --scores file (got {len(args.names)})")
    names = args.names if args.names is not None else args.scores
    preds = None
    if args.predictions is not None:
        if len(args.predictions) != len(args.scores):
            raise UsageError(f"{len(args.predictions)} --predictions files for {len(args.scores)} --scores files")
        preds = {n: read_lines(p) for n, p in zip(names, args.predictions)}
    pos = args.pos_label
    if pos is not None:
        try:
            pos = int(pos)
        except ValueError:
            pass
    rep = classification_report(
        read_lines(args.labels), [(n, read_lines(p)) for n, p in zip(names, args.scores)], predictions=preds,
        threshold=args.threshold, pos_label=pos, n_resamples=args.confidence_n, seed=args.seed, n_threads=args.n_threads,
    )
    return render_classification(rep, **({"title": args.title} if args.title else {}))


def _sentence_metrics(args: argparse.Namespace) -> dict[str, Any]:
    """The metrics as ``score --sentence-level`` builds them from the same flags (BLEU with
    effective order), so the report's segment scores are the ones that command prints."""
    from ..registry import load
    from .checks import ReadRecorder
    from .metric_options import metric_options

    sentence_args = argparse.Namespace(**{**vars(args), "sentence_level": True})
    return {name: load(name, **metric_options(name, ReadRecorder(sentence_args))) for name in args.metrics}


def run(args: argparse.Namespace, out: Any, load_metric: Callable[[str, argparse.Namespace], Any], read_lines: Callable[[str], list[str]], references: Callable[[list[str], int], list[list[str]]]) -> int:
    """``nlgmetrics report``: helpers come from cli/main.py so every command reads files alike."""
    # option ranges (--confidence-n, --top-k, --chunk-size, --alpha) are checked in cli/checks.py
    from ..report.plots import require

    require()  # a missing [report] extra is reported before any scoring
    inputs = _check_outputs(args)
    if args.labels is not None:
        _write(args, _classification(args, read_lines), out, inputs)
        return 0
    from ..engines.progress import enabled
    from ..report import render_text, text_report

    if not args.input:
        raise UsageError("give system outputs with -i BASELINE [SYS ...] (or --labels/--scores for classification)")
    if len(set(args.input)) != len(args.input):
        raise UsageError("each system file may be given once")
    if args.names is not None and (len(args.names) != len(args.input) or len(set(args.names)) != len(args.names)):
        raise UsageError(f"--names: give {len(args.input)} distinct names, one per -i file (got {len(args.names)})")
    systems = [(path, read_lines(path)) for path in args.input]
    refs = references(args.references, len(systems[0][1]))
    metrics = [(name, load_metric(name, args)) for name in args.metrics]
    sentence_metrics = _sentence_metrics(args)
    show = enabled(sys.stderr, args.quiet)
    rep = text_report(
        metrics, systems, refs, n_resamples=args.confidence_n, seed=args.seed, alpha=args.alpha,
        chunk_size=args.chunk_size, show_progress=show, n_threads=args.n_threads,
        method=args.method, names=dict(zip(args.input, args.names)) if args.names is not None else None,
        sentence_metrics=sentence_metrics,
    )
    page = render_text(rep, top_k=args.top_k, show_progress=show, **({"title": args.title} if args.title else {}))
    _write(args, page, out, inputs)
    return 0
