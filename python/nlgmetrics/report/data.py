"""The numbers of a text-generation report, computed once and kept as plain data.

Statistics are extracted once per (metric, system), in chunks behind a progress bar
(:mod:`nlgmetrics.engines.progress`); the corpus score, the bootstrap interval, the paired test
against the baseline and the segment scores all come from those statistics through the
library's own functions (``bootstrap_ci``, ``paired_test_stats``), with the same defaults
as ``nlgmetrics score --confidence`` and ``nlgmetrics compare --paired-bs``, so the report
shows the numbers those commands print.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..errors import InvalidInputError, LengthMismatchError, NlgMetricsError
from ..engines.progress import DEFAULT_CHUNK_SIZE, SEPARATORS, chunked_stats, display_names, enabled, segment_local, track  # noqa: F401 - display_names' home was here

@dataclass
class SystemRow:
    """One system's result for one metric."""

    system: str
    score: dict[str, Any]  # Score.to_dict()
    mean: float | None  # None: the metric cannot be resampled (see MetricResult.note)
    ci: float | None
    lower: float | None
    upper: float | None
    p_value: float | None
    bootstrap: np.ndarray | None = field(repr=False)
    segments: np.ndarray | None = field(default=None, repr=False)
    spans: list | None = field(default=None, repr=False)  # per segment, the metric's error spans (xCOMET)


def _error_spans(metric: Any, hyps: list[str], refs: list[list[str]]) -> list | None:
    """Per-segment error spans of a metric that marks them (xCOMET's ``error_spans``)."""
    if not callable(getattr(metric, "error_spans", None)):
        return None
    try:
        return metric.error_spans(hyps, refs)
    except NlgMetricsError:
        return None


@dataclass
class MetricResult:
    """Every system's result for one metric, baseline first."""

    name: str  # as given (registry name)
    label: str  # the score's own name, e.g. "BLEU"
    signature: str  # the metric's signature
    ci_signature: str | None  # with bs/seed (the interval and the paired test share it)
    rows: list[SystemRow]
    note: str | None = None  # why there are no intervals, when there are none


@dataclass
class LengthRow:
    system: str
    segments: int
    words: int
    ref_words: float
    empty: int
    lengths: np.ndarray = field(repr=False)

    @property
    def mean_words(self) -> float:
        return self.words / self.segments if self.segments else 0.0

    @property
    def ratio(self) -> float:
        return self.words / self.ref_words if self.ref_words else 0.0


@dataclass
class TextReport:
    systems: list[str]
    references: list[list[str]]
    hypotheses: dict[str, list[str]]
    metrics: list[MetricResult]
    lengths: list[LengthRow]
    n_resamples: int
    seed: int
    alpha: float
    version: str
    # system file -> the short name shown (`report --names`); empty: the distinct part of the file names
    names: dict[str, str] = field(default_factory=dict)


def _sentence_scores(metric: Any, stats: Any, hyps: list[str], refs: list[list[str]], scorer: Any = None) -> np.ndarray | None:
    """Segment scores by ``scorer`` (the sentence-level configuration, e.g. BLEU with
    effective order; default ``metric``), from ``metric``'s statistics when they agree."""
    scorer = metric if scorer is None else scorer
    try:
        if stats is not None and segment_local(metric) and segment_local(scorer) and scorer.key == metric.key:
            return np.asarray(scorer._sentence_scores(stats), dtype=np.float64)  # already per segment: no second pass
        return np.asarray(scorer.sentence_scores(hyps, refs), dtype=np.float64)
    except (NlgMetricsError, NotImplementedError, TypeError):
        return None  # corpus-only metrics (e.g. Distinct-n) have no segment scores to plot


def _lengths(system: str, hyps: list[str], refs: list[list[str]]) -> LengthRow:
    lengths = np.array([len(h.split()) for h in hyps], dtype=np.int64)
    # each segment's references count as their mean length
    ref_words = float(sum(np.mean([len(r.split()) for r in rs]) if rs else 0.0 for rs in refs))
    return LengthRow(system, len(hyps), int(lengths.sum()), ref_words, int(sum(1 for h in hyps if not h.strip())), lengths)


def _has_segment_stats(metric: Any) -> bool:
    """Whether ``metric.stats(predictions, references)`` gives per-segment statistics
    (Self-BLEU, for one, scores a set of outputs against itself and has none)."""
    try:
        params = inspect.signature(metric.stats).parameters
    except (AttributeError, TypeError, ValueError):
        return False
    return len(params) >= 2


def _corpus_only(metric_name: str, metric: Any, names: list[str], hyps: dict[str, list[str]], refs: list[list[str]], scorer: Any = None) -> MetricResult:
    rows = []
    for n in names:
        score = metric.corpus_score(hyps[n], refs)
        rows.append(SystemRow(n, score.to_dict(), None, None, None, None, None, None, _sentence_scores(metric, None, hyps[n], refs, scorer), _error_spans(metric, hyps[n], refs)))
    first = metric.corpus_score(hyps[names[0]], refs)
    return MetricResult(metric_name, first.name, first.signature.format(), None, rows, "no bootstrap intervals or significance tests: the metric has no per-segment statistics")


def _with_intervals(metric_name: str, metric: Any, names: list[str], stats: dict[str, Any], hyps: dict[str, list[str]], refs: list[list[str]], n_resamples: int, seed: int, n_threads: int, method: str = "nlgmetrics", show: bool = False, scorer: Any = None) -> MetricResult:
    from ..engines.significance import bootstrap_ci, paired_test_stats

    try:
        # one step per system's interval, and one for the paired test of all of them
        steps = track(names + ([None] if len(names) > 1 else []), desc=f"{metric_name} bootstrap", unit="step", total=len(names) + (len(names) > 1), size=lambda _: 1, show=show)
        cis: dict[str, Any] = {}
        for n in steps:
            if n is not None:
                cis[n] = bootstrap_ci(metric, stats[n], n_resamples=n_resamples, seed=seed, method=method, n_threads=n_threads)
        p_values: dict[str, float | None] = {names[0]: None}
        if len(names) > 1:
            paired = paired_test_stats(
                metric, (names[0], stats[names[0]]), [(n, stats[n]) for n in names[1:]],
                test="bs", n_samples=n_resamples, seed=seed, method=method, n_threads=n_threads,
            )
            p_values.update({row.name: row.p_value for row in paired.systems[1:]})
        note = None
    except NlgMetricsError as e:  # a metric the resampling cannot score: report it without intervals
        cis, p_values, note = {}, {}, f"no bootstrap intervals or significance tests: {e}"
    rows = []
    for n in names:
        ci = cis.get(n)
        score = ci.score if ci is not None else metric.score_stats(stats[n])
        interval = (ci.mean, ci.ci, ci.lower, ci.upper, p_values[n], ci.scores) if ci is not None else (None,) * 6
        rows.append(SystemRow(n, score.to_dict(), *interval, _sentence_scores(metric, stats[n], hyps[n], refs, scorer), _error_spans(metric, hyps[n], refs)))
    first = cis.get(names[0])
    base_score = first.score if first is not None else metric.score_stats(stats[names[0]])
    return MetricResult(metric_name, base_score.name, base_score.signature.format(), first.signature.format() if first else None, rows, note)


def text_report(
    metrics: Sequence[tuple[str, Any]],
    systems: Sequence[tuple[str, Sequence[str]]],
    references: Sequence[Sequence[str]],
    *,
    n_resamples: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    show_progress: bool | None = None,
    n_threads: int = 0,
    method: str = "nlgmetrics",
    names: dict[str, str] | None = None,
    sentence_metrics: dict[str, Any] | None = None,
) -> TextReport:
    """Score every system (the first is the baseline) with every ``(name, metric)``.

    ``references[i]`` are the references of segment ``i``; ``method`` is the resampling
    of the intervals and paired tests (``"sacrebleu"``: sacrebleu's draws and numbers);
    ``names`` maps system names to the short names shown (default: :func:`display_names`);
    ``sentence_metrics`` maps a metric's name to the configuration scoring its segments
    (``nlgmetrics report`` passes what ``score --sentence-level`` loads, e.g. BLEU with
    effective order; default: the metric itself).
    """
    from .. import __version__

    if not systems:
        raise InvalidInputError("a report needs at least one system")
    if not 0 < alpha < 1:
        raise InvalidInputError(f"alpha must be in (0, 1), got {alpha!r}")
    names_given = dict(names or {})
    names = [str(n) for n, _ in systems]
    if len(set(names)) != len(names):
        raise InvalidInputError("system names must be unique")
    short = {**display_names(names), **names_given}
    sentence = dict(sentence_metrics or {})
    refs = [list(r) for r in references]
    hyps = {name: list(h) for name, h in systems}
    for name, h in hyps.items():
        if len(h) != len(refs):
            raise LengthMismatchError(f"{name} has {len(h)} segments but there are references for {len(refs)}")
    if not refs:
        raise InvalidInputError("no segments to score")
    show = enabled() if show_progress is None else show_progress
    if not show:
        chunk_size = len(refs)  # no bar to drive: one core call per system
    results = []
    for metric_name, metric in metrics:
        if not _has_segment_stats(metric):
            results.append(_corpus_only(metric_name, metric, names, hyps, refs, sentence.get(metric_name)))
            continue
        stats = {n: chunked_stats(metric, hyps[n], refs, chunk_size=chunk_size, desc=f"{short.get(n, n)} {metric_name}", show=show) for n in names}
        results.append(_with_intervals(metric_name, metric, names, stats, hyps, refs, n_resamples, seed, n_threads, method, show, sentence.get(metric_name)))
    lengths = [_lengths(n, hyps[n], refs) for n in names]
    return TextReport(names, refs, hyps, results, lengths, n_resamples, seed, alpha, __version__, names_given)
