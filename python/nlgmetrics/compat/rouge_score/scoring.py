"""``rouge_score.scoring``: ``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator``, ``fmeasure``."""

from __future__ import annotations

import abc
import collections
from typing import Dict

import numpy as np

from ..._locking import state_lock
from ...engines.resample import bootstrap_mean_percentiles


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Tuple containing precision, recall, and f-measure values."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Tuple containing confidence intervals for scores."""


class BaseScorer(metaclass=abc.ABCMeta):
    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """Score between the target and prediction, per score type."""


class BootstrapAggregator:
    """rouge-score's aggregator: percentiles of bootstrap means, drawn from numpy's global
    generator (``numpy.random.seed(s)`` first for repeatable numbers, as with rouge-score)."""

    def __init__(self, confidence_interval=0.95, n_samples=1000):
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        # under one lock: threads adding at once keep row k of every type the same example
        with state_lock(self):
            for score_type, score in scores.items():
                self._scores[score_type].append(score)

    def aggregate(self):
        result = {}
        with state_lock(self):
            items = [(t, list(v)) for t, v in self._scores.items()]
        for score_type, scores in items:
            pct = self._bootstrap_resample(np.vstack(tuple(scores)))
            low, mid, high = (scores[0].__class__(*pct[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _bootstrap_resample(self, matrix):
        # looked up at call time, so that a patched or reseeded numpy.random is honoured
        return bootstrap_mean_percentiles(matrix, self._n_samples, self._confidence_interval, np.random.choice)


def fmeasure(precision, recall):
    """F1 of a precision and a recall (0.0 when both are 0): rouge-score's public helper."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
