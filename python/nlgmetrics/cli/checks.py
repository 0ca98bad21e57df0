"""Usage checks made before any input is read: option ranges, options that do not apply.

Every numeric flag of every subcommand has a range in :data:`RANGES` (a test walks the
parser and fails on a numeric flag without one). A flag the user set that the chosen
subcommand mode, metric or flavour does not read is a usage error naming it, never
silently ignored: metric flags are checked by recording which flags the metrics' option
collectors read (so a new flavour is covered by what its collector reads), mode flags by
:data:`_MODE_RULES`.
"""

from __future__ import annotations

import math

from .guard import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    import argparse
    from typing import Any, Callable, Iterable

INF = math.inf


class Range:
    """Allowed values of a numeric flag: ``lo`` to ``hi``, each end open or closed.

    Plain classes here, not dataclasses: ``dataclasses`` brings ``inspect`` and ``ast``,
    most of a command line's start-up.
    """

    __slots__ = ("lo", "hi", "lo_open", "hi_open")

    def __init__(self, lo: float, hi: float, lo_open: bool = False, hi_open: bool = False) -> None:
        self.lo, self.hi, self.lo_open, self.hi_open = lo, hi, lo_open, hi_open

    def __repr__(self) -> str:
        return f"Range(lo={self.lo!r}, hi={self.hi!r}, lo_open={self.lo_open!r}, hi_open={self.hi_open!r})"

    def holds(self, v: float) -> bool:
        if isinstance(v, float) and not math.isfinite(v):
            return False
        above = v > self.lo if self.lo_open else v >= self.lo
        below = v < self.hi if self.hi_open else v <= self.hi
        return above and below

    def describe(self) -> str:
        lo = "(" if self.lo_open else "["
        hi = ")" if self.hi_open else "]"
        fmt = lambda x: f"{x:g}" if isinstance(x, float) else f"{x}"  # noqa: E731
        return f"in {lo}{fmt(self.lo)}, {fmt(self.hi)}{hi}" if self.hi != INF else (f"> {fmt(self.lo)}" if self.lo_open else f">= {fmt(self.lo)}")


def _r(lo: float, hi: float = INF, lo_open: bool = False, hi_open: bool = False) -> Range:
    return Range(lo, hi, lo_open, hi_open)


_RESAMPLES = _r(1, 1_000_000)  # each resample is one pass over the statistics: bounded time and memory
_ORDER = _r(1, 64)
_BATCH = _r(1, 1_000_000)
_UNIT = _r(0.0, 1.0)
_FINITE = _r(-INF, INF)

# dest -> allowed values (None, the "not given" default, is always allowed).
RANGES: dict[str, Range] = {
    "width": _r(0, 20),
    "n_threads": _r(0, 1024),  # the core also caps it at the machine's parallelism
    "seed": _r(0, 2**32 - 1),
    "comet_batch_size": _r(1, 1_000_000),
    "metricx_batch_size": _r(1, 1_000_000),
    "mauve_num_buckets": _r(1, 1_000_000),
    "mauve_max_text_length": _r(1, 1_000_000),
    "mauve_batch_size": _BATCH,
    "mauve_seed": _r(0, 2**32 - 1),
    "metricx_max_input_length": _r(2, 1_000_000),
    "confidence_n": _RESAMPLES,
    "paired_bs_n": _RESAMPLES,
    "paired_ar_n": _r(1, 10_000_000),
    "bootstrap_iters": _r(0, 10_000_000),  # lm-eval: its stderr resamples (0: none)
    "n_samples": _r(1, 10_000_000),  # lm-eval --compare: resamples or trials
    "chunk_size": _r(1, 2**31 - 1),
    "top_k": _r(0, 1_000_000),
    "alpha": _r(0.0, 1.0, lo_open=True, hi_open=True),
    "bins": _r(1, 1 << 26),
    "calibration_bins": _r(1, 1 << 24),
    "max_fpr": _r(0.0, 1.0, lo_open=True),
    "score_range": _FINITE,
    "threshold": _FINITE,
    # metric options (the metrics check them again; here they are usage errors up front)
    "bleu_max_ngram_order": _ORDER,
    "bleu_smooth_value": _r(0.0, 1e6),
    "chrf_char_order": _r(0, 64),
    "chrf_word_order": _r(0, 64),
    "chrf_beta": _r(0.0, 1e6),
    "cider_sigma": _r(0.0, 1e6, lo_open=True),
    "distinct_n": _ORDER,
    "distinct_hll_precision": _r(4, 18),
    "self_bleu_n": _ORDER,
    "self_bleu_sample_size": _r(0, 2**31 - 1),
    "nist_n": _ORDER,
    "nltk_weights": _r(0.0, 1e6),
    "nltk_epsilon": _r(0.0, 1e6),
    "nltk_alpha": _r(0, 1_000_000),
    "nltk_k": _r(1, 1_000_000),
    "meteor_alpha": _UNIT,
    "meteor_beta": _r(0.0, 1e6),
    "meteor_gamma": _UNIT,
    "meteor_delta": _UNIT,
    "meteor_weights": _UNIT,
    "rouge_alpha": _UNIT,
    "rouge_beta": _r(0.0, 1e6, lo_open=True),
    "rouge_weight": _r(1.0, 1e6),
    "rouge_length_limit": _r(1, 2**31 - 1),
    "rouge_byte_limit": _r(1, 2**31 - 1),
    "parent_lambda": _UNIT,
    "parent_smoothing": _r(0.0, 1.0),
    "parent_max_order": _ORDER,
    "bertscore_layer": _r(1, 1000),
    "bertscore_batch_size": _BATCH,
    "bleurt_batch_size": _BATCH,
    "bleurt_max_length": _r(1, 1_000_000),
    "na_prob_thresh": _FINITE,  # nlgmetrics squad (v2.0 no-answer threshold)
    "pass_k": _r(1, 2**31 - 1),
    "relevance_level": _r(1, 2**63 - 1),  # nlgmetrics retrieval -l (pytrec_eval refuses < 1)
    "sql_max_instructions": _r(1, 2**63 - 1),  # nlgmetrics sql --max-instructions (the sandbox's budget)
}

# Per subcommand, a dest whose numeric range differs from the shared one above.
_RANGE_OVERRIDES: dict[tuple[str, str], Range] = {
    ("correlate", "confidence_n"): _r(0, 1_000_000),  # 0 = no interval
    ("correlate", "threshold"): _r(0.0, 1e12),  # a difference of human scores
}


def numeric_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options of ``parser`` whose values are numbers (they all need a range)."""
    return [a for a in parser._actions if a.type is not None and a.type is not str and a.option_strings]


def flag(action: argparse.Action) -> str:
    return max(action.option_strings, key=len)


def _values(v: Any) -> Iterable[Any]:
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from _values(x)
    elif v is not None:
        yield v


def check_ranges(command: str, parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    for action in numeric_actions(parser):
        rng = _RANGE_OVERRIDES.get((command, action.dest), RANGES.get(action.dest))
        if rng is None:
            continue  # a test makes sure this does not happen
        for v in _values(getattr(args, action.dest, None)):
            if isinstance(v, (int, float)) and not isinstance(v, bool) and not rng.holds(v):
                raise UsageError(f"argument {flag(action)}: must be {rng.describe()}, got {v!r}")
    lo_hi = getattr(args, "score_range", None)
    if command == "classify" and lo_hi is not None and not lo_hi[0] < lo_hi[1]:
        raise UsageError(f"argument --score-range: LO must be below HI, got {lo_hi[0]!r} {lo_hi[1]!r}")


# -- options the chosen metrics / flavours do not read -------------------------------------
SHARED_METRIC_DESTS = ("tokenize", "lowercase", "trg_lang")


def metric_dests(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Options of the metric families (argument groups "<metric> options") and the
    shared metric flags (-tok, -lc, -tl), by dest."""
    out: dict[str, argparse.Action] = {}
    for group in parser._action_groups:
        if group.title and group.title.endswith(" options"):
            for a in group._group_actions:
                out[a.dest] = a
    for a in parser._actions:
        if a.dest in SHARED_METRIC_DESTS:
            out[a.dest] = a
    return out


def explicit(parser: argparse.ArgumentParser, args: argparse.Namespace, dests: Iterable[str]) -> list[str]:
    """The dests among ``dests`` whose value differs from the parser's default."""
    return [d for d in dests if getattr(args, d, None) != parser.get_default(d)]


class ReadRecorder:
    """A namespace view that remembers which attributes were read."""

    def __init__(self, ns: argparse.Namespace):
        object.__setattr__(self, "_ns", ns)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self._ns, name)


def check_metric_flags(parser: argparse.ArgumentParser, args: argparse.Namespace, read: set[str]) -> None:
    """Every metric flag the user set was read by one of the chosen metrics' collectors."""
    dests = metric_dests(parser)
    unread = [d for d in explicit(parser, args, dests) if d not in read]
    if unread:
        names = ", ".join(flag(dests[d]) for d in unread)
        chosen = " ".join(getattr(args, "metrics", []) or [])
        verb = "does" if len(unread) == 1 else "do"
        raise UsageError(f"{names} {verb} not apply to -m {chosen} with the chosen flavour and options; drop {'it' if len(unread) == 1 else 'them'}")


# -- options that only apply in some modes of a subcommand ---------------------------------
class ModeRule:
    """Options (``dests``) that apply only when ``applies(args)`` holds; ``needs``
    completes "... only applies with <needs>"."""

    __slots__ = ("dests", "applies", "needs")

    def __init__(self, dests: tuple[str, ...], applies: Callable[[argparse.Namespace], bool], needs: str) -> None:
        self.dests, self.applies, self.needs = dests, applies, needs


def _kendall_like(a: argparse.Namespace) -> bool:
    chosen = a.correlation or (["pearson"] if a.level == "system" else ["kendall-like"])
    return "kendall-like" in chosen


_TEXT_REPORT = ("references", "input", "metrics", "method", "alpha", "top_k")  # --confidence-n, --seed and --names serve both reports
_MODE_RULES: dict[str, list[ModeRule]] = {
    "score": [
        ModeRule(("confidence_n", "seed", "method", "resampling"), lambda a: a.confidence, "--confidence"),
        ModeRule(("score_only",), lambda a: a.format == "text" and not a.sentence_level, "text corpus output (-f text, no --sentence-level)"),
    ],
    "compare": [
        ModeRule(("paired_bs_n", "resampling"), lambda a: a.paired_bs, "--paired-bs"),
        ModeRule(("paired_ar_n",), lambda a: a.paired_ar, "--paired-ar"),
    ],
    "correlate": [
        ModeRule(("threshold",), _kendall_like, "--correlation kendall-like"),
        ModeRule(("method", "resampling"), lambda a: False, "score --confidence / compare (correlate resamples its own way)"),
        ModeRule(("seed",), lambda a: a.confidence_n > 0, "--confidence-n > 0"),
    ],
    "report": [
        ModeRule(("scores", "predictions", "threshold", "pos_label"), lambda a: a.labels is not None, "--labels (a classification report)"),
        ModeRule(_TEXT_REPORT, lambda a: a.labels is None, "a text report (not with --labels)"),
    ],
    "classify": [
        ModeRule(("bins", "score_range"), lambda a: a.streaming == "binned", "--streaming binned"),
        ModeRule(("chunk_size",), lambda a: a.streaming is not None, "--streaming"),
        ModeRule(("curves", "map_convention", "pred_col", "average", "multi_class"), lambda a: a.streaming is None, "whole-file scoring (not with --streaming)"),
        ModeRule(("kappa_weights", "calibration_bins"), lambda a: a.streaming is None, "whole-file scoring (not with --streaming)"),
    ],
}


def check_modes(command: str, parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    actions = {a.dest: a for a in parser._actions}
    for rule in _MODE_RULES.get(command, []):
        given = [d for d in explicit(parser, args, rule.dests) if d in actions]
        if given and not rule.applies(args):
            names = ", ".join(flag(actions[d]) for d in given)
            raise UsageError(f"{names} only applies with {rule.needs}")
    if command == "report" and args.labels is not None:
        set_metric_flags = explicit(parser, args, metric_dests(parser))
        if set_metric_flags:
            raise UsageError(f"{flag(actions[set_metric_flags[0]])} does not apply to a classification report (--labels)")
    if getattr(args, "bleu_smooth_value", None) is not None and args.bleu_smooth_method not in ("floor", "add-k"):
        raise UsageError("--smooth-value only applies with --smooth-method floor or add-k")


def check(command: str, parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Range and mode checks of one parsed command line (metric flags come later, when
    the metrics are built)."""
    check_ranges(command, parser, args)
    check_modes(command, parser, args)
