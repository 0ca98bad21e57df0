"""Score Dask collections: per-partition statistics, reduced with a tree reduction.

``score(collection, metrics)`` takes a ``dask.bag.Bag`` of records (dicts with
``"prediction"`` and ``"references"``, or ``(prediction, references)`` pairs) or a
``dask.dataframe.DataFrame`` with those two columns (names configurable). Each partition
is reduced to a :class:`~nlgmetrics.Stats` total on a worker; totals merge exactly in a
tree (``split_every`` at a time), so the result is the local ``corpus_score``'s to the
last bit, whatever the partitioning.

Two-phase metrics (CIDEr-D's document frequencies, NIST's information weights) reduce
their corpus table first (one pass), then the table is broadcast to the second pass
(:mod:`nlgmetrics.engines.two_phase`). With ``n_resamples=N`` each partition also computes its
Poisson-bootstrap totals keyed by global segment ids (:func:`~nlgmetrics.engines.significance.poisson_totals`),
so the confidence interval equals ``bootstrap_ci(..., resampling="poisson")`` on the
whole corpus, bit for bit.

Requires the ``[dask]`` extra (``pip install nlgmetrics[dask]``); this module imports
``dask`` (the real one: absolute imports) only when called.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..engines import two_phase
from ..errors import InputTypeError, InvalidOptionError, MissingColumnError, MissingExtraError
from ..stats import Stats
from ..metrics.base import empty_input
from ._blocks import merge as merge_parts
from ._blocks import total_and_resampled
from ._failures import BlockFailure, column_names, guarded, missing_column, raise_located


def _dask() -> Any:
    try:
        import dask  # the top-level package, not this module
    except ImportError:
        raise MissingExtraError("nlgmetrics.integrations.dask needs dask: pip install 'nlgmetrics[dask]'") from None
    return dask


# -- per-partition work (runs on the workers) -------------------------------------------
def _records(part: Any, prediction: str, references: str) -> tuple[list[str], list[Any]]:
    """``(predictions, references)`` of one partition (a list of records or a pandas frame)."""
    if hasattr(part, "columns"):
        missing = [c for c in (prediction, references) if c not in part.columns]
        if missing:
            raise missing_column(missing[0], part.columns)
        return list(part[prediction]), [r.tolist() if hasattr(r, "tolist") else r for r in part[references]]
    preds: list[str] = []
    refs: list[Any] = []
    for rec in part:
        if isinstance(rec, Mapping):
            try:
                preds.append(rec[prediction])
                refs.append(rec[references])
            except KeyError:
                raise MissingColumnError(f"bag records need keys {prediction!r} and {references!r}; got {sorted(rec)[:5]}") from None
        elif isinstance(rec, (tuple, list)) and len(rec) == 2:
            preds.append(rec[0])
            refs.append(rec[1])
        else:
            raise InputTypeError(f"bag records must be dicts or (prediction, references) pairs, got {type(rec).__name__}")
    return preds, refs


def _part_length(part: Any, prediction: str, references: str) -> int:
    return len(_records(part, prediction, references)[0])


# A partition's typed error comes back as a value (BlockFailure, the partition's index as
# its part) and is raised on the driver with the row of the whole collection.
def _part_tables(part: Any, metrics: Sequence[Any], prediction: str, references: str, index: int = 0) -> Any:
    def tables() -> list[Any]:
        _, refs = _records(part, prediction, references)
        from .._inputs import as_references

        return [two_phase.fit_table(m, as_references(refs)) for m in _unbundle(metrics)]

    return guarded(tables, index, 0, column_names(None, references, None))


def _part_totals(
    part: Any, metrics: Sequence[Any], prediction: str, references: str, offset: int | None, bootstrap: tuple[int, int] | None, index: int = 0
) -> Any:
    def totals() -> list[tuple[Stats, Any]]:
        preds, refs = _records(part, prediction, references)
        return [total_and_resampled(m, m.stats(preds, refs), offset, bootstrap) for m in _unbundle(metrics)]

    return guarded(totals, index, 0, column_names(prediction, references, None))


def _tree_reduce(dask: Any, items: list[Any], split_every: int) -> Any:
    """Merge delayed results in a tree, keeping partition order (merges are exact, and
    order-dependent extras such as nltk's ``tail`` keep the last partition's)."""
    merge = dask.delayed(merge_parts, pure=False)
    while len(items) > 1:
        items = [merge(*items[i:i + split_every]) if len(items[i:i + split_every]) > 1 else items[i] for i in range(0, len(items), split_every)]
    return items[0]


def _shared(dask: Any, metrics: list[Any], uuid: Any) -> Any:
    """The metrics (and their corpus tables) as one named graph node: named, so that
    Dask neither hashes the tables nor embeds a copy in every task."""
    return dask.delayed(_Bundle(metrics), name=f"nlgmetrics-metrics-{uuid.uuid4().hex}")


class _Bundle:
    """A list Dask must not traverse (it would split it into one node per metric)."""

    def __init__(self, items: list[Any]):
        self.items = items


def _unbundle(metrics: Any) -> list[Any]:
    return metrics.items if isinstance(metrics, _Bundle) else list(metrics)


def _partitions(collection: Any) -> list[Any]:
    if not hasattr(collection, "to_delayed"):
        raise InputTypeError(f"expected a dask Bag or DataFrame, got {type(collection).__name__}")
    parts = collection.to_delayed()
    if hasattr(parts, "ravel"):
        parts = list(parts.ravel())
    return list(parts)


# -- the public call -----------------------------------------------------------------
def score(
    collection: Any,
    metrics: Any,
    *,
    prediction: str = "prediction",
    references: str = "references",
    tables: Mapping[int, Any] | None = None,
    split_every: int = 16,
    n_resamples: int | None = None,
    seed: int = 12345,
    scheduler: Any = None,
) -> Any:
    """Corpus scores of a Dask Bag or DataFrame (one :class:`Score` per metric, or one
    for a single metric; with ``n_resamples`` a
    :class:`~nlgmetrics.engines.significance.ConfidenceInterval` each).

    ``tables={i: table}`` fixes the corpus table of metric ``i`` (skipping phase one);
    ``scheduler`` is passed to ``dask.compute`` (a ``distributed.Client`` is used
    automatically when one is active).
    """
    dask = _dask()
    import uuid

    items, single = (list(metrics), False) if isinstance(metrics, (list, tuple)) else ([metrics], True)
    if not isinstance(split_every, int) or split_every < 2:
        raise InvalidOptionError(f"split_every must be an integer >= 2, got {split_every!r}")
    compute: Callable[..., Any] = (lambda *xs: dask.compute(*xs, scheduler=scheduler)) if scheduler is not None else dask.compute
    parts = _partitions(collection)
    if not parts:
        raise empty_input(getattr(items[0], "name", "score"), "the collection has no partitions")
    tables = dict(tables or {})
    lengths: list[int] = []

    def offsets() -> dict[int, int]:
        """Each partition's first row (the partitions are counted only when needed)."""
        if not lengths:
            count = dask.delayed(_part_length, pure=False)
            lengths.extend(compute(*[count(p, prediction, references) for p in parts]))
        out, acc = {}, 0
        for k, n in enumerate(lengths):
            out[k] = acc
            acc += n
        return out

    # phase one: corpus tables of the two-phase metrics, reduced then broadcast
    missing = [i for i, m in enumerate(items) if two_phase.needs_table(m) and i not in tables]
    if missing:
        fit = dask.delayed(_part_tables, pure=False)
        chosen = _shared(dask, [items[i] for i in missing], uuid)
        per_part = [fit(p, chosen, prediction, references, k) for k, p in enumerate(parts)]
        (merged,) = compute(_tree_reduce(dask, per_part, split_every))
        if isinstance(merged, BlockFailure):
            raise_located(merged, offsets)
        if merged is None:
            raise empty_input(items[missing[0]].name, "the collection is empty")
        tables.update(zip(missing, merged))
    bound = [two_phase.bind_table(m, tables[i]) if i in tables else m for i, m in enumerate(items)]

    starts: list[int | None] = [None] * len(parts)
    boot = None
    if n_resamples is not None:
        from ..engines.significance import _check_count, _resolve_seed

        boot = (_check_count("n_resamples", n_resamples), _resolve_seed(seed, "nlgmetrics")[0])
        for k, first in offsets().items():
            starts[k] = first

    # phase two: per-partition totals, tree-reduced
    totals = dask.delayed(_part_totals, pure=False)
    shared = _shared(dask, bound, uuid)  # one graph node: sent once per worker, not per task
    per_part = [totals(p, shared, prediction, references, off, boot, k) for k, (p, off) in enumerate(zip(parts, starts))]
    (merged,) = compute(_tree_reduce(dask, per_part, split_every))
    if isinstance(merged, BlockFailure):
        raise_located(merged, offsets)
    if merged is None:
        raise empty_input(items[0].name, "the collection is empty")
    results = [_result(m, b, total, resampled, boot) for m, b, (total, resampled) in zip(items, bound, merged)]
    return results[0] if single else results


def _result(metric: Any, bound: Any, total: Stats, resampled: Any, boot: tuple[int, int] | None) -> Any:
    if total is None or total.n_segments == 0:
        raise empty_input(metric.name, "the collection is empty")
    total = two_phase.as_corpus_total(metric, total)
    value = metric.score_stats(total)
    if boot is None:
        return value
    from ..engines.significance import ConfidenceInterval, _estimate, _resampling_item, resampling_signature

    scores = resampled.scores(bound)
    mean, ci, lo, hi = _estimate(scores, "exact")
    sig = resampling_signature(metric, _Total(total), bs=boot[0], seed=str(boot[1]), resampling=_resampling_item("nlgmetrics", "poisson"))
    return ConfidenceInterval(value, mean, ci, lo, hi, scores, sig)


class _Total:
    """Stands in for SegmentStats where only ``total()`` is read."""

    def __init__(self, total: Stats):
        self._total = total

    def total(self) -> Stats:
        return self._total


def client_mapper(client: Any, window: int | None = None) -> Callable[[Callable[..., Any], Any], Any]:
    """A :mod:`nlgmetrics.engines.streaming` mapper that runs each chunk's work on a
    ``distributed.Client``, at most ``window`` chunks in flight (default: two per worker
    thread), yielding results in chunk order so merges stay exact and bounded."""
    if window is None:
        window = 2 * max(1, sum(client.nthreads().values()))

    def mapper(fn: Callable[..., Any], args: Any) -> Any:
        from collections import deque

        import warnings

        pending: deque = deque()
        for a in args:
            with warnings.catch_warnings():  # a chunk is data by design: no "large graph" advice
                warnings.filterwarnings("ignore", message="Sending large graph")
                pending.append(client.submit(fn, *a, pure=False))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    return mapper


def connect(address: str) -> Any:
    """A ``distributed.Client`` for a scheduler address (``tcp://host:8786``)."""
    try:
        from distributed import Client
    except ImportError:
        raise MissingExtraError("--scheduler needs distributed: pip install 'nlgmetrics[dask]'") from None
    return Client(address)
