"""Task-specific QA F1s of lm-evaluation-harness 0.4.13 that are neither its registered
metrics nor SQuAD's official script. Pure Python.

- :class:`LmEvalQasper` (``lm_eval_qasper``): ``qasper_freeform``'s ``f1_abstractive``
  (``lm_eval/tasks/qasper/metrics.py``): SQuAD v1.1's token F1 of the generation against the
  document's one answer (SQuAD's normalisation; 0 when nothing is shared, so also when either
  side has no token), ``mean`` over documents. lm-eval makes one document per (question,
  free-form answer), so each prediction has exactly one gold answer here.
- :class:`LmEvalXQuAD` (``lm_eval_xquad``): ``process_results`` of ``xquad`` (``tasks/xquad/utils.py``)
  and of noreval's ``norquad`` (``tasks/noreval/norquad/utils.py``), the same code:
  ``transformers.data.metrics.squad_metrics``' ``compute_exact`` and ``compute_f1`` (SQuAD
  v2.0's answer comparison: ``int(gold == pred)`` when either side has no token) of the raw
  generation against the document's **first** gold answer only (``doc["answers"]["text"][0]``),
  ``mean`` over documents of each. Flavours ``xquad`` and ``norquad`` name the task in the
  signature; the numbers are the same.

Corpus values are lm-eval's ``mean`` (``sum(arr) / len(arr)``, Python's ``sum`` in document
order), scale 0–1. Statistics per document: ``total`` (1) and the sums (``f1``; xquad also
``exact_match``), kept in order so the corpus values are lm-eval's own sums; totals rebuilt
from sums alone (bootstrap resamples) take the exactly rounded sums.

qasper's other task, ``qasper_bool``, is multiple choice with the registered ``f1``
aggregation (scikit-learn's binary ``f1_score`` of (gold, prediction) pairs):
``nlgmetrics.metrics.llm.lm_eval_aggregates.f1``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import InvalidInputError, InvalidOptionError
from ..base import Metric, Score
from ..qa.coqa import compute_exact, compute_f1
from ..qa.longbench_qa import qa_f1_score


def f1_abstractive(prediction: str, gold: str) -> float:
    """``qasper/metrics.py``'s ``f1_abstractive(predictions=[prediction], references=[gold])``:
    SQuAD v1.1's ``f1_score`` (the same function as LongBench's ``qa_f1_score``)."""
    return qa_f1_score(prediction, gold)


def xquad_scores(gold_answers: list[str], prediction: str) -> tuple[float, float]:
    """``xquad`` / ``norquad``'s ``process_results``: ``(exact_match, f1)`` of the prediction
    against the first gold answer (SQuAD v2.0's ``compute_exact`` / ``compute_f1``)."""
    if not gold_answers:
        raise InvalidInputError("xquad: a document without a gold answer (lm-eval indexes answers['text'][0])")
    return compute_exact(gold_answers[0], prediction), compute_f1(gold_answers[0], prediction)


def _sequential_means(stats, fields: tuple[str, ...], what: str) -> tuple[list[float], int]:
    total = int(stats.counts[0])
    if total == 0:
        raise InvalidInputError(f"{what}: no documents (lm-eval's mean of nothing divides by zero)")
    seq = stats.sequence
    if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments == total:
        sums = [sum(seq[:, j].tolist()) for j in range(len(fields))]  # lm-eval's sum(arr) / len(arr)
    else:
        sums = [math.fsum(p) for p in stats.sum_partials]
    return [s / total for s in sums], total


class QasperScore(Score):
    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"lm_eval_qasper f1_abstractive = {self.score:.{width}f}"


class LmEvalQasper(Metric):
    """lm-eval 0.4.13 ``qasper_freeform``'s ``f1_abstractive``, mean over documents (0–1).

    >>> from nlgmetrics import LmEvalQasper
    >>> LmEvalQasper().corpus_score(["BERT and ELMo", "no"], ["BERT", "yes"]).score
    0.25
    """

    name = "lm_eval_qasper"
    count_fields = ("total",)
    sum_fields = ("f1",)

    def __init__(self, *, multi_ref: str = "error", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if multi_ref not in ("error", "best"):
            raise InvalidOptionError(f"unknown multi_ref {multi_ref!r}; known: error, best")
        self.multi_ref = multi_ref

    def _signature_items(self) -> dict[str, Any]:
        items = {"ref": "lm-eval-0.4.13-qasper_freeform"}
        if self.multi_ref == "best":
            items["multiref"] = "best"
        return items

    def _abbreviations(self) -> dict[str, str]:
        return {"ref": "ref"}

    def _segment_stats(self, predictions: list[str], references: list[list[str]]):
        from ...stats import SegmentStats

        sums = np.empty((len(predictions), 1), dtype=np.float64)
        for i, (p, golds) in enumerate(zip(predictions, references)):
            if len(golds) == 1:
                sums[i, 0] = f1_abstractive(p, golds[0])
            elif self.multi_ref == "best" and golds:
                sums[i, 0] = max(f1_abstractive(p, g) for g in golds)
            else:
                raise InvalidInputError(f"lm_eval_qasper: document {i} has {len(golds)} gold answers; qasper_freeform makes one "
                                        "document per (question, answer): give one answer per prediction, or "
                                        "multi_ref='best' for the best of several (the Qasper paper's evaluator)")
        ref_counts = np.ones(len(predictions), dtype=np.int64)
        return SegmentStats(self.key, self.count_fields, np.ones((len(predictions), 1), dtype=np.uint64), self.sum_fields, sums,
                            ref_counts=ref_counts, sequence_field=self.sum_fields)

    def _score(self, stats) -> Score:
        (f1,), total = _sequential_means(stats, self.sum_fields, "lm_eval_qasper")
        return QasperScore(self.name, f1, self.signature(stats), stats, f1_abstractive=f1, total=total)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, 0].copy()


class XQuADScore(Score):
    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"lm_eval_xquad f1 = {self.f1:.{width}f}, exact_match = {self.exact_match:.{width}f}"


class LmEvalXQuAD(Metric):
    """lm-eval 0.4.13 ``xquad`` / ``norquad`` ``f1`` and ``exact_match`` (first gold answer,
    SQuAD v2.0's comparison), means over documents (0–1); the score is ``f1``.

    >>> from nlgmetrics import LmEvalXQuAD
    >>> s = LmEvalXQuAD().corpus_score(["the Eiffel Tower", ""], [["Eiffel Tower", "tower"], ["."]])
    >>> s.f1, s.exact_match
    (1.0, 1.0)
    """

    name = "lm_eval_xquad"
    count_fields = ("total",)
    sum_fields = ("exact_match", "f1")
    FLAVOURS = ("xquad", "norquad")

    def __init__(self, flavour: str | None = None, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        flavour = "xquad" if flavour is None else flavour
        if not isinstance(flavour, str) or flavour not in self.FLAVOURS:
            raise InvalidOptionError(f"unknown lm_eval_xquad flavour {flavour!r}; known: {', '.join(self.FLAVOURS)} (the same code)")
        self.flavour = flavour

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": self.flavour, "ref": f"lm-eval-0.4.13-{self.flavour}"}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "ref": "ref"}

    def _segment_stats(self, predictions: list[str], references: list[list[str]]):
        from ...stats import SegmentStats

        sums = np.empty((len(predictions), 2), dtype=np.float64)
        for i, (p, golds) in enumerate(zip(predictions, references)):
            sums[i] = xquad_scores(list(golds), p)
        ref_counts = np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references))
        return SegmentStats(self.key, self.count_fields, np.ones((len(predictions), 1), dtype=np.uint64), self.sum_fields, sums,
                            ref_counts=ref_counts, sequence_field=self.sum_fields)

    def _score(self, stats) -> Score:
        (em, f1), total = _sequential_means(stats, self.sum_fields, "lm_eval_xquad")
        return XQuADScore(self.name, f1, self.signature(stats), stats, f1=f1, exact_match=em, total=total)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, 1].copy()
