"""DeLong's test for two correlated ROC AUCs (scores of two models on the same samples).

The AUCs' variances and covariance come from DeLong, DeLong & Clarke-Pearson (1988)'s
structural components, computed with midranks in O(n log n) as Sun & Xu (2014) show. The
z statistic of the difference is two-sided normal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidInputError, LengthMismatchError
from ._validate import as_array, scores_array


@dataclass(frozen=True)
class DeLongResult:
    auc_a: float
    auc_b: float
    z: float
    p_value: float
    variance_a: float
    variance_b: float
    covariance: float


def _midranks(x: np.ndarray) -> np.ndarray:
    """1-based ranks, tied values sharing the mean of their ranks."""
    order = np.argsort(x, kind="mergesort")
    ordered = x[order]
    ranks = np.empty(len(x), dtype=np.float64)
    start = 0
    while start < len(x):
        end = start
        while end + 1 < len(x) and ordered[end + 1] == ordered[start]:
            end += 1
        ranks[order[start : end + 1]] = (start + end) / 2.0 + 1.0
        start = end + 1
    return ranks


def structural_components(y_true: Any, scores: Any) -> tuple[float, np.ndarray, np.ndarray]:
    """The AUC, the positives' components V10 and the negatives' V01 of one model."""
    y = as_array(y_true, "y_true")
    s = scores_array(scores, "scores")
    if y.ndim != 1 or s.ndim != 1:
        raise InvalidInputError("DeLong: labels and scores must be one-dimensional")
    if len(y) != len(s):
        raise LengthMismatchError(f"DeLong: {len(y)} labels, {len(s)} scores")
    if not np.all(np.isfinite(s)):
        raise InvalidInputError("DeLong: scores must be finite")
    if y.dtype.kind not in "biuf" or not np.all((y == 0) | (y == 1)):
        raise InvalidInputError("DeLong: labels must be 0 and 1 (binarize a multi-class problem one-vs-rest)")
    positive = y == 1
    pos, neg = s[positive], s[~positive]
    m, n = len(pos), len(neg)
    if m < 2 or n < 2:
        raise InvalidInputError(f"DeLong: the variance needs two samples of each class, got {m} positive and {n} negative")
    everything = _midranks(np.concatenate([pos, neg]))
    within_pos, within_neg = _midranks(pos), _midranks(neg)
    auc = (everything[:m].sum() - m * (m + 1) / 2.0) / (m * n)
    v10 = (everything[:m] - within_pos) / n
    v01 = 1.0 - (everything[m:] - within_neg) / m
    return float(auc), v10, v01


def delong_test(y_true: Any, scores_a: Any, scores_b: Any) -> DeLongResult:
    """Whether model A's ROC AUC differs from model B's on the same labelled samples."""
    auc_a, v10_a, v01_a = structural_components(y_true, scores_a)
    auc_b, v10_b, v01_b = structural_components(y_true, scores_b)
    m, n = len(v10_a), len(v01_a)
    cov = np.cov(np.vstack([v10_a, v10_b])) / m + np.cov(np.vstack([v01_a, v01_b])) / n
    var_diff = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    if var_diff <= 0:
        z = 0.0 if auc_a == auc_b else math.copysign(math.inf, auc_a - auc_b)
    else:
        z = (auc_a - auc_b) / math.sqrt(var_diff)
    p = math.erfc(abs(z) / math.sqrt(2.0))
    return DeLongResult(auc_a, auc_b, float(z), float(p), float(cov[0, 0]), float(cov[1, 1]), float(cov[0, 1]))
