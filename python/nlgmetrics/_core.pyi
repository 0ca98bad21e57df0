"""Type stubs for the native module ``nlgmetrics._core`` (classification functions)."""

from typing import Any

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

# -- classification ---------------------------------------------------------------------
def clf_curve(y: Bools, scores: F64, weights: F64 | None = None, n_threads: int = 0) -> tuple[F64, F64, F64]:
    """``(fps, tps, thresholds)`` of scikit-learn's ``confusion_matrix_at_thresholds``."""

def roc_curve(y: Bools, scores: F64, weights: F64 | None = None, drop_intermediate: bool = True, n_threads: int = 0) -> tuple[F64, F64, F64, bool, bool]:
    """``(fpr, tpr, thresholds, no_positive, no_negative)``."""

def pr_curve(y: Bools, scores: F64, weights: F64 | None = None, drop_intermediate: bool = False, n_threads: int = 0) -> tuple[F64, F64, F64, bool]:
    """``(precision, recall, thresholds, no_positive)``."""

def binary_metric(name: str, y: Bools, scores: F64, weights: F64 | None = None, max_fpr: float | None = None, n_threads: int = 0) -> float:
    """``"roc_auc"`` (NaN with a single class) or ``"average_precision"`` of one problem."""

def column_metrics(name: str, y: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], weights: F64 | None = None, max_fpr: float | None = None, n_threads: int = 0) -> F64:
    """The binary metric of every column of (n, k) matrices."""

def ovo_pairs(codes: npt.NDArray[np.int64], scores: npt.NDArray[np.float64], n_threads: int = 0) -> tuple[F64, F64]:
    """Hand & Till pair scores and pair prevalences (pairs a < b in lexicographic order)."""

def confusion_counts(y_true: npt.NDArray[np.int64], y_pred: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.uint64]: ...
def confusion_weighted(y_true: npt.NDArray[np.int64], y_pred: npt.NDArray[np.int64], weights: F64, k: int) -> npt.NDArray[np.float64]: ...
def label_sums(y_true: npt.NDArray[np.int64], y_pred: npt.NDArray[np.int64], k: int, weights: F64 | None = None) -> tuple[F64, F64, F64]: ...
def indicator_sums(y_true: npt.NDArray[np.uint8], y_pred: npt.NDArray[np.uint8], weights: F64 | None = None, samplewise: bool = False) -> tuple[F64, F64, F64]: ...
def prf(tp: F64, pred: F64, truth: F64, beta: float, average: str | None, zero_division: float, sample_weight: F64 | None = None) -> dict[str, Any]:
    """Keys: precision, recall, fscore, support (arrays), averaged ((P, R, F) or None), zero_division_hit."""

def np_sum(a: F64) -> float:
    """numpy's pairwise ``np.sum``."""

def ranked_ap(convention: str, y: Bools, scores: F64, n_threads: int = 0) -> F64:
    """``voc11``/``voc``: ``[AP]`` (NaN without positives); ``coco``: the 101 precisions (empty without positives)."""

def table_from_batch(y: Bools, scores: F64, weights: F64 | None = None, n_threads: int = 0) -> tuple[F64, F64, F64]: ...
def table_merge(s1: F64, p1: F64, n1: F64, s2: F64, p2: F64, n2: F64) -> tuple[F64, F64, F64]: ...
def groups_roc(thresholds: F64, pos: F64, neg: F64, drop_intermediate: bool = True) -> tuple[F64, F64, F64, bool, bool]: ...
def groups_pr(thresholds: F64, pos: F64, neg: F64, drop_intermediate: bool = False) -> tuple[F64, F64, F64, bool]: ...
def groups_scores(thresholds: F64, pos: F64, neg: F64, max_fpr: float | None = None) -> tuple[float, float]: ...
def hist_counts(lo: float, hi: float, n_bins: int, y: Bools, scores: F64, weights: F64 | None = None, n_threads: int = 0) -> tuple[F64, F64]: ...
def hist_groups(lo: float, hi: float, pos: F64, neg: F64) -> tuple[F64, F64, F64, float, float]:
    """Non-empty bins (highest first) as ``(thresholds, pos, neg)`` plus ``(auc_bound, ap_bound)``."""
