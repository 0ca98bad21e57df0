"""Per-segment statistics; ``nlgmetrics.stats.SegmentStats`` (see :mod:`nlgmetrics.stats`).

Its own module so that importing :mod:`nlgmetrics.stats` does not import ``dataclasses``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..errors import IncompatibleStatsError
from ._totals import Stats, _column_partials


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


SegmentStats.__module__ = "nlgmetrics.stats"  # its public home (pickles name it there)
