"""ROC AUC and average precision (scikit-learn ``roc_auc_score``,
``average_precision_score``).

- Binary: AUC = trapezoid area under the ROC curve after ``drop_intermediate``; with
  ``max_fpr`` the partial area gets the McClish correction. AP = Σ (R_n − R_{n−1}) P_n
  over thresholds (step sum, not interpolated).
- Multilabel / multiclass one-vs-rest: one binary problem per column, then ``macro``
  (mean), ``weighted`` (by support), ``micro`` (all cells as one problem), ``samples``
  (one problem per row, weighted by sample weight) or ``None`` (per class).
- Multiclass one-vs-one (AUC only): Hand & Till (2001), the mean over class pairs of the
  two directed AUCs; ``weighted`` by pair prevalence.

The per-class curves run in the Rust core (in parallel over classes); the averaging
repeats scikit-learn's numpy expressions, so values are identical.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ._order import warn_if_scores_first
from ._validate import (
    as_array,
    check_average,
    check_length,
    labels_1d,
    n_threads_value,
    scores_array,
    target_kind,
    type_of_target,
    unique,
    warn,
    weights_array,
)

_ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."


def _binarize(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(y[:, None] == classes[None, :])


def _average_binary_score(name: str, y: np.ndarray, s: np.ndarray, average: Any, w: np.ndarray | None, max_fpr: Any, n_threads: int, on_column: Callable[[np.ndarray, np.ndarray], None] | None = None):
    """scikit-learn's ``_average_binary_score`` for an indicator matrix ``y`` (bool)."""
    check_average(average, (None, "micro", "macro", "weighted", "samples"))
    if y.shape != s.shape:
        raise InvalidInputError(f"y_true has shape {y.shape} but y_score has shape {s.shape}")
    score_weight, average_weight, by_rows = w, None, False
    if average == "micro":
        if score_weight is not None:
            score_weight = np.repeat(score_weight, y.shape[1])
        y1, s1 = np.ascontiguousarray(y.ravel()), np.ascontiguousarray(s.ravel())
        if on_column is not None:
            on_column(y1[:, None], s1[:, None])
        return float(_core.binary_metric(name, y1, s1, score_weight, max_fpr, n_threads))
    if average == "weighted":
        if score_weight is not None:
            average_weight = np.sum(np.multiply(y.astype(score_weight.dtype), score_weight.reshape(-1, 1)), axis=0)
        else:
            average_weight = np.sum(y.astype(np.int64), axis=0)
        if np.isclose(np.sum(average_weight), 0):
            return 0
    elif average == "samples":
        average_weight, score_weight, by_rows = score_weight, None, True
    # Each column of the matrices handed to the core is one binary problem.
    if on_column is not None:
        on_column(y.T if by_rows else y, s.T if by_rows else s)
    cols_y = np.ascontiguousarray(y.T if by_rows else y)
    cols_s = np.ascontiguousarray(s.T if by_rows else s)
    score = _core.column_metrics(name, cols_y, cols_s, score_weight, max_fpr, n_threads)
    if average is None:
        return score
    if average_weight is not None:
        if not np.any(average_weight):
            # scikit-learn lets numpy raise ZeroDivisionError here.
            raise InvalidInputError("sample_weight must contain at least one non-zero number")
        score[average_weight == 0] = 0
    return float(np.average(score, weights=average_weight))


def _warn_one_class_columns(y: np.ndarray, s: np.ndarray) -> None:
    npos = y.sum(axis=0)
    if ((npos == 0) | (npos == y.shape[0])).any():
        warn(_ONE_CLASS)


def _warn_no_positive_columns(y: np.ndarray, s: np.ndarray) -> None:
    if (y.sum(axis=0) == 0).any():
        warn("No positive class found in y_true, recall is set to one for all thresholds.")


def average_precision_score(y_true: Any, y_score: Any, *, average: str | None = "macro", pos_label: Any = 1, sample_weight: Any = None, n_threads: int = 0):
    """AP = Σ_n (R_n − R_{n−1}) P_n (scikit-learn's non-interpolated step sum).
    Multiclass targets are binarized one-vs-rest over the classes present in y_true."""
    warn_if_scores_first("average_precision_score", y_true, y_score, "y_score")
    nt = n_threads_value(n_threads)
    yt = as_array(y_true, "y_true")
    kind = type_of_target(yt, "y_true")
    present = unique(labels_1d(yt)) if kind != "multilabel-indicator" else None
    if kind == "binary":
        yt = labels_1d(yt)
        if present.size == 2 and pos_label not in present.tolist():
            raise InvalidOptionError(f"pos_label={pos_label!r} is not a valid label: it should be one of {present.tolist()}")
        s = scores_array(y_score)
        check_length(yt.shape[0], s.shape[0], "y_true", "y_score")
        w = weights_array(sample_weight, yt.shape[0], allow_all_zero=True)
        check_average(average, (None, "micro", "macro", "weighted", "samples"))
        y = np.ascontiguousarray(yt == pos_label)
        if not y.any():
            warn("No positive class found in y_true, recall is set to one for all thresholds.")
        return float(_core.binary_metric("average_precision", y, s, w, None, nt))
    if pos_label != 1:
        raise InvalidOptionError(f"pos_label is fixed to 1 for {kind} y_true: do not set it")
    s = scores_array(y_score, ndim=(2,))
    check_length(yt.shape[0], s.shape[0], "y_true", "y_score")
    if kind == "multiclass":
        y = _binarize(yt, present)
        if s.shape != y.shape:
            raise InvalidInputError(f"y_score needs shape (n_samples, n_classes) = {y.shape} since y_true has {present.size} classes; got {s.shape}")
    else:
        y = np.ascontiguousarray(yt != 0)
    w = weights_array(sample_weight, yt.shape[0], allow_all_zero=True)
    return _average_binary_score("average_precision", y, s, average, w, None, nt, _warn_no_positive_columns)


def roc_auc_score(y_true: Any, y_score: Any, *, average: str | None = "macro", sample_weight: Any = None, max_fpr: float | None = None, multi_class: str = "raise", labels: Any = None, n_threads: int = 0):
    """Area under the ROC curve; see the module docstring. A single class in y_true gives
    NaN with an :class:`UndefinedMetricWarning` (scikit-learn 1.9)."""
    warn_if_scores_first("roc_auc_score", y_true, y_score, "y_score")
    nt = n_threads_value(n_threads)
    if max_fpr is not None and not (isinstance(max_fpr, (int, float, np.floating)) and 0 < max_fpr <= 1):
        raise InvalidOptionError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    if multi_class not in ("raise", "ovr", "ovo"):
        raise InvalidOptionError(f"multi_class must be 'raise', 'ovr' or 'ovo'; got {multi_class!r}")
    yt = as_array(y_true, "y_true")
    kind, labels_seen = target_kind(yt, "y_true")
    s = scores_array(y_score, ndim=(1, 2))
    check_length(yt.shape[0], s.shape[0], "y_true", "y_score")
    w = weights_array(sample_weight, yt.shape[0], allow_all_zero=True)
    if kind == "multiclass" or (kind == "binary" and s.ndim == 2 and s.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise InvalidOptionError(f"partial AUC (max_fpr) is not available for multiclass targets, got max_fpr={max_fpr}")
        if multi_class == "raise":
            raise InvalidOptionError("multiclass y_true needs multi_class='ovr' or 'ovo'")
        return _multiclass(labels_1d(yt), s, labels, multi_class, average, w, nt)
    if kind == "binary":
        yt = labels_1d(yt)
        if s.ndim == 2 and s.shape[1] == 1:
            s = np.ascontiguousarray(s.ravel())
        if s.ndim != 1:
            raise InvalidInputError(f"binary y_true needs 1-D scores (the positive class's), got shape {s.shape}")
        check_average(average, (None, "micro", "macro", "weighted", "samples"))
        classes = labels_seen if labels_seen is not None else unique(yt)
        y = np.ascontiguousarray(yt == classes[-1]) if classes.size == 2 else np.zeros(yt.shape[0], dtype=bool)
        if classes.size != 2:
            warn(_ONE_CLASS)
            return float("nan")
        return float(_core.binary_metric("roc_auc", y, s, w, max_fpr, nt))
    if s.ndim != 2:
        raise InvalidInputError(f"multilabel y_true needs 2-D scores, got shape {s.shape}")
    y = np.ascontiguousarray(yt != 0)
    return _average_binary_score("roc_auc", y, s, average, w, max_fpr, nt, _warn_one_class_columns)


def _multiclass(yt: np.ndarray, s: np.ndarray, labels: Any, multi_class: str, average: Any, w: np.ndarray | None, nt: int):
    if not np.allclose(1, s.sum(axis=1)):
        raise InvalidInputError("multiclass ROC AUC needs probabilities: each row of y_score must sum to 1 over classes")
    options = ("macro", "weighted", None) if multi_class == "ovo" else ("micro", "macro", "weighted", None)
    if average not in options:
        raise InvalidOptionError(f"average must be one of {options} for multiclass problems, got {average!r}")
    if average is None and multi_class == "ovo":
        raise InvalidOptionError("average=None is not implemented for multi_class='ovo'")
    if labels is not None:
        classes = labels_1d(as_array(labels, "labels"))
        u = unique(classes)
        if len(u) != len(classes):
            raise InvalidOptionError("parameter 'labels' must be unique")
        if not np.array_equal(u, classes):
            raise InvalidOptionError("parameter 'labels' must be ordered")
        if len(classes) != s.shape[1]:
            raise InvalidInputError(f"{len(classes)} labels given but y_score has {s.shape[1]} columns")
        if len(np.setdiff1d(yt, classes)):
            raise InvalidInputError("y_true contains labels not in parameter 'labels'")
    else:
        classes = unique(yt)
        if len(classes) != s.shape[1]:
            raise InvalidInputError(f"y_true has {len(classes)} classes but y_score has {s.shape[1]} columns")
    if multi_class == "ovo":
        if w is not None:
            raise InvalidOptionError("sample_weight is not supported for multiclass one-vs-one ROC AUC")
        codes = np.searchsorted(classes, yt).astype(np.int64)
        present = unique(codes)
        if present.size < 2:
            raise InvalidInputError("one-vs-one ROC AUC needs at least two classes present in y_true")
        remap = np.full(s.shape[1], -1, dtype=np.int64)
        remap[present] = np.arange(present.size)
        sub = np.ascontiguousarray(s[:, present])
        pair_scores, prevalence = _core.ovo_pairs(remap[codes], sub, nt)
        return float(np.average(pair_scores, weights=prevalence if average == "weighted" else None))
    y = _binarize(yt, classes)
    return _average_binary_score("roc_auc", y, s, average, w, None, nt, _warn_one_class_columns)


__all__ = ["average_precision_score", "roc_auc_score"]
