"""ROC and precision-recall curves, and the trapezoid area (scikit-learn semantics).

The thresholded counts follow ``confusion_matrix_at_thresholds``: zero-weight samples
dropped, a stable descending sort (ties keep input order), one threshold per distinct
score, ``tps``/``fps`` as running float64 sums. The Rust core sorts and accumulates in
that order, so arrays are bit-identical to scikit-learn 1.9's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from ..errors import InvalidInputError
from ._validate import as_array, binary_pos_label, check_length, labels_1d, n_threads_value, scores_array, type_of_target, warn, weights_array
from ._order import warn_if_scores_first


def binary_inputs(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any, *, allow_multiclass: bool = True):
    """``(y == pos_label as bool, scores, weights)`` after scikit-learn's checks."""
    yt = as_array(y_true, "y_true")
    kind = type_of_target(yt, "y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None and allow_multiclass)):
        raise InvalidInputError(f"{kind} y_true is not supported here: a binary target is needed (or give pos_label for a multiclass one)")
    yt = labels_1d(yt)
    raw = as_array(y_score, "y_score")  # before any shape is read: a ragged list is a typed error
    s = scores_array(labels_1d(raw) if raw.ndim == 2 and raw.shape[1] == 1 else raw)
    check_length(yt.shape[0], s.shape[0], "y_true", "y_score")
    pos = binary_pos_label(yt, pos_label)
    y = np.ascontiguousarray(yt == pos, dtype=bool)
    return y, s, weights_array(sample_weight, yt.shape[0], allow_all_zero=True)


def roc_curve(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, drop_intermediate: bool = True, n_threads: int = 0):
    """``(fpr, tpr, thresholds)``. ``drop_intermediate`` drops collinear points; the curve
    starts at (0, 0) with threshold ``+inf``. fpr (tpr) is NaN without negatives
    (positives), with an :class:`UndefinedMetricWarning`."""
    warn_if_scores_first("roc_curve", y_true, y_score, "y_score")
    y, s, w = binary_inputs(y_true, y_score, sample_weight, pos_label)
    fpr, tpr, thr, no_pos, no_neg = _core.roc_curve(y, s, w, bool(drop_intermediate), n_threads_value(n_threads))
    if no_neg:
        warn("No negative samples in y_true, false positive value should be meaningless")
    if no_pos:
        warn("No positive samples in y_true, true positive value should be meaningless")
    return fpr, tpr, thr


def precision_recall_curve(y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, drop_intermediate: bool = False, n_threads: int = 0):
    """``(precision, recall, thresholds)``; recall decreasing, ending at (precision 1,
    recall 0); thresholds increasing, one shorter than precision and recall."""
    warn_if_scores_first("precision_recall_curve", y_true, y_score, "y_score")
    y, s, w = binary_inputs(y_true, y_score, sample_weight, pos_label)
    p, r, thr, no_pos = _core.pr_curve(y, s, w, bool(drop_intermediate), n_threads_value(n_threads))
    if no_pos:
        warn("No positive class found in y_true, recall is set to one for all thresholds.")
    return p, r, thr


def auc(x: Any, y: Any) -> float:
    """Trapezoid area under a monotone curve ``y(x)`` (x increasing or decreasing)."""
    xa, ya = scores_array(x, "x"), scores_array(y, "y")
    check_length(xa.shape[0], ya.shape[0], "x", "y")
    if xa.shape[0] < 2:
        raise InvalidInputError(f"at least 2 points are needed to compute the area under a curve, got {xa.shape[0]}")
    dx = np.diff(xa)
    direction = 1
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1
        else:
            raise InvalidInputError("x is neither increasing nor decreasing")
    return float(direction * np.sum(dx * (ya[1:] + ya[:-1]) / 2.0))


__all__ = ["auc", "precision_recall_curve", "roc_curve"]
