"""Accuracy, balanced accuracy, precision / recall / F-beta (scikit-learn semantics).

``precision_recall_fscore_support`` works from per-label sums ``tp``, ``pred = tp + fp``,
``true = tp + fn``: ``P = tp/pred``, ``R = tp/true``, ``F_β = (1+β²)·tp / (β²·true + pred)``.
A zero denominator gives ``zero_division`` (0 with a warning for ``"warn"``, 0, 1 or
NaN). Averages: ``binary`` (only ``pos_label``), ``micro`` (sum counts first), ``macro``
(plain mean), ``weighted`` (by support), ``samples`` (per sample, multilabel); NaN
entries are left out of averages. The arithmetic runs in the Rust core in numpy's
operation order, so values equal scikit-learn's bit for bit.

Reference: scikit-learn 1.9 ``sklearn/metrics/_classification.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ._validate import as_array, check_average, check_targets, warn, weights_array, zero_division_value
from .confusion import confusion_matrix, multilabel_confusion_matrix

_AVERAGES = (None, "binary", "micro", "macro", "weighted", "samples")


def accuracy_score(y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None) -> float:
    """Fraction (or with ``normalize=False`` the weighted count) of exact matches;
    subset accuracy for multilabel targets."""
    kind, _, yt, yp = check_targets(y_true, y_pred)
    w = weights_array(sample_weight, yt.shape[0])
    if kind == "multilabel-indicator":
        score = np.count_nonzero(yt - yp, axis=1) == 0 if yt.dtype.kind != "b" else ~(yt != yp).any(axis=1)
    else:
        score = yt == yp
    if normalize:
        return float(np.average(score, weights=w))
    if w is not None:
        return float(np.dot(score, w))
    return float(np.sum(score.astype(np.float64)))


def balanced_accuracy_score(y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False) -> float:
    """Mean per-class recall; with ``adjusted`` rescaled so chance is 0 and perfect 1."""
    C = confusion_matrix(y_true, y_pred, sample_weight=sample_weight)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.diag(C) / C.sum(axis=1)
    if np.any(np.isnan(per_class)):
        warn("y_pred contains classes not in y_true")
        per_class = per_class[~np.isnan(per_class)]
    score = np.mean(per_class)
    if adjusted:
        n_classes = len(per_class)
        chance = 1 / n_classes
        score -= chance
        score /= 1 - chance
    return float(score)


def _set_wise_labels(y_true: Any, y_pred: Any, average: Any, labels: Any, pos_label: Any):
    check_average(average, _AVERAGES)
    kind, present, _, _ = check_targets(y_true, y_pred)
    if average == "binary":
        if kind == "binary":
            if pos_label not in present.tolist() and len(present) >= 2:
                raise InvalidOptionError(f"pos_label={pos_label!r} is not a valid label: it should be one of {present.tolist()}")
            return [pos_label]
        options = [a for a in _AVERAGES if a != "binary" and not (kind == "multiclass" and a == "samples")]
        raise InvalidOptionError(f"target is {kind} but average='binary'; choose another average, one of {options}")
    return labels


def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: tuple = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
):
    """``(precision, recall, fbeta, support)``: arrays per label with ``average=None``,
    floats (support ``None``) otherwise. Same signature and values as scikit-learn."""
    zd = zero_division_value(zero_division)
    if not isinstance(beta, (int, float, np.floating)) or isinstance(beta, bool) or not beta >= 0:
        raise InvalidOptionError(f"beta must be a number >= 0, got {beta!r}")
    labels = _set_wise_labels(y_true, y_pred, average, labels, pos_label)
    samplewise = average == "samples"
    mcm = multilabel_confusion_matrix(y_true, y_pred, sample_weight=sample_weight, labels=labels, samplewise=samplewise)
    tp_sum = mcm[:, 1, 1]
    pred_sum = tp_sum + mcm[:, 0, 1]
    true_sum = tp_sum + mcm[:, 1, 0]
    n = as_array(y_true, "y_true").shape[0]
    w = weights_array(sample_weight, n)
    r = _core.prf(
        np.ascontiguousarray(tp_sum, dtype=np.float64),
        np.ascontiguousarray(pred_sum, dtype=np.float64),
        np.ascontiguousarray(true_sum, dtype=np.float64),
        float(beta), average, zd, w if samplewise else None,
    )
    if isinstance(zero_division, str):
        hp, hr, hf = r["zero_division_hit"]
        axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
        many = len(r["precision"]) > 1
        for hit, metric, modifier in ((hp, "precision", "predicted"), (hr, "recall", "true"), (hf, "f-score", "true nor predicted")):
            if hit and metric in warn_for:
                where = f"in {axis1}s with" if many else "due to"
                warn(f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. Use `zero_division` parameter to control this behavior.")
    if average is not None:
        p, rc, f = r["averaged"]
        return p, rc, f, None
    support = true_sum
    return r["precision"], r["recall"], r["fscore"], support


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary", sample_weight=None, zero_division="warn"):
    """F-beta: weighted harmonic mean of precision and recall (β > 1 favours recall)."""
    _, _, f, _ = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=("f-score",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return f


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None, zero_division="warn"):
    """F1 = 2·tp / (2·tp + fp + fn)."""
    return fbeta_score(y_true, y_pred, beta=1, labels=labels, pos_label=pos_label, average=average, sample_weight=sample_weight, zero_division=zero_division)


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None, zero_division="warn"):
    """Precision = tp / (tp + fp)."""
    p, _, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("precision",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return p


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None, zero_division="warn"):
    """Recall = tp / (tp + fn)."""
    _, r, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("recall",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return r


__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "f1_score",
    "fbeta_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]

