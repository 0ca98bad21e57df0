"""lm-eval's multiple-choice values for a whole batch at once, when every document has the
common shape: log-likelihoods as lists of Python floats (or 1-D float64 arrays), choices as
lists of strings of the same length, an int gold, unconditional log-likelihoods absent or
shaped like the conditional ones.

Nothing runs per document in Python: the checks are ``map`` over the flattened values,
the lengths come from ``map(len, ...)``, and documents with the same number of choices are
gathered into one matrix whose rows go through numpy's ``argmax(axis=1)``, the same first-
maximum (and first-NaN) rule per row as ``np.argmax`` on one document. The divisions and the
subtraction are the same IEEE operations on the same operands as the per-document path in
:mod:`.multiple_choice`, which any other batch takes.
"""
from __future__ import annotations

from itertools import chain, repeat
from operator import is_not
from typing import Any

import numpy as np

_INT_TYPES = frozenset({int, np.int64, np.int32, np.intp})


def _flat_floats(rows: list) -> np.ndarray | None:
    """The rows' values in one float64 array, or None unless each row is a list of Python
    floats (or numpy float64 scalars) or a 1-D float64 array (the rows all of one kind)."""
    kinds = set(map(type, rows))
    if kinds == {list}:
        flat = list(chain.from_iterable(rows))
        if not set(map(type, flat)) <= {float, np.float64}:  # both exact in float64; ints and bools take the checks per document
            return None
        return np.array(flat, dtype=np.float64)
    if kinds == {np.ndarray} and all(r.dtype == np.float64 and r.ndim == 1 for r in rows):
        return np.concatenate(rows) if rows else np.zeros(0)
    return None


def _lengths(texts: list) -> tuple[np.ndarray, np.ndarray]:
    """Each text's length in characters and in UTF-8 bytes (float64): ``str.join`` refuses
    a non-string (TypeError), UTF-32 a lone surrogate (UnicodeEncodeError); a code point
    takes 1 to 4 UTF-8 bytes by its value."""
    joined = "".join(texts)
    chars = np.array(list(map(len, texts)), dtype=np.int64)
    if joined.isascii():
        return chars.astype(np.float64), chars.astype(np.float64)
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    per_char = 1 + (points >= 0x80).astype(np.int64) + (points >= 0x800) + (points >= 0x10000)
    cumulative = np.concatenate(([0], np.cumsum(per_char)))
    ends = np.cumsum(chars)
    nbytes = cumulative[ends] - cumulative[ends - chars]
    return chars.astype(np.float64), nbytes.astype(np.float64)


def _rows_of(values: np.ndarray, starts: np.ndarray, docs: np.ndarray, size: int) -> np.ndarray:
    """The ``size`` values of each document in ``docs``, one row each."""
    return values[starts[docs, None] + np.arange(size)]


def batch_counts(lls: list, golds: list, choices: list, uncs: list) -> np.ndarray | None:
    """The statistics rows of ``MultipleChoice`` (see ``_document_counts``), or None when
    some document is not in the common shape (the caller then scores each document)."""
    n = len(lls)
    if n == 0 or set(map(type, choices)) != {list} or not set(map(type, golds)) <= _INT_TYPES:
        return None
    sizes = np.fromiter(map(len, lls), dtype=np.intp, count=n)
    if (sizes == 0).any() or not np.array_equal(sizes, np.fromiter(map(len, choices), dtype=np.intp, count=n)):
        return None
    texts = list(chain.from_iterable(choices))
    arr = _flat_floats(lls)
    if arr is None:
        return None
    try:
        lengths = _lengths(texts)
        gold = np.array(golds, dtype=np.int64)
    except (TypeError, UnicodeEncodeError, OverflowError):  # a choice not a string, a lone surrogate, a gold past int64
        return None
    chars, nbytes = lengths
    mutual = np.fromiter(map(is_not, uncs, repeat(None)), dtype=bool, count=n)
    with_unc = [u for u in uncs if u is not None]
    unc = _flat_floats(with_unc) if with_unc else np.zeros(0)
    if unc is None or not np.array_equal(np.fromiter(map(len, with_unc), dtype=np.intp, count=len(with_unc)), sizes[mutual]):
        return None
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    unc_starts = np.zeros(n, dtype=np.intp)
    unc_starts[mutual] = np.concatenate(([0], np.cumsum(sizes[mutual])[:-1]))[: int(mutual.sum())]

    counts = np.zeros((n, 7), dtype=np.uint64)
    counts[:, 0] = 1
    counts[:, 5] = mutual
    counts[:, 6] = (gold < 0) | (gold >= sizes)  # never correct: no argmax equals it
    with np.errstate(divide="ignore", invalid="ignore"):
        for size in np.unique(sizes):
            docs = np.flatnonzero(sizes == size)
            values = _rows_of(arr, starts, docs, size)
            g = gold[docs]
            counts[docs, 1] = values.argmax(axis=1) == g
            counts[docs, 2] = (values / _rows_of(chars, starts, docs, size)).argmax(axis=1) == g
            counts[docs, 3] = (values / _rows_of(nbytes, starts, docs, size)).argmax(axis=1) == g
            m = mutual[docs]
            if m.any():
                md = docs[m]
                diff = values[m] - _rows_of(unc, unc_starts, md, size)
                counts[md, 4] = diff.argmax(axis=1) == gold[md]
    return counts
