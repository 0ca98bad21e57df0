"""``log_loss``: scikit-learn 1.9's cross-entropy, with its arithmetic step for step (the
probabilities in their own float dtype, clipped to ``[eps, 1 - eps]`` of that dtype), so the
number is the same to the bit."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from ._order import warn_if_scores_first
from ._validate import as_array, check_length, scores_array, target_kind, weights_array

_FLOATS = (np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.float16))


def _probability_matrix(y_proba: Any) -> np.ndarray:
    raw = as_array(y_proba, "y_proba")
    checked = scores_array(raw, "y_proba", ndim=(1, 2))  # numeric, finite
    # scikit-learn keeps float64/32/16 and converts anything else to float64; eps follows the dtype
    p = checked.astype(raw.dtype if raw.dtype in _FLOATS else np.float64, copy=False)
    if p.size and p.max() > 1:
        raise InvalidInputError(f"y_proba contains values greater than 1: {p.max()}")
    if p.size and p.min() < 0:
        raise InvalidInputError(f"y_proba contains values lower than 0: {p.min()}")
    return p


def _classes(yt: np.ndarray, labels: Any) -> np.ndarray:
    _, present = target_kind(yt, "y_true")
    if present is None:
        raise InvalidInputError("y_true must be 1-D class labels")
    if labels is None:
        if present.size == 1:
            raise InvalidInputError(f"y_true contains only one label ({present.tolist()[0]!r}): give every expected class with labels=")
        return present
    given = as_array(labels, "labels")
    classes = np.unique(given)
    if classes.shape != given.shape or not (classes == given).all():
        # scikit-learn's words: its users filter on them
        warnings.warn(f"Labels passed were {labels}. But this function assumes labels are ordered lexicographically. "
                      f"Pass the ordered labels={classes.tolist()} and ensure that the columns of y_prob correspond to this "
                      "ordering.", UserWarning, stacklevel=3)
    missing = ~np.isin(yt, classes)
    if missing.any():
        raise InvalidInputError(f"y_true contains values {sorted(set(yt[missing].tolist()))} not in labels")
    if classes.size < 2:
        raise InvalidInputError(f"labels needs at least two classes, got {classes.tolist()}")
    return classes


def log_loss(y_true: Any, y_proba: Any, *, normalize: bool = True, sample_weight: Any = None, labels: Any = None) -> float:
    """scikit-learn's ``log_loss(y_true, y_proba)``: the mean (``normalize=False``: the sum,
    weighted by ``sample_weight``) of ``-log p`` of each sample's true class.

    ``y_proba`` is ``(n_samples, n_classes)``, the columns in the sorted order of ``labels``
    (default: the classes of ``y_true``), or 1-D: the probability of the greater of two
    classes. Probabilities are clipped to ``[eps, 1 - eps]``, ``eps`` the machine epsilon of
    their dtype, as scikit-learn 1.9 does; rows that do not sum to one warn.
    """
    warn_if_scores_first("log_loss", y_true, y_proba, "y_proba")
    p = _probability_matrix(y_proba)
    yt = as_array(y_true, "y_true")
    yt = yt.ravel() if yt.ndim == 2 and yt.shape[1] == 1 else yt
    check_length(yt.shape[0], p.shape[0], "y_true", "y_proba")
    w = None
    if sample_weight is not None:
        weights_array(sample_weight, yt.shape[0])  # finite, non-negative, not all zero
        w = np.asarray(sample_weight)  # its own dtype: it sets the dtype of the average, as in scikit-learn
    classes = _classes(yt, labels)
    if p.ndim == 1:
        p = p[:, np.newaxis]
    if p.shape[1] == 1:
        p = np.concatenate([1 - p, p], axis=1)
    eps = np.finfo(p.dtype).eps
    if not np.isclose(p.sum(axis=1), np.asarray(1, dtype=p.dtype), rtol=math.sqrt(eps)).all():
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning, stacklevel=2)
    if classes.size != p.shape[1]:
        hint = "; give the classes with labels=" if labels is None else ""
        raise InvalidInputError(f"y_true and y_proba contain different numbers of classes: {classes.size} vs {p.shape[1]}{hint}")
    p = np.clip(p, eps, 1 - eps)
    onehot = (yt[:, None] == classes[None, :]).astype(p.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = onehot * np.log(p)
    loss = -np.sum(np.where(onehot == 0.0, np.asarray(0.0, dtype=terms.dtype), terms), axis=1)
    # scikit-learn's _average: numpy's average, or a dot product for an unnormalised weighted sum
    if normalize:
        return float(np.average(loss, weights=w))
    return float(np.dot(loss, w) if w is not None else np.sum(loss))
