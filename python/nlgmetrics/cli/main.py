"""Argument parsing and dispatch for ``nlgmetrics score`` and ``nlgmetrics list``.

Exit statuses and error lines are decided in one place, :mod:`.guard`; usage checks made
before any input is read (ranges, options that do not apply) live in :mod:`.checks`.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import sys

from .extend import ExtendAction
from .. import __version__
from ..errors import NlgMetricsError
from ..io.text import read_lines
from ..registry import available, load
from .metric_options import metric_options
from .options import modules_named, option_sets
from . import checks
from .guard import UsageError, guarded
from .help_width import help_width as _help_width

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Sequence

# Imported where used, so that a `score` run loads only what it needs (start-up is most
# of a short run): compare, correlate (significance & meta-evaluation subcommands),
# data_to_text (tables for PARENT), stream (streaming: --chunk-size, --scheduler).

__all__ = ["UsageError", "build_parser", "main", "subparsers"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print usage and exit 2 itself
        raise UsageError(message)

    def _get_formatter(self) -> argparse.HelpFormatter:
        return self.formatter_class(prog=self.prog, width=_help_width())  # type: ignore[call-arg]


# Every subcommand, in the order `nlgmetrics --help` lists them.
COMMANDS = ("score", "compare", "correlate", "list", "classify", "coco", "report", "sacrebleu", "squad", "cmrc2018", "retrieval", "sql", "lm-eval", "judge")

# Each subcommand's line in `nlgmetrics --help`, as its add_parser words it: the top-level
# parser is built from these alone, without importing the subcommands' modules (numpy for
# classify). tests/test_cli_lazy_options.py checks them against the full parser.
COMMAND_HELP = {
    "score": "score system outputs against references",
    "compare": "paired significance tests of systems against a baseline",
    "correlate": "correlate metric scores with human judgments",
    "list": "list metrics, flavours and tokenizers",
    "classify": "classification metrics (scikit-learn's numbers) from TSV/JSONL labels and scores",
    "coco": "COCO caption evaluation (BLEU-1..4, CIDEr-D) as pycocoevalcap's COCOEvalCap",
    "report": "a self-contained HTML report of systems (or classifiers), with plots and significance",
    "sacrebleu": "sacrebleu 2.6's command line, byte-identical output",
    "squad": "SQuAD v1.1 / v2.0 exact match and F1, as the official evaluation scripts",
    "cmrc2018": "CMRC 2018 F1 / EM, as the official cmrc2018_evaluate.py",
    "retrieval": "trec_eval / pytrec_eval retrieval measures (nDCG@k, MAP, MRR, P@k, recall@k) of a TREC run",
    "sql": "text-to-SQL execution accuracy (Spider test-suite, BIRD) of a predictions file, run in the SQL sandbox",
    "lm-eval": "re-score an lm-evaluation-harness output folder from its samples files (its table, results and groups)",
    "judge": "aggregates of judge verdicts: AlpacaEval win rates, Arena-Hard / Chatbot Arena ratings, GEMBA-MQM",
}


@functools.cache
def top_level_parser() -> argparse.ArgumentParser:
    """The parser of a command line without a known subcommand (``--help``, ``--version``,
    a typo): every subcommand by name and help line, none of their options. Its help and
    errors are the full parser's (they never show a subcommand's options)."""
    p = _Parser(prog="nlgmetrics", description="Exact, fast text-generation metrics.")
    p.add_argument("--version", "-V", action="version", version=f"nlgmetrics {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    for name in COMMANDS:
        sub.add_parser(name, help=COMMAND_HELP[name], add_help=name != "sacrebleu")
    return p


def build_parser(only: str | None = None, families: frozenset[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (a name in :data:`COMMANDS`), with that
    subcommand alone: a run needs only its own, and building the others imports their
    modules (numpy for ``classify``), which would dominate a short run's start-up. With
    ``families`` (``opts_<family>`` module names, :data:`.options.MODULES`), the metric
    flags of those families only; by default every family's (help shows them all)."""
    p = _Parser(prog="nlgmetrics", description="Exact, fast text-generation metrics.")
    p.add_argument("--version", "-V", action="version", version=f"nlgmetrics {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    _add_shared_metric_flags = functools.partial(_add_metric_flags, families=families)
    if only in (None, "score"):
        _declare_score_options(sub.add_parser("score", help=_SCORE_HELP), families)
    # --- significance & meta-evaluation: compare, correlate (cli/compare.py, cli/correlate.py) ---
    if only in (None, "compare"):
        from . import compare

        compare.add_parser(sub, _add_shared_metric_flags)
    if only in (None, "correlate"):
        from . import correlate

        correlate.add_parser(sub, _add_shared_metric_flags)
    # ---
    if only in (None, "list"):
        sub.add_parser("list", help="list metrics, flavours and tokenizers")
    # --- classification: `nlgmetrics classify` (code in cli/classify.py) ---
    if only in (None, "classify"):
        from .classify_options import add_parser as _add_classify_parser

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
    # --- squad subcommand (question answering, cli/squad.py) ---
    if only in (None, "squad"):
        from .squad import add_parser as _add_squad

        _add_squad(sub)
    # --- end squad ---
    # --- cmrc2018 subcommand (the official script's files, cli/cmrc2018.py) ---
    if only in (None, "cmrc2018"):
        from .cmrc2018 import add_parser as _add_cmrc2018

        _add_cmrc2018(sub)
    # --- end cmrc2018 ---
    if only in (None, "retrieval"):  # trec_eval's measures of TREC files (cli/retrieval.py)
        from .retrieval import add_parser as _add_retrieval

        _add_retrieval(sub)
    if only in (None, "sql"):  # execution accuracy of gold / prediction files (cli/sql.py)
        from .sql import add_parser as _add_sql

        _add_sql(sub)

    if only in (None, "lm-eval"):  # an lm-eval output folder re-scored (cli/lm_eval_cmd.py)
        from .lm_eval_cmd import add_parser as _add_lm_eval

        _add_lm_eval(sub)
    if only in (None, "judge"):  # win rates, ratings, MQM of judge verdict files (cli/judge.py)
        from .judge import add_parser as _add_judge

        _add_judge(sub)
    return p


# What argparse stores for an option that is not given and has no ``default=``, by action
# (any other action is declared for real: _DECLARE).
_DECLARE = object()
_IMPLICIT_DEFAULTS: dict[str | None, Any] = {
    None: None, "store": None, "store_const": None, "store_true": False, "store_false": True,
    "append": None, "append_const": None, "count": None, "extend": None,
}


class _Declaring:
    """A parser (or one of its argument groups) as the functions declaring a subcommand's
    options see it, for one command line.

    An option that the command line names (``named``: its tokens that start with ``-``,
    and their part before ``=``) is declared on the real parser, as are positionals,
    required options and those whose string default argparse would convert. Any other
    option only gets its default in the parser's defaults: that is everything argparse
    does with an option the command line does not name, and it skips argparse's work per
    option, which for ``score``'s hundred options is a large part of a short run's
    start-up. Argument groups are created when their first option is declared for real,
    so the parser's options and groups keep their declaration order.

    The parse equals the full parser's when every option token of the command line is
    one of the parser's option strings exactly (no abbreviation, no help) and no two
    options share a destination (:attr:`exact`); :func:`_lean_score` checks both and
    otherwise leaves the command line to the full parser.
    """

    def __init__(self, parser: argparse.ArgumentParser, named: frozenset[str], make: Any = None, shared: Any = None):
        self._parser = parser
        self._named = named
        self._make = make  # creates the real group on first use (None: the parser itself)
        self._real: Any = parser if make is None else None
        # (every destination declared so far, the destinations declared twice)
        self._dests, self._twice = shared if shared is not None else ({a.dest for a in parser._actions}, [])

    @property
    def exact(self) -> bool:
        return not self._twice

    def _claim(self, dest: str) -> None:
        if dest in self._dests:
            self._twice.append(dest)  # argparse's first-declared default would win
        self._dests.add(dest)

    def _declare(self, names: tuple[str, ...], kwargs: dict[str, Any]) -> argparse.Action:
        if self._real is None:
            self._real = self._make()
        declared = self._real.add_argument(*names, **kwargs)
        self._claim(declared.dest)
        return declared

    def add_argument(self, *names: str, **kwargs: Any) -> argparse.Action | None:
        named = self._named
        for name in names:
            if name in named:
                return self._declare(names, kwargs)
        implicit = _IMPLICIT_DEFAULTS.get(kwargs.get("action"), _DECLARE)
        default = kwargs.get("default", implicit)
        if (
            implicit is _DECLARE
            or not names
            or names[0][:1] != "-"  # a positional
            or kwargs.get("required")
            or (isinstance(default, str) and kwargs.get("type") is not None)  # argparse converts it
        ):
            return self._declare(names, kwargs)
        dest = kwargs.get("dest") or _dest_of(names)
        self._claim(dest)
        self._parser._defaults[dest] = default
        return None

    def add_argument_group(self, *args: Any, **kwargs: Any) -> _Declaring:
        return _Declaring(self._parser, self._named, lambda: self._parser.add_argument_group(*args, **kwargs), (self._dests, self._twice))


def _dest_of(names: tuple[str, ...]) -> str:
    """argparse's destination of an option: its first long name (else its first name)
    without the leading dashes, ``-`` as ``_``."""
    for name in names:
        if name[1:2] == "-":
            break
    else:
        name = names[0]
    return name.lstrip("-").replace("-", "_")


def _option_tokens(argv: Sequence[str]) -> frozenset[str]:
    """The tokens of ``argv`` that argparse reads as options, and their part before ``=``."""
    tokens = set()
    for token in argv:
        if token[:1] == "-" and token != "-":
            tokens.add(token)
            tokens.add(token.split("=", 1)[0])
    return frozenset(tokens)


def _lean_score(argv: Sequence[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace] | None:
    """``score``'s parser with only the options ``argv`` names declared for real
    (:class:`_Declaring`) and the parsed arguments, or ``None`` where the full parser must
    decide: an abbreviated or unknown option, ``--``, help, destinations declared twice,
    or any usage error (the full parser words it).

    Built on its own, as ``add_parser`` would build it, without the top-level parser: with
    every option token exact, the top-level parser hands all of ``argv[1:]`` to ``score``
    and adds ``command``."""
    named = _option_tokens(argv[1:])
    score = _Parser(prog="nlgmetrics score")
    declaring = _Declaring(score, named)
    _declare_score_options(declaring, modules_named(named))
    if not declaring.exact or not _declares_exactly(score, named):
        return None
    try:
        parsed = score.parse_args(argv[1:])
    except UsageError:
        return None
    return score, argparse.Namespace(command="score", **vars(parsed))


def _declares_exactly(parser: argparse.ArgumentParser, named: frozenset[str]) -> bool:
    """Every option token is one of ``parser``'s option strings exactly, none asks for
    help or the version: the parse cannot depend on the options left out."""
    options = parser._option_string_actions
    for token in named:
        action = options.get(token) or options.get(token.split("=", 1)[0])
        if action is None or isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            return False
    return True


_SCORE_HELP = COMMAND_HELP["score"]


def _declare_score_options(s: Any, families: frozenset[str] | None = None) -> None:
    """``score``'s options, on its parser (or a :class:`_Declaring` standing for it), with
    the metric flags of ``families`` (default: every family)."""
    from . import stream as stream_cli
    from .resampling_flags import add_confidence_flags

    s.add_argument("-r", "--references", action="append", default=[], metavar="REF", help="a reference file (repeat for several references)")
    s.add_argument("-i", "--input", nargs="+", action=ExtendAction, default=None, metavar="HYP", help="system output file(s); stdin when absent (repeat -i to add files)")
    s.add_argument("--jsonl", default=None, metavar="FILE", help='JSON lines with "prediction" and "references" (instead of -r/-i)')
    s.add_argument("-m", "--metrics", nargs="+", action=ExtendAction, default=["bleu"], metavar="METRIC", help="metrics to compute (default: bleu; repeat -m to add metrics)")
    s.add_argument("--preset", default=None, metavar="NAME", help="a toolchain's whole metric pipeline on its own --jsonl file, e.g. llamafactory (generated_predictions.jsonl); replaces -m (--list-presets lists them)")
    s.add_argument("--list-presets", action="store_true", help="list every --preset: the framework and version it reproduces, the fields it reads")
    s.add_argument("-f", "--format", choices=["text", "json", "tsv"], default="text", help="output format (default: text)")
    s.add_argument("-tok", "--tokenize", default=None, help="tokenizer for the metrics that take one")
    s.add_argument("-lc", "--lowercase", action="store_true", help="lowercase BLEU (as sacrebleu: chrF takes --chrf-lowercase, TER --ter-case-sensitive), PER, NIST and diversity")
    s.add_argument("-tl", "--trg-lang", default="", help="target language (picks zh/ja/ko tokenizers as sacrebleu does)")
    s.add_argument("--sentence-level", "-sl", action="store_true", help="one result per segment (JSON lines with --format json)")
    s.add_argument("-w", "--width", type=int, default=2, help="decimal places (default: 2)")
    s.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    s.add_argument("--short", action="store_true", help="short signatures")
    s.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")
    for opts in option_sets(families):
        opts.add(s.add_argument_group(f"{opts.metric} options"))
    add_confidence_flags(s)  # --- significance: score --confidence ---
    from ..engines.progress import add_flags as _add_progress_flags  # progress bars (--quiet)

    _add_progress_flags(s, chunk_size=False)  # score's --chunk-size streams (cli/stream.py)
    stream_cli.add_flags(s)  # --- streaming: score --chunk-size / --scheduler ---


def _read_jsonl(path: str) -> tuple[list[str], list[list[str]], list[str]]:
    """Predictions, references and the file's lines (a metric that also reads the
    tables, PARENT, takes them from these lines: the file is read once)."""
    from ..io.chunks import parse_jsonl_record

    preds: list[str] = []
    refs: list[list[str]] = []
    lines = read_lines(path)
    for lineno, line in enumerate(lines, 1):
        record = parse_jsonl_record(line, f"{path}:{lineno}")
        if record is not None:
            preds.append(record[0])
            refs.append(record[1])
    return preds, refs, lines


def _add_metric_flags(p: argparse.ArgumentParser, families: frozenset[str] | None = None) -> None:
    """The metric flags of ``score`` for other subcommands (compare, correlate, report),
    those of ``families`` only if given."""
    p.add_argument("-tok", "--tokenize", default=None, help="tokenizer for the metrics that take one")
    p.add_argument("-lc", "--lowercase", action="store_true", help="lowercase BLEU (as sacrebleu: chrF takes --chrf-lowercase), PER, NIST and diversity")
    p.add_argument("-tl", "--trg-lang", default="", help="target language (picks zh/ja/ko tokenizers as sacrebleu does)")
    p.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")
    p.set_defaults(sentence_level=False)
    for opts in option_sets(families):
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


def _corpus_only(metric: Any) -> bool:
    """Metrics without per-segment statistics (Self-BLEU scores the set as a whole)."""
    from ..metrics.base import Metric

    return not isinstance(metric, Metric)


def _check_capabilities(command: str, args: argparse.Namespace, metrics: list[tuple[str, Any]]) -> None:
    """Modes a metric cannot run in are usage errors before any input is read."""
    from . import data_to_text, stream as stream_cli

    streaming = command == "score" and stream_cli.wanted(args)
    kinds = {e.name: e.kind for e in available()}
    from . import aggregates

    for name, metric in metrics:
        if kinds.get(name) in aggregates.KINDS:  # numbers from --jsonl (cli/aggregates.py)
            aggregates.check(command, args, name, kinds[name], UsageError)
            if any(kinds.get(other) not in (kinds[name],) for other, _ in metrics):
                raise UsageError(f"{name} reads its own --jsonl records: score it without {', '.join(o for o, _ in metrics if kinds.get(o) != kinds[name])}")
            continue
        if kinds.get(name) == "retrieval":
            raise UsageError(f"{name} scores a run against qrels, not text files: use `nlgmetrics retrieval -q QRELS -r RUN`")
        if kinds.get(name) in ("logprobs", "records", "sampling"):
            what = {"logprobs": "per-token log-probabilities", "records": "lists of records",
                    "sampling": "per-sample results of repeated sampling"}[kinds[name]]
            raise UsageError(f"{name} scores {what}, not text files: use it from Python (nlgmetrics.load({name!r}))")
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
        if streaming and getattr(metric, "name", "") == "SARI":  # its sources are bound whole, not chunked
            raise UsageError(f"{name} reads --source whole: drop --chunk-size/--scheduler")


def build_metrics(command: str, parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """The metric objects of ``-m``, built before any input is read, so that unknown
    metrics, bad options and options the chosen metrics do not read are usage errors."""
    args.metrics = [name.lower() for name in args.metrics]  # as the registry: -m BLEU is bleu, with its flags
    recorder = checks.ReadRecorder(args)
    built: dict[str, Any] = {}
    for name in dict.fromkeys(args.metrics):
        built[name] = load(name, **metric_options(name, recorder))
    checks.check_metric_flags(parser, args, recorder.read)
    _check_capabilities(command, args, list(built.items()))
    return built


def _reference_free(metric: Any) -> bool:
    """The metric scores outputs alone (Distinct-n, Self-BLEU, a reference-free COMET):
    its ``corpus_score`` takes ``references=None``."""
    import inspect

    try:
        param = inspect.signature(metric.corpus_score).parameters.get("references")
    except (TypeError, ValueError):
        return False
    if param is None or param.default is not None:
        return False
    uses = getattr(metric, "_uses", None)  # COMET: (reads sources, reads references) of its model
    return not uses()[1] if callable(uses) else True


def _inputs(args: argparse.Namespace, metrics: list[tuple[str, Any]] = ()) -> tuple[list[tuple[str, list[str], list[list[str]] | None]], list[str] | None]:
    """Every system's lines and the references, each file read, decoded and split once
    and line counts checked once, for all the metrics of the run; and with ``--jsonl``, the
    file's lines (for the metrics that also read the tables, PARENT), else ``None``."""
    if args.jsonl:
        if args.references or args.input:
            raise UsageError("--jsonl replaces -r/-i; give one or the other")
        preds, refs, lines = _read_jsonl(args.jsonl)
        return [(args.jsonl, preds, refs)], lines
    systems = _read_systems(args)
    if not args.references and metrics and all(_reference_free(m) for _, m in metrics):
        return [(name, hyps, None) for name, hyps in systems], None  # nothing to compare against: no -r needed
    refs = _references(args.references, len(systems[0][1]))
    for name, hyps in systems[1:]:
        if len(hyps) != len(refs):
            raise NlgMetricsError(f"{name} has {len(hyps)} lines but the references have {len(refs)}")
    return [(name, hyps, refs) for name, hyps in systems], None


def _score(args: argparse.Namespace, out, built: dict[str, Any]) -> int:
    if args.list_presets:  # llm presets (cli/presets.py)
        from .presets import list_presets

        return list_presets(args, out)
    if getattr(args, "preset", None):  # llm presets: a toolchain's own pipeline (cli/presets.py)
        from .presets import run as _run_preset

        return _run_preset(args, out, UsageError)
    if args.confidence and args.sentence_level:  # significance
        raise UsageError("--confidence needs corpus-level scores; drop --sentence-level")
    metrics = [(name, built[name]) for name in args.metrics]
    from . import data_to_text, stream as stream_cli

    if args.confidence:
        from . import compare  # significance: score --confidence
    from ..engines.progress import wrap as _with_progress  # chunked extraction behind a progress bar; same numbers

    if stream_cli.wanted(args):  # streaming: bounded memory, optionally on a Dask cluster
        _emit(args, stream_cli.run(args, metrics, UsageError), out)
        return 0
    kinds = {e.name: e.kind for e in available()}
    if metrics and kinds.get(metrics[0][0]) in aggregates_kinds():  # pass@k, lm-eval aggregates: numbers from --jsonl
        from . import aggregates

        cache: dict[str, Any] = {}
        _emit(args, [row for name, m in metrics for row in aggregates.score(m, kinds[name], args, cache)], out)
        return 0
    from ..engines.progress import display_names

    inputs, jsonl_lines = _inputs(args, metrics)
    shown = display_names([sys_name for sys_name, _, _ in inputs])  # the bars' labels, as the report's
    results: list[dict[str, Any]] = []
    for sys_name, hyps, refs in inputs:
        for name, metric in _with_progress(metrics, args, shown[sys_name]):
            if data_to_text.needs_tables(metric):  # data-to-text: PARENT reads tables too
                results.extend(data_to_text.score(metric, sys_name, hyps, refs, args, jsonl_lines))
                continue
            if args.sentence_level:
                # JSON rows carry every part of the segment's score as named fields (rouge1_recall, ...)
                parts = metric.sentence_parts(hyps, refs) if args.format == "json" else {"score": metric.sentence_scores(hyps, refs)}
                k = len(hyps) if getattr(metric, "name", "") == "SARI" else 1  # SARI's bound sources align with the whole input
                sig = metric.signature(metric.stats(hyps[:k], refs[:k] if refs is not None else None).total()).format(short=args.short) if hyps else ""
                for i, value in enumerate(parts["score"]):
                    row = {"system": sys_name, "segment": i + 1, "metric": metric.name, "score": float(value), "signature": sig}
                    row.update({k: v[i] if isinstance(v, list) else float(v[i]) for k, v in parts.items() if k != "score"})  # lists: per-segment data (xcomet's error_spans)
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


def aggregates_kinds() -> tuple[str, ...]:
    from .aggregates import KINDS

    return KINDS


def _emit(args: argparse.Namespace, results: list[dict[str, Any]], out) -> None:
    from .resources import annotate  # numbers that read an optional resource say which (cli/resources.py)

    resource_notes = annotate(results)
    if resource_notes and args.format != "json" and sys.stderr is not None:
        for note in resource_notes:
            sys.stderr.write(f"nlgmetrics: note: {note}\n")
    if args.format == "json":
        from .jsonout import json_text
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


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, by name (the adversarial tests iterate over them)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


class _ClosedStream:
    """Stands for stdout when the process was started with it closed (``>&-``)."""

    def write(self, text: str) -> int:
        import errno

        raise OSError(errno.EBADF, "stdout is closed")

    def flush(self) -> None:
        pass


def _parse(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser of ``argv``'s subcommand and the parsed arguments. ``score`` first tries
    its lean parser (:func:`_lean_score`); where that declines, the full parser parses the
    command line, so a usage error reads as it always has."""
    command = argv[0] if argv and argv[0] in COMMANDS else None
    if command == "score":
        lean = _lean_score(argv)
        if lean is not None:
            return lean
    # A known subcommand: its parser alone, with only the metric families whose flags the
    # command line names, unless an option token is not exactly one of that parser's (an
    # abbreviation, help): then with every family, so help and errors are the full
    # parser's. No known subcommand (--help, a typo): the top-level parser.
    parser = None
    if command is not None:
        named = _option_tokens(argv[1:])
        parser = _parser(command, modules_named(named))
        if not _declares_exactly(subparsers(parser)[command], named):
            parser = None
    if parser is None:
        parser = _parser(command) if command is not None else top_level_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        raise UsageError(f"give a subcommand: {', '.join(subparsers(parser))} (nlgmetrics --help)")
    return subparsers(parser)[args.command], args


def _dispatch(sub: argparse.ArgumentParser, args: argparse.Namespace, started: Any = None) -> int:
    out = sys.stdout if sys.stdout is not None else _ClosedStream()
    checks.check(args.command, sub, args)
    # every subcommand with -m builds its metrics here, before reading any input
    classification_report = args.command == "report" and args.labels is not None
    built = build_metrics(args.command, sub, args) if getattr(args, "metrics", None) and not classification_report else {}
    if started is not None:
        started()
    if args.command == "list":
        from .listing import run as _run_list  # the registry's table, no metric module

        return _run_list(out)
    if args.command == "coco":  # captioning family
        from .coco import run as _run_coco

        return _run_coco(args, out, sys.stderr)
    if args.command == "squad":  # question answering
        from .squad import run as _run_squad

        return _run_squad(args, out, sys.stderr)
    if args.command == "cmrc2018":  # CMRC 2018's official files
        from .cmrc2018 import run as _run_cmrc2018

        return _run_cmrc2018(args, out, sys.stderr)
    if args.command == "retrieval":  # TREC run and qrels files
        from .retrieval import run as _run_retrieval

        return _run_retrieval(args, out, sys.stderr)
    if args.command == "sql":  # Spider / BIRD gold and prediction files
        from .sql import run as _run_sql

        return _run_sql(args, out, sys.stderr)
    if args.command == "lm-eval":  # an lm-eval output folder
        from .lm_eval_cmd import run as _run_lm_eval

        return _run_lm_eval(args, out, sys.stderr)
    if args.command == "judge":  # judge verdict files
        from .judge import run as _run_judge

        return _run_judge(args, out, sys.stderr, sub)
    if args.command == "classify":
        from .classify import run as _run_classify

        return _run_classify(args, out)

    def load_metric(name: str, a: argparse.Namespace) -> Any:
        return built[name]

    if args.command == "compare":
        from . import compare

        return compare.run(args, out, load_metric, read_lines, _references)
    if args.command == "correlate":
        from . import correlate

        return correlate.run(args, out, load_metric, read_lines, _references)
    if args.command == "report":
        from .report import run as _run_report

        return _run_report(args, out, load_metric, read_lines, _references)
    if args.command == "score":
        return _score(args, out, built)
    raise NotImplementedError(f"no dispatch for the subcommand {args.command!r}")  # a new subcommand: add it above


@functools.cache
def _parser(only: str | None = None, families: frozenset[str] | None = None) -> argparse.ArgumentParser:
    return build_parser(only, families)  # parse_args leaves a parser unchanged: one serves every call


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; the exit status follows :mod:`nlgmetrics.cli.guard`.

    Without ``argv`` this is the program's own run (the ``nlgmetrics`` command, ``python
    -m nlgmetrics``): garbage collection waits until the command line is parsed and its
    metrics are built, and what start-up made (modules, parser, metrics: objects that
    live as long as the process) is then frozen out of later collections, exit's included
    (``gc.freeze``). Collecting them would find nothing and is a tenth of a short run.
    """
    program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sacrebleu"]:  # sacrebleu's arguments, parsed by its own parser (its exit codes)
        from .sacrebleu_cli import main as _sacrebleu_main

        return _sacrebleu_main(argv[1:], prog="nlgmetrics sacrebleu")
    if not (program and gc.isenabled()):
        return guarded(lambda: _dispatch_with_hints(argv))
    gc.disable()
    try:
        return guarded(lambda: _dispatch_with_hints(argv, _started))
    finally:
        gc.enable()


def _started() -> None:
    """Start-up is over (see :func:`main`): freeze what it made, collect from here on."""
    gc.freeze()
    gc.enable()


def _dispatch_with_hints(argv: list[str], started: Any = None) -> int:
    try:
        sub, args = _parse(argv)
        if args.command == "score" and (args.preset or args.list_presets):  # a preset reads none of score's metric flags
            from .presets import refuse_ignored_flags

            refuse_ignored_flags(sub, args, argv[1:])
        return _dispatch(sub, args, started)
    except UsageError as e:
        from .sacrebleu_cli import hint_for_native  # a sacrebleu habit: say what to write instead

        hint = hint_for_native(argv, str(e))
        if hint:
            raise UsageError(f"{e}; {hint}") from None
        raise
