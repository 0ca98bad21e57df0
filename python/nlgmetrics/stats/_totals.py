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

numpy is imported when an array is first needed, not with this module: a corpus score
computed from totals the core summed (``Metric._total_lists``) never needs it, which
keeps a fresh interpreter's first score cheap.
"""

from __future__ import annotations

import math
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)

from ..errors import IncompatibleStatsError

if TYPE_CHECKING:
    from typing import Any, Iterable, Sequence

    import numpy as np


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
    import numpy as np

    return float(np.mean(np.ascontiguousarray(values, dtype=np.float64)))


def ordered_column_means(values: np.ndarray) -> np.ndarray:
    """:func:`ordered_mean` of each column of an n × k sequence: ``numpy.mean`` of the
    column as its own 1-D array (pairwise), as a reference averaging one list of
    per-segment values per field does. ``np.mean(values, axis=0)`` would add the rows one
    after the other instead, other bits."""
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    return np.array([ordered_mean(values[:, j]) for j in range(values.shape[1])], dtype=np.float64)


def sequential_column_sums(values: np.ndarray) -> np.ndarray:
    """Each column of an n × k sequence (or an n-vector) summed one segment after the
    other, from 0 (a reference accumulating ``total += value`` per segment, as nltk's corpus
    NIST and sacrebleu's ``sum_of_lists`` do)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    if not len(values):
        return np.zeros(values.shape[1:], dtype=np.float64)
    return np.cumsum(values, axis=0)[-1]  # accumulate adds strictly in order


# The ordered per-segment values a merged total keeps at most. Past it the order is dropped
# and the corpus value falls back to the exactly rounded mean or sum (within the bound each
# metric's page states), so streaming memory stays bounded on any input size.
SEQUENCE_LIMIT_BYTES = 64 << 20


def _concat_sequences(a: "Stats", b: "Stats") -> np.ndarray | None:
    """Ordered concatenation; an empty side is the identity, and a non-empty side without
    a sequence (statistics rebuilt from sums alone) makes the order unknown (``None``), as
    does a concatenation past :data:`SEQUENCE_LIMIT_BYTES`."""
    if b.n_segments == 0 and b.sequence is None:
        return a.sequence
    if a.n_segments == 0 and a.sequence is None:
        return b.sequence
    if a.sequence is None or b.sequence is None:
        return None
    if a.sequence.nbytes + b.sequence.nbytes > SEQUENCE_LIMIT_BYTES:
        return None
    import numpy as np

    return np.concatenate([a.sequence, b.sequence])


def _same_sequence(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is b
    if a.shape != b.shape:
        return False
    if a.dtype == object or b.dtype == object:
        return a.tolist() == b.tolist()
    import numpy as np

    return np.array_equal(a, b)


def _column_partials(column: np.ndarray) -> tuple[float, ...]:
    """:func:`exact_partials` of a column, in Rust when every value is finite (the same
    algorithm, so the same partials, without a Python-level loop per row)."""
    import numpy as np

    if len(column) and np.isfinite(column).all():
        from .. import _core

        return tuple(_core.exact_partials(np.ascontiguousarray(column, dtype=np.float64)))
    return exact_partials(column)


_UINT64 = (1 << 64) - 1
_STATS_FIELDS = ("key", "count_fields", "counts", "sum_fields", "sum_partials", "n_segments", "ref_counts", "tables", "tail", "sequence")


class Stats:
    """Reduced statistics of one metric configuration (see module docstring); immutable.

    ``Stats(key, count_fields, counts, sum_fields=(), sum_partials=(), n_segments=0,
    ref_counts=frozenset(), tables={}, tail=None, sequence=None)``. ``counts`` is read as a uint64 array;
    it may be given as a tuple of Python ints (totals a core function summed), then the
    array is built on first read. A plain class rather than a dataclass: ``dataclasses``
    (with ``inspect``) would be most of a fresh interpreter's import time. ``replace``
    is ``dataclasses.replace``.
    """

    __hash__ = None  # type: ignore[assignment]  # the counts are an array

    key: str
    count_fields: tuple[str, ...]
    sum_fields: tuple[str, ...]
    sum_partials: tuple[tuple[float, ...], ...]
    n_segments: int
    ref_counts: frozenset[int]
    tables: dict[str, dict[Any, int]]
    tail: Any
    sequence: np.ndarray | None

    def __init__(
        self,
        key: str,
        count_fields: tuple[str, ...],
        counts: Any,
        sum_fields: tuple[str, ...] = (),
        sum_partials: tuple[tuple[float, ...], ...] = (),
        n_segments: int = 0,
        ref_counts: frozenset[int] = frozenset(),
        tables: dict[str, dict[Any, int]] | None = None,
        tail: Any = None,
        sequence: np.ndarray | None = None,
    ):
        self.__dict__.update(
            key=key,
            count_fields=count_fields,
            _counts_value=counts,
            sum_fields=sum_fields,
            sum_partials=sum_partials,
            n_segments=n_segments,
            ref_counts=ref_counts,
            tables={} if tables is None else tables,
            tail=tail,
            sequence=sequence,
        )

    @property
    def counts(self) -> np.ndarray:
        value = self._count_values()
        if type(value) is tuple:
            import numpy as np

            value = np.array(value, dtype=np.uint64)
            self.__dict__["_counts_value"] = value
        return value

    def _count_values(self) -> Any:
        """The counts as given (a tuple of ints or an array), for a core call that
        accepts either, without importing numpy."""
        d = self.__dict__
        return d["_counts_value"] if "_counts_value" in d else d["counts"]  # a pickle of an older version: "counts"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def replace(self, **changes: Any) -> "Stats":
        """A copy with some fields changed."""
        values = {f: getattr(self, f) for f in _STATS_FIELDS if f != "counts"}
        values["counts"] = self._count_values()
        unknown = set(changes) - set(_STATS_FIELDS)
        if unknown:
            raise TypeError(f"Stats has no field {sorted(unknown)[0]!r}")
        return Stats(**{**values, **changes})

    def __repr__(self) -> str:
        return "Stats(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in _STATS_FIELDS) + ")"

    @classmethod
    def zero(cls, key: str, count_fields: Sequence[str], sum_fields: Sequence[str] = ()) -> "Stats":
        return cls(
            key=key,
            count_fields=tuple(count_fields),
            counts=(0,) * len(count_fields),
            sum_fields=tuple(sum_fields),
            sum_partials=tuple(() for _ in sum_fields),
        )

    @property
    def sums(self) -> np.ndarray:
        """The float sums, each exactly rounded."""
        import numpy as np

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
        mine, theirs = self._count_values(), other._count_values()
        if type(mine) is tuple and type(theirs) is tuple and len(mine) == len(theirs):
            counts: Any = tuple((a + b) & _UINT64 for a, b in zip(mine, theirs))  # as uint64 adds; no numpy
        else:
            counts = self.counts + other.counts
        return Stats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
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
        import numpy as np

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
