"""lm-evaluation-harness 0.4.13's perplexity aggregates (``lm_eval/api/metrics.py``).

Pure Python (no native code). Items are ``(loglikelihood, count)`` pairs, one per document:
the document's rolling log-likelihood and its word or UTF-8 byte count (lm-eval's
``loglikelihood_rolling`` tasks: wikitext, pile, ...). ``weighted_mean`` is
``sum(loglikelihoods) / sum(counts)`` with Python's ``sum`` over the lists in order, as
lm-eval computes it, so the results are ``==`` under the same Python (3.12 made ``sum`` of
floats compensated; the value follows the interpreter that runs it, as lm-eval's does):

- ``word_perplexity`` / ``byte_perplexity``: ``math.exp(-weighted_mean(items))``
  (lm-eval's ``weighted_perplexity`` aggregation)
- ``bits_per_byte``: ``-weighted_mean(items) / math.log(2)``

A log-likelihood must be finite and ``<= 0`` and a count a non-negative integer; the
counts must not sum to 0. A perplexity beyond the float range is an error (lm-eval raises
``OverflowError`` there).

As registry metrics (``word_perplexity``, ``byte_perplexity``, ``bits_per_byte``; kind
``loglikelihoods``): ``corpus_score(loglikelihoods, counts)`` (two parallel sequences) or
``corpus_score(items)`` (the pairs). Statistics per document: ``documents`` (1) and the sums
``loglikelihood`` and ``count``, both kept in order so the corpus value is lm-eval's own
``sum``; totals rebuilt from sums alone (bootstrap resamples) take the exactly rounded sums.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import InputTypeError, InvalidInputError, LengthMismatchError


def _number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _pairs(items: Any, counts: Any = None) -> tuple[list, list]:
    """Validated ``(loglikelihoods, counts)`` lists, from pairs or from two sequences."""
    from ..._inputs import as_sequence

    what = "lm-eval aggregate"
    if isinstance(items, (str, bytes)) or isinstance(counts, (str, bytes)):
        raise InputTypeError(f"{what}: give (loglikelihood, count) pairs, or loglikelihoods and counts")
    items = as_sequence(items, "items" if counts is None else "loglikelihoods")
    if counts is None:
        pairs = []
        for i, item in enumerate(items):
            if isinstance(item, (str, bytes, dict, set)):
                raise InputTypeError(f"{what}: item {i} is not a (loglikelihood, count) pair")
            try:
                ll, count = item
            except (TypeError, ValueError):
                raise InputTypeError(f"{what}: item {i} is not a (loglikelihood, count) pair") from None
            pairs.append((ll, count))
    else:
        counts = as_sequence(counts, "counts")
        if len(counts) != len(items):
            raise LengthMismatchError(f"{what}: {len(items)} loglikelihoods but {len(counts)} counts")
        pairs = list(zip(items, counts))
    lls, cs = [], []
    for i, (ll, count) in enumerate(pairs):
        if not _number(ll) or not _number(count):
            raise InputTypeError(f"{what}: item {i} must hold numbers, got {type(ll).__name__}, {type(count).__name__}")
        for v in (ll, count):
            if isinstance(v, (int, np.integer)) and abs(int(v)) >= 2**53:
                raise InvalidInputError(f"{what}: item {i}: {int(v)} is past 2**53, where floats stop counting")
        if not math.isfinite(ll) or ll > 0:
            raise InvalidInputError(f"{what}: item {i}: loglikelihood {ll!r} is not a finite log-likelihood (<= 0)")
        if isinstance(count, (float, np.floating)):
            if not (math.isfinite(count) and count == int(count)):
                raise InputTypeError(f"{what}: item {i}: count {count!r} is not a whole number of words or bytes")
            count = int(count)
        if count < 0:
            raise InvalidInputError(f"{what}: item {i}: negative count {count!r}")
        lls.append(float(ll) if isinstance(ll, np.floating) else ll)
        cs.append(int(count))
    return lls, cs


def _weighted(lls: list, counts: list) -> float:
    if not lls:
        raise InvalidInputError("lm-eval aggregate: no documents")
    total = sum(counts)
    if total == 0:
        raise InvalidInputError("lm-eval aggregate: total count is 0 (no words or bytes)")
    ll = sum(lls)
    if not math.isfinite(ll):
        raise InvalidInputError("lm-eval aggregate: the sum of the log-likelihoods overflows a float")
    return ll / total


def _exp(x: float, what: str) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        raise InvalidInputError(f"{what} overflows a float (lm-eval raises OverflowError)") from None


def weighted_mean(items: Any) -> float:
    return _weighted(*_pairs(items))


def word_perplexity(items: Any) -> float:
    return _exp(-weighted_mean(items), "word_perplexity")


def byte_perplexity(items: Any) -> float:
    return _exp(-weighted_mean(items), "byte_perplexity")


def bits_per_byte(items: Any) -> float:
    return -weighted_mean(items) / math.log(2)


# -- the registry metrics ---------------------------------------------------------------------
from ..base import Metric, Score  # noqa: E402


class _LmEvalWeighted(Metric):
    """A weighted lm-eval aggregate over documents; see the module docstring."""

    count_fields = ("documents",)
    sum_fields = ("loglikelihood", "count")
    aggregation = ""
    unit = ""

    def __init__(self, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)

    def _signature_items(self) -> dict[str, Any]:
        return {"agg": self.aggregation, "unit": self.unit, "ref": "lm-eval-0.4.13"}

    def _abbreviations(self) -> dict[str, str]:
        return {"agg": "agg", "unit": "u", "ref": "ref"}

    def _value(self, mean: float) -> float:
        raise NotImplementedError

    def stats(self, loglikelihoods: Any, counts: Any = None):  # type: ignore[override]
        """Per document: ``documents`` (1), ``loglikelihood`` and ``count``."""
        from ...stats import SegmentStats

        lls, cs = _pairs(loglikelihoods, counts)
        sums = np.empty((len(lls), 2), dtype=np.float64)
        sums[:, 0] = lls
        sums[:, 1] = cs
        if len(cs) and sums[:, 1].max() >= 2.0**53:
            raise InvalidInputError("lm-eval aggregate: a count past 2**53 is not kept exactly")
        return SegmentStats(self.key, self.count_fields, np.ones((len(lls), 1), dtype=np.uint64), self.sum_fields, sums,
                            sequence_field=self.sum_fields)

    def _score(self, stats) -> Score:
        docs = int(stats.counts[0])
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments == docs:
            lls = seq[:, 0].tolist()  # Python's sum over them, in order, as lm-eval's
            counts = [int(c) for c in seq[:, 1].tolist()]
            mean = _weighted(lls, counts)
            ll_sum, count = sum(lls), sum(counts)
        else:
            if docs == 0:
                raise InvalidInputError("lm-eval aggregate: no documents")
            ll_sum, count = math.fsum(stats.sum_partials[0]), math.fsum(stats.sum_partials[1])
            if count == 0:
                raise InvalidInputError("lm-eval aggregate: total count is 0 (no words or bytes)")
            mean = ll_sum / count
        return Score(self.name, self._value(mean), self.signature(stats), stats, loglikelihood=ll_sum, count=count, documents=docs)

    def _sentence_scores(self, seg) -> np.ndarray:
        out = np.empty(len(seg), dtype=np.float64)
        for i, (ll, count) in enumerate(seg.sums.tolist()):
            if count == 0:
                raise InvalidInputError(f"{self.name}: document {i} has no {self.unit}s: it has no value of its own")
            out[i] = self._value(ll / count)
        return out

    # -- faces ------------------------------------------------------------------------------------
    def corpus_score(self, loglikelihoods: Any, counts: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(loglikelihoods, counts).total())

    def sentence_scores(self, loglikelihoods: Any, counts: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(loglikelihoods, counts))

    def sentence_parts(self, loglikelihoods: Any, counts: Any = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(loglikelihoods, counts)
        return {"score": self._sentence_scores(seg), "loglikelihood": seg.sums[:, 0].copy(), "count": seg.sums[:, 1].copy()}

    def update(self, loglikelihoods: Any, counts: Any = None) -> "_LmEvalWeighted":  # type: ignore[override]
        return self._accumulate(self.stats(loglikelihoods, counts).total())

    def add_batch(self, *, loglikelihoods: Any = None, counts: Any = None, predictions: Any = None, references: Any = None) -> "_LmEvalWeighted":  # type: ignore[override]
        if loglikelihoods is None and counts is None:
            loglikelihoods, counts = predictions, references
        return self.update(loglikelihoods, counts)

    def add(self, *, loglikelihood: Any = None, count: Any = None, prediction: Any = None, reference: Any = None) -> "_LmEvalWeighted":  # type: ignore[override]
        if loglikelihood is None and count is None:
            loglikelihood, count = prediction, reference
        return self.update([loglikelihood], [count])

    def compute(self, *, loglikelihoods: Any = None, counts: Any = None, predictions: Any = None, references: Any = None) -> Score:  # type: ignore[override]
        if loglikelihoods is None and counts is None:
            loglikelihoods, counts = predictions, references
        if loglikelihoods is not None:
            self.update(loglikelihoods, counts)
        elif counts is not None:
            raise InputTypeError("compute() needs loglikelihoods= with counts=")
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        from ...errors import InvalidOptionError

        raise InvalidOptionError(f"{self.name} has no pairwise form")


class WordPerplexity(_LmEvalWeighted):
    """lm-eval's ``word_perplexity`` (``weighted_perplexity`` of (loglikelihood, words)).

    >>> from nlgmetrics import WordPerplexity
    >>> round(WordPerplexity().corpus_score([-12.0, -3.0], [4, 1]).score, 6)
    20.085537
    """

    name = "word_perplexity"
    aggregation = "weighted_perplexity"
    unit = "word"

    def _value(self, mean: float) -> float:
        return _exp(-mean, self.name)


class BytePerplexity(_LmEvalWeighted):
    """lm-eval's ``byte_perplexity`` (``weighted_perplexity`` of (loglikelihood, bytes))."""

    name = "byte_perplexity"
    aggregation = "weighted_perplexity"
    unit = "byte"

    def _value(self, mean: float) -> float:
        return _exp(-mean, self.name)


class BitsPerByte(_LmEvalWeighted):
    """lm-eval's ``bits_per_byte`` (``-weighted_mean / math.log(2)`` of (loglikelihood, bytes))."""

    name = "bits_per_byte"
    aggregation = "bits_per_byte"
    unit = "byte"

    def _value(self, mean: float) -> float:
        return -mean / math.log(2)


def f1(items: Any) -> float:
    """lm-eval 0.4.13's registered ``f1`` aggregation (GLUE MRPC/QQP, MC-TACO, KoBEST and the
    other task configs that list ``metric: f1`` without their own aggregation): items are
    ``(gold, prediction)`` label pairs, one per document, scored by scikit-learn's binary
    ``f1_score(golds, predictions)`` (positive label 1; ``nlgmetrics.classification``'s, the
    same numbers) and reported as ``np.max`` of it."""
    from ..._inputs import as_sequence
    from ...classification.prf import f1_score

    if isinstance(items, (str, bytes)):
        raise InputTypeError("lm-eval f1: give (gold, prediction) pairs")
    golds, preds = [], []
    for i, item in enumerate(as_sequence(items, "items")):
        if isinstance(item, (str, bytes, dict, set)):
            raise InputTypeError(f"lm-eval f1: item {i} is not a (gold, prediction) pair")
        try:
            gold, pred = item
        except (TypeError, ValueError):
            raise InputTypeError(f"lm-eval f1: item {i} is not a (gold, prediction) pair") from None
        golds.append(gold)
        preds.append(pred)
    if not golds:
        raise InvalidInputError("lm-eval f1: no documents (lm-eval's zip(*items) of nothing)")
    return float(np.max(f1_score(golds, preds)))


def _loglikelihoods(values: Any) -> list:
    from ..._inputs import as_sequence

    if isinstance(values, (str, bytes)):
        raise InputTypeError("lm-eval perplexity: give one log-likelihood per document")
    out = []
    for i, ll in enumerate(as_sequence(values, "loglikelihoods")):
        if not _number(ll):
            raise InputTypeError(f"lm-eval perplexity: item {i} must be a number, got {type(ll).__name__}")
        if isinstance(ll, (int, np.integer)) and abs(int(ll)) >= 2**53:
            raise InvalidInputError(f"lm-eval perplexity: item {i}: {int(ll)} is past 2**53, where floats stop counting")
        if not math.isfinite(ll) or ll > 0:
            raise InvalidInputError(f"lm-eval perplexity: item {i}: loglikelihood {ll!r} is not a finite log-likelihood (<= 0)")
        out.append(float(ll) if isinstance(ll, np.floating) else ll)
    return out


def _mean_perplexity(lls: list) -> float:
    if not lls:
        raise InvalidInputError("lm-eval perplexity: no documents")
    total = sum(lls)
    if not math.isfinite(total):
        raise InvalidInputError("lm-eval perplexity: the sum of the log-likelihoods overflows a float")
    return _exp(-(total / len(lls)), "lm-eval perplexity")


def perplexity(items: Any) -> float:
    """lm-eval 0.4.13's ``perplexity`` aggregation (lambada's ``perplexity``):
    ``math.exp(-mean(items))`` of one log-likelihood per document, ``mean = sum / len``."""
    return _mean_perplexity(_loglikelihoods(items))


class LmEvalPerplexity(Metric):
    """lm-eval's ``perplexity`` (registered metric of ``loglikelihood`` tasks, e.g. lambada):
    ``math.exp(-sum(loglikelihoods) / len(loglikelihoods))``, one log-likelihood (of the
    target continuation) per document.

    >>> from nlgmetrics import LmEvalPerplexity
    >>> round(LmEvalPerplexity().corpus_score([-1.0, -3.0]).score, 6)
    7.389056
    """

    name = "lm_eval_perplexity"
    logged_key = "perplexity"
    count_fields = ("documents",)
    sum_fields = ("loglikelihood",)

    def __init__(self, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)

    def _signature_items(self) -> dict[str, Any]:
        return {"agg": "perplexity", "ref": "lm-eval-0.4.13"}

    def _abbreviations(self) -> dict[str, str]:
        return {"agg": "agg", "ref": "ref"}

    def stats(self, loglikelihoods: Any, counts: Any = None):  # type: ignore[override]
        """Per document: ``documents`` (1) and ``loglikelihood``."""
        from ...stats import SegmentStats

        if counts is not None:
            raise InputTypeError("lm_eval_perplexity takes one log-likelihood per document, no counts")
        lls = _loglikelihoods(loglikelihoods)
        sums = np.asarray(lls, dtype=np.float64).reshape(-1, 1)
        return SegmentStats(self.key, self.count_fields, np.ones((len(lls), 1), dtype=np.uint64), self.sum_fields, sums,
                            sequence_field="loglikelihood")

    def _score(self, stats) -> Score:
        docs = int(stats.counts[0])
        seq = stats.sequence
        if seq is not None and len(seq) == stats.n_segments == docs:
            lls = seq.tolist()
        else:
            if docs == 0:
                raise InvalidInputError("lm-eval perplexity: no documents")
            lls = None
        if lls is not None:
            value, total = _mean_perplexity(lls), sum(lls)
        else:
            total = math.fsum(stats.sum_partials[0])
            value = _exp(-(total / docs), "lm-eval perplexity")
        return Score(self.name, value, self.signature(stats), stats, loglikelihood=total, documents=docs)

    def _sentence_scores(self, seg) -> np.ndarray:
        return np.array([_exp(-ll, self.name) for ll in seg.sums[:, 0].tolist()], dtype=np.float64)

    def corpus_score(self, loglikelihoods: Any, counts: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(loglikelihoods, counts).total())

    def sentence_scores(self, loglikelihoods: Any, counts: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(loglikelihoods, counts))

    def update(self, loglikelihoods: Any, counts: Any = None) -> "LmEvalPerplexity":  # type: ignore[override]
        return self._accumulate(self.stats(loglikelihoods, counts).total())

    def add_batch(self, *, loglikelihoods: Any = None, predictions: Any = None, references: Any = None) -> "LmEvalPerplexity":  # type: ignore[override]
        return self.update(predictions if loglikelihoods is None else loglikelihoods, references)

    def add(self, *, loglikelihood: Any = None, prediction: Any = None, reference: Any = None) -> "LmEvalPerplexity":  # type: ignore[override]
        return self.update([prediction if loglikelihood is None else loglikelihood], None if reference is None else [reference])

    def compute(self, *, loglikelihoods: Any = None, predictions: Any = None, references: Any = None) -> Score:  # type: ignore[override]
        values = predictions if loglikelihoods is None else loglikelihoods
        if values is not None or references is not None:
            self.update(values, references)
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        from ...errors import InvalidOptionError

        raise InvalidOptionError(f"{self.name} has no pairwise form")
