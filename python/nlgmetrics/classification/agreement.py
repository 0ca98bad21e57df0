"""Agreement and probability metrics with scikit-learn 1.9.1's numbers:
``matthews_corrcoef`` (binary and multiclass), ``cohen_kappa_score`` (plain, linear and
quadratic weights), and ``brier_score_loss`` (binary, and multiclass with one probability
column per class).

MCC and κ are functions of the confusion matrix only: the matrix is counted in the core
(:func:`confusion_matrix`, equal to scikit-learn's cell for cell) and the same numpy
operations as scikit-learn's are applied to it in the same order, so values are
identical. Their sufficient statistics are that matrix (``mcc_from_confusion``,
``kappa_from_confusion``), which merges by addition (:class:`StreamingConfusion`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import InvalidInputError, InvalidOptionError
from ._validate import as_array, check_length, check_targets, confusion_array, labels_1d, scores_array, unique, warn, weights_array
from ._order import warn_if_scores_first
from .confusion import confusion_matrix


def mcc_from_confusion(C: Any) -> float:
    """Matthews correlation coefficient of a (weighted) confusion matrix: scikit-learn's
    ``matthews_corrcoef`` arithmetic on ``C`` (0.0 where a marginal is constant)."""
    C = confusion_array(C)
    if C.ndim != 2 or C.shape[0] != C.shape[1]:
        raise InvalidInputError(f"a confusion matrix must be square, got shape {C.shape}")
    t_sum = C.sum(axis=1, dtype=np.float64)
    p_sum = C.sum(axis=0, dtype=np.float64)
    n_correct = np.trace(C, dtype=np.float64)
    n_samples = p_sum.sum()
    cov_ytyp = n_correct * n_samples - np.dot(t_sum, p_sum)
    cov_ypyp = n_samples**2 - np.dot(p_sum, p_sum)
    cov_ytyt = n_samples**2 - np.dot(t_sum, t_sum)
    cov_ypyp_ytyt = cov_ypyp * cov_ytyt
    if cov_ypyp_ytyt == 0:
        return 0.0
    return float(cov_ytyp / np.sqrt(cov_ypyp_ytyt))


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """scikit-learn's ``matthews_corrcoef``: binary or multiclass labels (a multilabel
    indicator is refused, as there)."""
    kind, present, yt, yp = check_targets(y_true, y_pred)
    if kind not in ("binary", "multiclass"):
        raise InvalidInputError(f"matthews_corrcoef: {kind} is not supported")
    if yt.shape[0] == 0:
        raise InvalidInputError("matthews_corrcoef needs at least one sample")
    return mcc_from_confusion(confusion_matrix(yt, yp, sample_weight=sample_weight))


_KAPPA_WEIGHTS = (None, "linear", "quadratic")


def kappa_from_confusion(C: Any, *, weights: str | None = None, replace_undefined_by: float = math.nan) -> float:
    """Cohen's κ of a (weighted) confusion matrix: scikit-learn's ``cohen_kappa_score``
    arithmetic on ``C`` (``replace_undefined_by``, with a warning, where it is undefined)."""
    if weights not in _KAPPA_WEIGHTS:
        raise InvalidOptionError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    confusion = confusion_array(C)
    if confusion.ndim != 2 or confusion.shape[0] != confusion.shape[1]:
        raise InvalidInputError(f"a confusion matrix must be square, got shape {confusion.shape}")
    n_classes = confusion.shape[0]
    confusion = confusion.astype(np.float64, copy=False)
    sum0 = np.sum(confusion, axis=0)
    sum1 = np.sum(confusion, axis=1)
    numerator = np.outer(sum0, sum1)
    denominator = np.sum(sum0)
    if denominator == 0:
        warn("`y2` contains no labels that are present in both `y1` and `labels`. `cohen_kappa_score` is undefined "
             f"and set to the value defined by the `replace_undefined_by` param, which is set to {replace_undefined_by}.")
        return replace_undefined_by
    expected = numerator / denominator
    if weights is None:
        w_mat = np.ones([n_classes, n_classes], dtype=np.float64)
        np.fill_diagonal(w_mat, 0)
    else:
        w_mat = np.zeros([n_classes, n_classes], dtype=np.float64)
        w_mat += np.arange(n_classes)
        w_mat = np.abs(w_mat - w_mat.T) if weights == "linear" else (w_mat - w_mat.T) ** 2
    numerator = np.sum(w_mat * confusion)
    denominator = np.sum(w_mat * expected)
    if denominator == 0:
        warn("`y1`, `y2` and `labels` have only one label in common. `cohen_kappa_score` is undefined and set to the "
             f"value defined by the the `replace_undefined_by` param, which is set to {replace_undefined_by}.")
        return replace_undefined_by
    return float(1 - numerator / denominator)


def cohen_kappa_score(y1: Any, y2: Any, *, labels: Any = None, weights: str | None = None, sample_weight: Any = None,
                      replace_undefined_by: float = math.nan) -> float:
    """scikit-learn's ``cohen_kappa_score`` (``weights`` None, ``"linear"`` or
    ``"quadratic"``; the weights follow the order of ``labels``, sorted by default)."""
    if weights not in _KAPPA_WEIGHTS:
        raise InvalidOptionError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    if not (isinstance(replace_undefined_by, (int, float)) and not isinstance(replace_undefined_by, bool)
            and (math.isnan(replace_undefined_by) or -1.0 <= replace_undefined_by <= 1.0)):
        raise InvalidOptionError(f"replace_undefined_by must be NaN or in [-1, 1], got {replace_undefined_by!r}")
    kind, _, yt, yp = check_targets(y1, y2)
    if kind not in ("binary", "multiclass"):
        raise InvalidInputError(f"cohen_kappa_score: {kind} is not supported")
    if yt.shape[0] == 0:
        raise InvalidInputError("cohen_kappa_score needs at least one sample")
    C = confusion_matrix(yt, yp, labels=labels, sample_weight=sample_weight)
    return kappa_from_confusion(C, weights=weights, replace_undefined_by=replace_undefined_by)


def _probabilities(y_proba: Any) -> np.ndarray:
    p = scores_array(y_proba, "y_proba", ndim=(1, 2))
    if p.size and (p.max() > 1 or p.min() < 0):
        bad = p.max() if p.max() > 1 else p.min()
        raise InvalidInputError(f"y_proba must be probabilities in [0, 1], got {bad!r}")
    return p


def brier_score_loss(y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None, labels: Any = None,
                     scale_by_half: bool | str = "auto") -> float:
    """scikit-learn's ``brier_score_loss``: the mean squared difference between the
    one-hot labels and the probabilities, over the classes (``y_proba`` 1-D: the
    probability of ``pos_label``; 2-D: one column per class of ``labels``, sorted by
    default). ``scale_by_half="auto"`` halves it for one or two columns, so a binary
    Brier score is the classic one."""
    warn_if_scores_first("brier_score_loss", y_true, y_proba, "y_proba")
    if scale_by_half not in ("auto", True, False):
        raise InvalidOptionError(f"scale_by_half must be 'auto', True or False, got {scale_by_half!r}")
    p = _probabilities(y_proba)
    yt = labels_1d(as_array(y_true, "y_true"))
    if yt.ndim != 1:
        raise InvalidInputError(f"y_true must be 1-D labels, got shape {yt.shape}")
    check_length(yt.shape[0], p.shape[0], "y_true", "y_proba")
    if yt.shape[0] == 0:
        raise InvalidInputError("brier_score_loss needs at least one sample")
    if yt.dtype.kind == "f" and not np.isfinite(yt).all():
        raise InvalidInputError("y_true must be finite labels")
    w = weights_array(sample_weight, yt.shape[0])
    if p.ndim == 1 or p.shape[1] == 1:
        p1 = p.ravel()
        classes = unique(yt)
        if classes.size > 2:
            raise InvalidInputError(f"y_true has {classes.size} classes but y_proba is one column: give one column per class")
        if pos_label is None:
            pos = 1 if classes.dtype.kind not in "USO" and (np.isin(classes, [0, 1]).all() or np.isin(classes, [-1, 1]).all()) else None
            if pos is None:
                if classes.dtype.kind in "USO":
                    raise InvalidOptionError(f"y_true takes values in {classes.tolist()} and pos_label is not specified: give pos_label")
                pos = classes[-1]
        else:
            pos = pos_label
        onehot = np.zeros((yt.shape[0], 2), dtype=np.float64)
        hit = yt == pos
        onehot[:, 1] = hit
        onehot[:, 0] = ~hit
        probs = np.stack((1 - p1, p1), axis=1)
    else:
        if pos_label is not None:
            raise InvalidOptionError("pos_label applies to binary (1-D) probabilities only")
        classes = unique(yt) if labels is None else unique(as_array(labels, "labels"))
        if labels is not None and not np.isin(yt, classes).all():
            raise InvalidInputError("y_true has labels that are not in labels")
        if classes.size != p.shape[1]:
            raise InvalidInputError(
                f"y_true and y_proba contain different numbers of classes: {classes.size} vs {p.shape[1]}"
                + ("; give the classes with labels=" if labels is None else "")
            )
        if classes.size == 1:
            raise InvalidInputError("brier_score_loss needs at least two classes in labels")
        probs = p
        onehot = (yt[:, None] == classes[None, :]).astype(np.float64)
        s = probs.sum(axis=1)
        if not np.isclose(s, 1, rtol=math.sqrt(np.finfo(np.float64).eps)).all():
            import warnings
            warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning, stacklevel=2)
    per = np.sum((onehot - probs) ** 2, axis=1)
    score = np.average(per, weights=w)
    if scale_by_half == "auto":
        scale_by_half = probs.shape[1] < 3
    if scale_by_half:
        score *= 0.5
    return float(score)
