"""Calibration error with torchmetrics 1.9.0's binning: ``binary_calibration_error`` and
``multiclass_calibration_error`` (``BinaryCalibrationError`` / ``MulticlassCalibrationError``),
norms ``l1`` (ECE), ``l2`` (RMS calibration error) and ``max`` (MCE).

The binning is torchmetrics': ``n_bins + 1`` boundaries from ``torch.linspace(0, 1,
n_bins + 1)`` (its formula, in the same precision), a confidence goes to the last
boundary at or below it (``bucketize(..., right=True) - 1``, so a confidence exactly on an
edge opens the next bin, and 1.0 has a bin of its own), and per bin the mean confidence,
the accuracy and the share of samples are compared. Binary confidences are the
probabilities of class 1 (float64 here; torchmetrics keeps the dtype it is given);
multiclass confidences are the top probabilities and are rounded to float32 as
torchmetrics' ``.float()`` does, and the whole computation is then float32 as there.

The functions add the bins' sums one sample after the other as ``scatter_add_`` does,
so their values are torchmetrics' (``==``). :class:`StreamingCalibration` keeps per bin
the count, the number correct and the exact sum of the confidences (Shewchuk partials),
so its states merge exactly in any order; its value differs from the functions' only by
the rounding of the per-bin sums (below 1e-12 in float64; in float32, torchmetrics' own
rounding, below 1e-6).

Probabilities outside ``[0, 1]`` or NaN are refused (torchmetrics would pass logits
through a sigmoid / softmax): give probabilities.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _core
from ..errors import IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError
from ._validate import as_array, check_length, labels_1d, scores_array
from ._order import warn_if_scores_first
from ..metrics.base import Score
from .base import MergeableState, StreamingMetric

NORMS = ("l1", "l2", "max")


def _check_options(n_bins: Any, norm: Any) -> None:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or not 1 <= n_bins <= 1 << 24:
        raise InvalidOptionError(f"n_bins must be an integer in 1..16777216, got {n_bins!r}")
    if norm not in NORMS:
        raise InvalidOptionError(f"norm must be one of {NORMS}, got {norm!r}")


def bin_boundaries(n_bins: int, dtype: Any = np.float64) -> np.ndarray:
    """The boundaries of ``torch.linspace(0, 1, n_bins + 1, dtype=dtype)`` as torch's CPU
    kernel computes them: ``start + step·i`` below the middle, ``end - step·(steps - 1 - i)``
    from it, except that whole pairs of vectors (8 float64 or 16 float32 lanes, AVX-512)
    are filled as ``base + lane·step`` from the formula at the vector's first index. Equal
    to torch 2.x's for every ``n_bins`` up to 16 in both precisions (the default is 15);
    beyond, a boundary can differ in its last bit, which moves only a confidence within one
    ulp of that boundary."""
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InvalidOptionError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    try:
        kind = np.dtype(dtype)
    except TypeError:
        kind = None
    if kind not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise InvalidOptionError(f"dtype must be float32 or float64, got {dtype!r}")
    steps = n_bins + 1
    t = np.dtype(dtype).type
    start, end = t(0.0), t(1.0)
    step = (end - start) / t(steps - 1)
    half = steps // 2
    lanes = 8 if np.dtype(dtype) == np.float64 else 16
    out = np.empty(steps, dtype=dtype)
    i = 0
    vec_end = steps // (2 * lanes) * (2 * lanes)
    while i < vec_end:
        base = start + step * t(i) if i < half else end - step * t(steps - i - 1)
        out[i:i + lanes] = base + np.arange(lanes, dtype=dtype) * step
        i += lanes
    k = np.arange(i, steps)
    out[i:] = np.where(k < half, start + step * k.astype(dtype), end - step * (steps - k - 1).astype(dtype))
    return out


def _bin_index(conf: np.ndarray, n_bins: int) -> np.ndarray:
    return np.searchsorted(bin_boundaries(n_bins, conf.dtype), conf, side="right") - 1


def _probabilities(p: Any, ndim: tuple[int, ...]) -> np.ndarray:
    a = scores_array(p, "preds", ndim=ndim)
    if a.size and (a.min() < 0 or a.max() > 1):
        bad = a.min() if a.min() < 0 else a.max()
        raise InvalidInputError(f"preds must be probabilities in [0, 1], got {bad!r}")
    return a


def _binary_inputs(preds: Any, target: Any) -> tuple[np.ndarray, np.ndarray]:
    p = _probabilities(preds, (1, 2)).ravel()
    t = labels_1d(as_array(target, "target")).ravel()
    check_length(t.shape[0], p.shape[0], "target", "preds")
    if t.dtype.kind not in "biuf" or (t.size and not np.isin(t, (0, 1)).all()):
        raise InvalidInputError("target must be binary 0/1 labels")
    return p, t.astype(np.float64)


def _multiclass_inputs(preds: Any, target: Any, num_classes: Any) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)) or num_classes < 2:
        raise InvalidOptionError(f"num_classes must be an integer >= 2, got {num_classes!r}")
    p = _probabilities(preds, (2,))
    if p.shape[1] != num_classes:
        raise InvalidInputError(f"preds has {p.shape[1]} columns but num_classes is {num_classes}")
    t = labels_1d(as_array(target, "target"))
    if t.ndim != 1:
        raise InvalidInputError(f"target must be 1-D class indices, got shape {t.shape}")
    check_length(t.shape[0], p.shape[0], "target", "preds")
    if t.dtype.kind not in "iu" and not (t.dtype.kind == "f" and np.isfinite(t).all() and (t == np.round(t)).all()):
        raise InvalidInputError("target must be integer class indices")
    if t.size and (t.min() < 0 or t.max() >= num_classes):
        raise InvalidInputError(f"target must be class indices in 0..{num_classes - 1}")
    conf = p.max(axis=1).astype(np.float32)
    acc = (p.argmax(axis=1) == t).astype(np.float32)
    return conf, acc


def _compute(acc_bin: np.ndarray, conf_bin: np.ndarray, prop_bin: np.ndarray, norm: str) -> float:
    with np.errstate(invalid="ignore", divide="ignore"):
        if norm == "l1":
            return float(np.sum(np.abs(acc_bin - conf_bin) * prop_bin))
        if norm == "max":
            return float(np.max(np.abs(acc_bin - conf_bin)))
        ce = np.sum((acc_bin - conf_bin) ** 2 * prop_bin)
        return float(np.sqrt(ce)) if ce > 0 else 0.0


def _calibration(conf: np.ndarray, acc: np.ndarray, n_bins: int, norm: str) -> float:
    if conf.shape[0] == 0:
        raise InvalidInputError("calibration error needs at least one sample")
    dt = conf.dtype
    idx = _bin_index(conf, n_bins)
    count = np.zeros(n_bins + 1, dtype=dt)
    np.add.at(count, idx, dt.type(1))
    conf_bin = np.zeros(n_bins + 1, dtype=dt)
    np.add.at(conf_bin, idx, conf)
    acc_bin = np.zeros(n_bins + 1, dtype=dt)
    np.add.at(acc_bin, idx, acc.astype(dt))
    with np.errstate(invalid="ignore", divide="ignore"):
        conf_bin = np.nan_to_num(conf_bin / count)
        acc_bin = np.nan_to_num(acc_bin / count)
        prop_bin = count / count.sum()
    return _compute(acc_bin, conf_bin, prop_bin, norm)


def binary_calibration_error(y_true: Any, y_prob: Any, *, n_bins: int = 15, norm: str = "l1") -> float:
    """torchmetrics' ``binary_calibration_error`` on probabilities of class 1, in scikit-learn's
    argument order (``y_true`` first; torchmetrics takes ``preds, target``)."""
    warn_if_scores_first("binary_calibration_error", y_true, y_prob, "y_prob")
    _check_options(n_bins, norm)
    p, t = _binary_inputs(y_prob, y_true)
    return _calibration(p, t, n_bins, norm)


def multiclass_calibration_error(y_true: Any, y_prob: Any, *, num_classes: int, n_bins: int = 15, norm: str = "l1") -> float:
    """torchmetrics' ``multiclass_calibration_error`` on class probabilities (top-1
    confidence and accuracy, in float32 as there), ``y_true`` first as in scikit-learn."""
    warn_if_scores_first("multiclass_calibration_error", y_true, y_prob, "y_prob")
    _check_options(n_bins, norm)
    conf, acc = _multiclass_inputs(y_prob, y_true, num_classes)
    return _calibration(conf, acc, n_bins, norm)


def _partials_add(a: tuple, b: tuple) -> tuple:
    return tuple(_core.exact_partials(np.asarray(a + b, dtype=np.float64))) if a and b else (a or b)


@dataclass(frozen=True, eq=False)
class CalibrationBins(MergeableState):
    """Per bin (``n_bins + 1``, torchmetrics' layout): samples, samples correct, and the
    exact sum of their confidences (Shewchuk partials). Adds exactly, in any order."""

    n_bins: int
    float32: bool
    count: np.ndarray
    correct: np.ndarray
    conf: tuple = field(default=())
    key: str | None = None

    @classmethod
    def empty(cls, n_bins: int, float32: bool, key: str | None = None) -> "CalibrationBins":
        z = np.zeros(n_bins + 1, dtype=np.int64)
        return cls(n_bins, float32, z, z.copy(), tuple(() for _ in range(n_bins + 1)), key)

    @classmethod
    def of(cls, conf: np.ndarray, acc: np.ndarray, n_bins: int, key: str | None) -> "CalibrationBins":
        idx = _bin_index(conf, n_bins)
        count = np.bincount(idx, minlength=n_bins + 1).astype(np.int64)
        correct = np.bincount(idx, weights=acc, minlength=n_bins + 1).astype(np.int64)
        order = np.argsort(idx, kind="stable")
        bounds = np.searchsorted(idx[order], np.arange(n_bins + 2))
        c64 = conf.astype(np.float64)[order]
        parts = tuple(tuple(_core.exact_partials(c64[bounds[b]:bounds[b + 1]])) if count[b] else () for b in range(n_bins + 1))
        return cls(n_bins, conf.dtype == np.float32, count, correct, parts, key)

    def __add__(self, other: Any) -> "CalibrationBins":
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, CalibrationBins):
            return NotImplemented
        if (self.n_bins, self.float32) != (other.n_bins, other.float32):
            raise IncompatibleStatsError(f"calibration bins of different layouts cannot be added: {self.n_bins} vs {other.n_bins} bins")
        if self.key is not None and other.key is not None and self.key != other.key:
            raise IncompatibleStatsError(f"states of differently configured metrics cannot be added: {self.key} vs {other.key}")
        parts = tuple(_partials_add(a, b) for a, b in zip(self.conf, other.conf))
        return CalibrationBins(self.n_bins, self.float32, self.count + other.count, self.correct + other.correct, parts, self.key or other.key)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, CalibrationBins)
            and (self.n_bins, self.float32) == (other.n_bins, other.float32)
            and np.array_equal(self.count, other.count)
            and np.array_equal(self.correct, other.correct)
            and all(math.fsum(a) == math.fsum(b) for a, b in zip(self.conf, other.conf))
        )

    @property
    def nbytes(self) -> int:
        return self.count.nbytes + self.correct.nbytes + 8 * sum(len(p) for p in self.conf)

    def value(self, norm: str) -> float:
        if not self.count.any():
            raise InvalidInputError("calibration error needs at least one sample")
        dt = np.float32 if self.float32 else np.float64
        count = self.count.astype(dt)
        sums = np.array([math.fsum(p) for p in self.conf], dtype=dt)
        with np.errstate(invalid="ignore", divide="ignore"):
            conf_bin = np.nan_to_num(sums / count)
            acc_bin = np.nan_to_num(self.correct.astype(dt) / count)
            prop_bin = count / count.sum()
        return _compute(acc_bin, conf_bin, prop_bin, norm)


class StreamingCalibration(StreamingMetric):
    """Streaming calibration error (state: :class:`CalibrationBins`): ``num_classes=None``
    for binary probabilities of class 1, else class probabilities (top-1).

    >>> m = StreamingCalibration(n_bins=2)
    >>> _ = m.update([0, 0, 1], [0.25, 0.25, 0.55]).update([1, 1], [0.75, 0.75])
    >>> round(m.compute().score, 4)
    0.29
    """

    name = "calibration_error"

    def __init__(self, *, num_classes: int | None = None, n_bins: int = 15, norm: str = "l1"):
        _check_options(n_bins, norm)
        if num_classes is not None and (isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)) or num_classes < 2):
            raise InvalidOptionError(f"num_classes must be None (binary) or an integer >= 2, got {num_classes!r}")
        self.num_classes, self.n_bins, self.norm = num_classes, int(n_bins), norm
        super().__init__()

    def signature_items(self) -> dict[str, Any]:
        return {"task": "binary" if self.num_classes is None else f"multiclass-{self.num_classes}", "bins": self.n_bins, "norm": self.norm}

    def _key(self) -> str:
        return str(self.signature())

    def empty_state(self) -> CalibrationBins:
        return CalibrationBins.empty(self.n_bins, self.num_classes is not None)

    def batch_state(self, y_true: Any, y_prob: Any) -> CalibrationBins:
        warn_if_scores_first("StreamingCalibration.update", y_true, y_prob, "y_prob")
        if self.num_classes is None:
            conf, acc = _binary_inputs(y_prob, y_true)
        else:
            conf, acc = _multiclass_inputs(y_prob, y_true, self.num_classes)
        return CalibrationBins.of(conf, acc, self.n_bins, self._key())

    def score_state(self, state: CalibrationBins) -> Score:
        if not isinstance(state, CalibrationBins):
            raise InputTypeError(f"score_state takes CalibrationBins, got {type(state).__name__}")
        if state.key not in (None, self._key()) or state.n_bins != self.n_bins:
            raise IncompatibleStatsError(f"a state made by {state.key} cannot be scored by {self._key()}")
        return Score(self.name, state.value(self.norm), self.signature(), n_samples=int(state.count.sum()), state_bytes=state.nbytes)
