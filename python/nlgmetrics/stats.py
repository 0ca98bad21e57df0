"""Mergeable sufficient statistics: the one path every metric, streaming run,
bootstrap and distributed reduction goes through.

- :class:`SegmentStats` holds one row of statistics per segment (integer ``counts`` as
  uint64, real-valued ``sums`` as float64). Bootstrap and paired tests resample rows.
- :class:`Stats` is a reduced total. Totals add with ``+`` and ``sum()`` (0 is the
  identity), pickle, and merge exactly: counts are integers, float sums are kept as exact
  partial sums, so any sharding of a corpus gives the same bits.
- ``tables`` hold corpus-wide count tables of two-phase metrics (document frequencies,
  n-gram information weights); they merge by key-wise addition.
- ``tail`` holds order-dependent extras of the last segment, for the rare reference that
  depends on segment order (nltk's corpus BLEU smoothing); merging keeps the right one.
- ``sequence`` keeps one value per segment in segment order (8 bytes a segment), for
  references whose corpus value is ``numpy.mean`` of per-segment scores (pycocoevalcap's
  CIDEr-D and ROUGE-L, nltk METEOR): numpy sums pairwise, so the bits depend on the order
  and the grouping, and only the ordered values reproduce them. Merging concatenates
  (``a + b`` puts ``b``'s segments after ``a``'s), so in-order shards give the
  single-pass bits; :func:`ordered_mean` is the reduction. A metric with several such
  values a segment (rouge-score's P, R and F per type) keeps them as the columns of an
  n × k sequence (8·k bytes a segment), reduced column by column by
  :func:`ordered_column_means`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from .errors import IncompatibleStatsError


def _msum_add(partials: list[float], x: float) -> None:
    i = 0
    for y in list(partials):
        if abs(x) < abs(y):
            x, y = y, x
        hi = x + y
        lo = y - (hi - x)
        if lo:
            partials[i] = lo
            i += 1
        x = hi
    del partials[i:]
    partials.append(x)


def exact_partials(values: Iterable[float], start: Sequence[float] = ()) -> tuple[float, ...]:
    """Shewchuk partials of ``start + values``; ``math.fsum`` of them is the exact sum."""
    partials = list(start)
    for v in values:
        _msum_add(partials, float(v))
    return tuple(partials)


def ordered_mean(values: np.ndarray) -> float:
    """``numpy.mean`` of per-segment values in segment order: numpy's pairwise summation
    (the reference's own reduction, so the same bits), divided by the count."""
    return float(np.mean(np.ascontiguousarray(values, dtype=np.float64)))


def ordered_column_means(values: np.ndarray) -> np.ndarray:
    """:func:`ordered_mean` of each column of an n × k sequence: ``numpy.mean`` of the
    column as its own 1-D array (pairwise), as a reference averaging one list of
    per-segment values per field does. ``np.mean(values, axis=0)`` would add the rows one
    after the other instead, other bits."""
    values = np.asarray(values, dtype=np.float64)
    return np.array([ordered_mean(values[:, j]) for j in range(values.shape[1])], dtype=np.float64)


def sequential_column_sums(values: np.ndarray) -> np.ndarray:
    """Each column of an n × k sequence (or an n-vector) summed one segment after the
    other, from 0 (a reference accumulating ``total += value`` per segment, as nltk's corpus
    NIST and sacrebleu's ``sum_of_lists`` do)."""
    values = np.asarray(values, dtype=np.float64)
    if not len(values):
        return np.zeros(values.shape[1:], dtype=np.float64)
    return np.cumsum(values, axis=0)[-1]  # accumulate adds strictly in order


def _concat_sequences(a: "Stats", b: "Stats") -> np.ndarray | None:
    """Ordered concatenation; an empty side is the identity, and a non-empty side without
    a sequence (statistics rebuilt from sums alone) makes the order unknown (``None``)."""
    if b.n_segments == 0 and b.sequence is None:
        return a.sequence
    if a.n_segments == 0 and a.sequence is None:
        return b.sequence
    if a.sequence is None or b.sequence is None:
        return None
    return np.concatenate([a.sequence, b.sequence])


def _column_partials(column: np.ndarray) -> tuple[float, ...]:
    """:func:`exact_partials` of a column, in Rust when every value is finite (the same
    algorithm, so the same partials, without a Python-level loop per row)."""
    if len(column) and np.isfinite(column).all():
        from . import _core

        return tuple(_core.exact_partials(np.ascontiguousarray(column, dtype=np.float64)))
    return exact_partials(column)


@dataclass(frozen=True)
class Stats:
    """Reduced statistics of one metric configuration (see module docstring)."""

    key: str
    count_fields: tuple[str, ...]
    counts: np.ndarray
    sum_fields: tuple[str, ...] = ()
    sum_partials: tuple[tuple[float, ...], ...] = ()
    n_segments: int = 0
    ref_counts: frozenset[int] = frozenset()
    tables: dict[str, dict[Any, int]] = field(default_factory=dict)
    tail: Any = None
    sequence: np.ndarray | None = None

    @classmethod
    def zero(cls, key: str, count_fields: Sequence[str], sum_fields: Sequence[str] = ()) -> "Stats":
        return cls(
            key=key,
            count_fields=tuple(count_fields),
            counts=np.zeros(len(count_fields), dtype=np.uint64),
            sum_fields=tuple(sum_fields),
            sum_partials=tuple(() for _ in sum_fields),
        )

    @property
    def sums(self) -> np.ndarray:
        """The float sums, each exactly rounded."""
        return np.array([math.fsum(p) for p in self.sum_partials], dtype=np.float64)

    def __add__(self, other: "Stats") -> "Stats":
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, Stats):
            return NotImplemented
        if other.key != self.key or other.count_fields != self.count_fields or other.sum_fields != self.sum_fields:
            raise IncompatibleStatsError(
                f"cannot merge statistics of {self.key!r} with statistics of {other.key!r}"
            )
        tables: dict[str, dict[Any, int]] = {}
        for name in self.tables.keys() | other.tables.keys():
            merged = dict(self.tables.get(name, {}))
            for k, v in other.tables.get(name, {}).items():
                merged[k] = merged.get(k, 0) + v
            tables[name] = merged
        return Stats(
            key=self.key,
            count_fields=self.count_fields,
            counts=self.counts + other.counts,
            sum_fields=self.sum_fields,
            sum_partials=tuple(
                exact_partials(b, a) for a, b in zip(self.sum_partials, other.sum_partials)
            ),
            n_segments=self.n_segments + other.n_segments,
            ref_counts=self.ref_counts | other.ref_counts,
            tables=tables,
            tail=other.tail if other.tail is not None else self.tail,
            sequence=_concat_sequences(self, other),
        )

    def __radd__(self, other: Any) -> "Stats":
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stats):
            return NotImplemented
        return (
            self.key == other.key
            and self.count_fields == other.count_fields
            and np.array_equal(self.counts, other.counts)
            and self.sum_fields == other.sum_fields
            and np.array_equal(self.sums, other.sums)
            and self.n_segments == other.n_segments
            and self.ref_counts == other.ref_counts
            and self.tables == other.tables
            and self.tail == other.tail
            and _same_sequence(self.sequence, other.sequence)
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: int(v) for k, v in zip(self.count_fields, self.counts)}
        out.update({k: float(v) for k, v in zip(self.sum_fields, self.sums)})
        out["n_segments"] = self.n_segments
        return out


def _same_sequence(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is b
    if a.shape != b.shape:
        return False
    if a.dtype == object or b.dtype == object:
        return a.tolist() == b.tolist()
    return np.array_equal(a, b)


@dataclass(frozen=True)
class SegmentStats:
    """Per-segment statistics: ``counts`` (n × k uint64) and ``sums`` (n × m float64).

    ``sequence_field`` names a sum field whose values :meth:`total` also keeps in order
    (``Stats.sequence``), for metrics reduced by :func:`ordered_mean`; a tuple of names
    keeps those columns in order (an n × k sequence, reduced by
    :func:`ordered_column_means`)."""

    key: str
    count_fields: tuple[str, ...]
    counts: np.ndarray
    sum_fields: tuple[str, ...] = ()
    sums: np.ndarray | None = None
    ref_counts: np.ndarray | None = None
    tails: list[Any] | None = None
    sequence_field: str | tuple[str, ...] | None = None

    def __len__(self) -> int:
        return int(self.counts.shape[0])

    def _sum_matrix(self) -> np.ndarray:
        if self.sums is None:
            return np.zeros((len(self), 0), dtype=np.float64)
        return self.sums

    def total(self) -> Stats:
        """Reduce to a :class:`Stats` total (integer sums; exact float sums)."""
        sums = self._sum_matrix()
        return Stats(
            key=self.key,
            count_fields=self.count_fields,
            counts=self.counts.sum(axis=0, dtype=np.uint64) if len(self) else np.zeros(len(self.count_fields), np.uint64),
            sum_fields=self.sum_fields,
            sum_partials=tuple(_column_partials(sums[:, j]) for j in range(sums.shape[1])),
            n_segments=len(self),
            ref_counts=frozenset(int(r) for r in np.unique(self.ref_counts)) if self.ref_counts is not None else frozenset(),
            tail=self.tails[-1] if self.tails else None,
            sequence=self._sequence(sums),
        )

    def _sequence(self, sums: np.ndarray) -> np.ndarray | None:
        if self.sequence_field is None:
            return None
        if isinstance(self.sequence_field, str):
            return np.array(sums[:, self.sum_fields.index(self.sequence_field)], dtype=np.float64)
        return np.array(sums[:, [self.sum_fields.index(f) for f in self.sequence_field]], dtype=np.float64)

    def row(self, i: int) -> Stats:
        """Statistics of segment ``i`` alone."""
        return self.take([i]).total()

    def take(self, indices: Sequence[int] | np.ndarray) -> "SegmentStats":
        idx = np.asarray(indices, dtype=np.intp)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=self.counts[idx],
            sum_fields=self.sum_fields,
            sums=None if self.sums is None else self.sums[idx],
            ref_counts=None if self.ref_counts is None else self.ref_counts[idx],
            tails=None if self.tails is None else [self.tails[i] for i in idx],
            sequence_field=self.sequence_field,
        )

    def __add__(self, other: "SegmentStats") -> "SegmentStats":
        """Concatenate (segments of ``other`` follow those of ``self``)."""
        if not isinstance(other, SegmentStats):
            return NotImplemented
        if other.key != self.key or other.count_fields != self.count_fields or other.sum_fields != self.sum_fields:
            raise IncompatibleStatsError(
                f"cannot concatenate statistics of {self.key!r} with statistics of {other.key!r}"
            )

        def cat(a, b):
            if a is None and b is None:
                return None
            return np.concatenate([a, b])

        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=np.concatenate([self.counts, other.counts]),
            sum_fields=self.sum_fields,
            sums=cat(self.sums, other.sums),
            ref_counts=cat(self.ref_counts, other.ref_counts),
            tails=None if self.tails is None and other.tails is None else (self.tails or []) + (other.tails or []),
            sequence_field=self.sequence_field if self.sequence_field == other.sequence_field else None,
        )
