"""Argument parsing and dispatch for ``nlgmetrics score`` and ``nlgmetrics list``.

Exit statuses and error lines are decided in one place, :mod:`.guard`; usage checks made
before any input is read (ranges, options that do not apply) live in :mod:`.checks`.
"""

from __future__ import annotations

import argparse
import errno
import functools
import sys
from typing import Any, Sequence

from .. import __version__
from ..errors import NlgMetricsError
from ..io.chunks import parse_jsonl_record
from ..io.text import read_lines
from ..registry import available, load
from .options import OPTION_SETS
from . import checks
from . import compare, correlate  # significance & meta-evaluation subcommands
from . import data_to_text  # tables for PARENT
from . import stream as stream_cli  # streaming: --chunk-size, --scheduler
from .guard import UsageError, guarded
from .jsonout import json_text

__all__ = ["UsageError", "build_parser", "main", "subparsers"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print usage and exit 2 itself
        raise UsageError(message)


# Every subcommand, in the order `nlgmetrics --help` lists them.
COMMANDS = ("score", "compare", "correlate", "list", "classify", "coco", "report", "sacrebleu")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (a name in :data:`COMMANDS`), with that
    subcommand alone: a run needs only its own, and building the others imports their
    modules (numpy for ``classify``), which would dominate a short run's start-up."""
    p = _Parser(prog="nlgmetrics", description="Exact, fast text-generation metrics.")
    p.add_argument("--version", "-V", action="version", version=f"nlgmetrics {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    if only in (None, "score"):
        _add_score_parser(sub)
    # --- significance & meta-evaluation: compare, correlate (cli/compare.py, cli/correlate.py) ---
    if only in (None, "compare"):
        compare.add_parser(sub, _add_shared_metric_flags)
    if only in (None, "correlate"):
        correlate.add_parser(sub, _add_shared_metric_flags)
    # ---
    if only in (None, "list"):
        sub.add_parser("list", help="list metrics, flavours and tokenizers")
    # --- classification: `nlgmetrics classify` (code in cli/classify.py) ---
    if only in (None, "classify"):
        from .classify import add_parser as _add_classify_parser

        _add_classify_parser(sub)
    # --- end classification ---
    # --- coco subcommand (captioning family) ---
    if only in (None, "coco"):
        from .coco import add_parser as _add_coco

        _add_coco(sub)
    # --- end coco ---
    # --- report subcommand (HTML report, cli/report.py) ---
    if only in (None, "report"):
        from .report import add_parser as _add_report

        _add_report(sub, _add_shared_metric_flags)
    # --- end report ---
    # sacrebleu's own command line (cli/sacrebleu_cli.py parses the rest)
    if only in (None, "sacrebleu"):
        sub.add_parser("sacrebleu", help="sacrebleu 2.6's command line, byte-identical output", add_help=False)
    return p


def _add_score_parser(sub: Any) -> None:
    s = sub.add_parser("score", help="score system outputs against references")
    s.add_argument("-r", "--references", action="append", default=[], metavar="REF", help="a reference file (repeat for several references)")
    s.add_argument("-i", "--input", nargs="+", default=None, metavar="HYP", help="system output file(s); stdin when absent")
    s.add_argument("--jsonl", default=None, metavar="FILE", help='JSON lines with "prediction" and "references" (instead of -r/-i)')
    s.add_argument("-m", "--metrics", nargs="+", default=["bleu"], metavar="METRIC", help="metrics to compute (default: bleu)")
    s.add_argument("-f", "--format", choices=["text", "json", "tsv"], default="text", help="output format (default: text)")
    s.add_argument("-tok", "--tokenize", default=None, help="tokenizer for the metrics that take one")
    s.add_argument("-lc", "--lowercase", action="store_true", help="lowercase BLEU (as sacrebleu: chrF takes --chrf-lowercase, TER --ter-case-sensitive), PER, NIST and diversity")
    s.add_argument("-tl", "--trg-lang", default="", help="target language (picks zh/ja/ko tokenizers as sacrebleu does)")
    s.add_argument("--sentence-level", "-sl", action="store_true", help="one result per segment (JSON lines with --format json)")
    s.add_argument("-w", "--width", type=int, default=2, help="decimal places (default: 2)")
    s.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    s.add_argument("--short", action="store_true", help="short signatures")
    s.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")
    for opts in OPTION_SETS.values():
        opts.add(s.add_argument_group(f"{opts.metric} options"))
    compare.add_confidence_flags(s)  # --- significance: score --confidence ---
    from ..progress import add_flags as _add_progress_flags  # progress bars (--quiet)

    _add_progress_flags(s, chunk_size=False)  # score's --chunk-size streams (cli/stream.py)
    stream_cli.add_flags(s)  # --- streaming: score --chunk-size / --scheduler ---


def _read_jsonl(path: str) -> tuple[list[str], list[list[str]]]:
    preds: list[str] = []
    refs: list[list[str]] = []
    for lineno, line in enumerate(read_lines(path), 1):
        record = parse_jsonl_record(line, f"{path}:{lineno}")
        if record is not None:
            preds.append(record[0])
            refs.append(record[1])
    return preds, refs


def _add_shared_metric_flags(p: argparse.ArgumentParser) -> None:
    """The metric flags of ``score`` for other subcommands (compare, correlate)."""
    p.add_argument("-tok", "--tokenize", default=None, help="tokenizer for the metrics that take one")
    p.add_argument("-lc", "--lowercase", action="store_true", help="lowercase BLEU (as sacrebleu: chrF takes --chrf-lowercase), PER, NIST and diversity")
    p.add_argument("-tl", "--trg-lang", default="", help="target language (picks zh/ja/ko tokenizers as sacrebleu does)")
    p.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")
    p.set_defaults(sentence_level=False)
    for opts in OPTION_SETS.values():
        opts.add(p.add_argument_group(f"{opts.metric} options"))


def _read_systems(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    if args.input:
        return [(path, read_lines(path)) for path in args.input]
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("no system output: give -i FILE or pipe it on stdin")
    return [("-", read_lines("-"))]


def _references(paths: list[str], n_lines: int) -> list[list[str]]:
    if not paths:
        raise UsageError("no reference given: use -r REF (repeat for several references)")
    streams = [read_lines(p) for p in paths]
    for path, stream in zip(paths, streams):
        if len(stream) != n_lines:
            raise NlgMetricsError(f"{path} has {len(stream)} lines but the system output has {n_lines}")
    from .._inputs import references_from_streams  # one reference file per stream: oriented by construction

    return references_from_streams(streams)


def _metric_options(name: str, args: Any) -> dict[str, Any]:
    opts = OPTION_SETS[name].collect(args) if name in OPTION_SETS else {}
    opts["n_threads"] = args.n_threads
    return opts


def _corpus_only(metric: Any) -> bool:
    """Metrics without per-segment statistics (Self-BLEU scores the set as a whole)."""
    from ..metrics.base import Metric

    return not isinstance(metric, Metric)


def _check_capabilities(command: str, args: argparse.Namespace, metrics: list[tuple[str, Any]]) -> None:
    """Modes a metric cannot run in are usage errors before any input is read."""
    streaming = command == "score" and stream_cli.wanted(args)
    for name, metric in metrics:
        if _corpus_only(metric):  # `report` shows such metrics without intervals
            if command in ("compare", "correlate"):
                raise UsageError(f"{name} gives one corpus score without per-segment statistics: `{command}` cannot use it")
            if command != "score":
                continue
            for wanted, flag in ((args.sentence_level, "--sentence-level"), (args.confidence, "--confidence"), (streaming, "--chunk-size/--scheduler")):
                if wanted:
                    raise UsageError(f"{name} gives one corpus score without per-segment statistics: drop {flag}")
        if data_to_text.needs_tables(metric) and (command != "score" or streaming):
            what = f"`{command}`" if command != "score" else "--chunk-size/--scheduler"
            raise UsageError(f"{name} also reads the input tables (score --jsonl only): {what} cannot use it")


def build_metrics(command: str, parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """The metric objects of ``-m``, built before any input is read, so that unknown
    metrics, bad options and options the chosen metrics do not read are usage errors."""
    args.metrics = [name.lower() for name in args.metrics]  # as the registry: -m BLEU is bleu, with its flags
    recorder = checks.ReadRecorder(args)
    built: dict[str, Any] = {}
    for name in dict.fromkeys(args.metrics):
        built[name] = load(name, **_metric_options(name, recorder))
    checks.check_metric_flags(parser, args, recorder.read)
    _check_capabilities(command, args, list(built.items()))
    return built


def _inputs(args: argparse.Namespace) -> list[tuple[str, list[str], list[list[str]]]]:
    if args.jsonl:
        if args.references or args.input:
            raise UsageError("--jsonl replaces -r/-i; give one or the other")
        preds, refs = _read_jsonl(args.jsonl)
        return [(args.jsonl, preds, refs)]
    systems = _read_systems(args)
    refs = _references(args.references, len(systems[0][1]))
    for name, hyps in systems[1:]:
        if len(hyps) != len(refs):
            raise NlgMetricsError(f"{name} has {len(hyps)} lines but the references have {len(refs)}")
    return [(name, hyps, refs) for name, hyps in systems]


def _score(args: argparse.Namespace, out, built: dict[str, Any]) -> int:
    if args.confidence and args.sentence_level:  # significance
        raise UsageError("--confidence needs corpus-level scores; drop --sentence-level")
    metrics = [(name, built[name]) for name in args.metrics]
    from ..progress import wrap as _with_progress  # chunked extraction behind a progress bar; same numbers

    if stream_cli.wanted(args):  # streaming: bounded memory, optionally on a Dask cluster
        _emit(args, stream_cli.run(args, metrics, UsageError), out)
        return 0
    metrics = _with_progress(metrics, args)
    results: list[dict[str, Any]] = []
    for sys_name, hyps, refs in _inputs(args):
        for name, metric in metrics:
            if data_to_text.needs_tables(metric):  # data-to-text: PARENT reads tables too
                results.extend(data_to_text.score(metric, sys_name, hyps, refs, args))
                continue
            if args.sentence_level:
                # JSON rows carry every part of the segment's score as named fields (rouge1_recall, ...)
                parts = metric.sentence_parts(hyps, refs) if args.format == "json" else {"score": metric.sentence_scores(hyps, refs)}
                sig = metric.signature(metric.stats(hyps[:1], refs[:1]).total()).format(short=args.short) if hyps else ""
                for i, value in enumerate(parts["score"]):
                    row = {"system": sys_name, "segment": i + 1, "metric": metric.name, "score": float(value), "signature": sig}
                    row.update({k: float(v[i]) for k, v in parts.items() if k != "score"})
                    results.append(row)
                continue
            ci = compare.confidence(metric, hyps, refs, args) if args.confidence else None  # significance
            score = ci.score if ci is not None else metric.corpus_score(hyps, refs)
            d = score.to_dict()
            d["system"] = sys_name
            d["signature"] = score.signature.format(short=args.short)
            d["_text"] = score.format(width=args.width, score_only=args.score_only)
            if ci is not None:  # significance
                compare.decorate(d, ci, args)
            results.append(d)
    _emit(args, results, out)
    return 0


def _emit(args: argparse.Namespace, results: list[dict[str, Any]], out) -> None:
    if args.sentence_level:
        for r in results:
            if args.format == "json":
                out.write(json_text(r) + "\n")
            elif args.format == "tsv":
                out.write(f"{r['system']}\t{r['segment']}\t{r['metric']}\t{r['score']:.{args.width}f}\n")
            else:
                out.write(f"{r['metric']} = {r['score']:.{args.width}f}\n")
        return
    if args.format == "json":
        clean = [{k: v for k, v in r.items() if k != "_text"} for r in results]
        out.write(json_text(clean, indent=1) + "\n")
    elif args.format == "tsv":
        out.write("system\tmetric\tscore\tsignature\n")
        for r in results:
            out.write(f"{r['system']}\t{r['name']}\t{r['score']:.{args.width}f}\t{r['signature']}\n")
    else:
        multi = len({r["system"] for r in results}) > 1
        for r in results:
            prefix = f"{r['system']}: " if multi else ""
            if args.score_only:
                out.write(prefix + r["_text"] + "\n")
            else:
                out.write(f"{prefix}{r['_text']}\n{' ' * len(prefix)}{r['signature']}\n")


def _list(out) -> int:
    from ..tokenizers import DESCRIPTIONS

    out.write("metrics:\n")
    for e in available():
        flav = f" [flavours: {', '.join(e.flavours)}]" if e.flavours else ""
        out.write(f"  {e.name:<12} {e.description}{flav}\n")
    out.write("tokenizers:\n")
    for name, desc in DESCRIPTIONS.items():
        out.write(f"  {name:<12} {desc}\n")
    return 0


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, by name (the adversarial tests iterate over them)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


class _ClosedStream:
    """Stands for stdout when the process was started with it closed (``>&-``)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "stdout is closed")

    def flush(self) -> None:
        pass


def _dispatch(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    out = sys.stdout if sys.stdout is not None else _ClosedStream()
    args = parser.parse_args(argv)
    if args.command is None:
        raise UsageError(f"give a subcommand: {', '.join(subparsers(parser))} (nlgmetrics --help)")
    sub = subparsers(parser)[args.command]
    checks.check(args.command, sub, args)
    if args.command == "list":
        return _list(out)
    if args.command == "coco":  # captioning family
        from .coco import run as _run_coco

        return _run_coco(args, out, sys.stderr)
    if args.command == "classify":
        from .classify import run as _run_classify

        return _run_classify(args, out)
    # every subcommand with -m builds its metrics here, before reading any input
    classification_report = args.command == "report" and args.labels is not None
    built = build_metrics(args.command, sub, args) if getattr(args, "metrics", None) and not classification_report else {}

    def load_metric(name: str, a: argparse.Namespace) -> Any:
        return built[name]

    if args.command == "compare":
        return compare.run(args, out, load_metric, read_lines, _references)
    if args.command == "correlate":
        return correlate.run(args, out, load_metric, read_lines, _references)
    if args.command == "report":
        from .report import run as _run_report

        return _run_report(args, out, load_metric, read_lines, _references)
    if args.command == "score":
        return _score(args, out, built)
    raise NotImplementedError(f"no dispatch for the subcommand {args.command!r}")  # a new subcommand: add it above


@functools.cache
def _parser(only: str | None = None) -> argparse.ArgumentParser:
    return build_parser(only)  # parse_args leaves a parser unchanged: one serves every call


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; the exit status follows :mod:`nlgmetrics.cli.guard`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sacrebleu"]:  # sacrebleu's arguments, parsed by its own parser (its exit codes)
        from .sacrebleu_cli import main as _sacrebleu_main

        return _sacrebleu_main(argv[1:], prog="nlgmetrics sacrebleu")
    return guarded(lambda: _dispatch_with_hints(argv))


def _dispatch_with_hints(argv: list[str]) -> int:
    try:
        # a known subcommand first: its parser alone (anything else, e.g. --help: all)
        return _dispatch(_parser(argv[0] if argv and argv[0] in COMMANDS else None), argv)
    except UsageError as e:
        from .sacrebleu_cli import hint_for_native  # a sacrebleu habit: say what to write instead

        hint = hint_for_native(argv, str(e))
        if hint:
            raise UsageError(f"{e}; {hint}") from None
        raise
