"""lm-evaluation-harness 0.4.13's perplexity aggregates (``lm_eval/api/metrics.py``).

Pure Python (no native code). Items are ``(loglikelihood, count)`` pairs, one per document:
the document's rolling log-likelihood and its byte or word count. ``weighted_mean`` is
``sum(loglikelihoods) / sum(counts)`` with Python's ``sum`` over the lists in order, as
lm-eval computes it, so the results are ``==``:

- ``word_perplexity`` / ``byte_perplexity``: ``math.exp(-weighted_mean(items))``
- ``bits_per_byte``: ``-weighted_mean(items) / math.log(2)``
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import InputTypeError, InvalidInputError


def _pairs(items: Any) -> tuple[list, list]:
    lls, counts = [], []
    for i, item in enumerate(items):
        try:
            ll, count = item
        except (TypeError, ValueError):
            raise InputTypeError(f"lm-eval aggregate: item {i} is not a (loglikelihood, count) pair") from None
        if isinstance(ll, bool) or not isinstance(ll, (int, float)) or isinstance(count, bool) or not isinstance(count, (int, float)):
            raise InputTypeError(f"lm-eval aggregate: item {i} must hold numbers, got {type(ll).__name__}, {type(count).__name__}")
        if not math.isfinite(ll) or count < 0:
            raise InvalidInputError(f"lm-eval aggregate: item {i}: loglikelihood {ll!r}, count {count!r}")
        lls.append(ll)
        counts.append(count)
    if not lls:
        raise InvalidInputError("lm-eval aggregate: no documents")
    if sum(counts) == 0:
        raise InvalidInputError("lm-eval aggregate: total count is 0 (no words or bytes)")
    return lls, counts


def weighted_mean(items: Any) -> float:
    lls, counts = _pairs(items)
    return sum(lls) / sum(counts)


def word_perplexity(items: Any) -> float:
    return math.exp(-weighted_mean(items))


def byte_perplexity(items: Any) -> float:
    return math.exp(-weighted_mean(items))


def bits_per_byte(items: Any) -> float:
    return -weighted_mean(items) / math.log(2)
