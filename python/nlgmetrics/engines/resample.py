"""Percentile bootstrap of the mean of score rows (rouge-score's ``BootstrapAggregator``).

The draws come from a caller-given ``choice`` (``numpy.random.choice``, the global
generator, for rouge-score's numbers; a seeded ``RandomState(seed).choice`` otherwise).
"""

from __future__ import annotations

from typing import Callable

import numpy as np


def bootstrap_mean_percentiles(matrix: np.ndarray, n_samples: int, confidence_interval: float, choice: Callable = np.random.choice) -> np.ndarray:
    """Rows ``low, mid, high`` (3 x measures): percentiles of ``n_samples`` resampled means.

    Each sample draws ``len(matrix)`` row indices with ``choice(arange(n), size=n)``;
    ``mid`` is the median of the sample means (linear interpolation, as numpy's default).
    """
    n = matrix.shape[0]
    means = np.zeros((n_samples, matrix.shape[1]))
    for i in range(n_samples):
        idx = choice(np.arange(n), size=n)
        means[i, :] = np.mean(matrix[idx, :], axis=0)
    delta = (1 - confidence_interval) / 2
    return np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)
