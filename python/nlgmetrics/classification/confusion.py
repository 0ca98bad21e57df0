"""Confusion matrices (scikit-learn ``confusion_matrix``, ``multilabel_confusion_matrix``).

Counting runs in the Rust core over integer label codes; weighted cells are summed in
sample order as scikit-learn's ``np.bincount`` / COO conversion do, so values are
identical. Integer counts (no weights, or integer weights) come back as int64.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ._validate import as_array, check_targets, encode, labels_1d, unique, weights_array


def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None, normalize: str | None = None) -> np.ndarray:
    """``C[i, j]`` = (weighted) number of samples of true label ``labels[i]`` predicted as
    ``labels[j]``. ``labels`` defaults to the sorted union of the labels present; samples
    with a label outside ``labels`` are ignored. ``normalize`` in ``{"true", "pred",
    "all"}`` divides by row sums, column sums or the total (0 where that is 0).
    """
    if normalize not in (None, "true", "pred", "all"):
        raise InvalidOptionError(f"normalize must be None, 'true', 'pred' or 'all'; got {normalize!r}")
    kind, present, yt, yp = check_targets(y_true, y_pred)
    if kind not in ("binary", "multiclass"):
        raise InvalidInputError(f"confusion_matrix needs binary or multiclass targets, got {kind}; use multilabel_confusion_matrix")
    w = weights_array(sample_weight, yt.shape[0])  # checks the weights before anything reads them
    w_raw = None if sample_weight is None else np.asarray(sample_weight)
    if labels is None:
        labels = present
    else:
        labels = as_array(labels, "labels")
        if labels.size == 0:
            raise InvalidInputError("'labels' should contain at least one label")
        if not np.isin(labels, yt).any():
            raise InvalidInputError("at least one label given in 'labels' must occur in y_true")
    k = int(labels.size)
    ct, cp = encode(yt, labels), encode(yp, labels)
    integer = w_raw is None or w_raw.dtype.kind in "biu"
    if w is None:
        cm = _core.confusion_counts(ct, cp, k).astype(np.int64)
    else:
        cm = _core.confusion_weighted(ct, cp, w, k)
        if integer:
            cm = cm.astype(np.int64)
    with np.errstate(all="ignore"):
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        elif normalize == "all":
            cm = cm / cm.sum()
        if normalize is not None:
            cm = np.nan_to_num(cm)
    return cm


def label_sums(y_true: Any, y_pred: Any, *, sample_weight: Any = None, labels: Any = None, samplewise: bool = False):
    """Per-label (or per-sample) ``(tp, pred, true)`` sums and the total weight, after
    scikit-learn's label handling. Returns ``(tp, pred, true, total, n_columns, weighted)``."""
    kind, present, yt, yp = check_targets(y_true, y_pred)
    w = weights_array(sample_weight, yt.shape[0])
    if labels is None:
        labels_all, n_labels = present, None
    else:
        given = as_array(labels, "labels")
        n_labels = given.shape[0]
        labels_all = np.concatenate([given, np.setdiff1d(present, given, assume_unique=True)])
    if yt.ndim == 1:
        if samplewise:
            raise InvalidInputError("samplewise metrics (average='samples') need multilabel targets")
        sorted_labels = unique(labels_all)
        k = sorted_labels.size
        tp, pred, true = _core.label_sums(encode(yt, sorted_labels), encode(yp, sorted_labels), k, w)
        idx = np.searchsorted(sorted_labels, labels_all[:n_labels])
        tp, pred, true = tp[idx], pred[idx], true[idx]
        total = yt.shape[0] if w is None else np.sum(w)
        return tp, pred, true, total, None, w is not None
    if not np.array_equal(labels_all, present):
        if np.max(labels_all) > np.max(present):
            raise InvalidInputError(f"all labels must be in [0, {present.size}) for multilabel targets, got {int(np.max(labels_all))}")
        if np.min(labels_all) < 0:
            raise InvalidInputError(f"all labels must be in [0, {present.size}) for multilabel targets, got {int(np.min(labels_all))}")
    if n_labels is not None:
        cols = labels_all[:n_labels].astype(np.intp)
        yt, yp = yt[:, cols], yp[:, cols]
    ti = np.ascontiguousarray(yt != 0, dtype=np.uint8)
    pi = np.ascontiguousarray(yp != 0, dtype=np.uint8)
    tp, pred, true = _core.indicator_sums(ti, pi, w, samplewise)
    if w is not None and samplewise:
        total = w * yt.shape[1]
    elif w is not None:
        total = np.sum(w)
    elif samplewise:
        total = yt.shape[1]
    else:
        total = yt.shape[0]
    return tp, pred, true, total, yt.shape[1], w is not None


def _no_true_positive_at_all(y_true: Any, y_pred: Any) -> bool:
    """scikit-learn counts in float when no sample of 1-D labels is predicted right (its
    counts start as float zeros then), so its matrix, and every support from it, is float."""
    yt, yp = labels_1d(as_array(y_true, "y_true")), labels_1d(as_array(y_pred, "y_pred"))
    return yt.ndim == 1 and yt.shape == yp.shape and not bool(np.any(yt == yp))


def multilabel_confusion_matrix(y_true: Any, y_pred: Any, *, sample_weight: Any = None, labels: Any = None, samplewise: bool = False) -> np.ndarray:
    """One 2×2 matrix ``[[tn, fp], [fn, tp]]`` per label (or per sample with
    ``samplewise=True``, multilabel only), as scikit-learn's function."""
    tp, pred, true, total, _, weighted = label_sums(y_true, y_pred, sample_weight=sample_weight, labels=labels, samplewise=samplewise)
    if not weighted and not _no_true_positive_at_all(y_true, y_pred):
        tp, pred, true = tp.astype(np.int64), pred.astype(np.int64), true.astype(np.int64)
    fp = pred - tp
    fn = true - tp
    tn = total - tp - fp - fn
    return np.stack([tn, fp, fn, tp]).T.reshape(-1, 2, 2)
