"""Block-level work shared by the Ray and Spark faces (and shaped like the Dask one).

A *block* is a pandas DataFrame holding a contiguous run of rows. Every function here
runs on a worker and returns statistics only: corpus tables (phase one of CIDEr-D and
NIST), :class:`~nlgmetrics.stats.Stats` totals with optional Poisson-bootstrap totals
keyed by global segment ids, or segment-score columns. Totals merge exactly and in
block order (``merge``), so any blocking of a corpus gives the local bits.

A *job* is ``(metric, prediction column)``: ``score`` runs several metrics over one
column, a paired test one metric over several system columns.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..engines import two_phase
from ..errors import InvalidInputError
from ..metrics.base import empty_input
from ..stats import Stats
from ._failures import BlockFailure, column_names, first_failure, guarded, missing_column

Job = tuple[Any, str]


def to_pandas(block: Any) -> Any:
    """A pandas view of a block (a pyarrow Table, a pandas DataFrame or a dict of columns)."""
    if hasattr(block, "to_pandas"):
        return block.to_pandas()
    if isinstance(block, Mapping):
        import pandas as pd

        return pd.DataFrame(dict(block))
    return block


def _column(frame: Any, name: str) -> Any:
    if name not in frame.columns:
        raise missing_column(name, frame.columns)
    return frame[name]


def _cell(value: Any) -> Any:
    # arrow list<string> cells arrive as numpy arrays; a metric wants lists of str
    return value.tolist() if hasattr(value, "tolist") else value


def inputs(frame: Any, prediction: str, references: str | None, sources: str | None) -> tuple[list[Any], Any, Any]:
    preds = [_cell(v) for v in _column(frame, prediction)]
    refs = None if references is None else [_cell(v) for v in _column(frame, references)]
    srcs = None if sources is None else [_cell(v) for v in _column(frame, sources)]
    return preds, refs, srcs


def _takes_sources(fn: Any) -> bool:
    import inspect

    try:
        return "sources" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _call(metric: Any, method: str, preds: list[Any], refs: Any, srcs: Any) -> Any:
    """``metric.<method>(preds, refs)``, with ``sources=`` for the metrics that read them (COMET)."""
    fn = getattr(metric, method)
    if srcs is not None and _takes_sources(fn):
        return fn(preds, refs, sources=srcs)
    return fn(preds, refs)


def block_tables(block: Any, jobs: Sequence[Job], references: str | None, sources: str | None, part: int = 0, start: int = 0) -> list[Any] | BlockFailure:
    """Phase one on one block: each job's corpus table (merges with ``+``), or the
    block's typed error (``part``, ``start``: where the block's rows begin)."""
    frame = to_pandas(block)
    if not len(frame):
        return [None] * len(jobs)
    from .._inputs import as_references

    def tables() -> list[Any]:
        refs = [_cell(v) for v in _column(frame, references)] if references is not None else []
        refs = as_references(refs) if refs else refs
        return [two_phase.fit_table(m, refs) for m, _ in jobs]

    return guarded(tables, part, start, column_names(None, references, sources))


def bind(jobs: Sequence[Job], tables: Mapping[int, Any]) -> list[Job]:
    """The jobs with their corpus tables; a table of no rows (``None``) binds nothing:
    an empty dataset has nothing to score (``finish`` says so) and no segment to score."""
    return [(two_phase.bind_table(m, tables[i]) if tables.get(i) is not None else m, col) for i, (m, col) in enumerate(jobs)]


def block_totals(
    block: Any, jobs: Sequence[Job], references: str | None, sources: str | None, offset: int | None, bootstrap: tuple[int, int] | None,
    part: int = 0, start: int = 0,
) -> list[tuple[Stats, Any]] | BlockFailure:
    """Phase two on one block: per job, its total and (with ``bootstrap``) its
    Poisson-resampled totals keyed by the global ids ``offset, offset+1, ...``; or the
    block's typed error (``part``, ``start``: where the block's rows begin)."""
    frame = to_pandas(block)
    if not len(frame):
        return [(None, None)] * len(jobs)
    out = []
    for metric, column in jobs:
        def job() -> tuple[Stats, Any]:
            preds, refs, srcs = inputs(frame, column, references, sources)
            return total_and_resampled(metric, _call(metric, "stats", preds, refs, srcs), offset, bootstrap)

        got = guarded(job, part, start, column_names(column, references, sources))
        if isinstance(got, BlockFailure):
            return got
        out.append(got)
    return out


def block_check(block: Any, jobs: Sequence[Job], references: str | None, sources: str | None, part: int = 0, start: int = 0) -> BlockFailure | None:
    """The inputs of one block checked as the local call checks them (no scoring where
    the metric's checks stand apart from its work): ``segment_scores`` runs this first,
    so a bad row is a typed error on the driver, not a failure of a lazy stage."""
    frame = to_pandas(block)
    if not len(frame):
        return None
    for metric, column in jobs:
        def check() -> None:
            preds, refs, srcs = inputs(frame, column, references, sources)
            _check_inputs(metric, preds, refs, srcs)

        got = guarded(check, part, start, column_names(column, references, sources))
        if got is not None:
            return got
    return None


def _check_inputs(metric: Any, preds: list[Any], refs: Any, srcs: Any) -> None:
    from ..metrics.base import Metric

    if isinstance(metric, Metric) and type(metric).stats is Metric.stats:
        metric._prepare(preds, refs)  # the base path's own checks, without the scoring
    elif type(metric).__module__.startswith("nlgmetrics.neural."):
        from .._inputs import as_references, as_texts

        as_texts(preds, "predictions")  # a model metric's checks without running the model
        if refs is not None:
            as_references(refs, len(preds))
        if srcs is not None:
            as_texts(srcs, "sources")
    else:
        _call(metric, "stats", preds, refs, srcs)


def total_and_resampled(metric: Any, seg: Any, offset: int | None, bootstrap: tuple[int, int] | None) -> tuple[Stats, Any]:
    """A part's total and (with ``bootstrap``) its Poisson-resampled totals keyed by the
    global segment ids ``offset, offset+1, ...`` (every engine's parts)."""
    resampled = None
    if bootstrap is not None and len(seg):
        import numpy as np

        from ..engines.significance import poisson_totals

        n_resamples, seed = bootstrap
        ids = np.arange(offset, offset + len(seg), dtype=np.uint64)
        resampled = poisson_totals(metric, seg, segment_ids=ids, n_resamples=n_resamples, seed=seed, n_threads=metric.n_threads)
    return seg.total(), resampled


def block_scores(block: Any, columns: Mapping[str, Job], references: str | None, sources: str | None) -> Any:
    """The block with one float64 column of segment scores per entry of ``columns``."""
    frame = to_pandas(block)
    out = frame.copy()
    for name, (metric, column) in columns.items():
        preds, refs, srcs = inputs(frame, column, references, sources)
        out[name] = _call(metric, "sentence_scores", preds, refs, srcs)
    return out


def merge(*parts: list[Any] | BlockFailure) -> list[Any] | BlockFailure:
    """Element-wise merge of per-job results in the order given (``None`` is the identity)."""

    def add(a: Any, b: Any) -> Any:
        if isinstance(a, tuple):
            return tuple(add(x, y) for x, y in zip(a, b))
        if a is None:
            return b
        if b is None:
            return a
        return a + b

    failed = first_failure(parts)
    if failed is not None:
        return failed  # the first in dataset order: parts merge in that order
    parts = tuple(p for p in parts if p is not None)  # a block with nothing to report
    if not parts:
        return None
    out = parts[0]
    for p in parts[1:]:
        out = [add(a, b) for a, b in zip(out, p)]
    return out


def finish(metric: Any, bound: Any, total: Stats, resampled: Any, boot: tuple[int, int] | None) -> Any:
    """A Score (or a ConfidenceInterval with ``boot``) from the merged statistics."""
    if total is None or total.n_segments == 0:
        raise empty_input(metric.name, "the dataset is empty")
    total = two_phase.as_corpus_total(metric, total)
    value = metric.score_stats(total)
    if boot is None:
        return value
    from ..engines.significance import ConfidenceInterval, _estimate, _resampling_item, resampling_signature

    scores = resampled.scores(bound)
    mean, ci, lo, hi = _estimate(scores, "exact")
    sig = resampling_signature(metric, _Total(total), bs=boot[0], seed=str(boot[1]), resampling=_resampling_item("nlgmetrics", "poisson"))
    return ConfidenceInterval(value, mean, ci, lo, hi, scores, sig)


def finish_all(jobs: Sequence[Job], bound: Sequence[Job], merged: list[Any], boot: tuple[int, int] | None) -> list[Any]:
    return [finish(m, b, total, res, boot) for (m, _), (b, _), (total, res) in zip(jobs, bound, merged)]


def finish_paired(metric: Any, bound: Any, names: Sequence[str], merged: list[Any], boot: tuple[int, int]) -> Any:
    """The paired bootstrap test of every system against the first (the baseline), as
    ``paired_test_stats(..., test="bs", resampling="poisson")`` computes it locally."""
    import math

    import numpy as np

    from ..engines.significance import PairedTestResult, SystemResult, _estimate, _p_value, _resampling_item, resampling_signature

    if any(t is None for t, _ in merged):
        raise empty_input(metric.name, "the dataset is empty")
    totals = [two_phase.as_corpus_total(metric, t) for t, _ in merged]
    if any(t.n_segments != totals[0].n_segments for t in totals):
        raise InvalidInputError("every system needs a prediction on every row")
    if totals[0].n_segments == 0:
        raise empty_input(metric.name, "the dataset is empty")
    full_scores = [metric.score_stats(t) for t in totals]
    full = [s.score for s in full_scores]
    scores = [res.scores(bound) for _, res in merged]
    rows = [SystemResult(names[0], full[0], is_baseline=True)]
    rows[0].mean, rows[0].ci = _estimate(scores[0], "exact")[:2]
    for name, s_full, s_res in zip(names[1:], full[1:], scores[1:]):
        diff = abs(full[0] - s_full)
        d = np.abs(s_res - scores[0])
        centre = math.fsum(d.tolist()) / len(d)
        mean, ci = _estimate(s_res, "exact")[:2]
        rows.append(SystemResult(name, s_full, _p_value(d - centre, diff), mean, ci))
    sig = resampling_signature(metric, _Total(totals[0]), bs=boot[0], seed=str(boot[1]), resampling=_resampling_item("nlgmetrics", "poisson"))
    return PairedTestResult(full_scores[0].name, "bs", boot[0], rows, sig)


class _Total:
    """Stands in for SegmentStats where only ``total()`` is read."""

    def __init__(self, total: Stats):
        self._total = total

    def total(self) -> Stats:
        return self._total
