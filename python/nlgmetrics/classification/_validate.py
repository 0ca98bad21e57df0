"""Input checks and label handling shared by the classification metrics.

Mirrors scikit-learn's ``type_of_target`` / ``_check_targets`` /
``_check_pos_label_consistency`` for the target kinds we support ("binary",
"multiclass", "multilabel-indicator"), raising the typed errors of
:mod:`nlgmetrics.errors` instead of bare ``ValueError``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._inputs import unordered_reason
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError


class UndefinedMetricWarning(UserWarning):
    """A metric is ill-defined for the input (no positive, no negative, zero division)."""


def warn(msg: str) -> None:
    warnings.warn(msg, UndefinedMetricWarning, stacklevel=3)


def as_array(x: Any, what: str) -> np.ndarray:
    if x is None:
        raise InputTypeError(f"{what} is required, got None")
    if isinstance(x, (str, bytes)):
        raise InputTypeError(f"{what} must be an array or a list, not a single {type(x).__name__}")
    why = unordered_reason(x)
    if why:
        raise InputTypeError(f"{what} must be an array or a list, not {why}")
    if not hasattr(x, "__len__") and not hasattr(x, "__array__"):
        x = list(x) if hasattr(x, "__iter__") else x  # a generator: read once, in order
    try:
        a = np.asarray(x)
    except ValueError as e:  # ragged nested lists
        raise InvalidInputError(f"{what} has an inconsistent shape (ragged rows?): {e}") from None
    if a.ndim == 0:
        raise InputTypeError(f"{what} must be an array or a list, not a single {type(x).__name__}")
    if a.dtype == object and a.ndim > 1:
        raise InvalidInputError(f"{what} has an inconsistent shape (ragged rows?)")
    return a


def confusion_array(x: Any, what: str = "the confusion matrix") -> np.ndarray:
    """A numeric confusion matrix as given (its dtype kept: scikit-learn's arithmetic on it)."""
    a = as_array(x, what)
    if a.dtype.kind not in "biuf":
        raise InputTypeError(f"{what} must be numeric, got dtype {a.dtype}")
    return a


def scores_array(x: Any, what: str = "y_score", ndim: tuple[int, ...] = (1,)) -> np.ndarray:
    """Finite float64 scores, C-contiguous."""
    a = as_array(x, what)
    if a.dtype.kind not in "biuf":
        raise InputTypeError(f"{what} must be numeric, got dtype {a.dtype}")
    if a.ndim not in ndim:
        want = " or ".join(f"{d}-D" for d in ndim)
        raise InvalidInputError(f"{what} must be {want}, got shape {a.shape}")
    a = np.ascontiguousarray(a, dtype=np.float64)
    bad = ~np.isfinite(a)
    if bad.any():
        pos = np.argwhere(bad)[0]
        where = ", ".join(str(int(p)) for p in pos)
        raise InvalidInputError(f"{what} must be finite: {what}[{where}] = {a[tuple(pos)]} ({int(bad.sum())} non-finite of {a.size})")
    return a


def weights_array(w: Any, n: int, allow_all_zero: bool = False) -> np.ndarray | None:
    """Finite float64 weights of length ``n``; all zeros is an error (as in scikit-learn)
    except in streams, where such a batch simply adds nothing."""
    if w is None:
        return None
    a = scores_array(w, "sample_weight")
    if a.shape[0] != n:
        raise LengthMismatchError(f"{n} samples but {a.shape[0]} sample weights")
    if (a < 0).any():
        i = int(np.flatnonzero(a < 0)[0])
        raise InvalidInputError(f"sample_weight must be >= 0: sample_weight[{i}] = {a[i]} (a negative weight makes rates leave [0, 1])")
    if not allow_all_zero and n and not a.any():
        raise InvalidInputError("sample_weight must contain at least one non-zero number")
    return a


def check_length(n1: int, n2: int, what1: str, what2: str) -> None:
    if n1 != n2:
        raise LengthMismatchError(f"{what1} has {n1} samples but {what2} has {n2}")


def unique(y: np.ndarray) -> np.ndarray:
    """Sorted unique values; O(n) for booleans and small-range integers."""
    if y.size == 0:
        return y[:0]
    if y.dtype.kind == "b":
        return np.unique(y) if y.size < 64 else np.array([v for v in (False, True) if (y == v).any()], dtype=bool)
    if y.dtype.kind in "iu":
        lo, hi = int(y.min()), int(y.max())
        if hi - lo <= 1:  # every value is lo or hi (binary labels): no counting pass
            return np.array([lo] if lo == hi else [lo, hi], dtype=y.dtype)
        if hi - lo < 1 << 20:
            shifted = y if lo == 0 else y - lo  # 0/1 labels need no shifted copy
            return (np.flatnonzero(np.bincount(shifted.astype(np.intp, copy=False))) + lo).astype(y.dtype)
    try:
        return np.unique(y)
    except TypeError:
        raise InputTypeError("labels mix types that cannot be ordered (e.g. strings and numbers)") from None


def type_of_target(y: np.ndarray, what: str) -> str:
    """'binary', 'multiclass' or 'multilabel-indicator' (scikit-learn's names)."""
    return target_kind(y, what)[0]


def target_kind(y: np.ndarray, what: str) -> tuple[str, np.ndarray | None]:
    """:func:`type_of_target` and, for 1-D labels, their sorted unique values (computed
    on the way, so a caller that needs the classes does not scan the labels again)."""
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim > 2 or y.ndim == 0:
        raise InvalidInputError(f"{what} must be 1-D labels or a 2-D indicator matrix, got shape {y.shape}")
    if y.shape[0] == 0:
        raise InvalidInputError(f"{what} is empty: at least one sample is needed")
    if y.dtype.kind == "f":
        if not np.isfinite(y).all():
            raise InvalidInputError(f"{what} contains NaN or infinite labels")
        if (y != np.floor(y)).any():
            raise InvalidInputError(f"{what} holds continuous values; classification metrics need class labels")
    if y.dtype.kind not in "biufUSO":
        raise InputTypeError(f"{what} has unsupported dtype {y.dtype}")
    if y.ndim == 2:
        if y.dtype.kind in "biuf":
            u = unique(y.ravel())
            if u.size <= 2 and np.isin(u, [0, 1]).all():
                return "multilabel-indicator", None
        raise InvalidInputError(f"{what} has shape {y.shape}: a 2-D target must be a 0/1 indicator matrix (multilabel)")
    if y.dtype.kind == "O":
        kinds = {type(v) for v in y.tolist()}
        if any(not isinstance(v, (str, int, np.integer, bool, np.bool_)) for v in y.tolist()[:1000]):
            raise InputTypeError(f"{what} must hold labels (strings or integers), got {sorted(k.__name__ for k in kinds)}")
        if str in kinds and len(kinds) > 1:
            raise InputTypeError(f"{what} mixes string and number labels")
    classes = unique(y)
    return ("binary" if classes.size <= 2 else "multiclass"), classes


def labels_1d(y: np.ndarray) -> np.ndarray:
    return y.ravel() if y.ndim == 2 and y.shape[1] == 1 else y


def check_targets(y_true: Any, y_pred: Any) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    """scikit-learn's ``_check_targets``: the common type, sorted present labels, arrays."""
    yt, yp = as_array(y_true, "y_true"), as_array(y_pred, "y_pred")
    check_length(yt.shape[0] if yt.ndim else 0, yp.shape[0] if yp.ndim else 0, "y_true", "y_pred")
    tt, tp = type_of_target(yt, "y_true"), type_of_target(yp, "y_pred")
    kinds = {tt, tp}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise InvalidInputError(f"classification metrics can't handle a mix of {tt} and {tp} targets")
    kind = kinds.pop()
    if kind == "multilabel-indicator":
        if yt.shape[1] != yp.shape[1]:
            raise LengthMismatchError(f"multilabel y_true has {yt.shape[1]} labels but y_pred has {yp.shape[1]}")
        present = np.arange(yt.shape[1])
        return kind, present, yt, yp
    yt, yp = labels_1d(yt), labels_1d(yp)
    if (yt.dtype.kind in "US") != (yp.dtype.kind in "US") and not (yt.dtype.kind == "O" or yp.dtype.kind == "O"):
        raise InputTypeError("y_true and y_pred mix string and number labels")
    present = unique(np.concatenate([unique(yt), unique(yp)]))
    if kind == "binary" and present.size > 2:
        kind = "multiclass"
    return kind, present, yt, yp


def encode(y: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Position of each value of ``y`` in ``labels`` (any order), -1 when absent."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return np.full(y.shape[0], -1, dtype=np.int64)
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    try:
        pos = np.searchsorted(sorted_labels, y)
    except TypeError:
        raise InputTypeError("labels and targets mix types that cannot be compared") from None
    pos_c = np.minimum(pos, sorted_labels.size - 1)
    found = sorted_labels[pos_c] == y
    return np.where(found, order[pos_c], -1).astype(np.int64)


def binary_pos_label(y: np.ndarray, pos_label: Any) -> Any:
    """``_check_pos_label_consistency``: pos_label may be omitted only for 0/1 or -1/1 labels."""
    if pos_label is not None:
        return pos_label
    classes = unique(y)
    if classes.dtype.kind in "USO" or not (
        np.array_equal(classes, [0, 1]) or np.array_equal(classes, [-1, 1])
        or np.array_equal(classes, [0]) or np.array_equal(classes, [-1]) or np.array_equal(classes, [1])
    ):
        raise InvalidOptionError(f"y_true takes values in {classes.tolist()[:10]} and pos_label is not specified: give pos_label")
    return 1


def zero_division_value(zero_division: Any) -> float:
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if isinstance(zero_division, (int, float, np.floating)) and not isinstance(zero_division, bool):
        if np.isnan(zero_division):
            return float("nan")
        if zero_division in (0, 1):
            return float(zero_division)
    raise InvalidOptionError(f"zero_division must be 'warn', 0, 1 or nan; got {zero_division!r}")


def check_average(average: Any, options: tuple) -> None:
    if average not in options:
        raise InvalidOptionError(f"average must be one of {options}, got {average!r}")


def n_threads_value(n_threads: Any) -> int:
    from .._resources import n_threads_value as checked

    return checked(n_threads)
