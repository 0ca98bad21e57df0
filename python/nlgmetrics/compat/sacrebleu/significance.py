"""``sacrebleu.significance``: ``PairedTest`` and ``Result`` over nlgmetrics' paired tests
(:func:`nlgmetrics.engines.significance.paired_test_stats` with ``method="sacrebleu"``)."""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence

from ...engines.significance import paired_test_stats
from .metrics import Metric
from ._scores import Score, Signature  # noqa: F401  (sacrebleu's module has Score)

IS_WINDOWS = os.name == "nt"


def estimate_ci(scores: Any) -> tuple[float, float]:
    """sacrebleu's ``estimate_ci``: the mean of the scores and half the width of their 95% interval."""
    import numpy as np

    from ...engines.significance import _estimate

    mean, half_width, _, _ = _estimate(np.asarray(scores), "numpy")
    return mean, half_width


class Result:
    """One system's result: score, and against the baseline p-value, bootstrap mean and CI."""

    def __init__(self, score: float, p_value: Optional[float] = None, mean: Optional[float] = None, ci: Optional[float] = None):
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.__dict__.items())


class PairedTest:
    """sacrebleu's ``PairedTest(named_systems, metrics, references, test_type, n_samples,
    n_ar_confidence, n_jobs)``; calling it returns ``(signatures, scores)``."""

    _DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

    def __init__(self, named_systems: list[tuple[str, Sequence[str]]], metrics: Mapping[str, Metric],
                 references: Optional[Sequence[Sequence[str]]], test_type: str = "ar", n_samples: int = 0,
                 n_ar_confidence: int = -1, n_jobs: int = 1):
        assert test_type in ("ar", "bs"), f"Unknown test type {test_type!r}"
        self.test_type = test_type
        env = os.environ.get("SACREBLEU_SEED", "12345")
        self._seed = None if env.lower() == "none" else int(env)
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.metrics = metrics

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        scores: dict[str, list[Any]] = {"System": [name for name, _ in self.named_systems]}
        signatures: dict[str, Signature] = {}
        # sacrebleu draws the paired tests with seed None when the seed is 0
        seed = self._seed if self._seed else None
        for metric in self.metrics.values():
            stats = [metric._segment_stats(hyps, self.references) for _, hyps in self.named_systems]
            ar_conf = self.n_ar_confidence if self.test_type == "ar" and self.n_ar_confidence > 0 else None
            res = paired_test_stats(metric._native, stats[0], list(zip([n for n, _ in self.named_systems[1:]], stats[1:])),
                                    test=self.test_type, n_samples=self.n_samples, seed=seed, method="sacrebleu",
                                    ar_confidence_n=ar_conf)
            name = metric._wrap(metric._native.score_stats(stats[0].total())).name
            scores[name] = [Result(r.score, r.p_value, r.mean, r.ci) for r in res.systems]
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            signatures[name] = sig
        return signatures, scores
