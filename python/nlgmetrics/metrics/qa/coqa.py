"""CoQA's exact match and F1 as lm-evaluation-harness 0.4.13's ``coqa`` task computes them
(``lm_eval/tasks/coqa/utils.py`` over ``transformers.data.metrics.squad_metrics``).

Pure Python. The prediction is the generated text's first line after ``strip()``
(``results[0].strip().split("\\n")[0]``). Answers are compared as SQuAD v2.0's script does
(``compute_exact``: normalised texts equal; ``compute_f1``: token F1 of the normalised texts,
``int(gold == pred)`` when either has no token). With several gold answers, each one is left
out in turn and the prediction scored against the others (best of them), and the values are
averaged over the turns; with one, it is scored against it. The task's values are ``mean``
over questions (``sum / len``, Python's ``sum`` in order). Scale 0–1; the score is F1.

The gold answers of a question are what the task's ``doc_to_target`` returns: the turn's
answer and then each additional answer not equal to one already there ignoring case.

Statistics per question: ``total`` (1) and the sums ``em`` and ``f1``, kept in order so the
corpus values are lm-eval's own sums; totals rebuilt from sums alone (bootstrap resamples)
take the exactly rounded sums.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from typing import Any

import numpy as np

from ...errors import InvalidInputError
from ..base import Metric, Score

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCT = frozenset(string.punctuation)


def normalize_answer(s: str) -> str:
    """SQuAD v2.0's ``normalize_answer`` (lower, punctuation, articles, whitespace)."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def _tokens(s: str) -> list[str]:
    if not s:
        return []
    return normalize_answer(s).split()


def compute_exact(a_gold: str, a_pred: str) -> int:
    return int(normalize_answer(a_gold) == normalize_answer(a_pred))


def compute_f1(a_gold: str, a_pred: str) -> float:
    gold, pred = _tokens(a_gold), _tokens(a_pred)
    num_same = sum((Counter(gold) & Counter(pred)).values())
    if len(gold) == 0 or len(pred) == 0:
        return int(gold == pred)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred)
    recall = 1.0 * num_same / len(gold)
    return (2 * precision * recall) / (precision + recall)


def compute_scores(gold_list: list[str], pred: str) -> tuple[float, float]:
    """lm-eval's ``compute_scores``: ``(em, f1)`` of one question."""
    f1_sum = 0.0
    em_sum = 0.0
    if len(gold_list) > 1:
        for i in range(len(gold_list)):
            others = gold_list[0:i] + gold_list[i + 1:]
            em_sum += max(compute_exact(a, pred) for a in others)
            f1_sum += max(compute_f1(a, pred) for a in others)
    else:
        em_sum += max(compute_exact(a, pred) for a in gold_list)
        f1_sum += max(compute_f1(a, pred) for a in gold_list)
    return em_sum / max(1, len(gold_list)), f1_sum / max(1, len(gold_list))


class CoQAScore(Score):
    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"coqa f1 = {self.f1:.{width}f}, em = {self.em:.{width}f}"


class CoQA(Metric):
    """CoQA F1 / exact match (lm-eval 0.4.13's ``coqa`` task); see the module docstring.

    >>> from nlgmetrics import CoQA
    >>> s = CoQA().corpus_score([" white\\nQ: next?", "in a barn"], [["white"], ["a barn", "barn", "in the barn"]])
    >>> s.f1, s.em
    (0.9444444444444444, 0.8333333333333333)
    """

    name = "coqa"
    count_fields = ("total",)
    sum_fields = ("em", "f1")

    def __init__(self, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)

    def _signature_items(self) -> dict[str, Any]:
        return {"ref": "lm-eval-0.4.13-coqa"}

    def _abbreviations(self) -> dict[str, str]:
        return {"ref": "ref"}

    def _segment_stats(self, predictions: list[str], references: list[list[str]]):
        from ...stats import SegmentStats

        sums = np.empty((len(predictions), 2), dtype=np.float64)
        for i, (p, golds) in enumerate(zip(predictions, references)):
            sums[i] = compute_scores(list(golds), p.strip().split("\n")[0])
        ref_counts = np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references))
        return SegmentStats(self.key, self.count_fields, np.ones((len(predictions), 1), dtype=np.uint64), self.sum_fields, sums,
                            ref_counts=ref_counts, sequence_field=self.sum_fields)

    def _score(self, stats) -> Score:
        total = int(stats.counts[0])
        if total == 0:
            raise InvalidInputError("coqa: no questions (lm-eval's mean of nothing divides by zero)")
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments == total:
            em_sum, f1_sum = sum(seq[:, 0].tolist()), sum(seq[:, 1].tolist())  # lm-eval's sum(arr) / len(arr)
        else:
            em_sum, f1_sum = (math.fsum(p) for p in stats.sum_partials)
        return CoQAScore(self.name, f1_sum / total, self.signature(stats), stats, f1=f1_sum / total, em=em_sum / total, total=total)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, 1].copy()
