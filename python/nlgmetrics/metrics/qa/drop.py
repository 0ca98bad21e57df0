"""DROP's exact match and F1 as lm-evaluation-harness 0.4.13's ``drop`` task computes them
(``lm_eval/tasks/drop/utils.py``, the AllenNLP DROP evaluation it ports).

Pure Python and numpy. An answer is a list of spans (a string is one span). Each span is
normalised token by token (split on ``" "`` and ``"-"``; lowercased; punctuation removed
unless the token parses as a float; a float token written as ``str(float(token))``;
articles removed; whitespace collapsed; empty tokens dropped). Exact match: the predicted
and gold normalised span lists are equal as sets and as lengths. F1: each span's bag of
words (a set), gold and predicted bags aligned one to one for the largest total F1 (a
pair whose gold bag holds numbers scores only if the predicted bag shares one), the mean
over ``max(len(gold), len(predicted))`` bags, ``round(..., 2)``. Per question, the maxima
over the gold answers whose first span is not blank (0 when there is none); the task's
values are ``mean`` over questions (``sum / len``, Python's ``sum`` in order). Scale 0–1, as
lm-eval reports them; the score is F1.

A prediction is a string (lm-eval's generated text: one span) or a list of span strings; a
question's gold answers are a list whose items are strings or lists of span strings.

Statistics per question: ``em`` (0/1), ``total`` (1) and ``f1``, kept in order so the
corpus value is lm-eval's own sum; totals rebuilt from sums alone (bootstrap resamples)
take the exactly rounded sum.
"""

from __future__ import annotations

import itertools
import math
import re
import string
from typing import Any, Sequence

import numpy as np

from ...errors import InputTypeError, InvalidInputError, LengthMismatchError, MissingReferenceError
from ..base import Metric, Score

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCT = frozenset(string.punctuation)
_SPLIT = re.compile(" |-")
# the one-to-one alignment is searched exhaustively up to this many bags on the smaller side
_EXHAUSTIVE = 7


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _normalize(answer: str) -> str:
    tokens = []
    for token in _SPLIT.split(answer):
        t = token.lower()
        if not _is_number(t):
            t = "".join(ch for ch in t if ch not in _PUNCT)
        t = str(float(t)) if _is_number(t) else t
        t = " ".join(_ARTICLES.sub(" ", t).split())
        if t.strip():
            tokens.append(t)
    return " ".join(tokens).strip()


def _bags(spans: Sequence[str]) -> tuple[list[str], list[set[str]]]:
    normalized = [_normalize(s) for s in spans]
    return normalized, [set(n.split()) for n in normalized]


def _f1(pred: set[str], gold: set[str]) -> float:
    inter = len(gold.intersection(pred))
    precision = 1.0 if not pred else inter / float(len(pred))
    recall = 1.0 if not gold else inter / float(len(gold))
    return (2 * precision * recall) / (precision + recall) if not (precision == 0.0 and recall == 0.0) else 0.0


def _numbers_match(gold: set[str], pred: set[str]) -> bool:
    g = {w for w in gold if _is_number(w)}
    return not g or bool(g.intersection(w for w in pred if _is_number(w)))


def _assignment(scores: np.ndarray) -> list[tuple[int, int]]:
    """A one-to-one assignment of rows to columns with the largest total (scipy's
    ``linear_sum_assignment(-scores)``; any optimum gives the same total)."""
    n_rows, n_cols = scores.shape
    if min(n_rows, n_cols) <= _EXHAUSTIVE and max(n_rows, n_cols) <= 12:
        best, best_pairs = -1.0, []
        if n_rows <= n_cols:
            for cols in itertools.permutations(range(n_cols), n_rows):
                total = sum(scores[r, c] for r, c in enumerate(cols))
                if total > best:
                    best, best_pairs = total, list(enumerate(cols))
        else:
            for rows in itertools.permutations(range(n_rows), n_cols):
                total = sum(scores[r, c] for c, r in enumerate(rows))
                if total > best:
                    best, best_pairs = total, [(r, c) for c, r in enumerate(rows)]
        return best_pairs
    try:
        from scipy.optimize import linear_sum_assignment
    except ImportError:
        from ...errors import MissingExtraError

        raise MissingExtraError("DROP F1 of answers with more than 7 spans on both sides needs scipy: pip install scipy") from None
    rows, cols = linear_sum_assignment(-scores)
    return list(zip(rows.tolist(), cols.tolist()))


def get_metrics(predicted: str | Sequence[str], gold: str | Sequence[str]) -> tuple[float, float]:
    """``(exact_match, f1)`` of one predicted answer against one gold answer."""
    p_spans = [predicted] if isinstance(predicted, str) else list(predicted)
    g_spans = [gold] if isinstance(gold, str) else list(gold)
    p_norm, p_bags = _bags(p_spans)
    g_norm, g_bags = _bags(g_spans)
    em = 1.0 if set(p_norm) == set(g_norm) and len(p_norm) == len(g_norm) else 0.0
    scores = np.zeros([len(g_bags), len(p_bags)])
    for gi, g in enumerate(g_bags):
        for pi, p in enumerate(p_bags):
            if _numbers_match(g, p):
                scores[gi, pi] = _f1(p, g)
    max_scores = np.zeros([max(len(g_bags), len(p_bags))])
    for r, c in _assignment(scores):
        max_scores[r] = max(max_scores[r], scores[r, c])
    return em, float(round(np.mean(max_scores), 2))  # numpy's round of np.float64, as lm-eval


def question_scores(prediction: str | Sequence[str], golds: Sequence[str | Sequence[str]]) -> tuple[float, float]:
    """lm-eval's ``process_results``: ``(em, f1)``, maxima over the gold answers whose first
    span is not blank."""
    max_em: Any = 0
    max_f1: Any = 0
    for gold in golds:
        em, f1 = get_metrics(prediction, gold)
        first = gold if isinstance(gold, str) else gold[0]
        if first.strip():
            max_em = max(max_em, em)
            max_f1 = max(max_f1, f1)
    return float(max_em), float(max_f1)


def _spans(value: Any, what: str) -> str | list[str]:
    """A string (one span) or a sequence of span strings (list, tuple, array, Series)."""
    from ..._inputs import as_sequence

    if isinstance(value, str):
        return str(value)
    if isinstance(value, (bytes, dict, set, frozenset)) or not hasattr(value, "__iter__"):
        raise InputTypeError(f"{what} must be a string or a list of span strings, got {type(value).__name__}")
    spans = as_sequence(value, what)
    if not spans:
        raise InvalidInputError(f"{what} has no span")
    for j, span in enumerate(spans):
        if not isinstance(span, str):
            raise InputTypeError(f"{what}[{j}] must be a string, got {type(span).__name__}")
    return [str(span) for span in spans]


def _gold_answers(references: Any, n: int) -> list[list[str | list[str]]]:
    """Per question its gold answers; a table's columns are gold answer streams (one span each)."""
    from ..._inputs import _is_table, as_references, as_sequence

    if _is_table(references):
        return as_references(references, n)  # type: ignore[return-value]
    refs = as_sequence(references, "references")
    if len(refs) != n:
        raise LengthMismatchError(f"drop: {n} predictions but {len(refs)} references")
    golds: list[list[str | list[str]]] = []
    for i, r in enumerate(refs):
        if isinstance(r, str):
            golds.append([str(r)])
            continue
        if isinstance(r, (bytes, dict, set, frozenset)) or not hasattr(r, "__iter__"):
            raise InputTypeError(f"references[{i}] must be a list of gold answers, got {type(r).__name__}")
        answers = as_sequence(r, f"references[{i}]")
        if not answers:
            raise MissingReferenceError(f"references[{i}] holds no gold answer")
        golds.append([_spans(g, f"references[{i}][{j}]") for j, g in enumerate(answers)])
    return golds


class DROPScore(Score):
    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"drop f1 = {self.f1:.{width}f}, em = {self.em:.{width}f}"


class DROP(Metric):
    """DROP F1 / exact match (lm-eval 0.4.13's ``drop`` task); see the module docstring.

    >>> from nlgmetrics import DROP
    >>> s = DROP().corpus_score(["3", "the Bears and Lions"], [["three", "3"], [["Bears", "Lions"]]])
    >>> s.f1, s.em
    (0.625, 0.5)
    """

    name = "drop"
    count_fields = ("em", "total")
    sum_fields = ("f1",)

    def __init__(self, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)

    def _signature_items(self) -> dict[str, Any]:
        return {"ref": "lm-eval-0.4.13-drop"}

    def _abbreviations(self) -> dict[str, str]:
        return {"ref": "ref"}

    def stats(self, predictions: Any, references: Any):  # type: ignore[override]
        """Per question: ``em``, ``total`` and ``f1``."""
        from ..._inputs import as_sequence
        from ...stats import SegmentStats

        if isinstance(predictions, (str, bytes)) or isinstance(references, (str, bytes)):
            raise InputTypeError("drop: predictions and references must be sequences, one item per question")
        preds = [_spans(p, f"predictions[{i}]") for i, p in enumerate(as_sequence(predictions, "predictions"))]
        golds = _gold_answers(references, len(preds))
        counts = np.zeros((len(preds), 2), dtype=np.uint64)
        counts[:, 1] = 1
        f1 = np.zeros((len(preds), 1), dtype=np.float64)
        for i, (p, g) in enumerate(zip(preds, golds)):
            em, f = question_scores(p, g)
            counts[i, 0] = int(em)
            f1[i, 0] = f
        ref_counts = np.fromiter((len(g) for g in golds), dtype=np.int64, count=len(golds))
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, f1, ref_counts=ref_counts, sequence_field="f1")

    def _segment_stats(self, predictions, references):
        return self.stats(predictions, references)

    def _score(self, stats) -> Score:
        em, total = (int(x) for x in stats.counts)
        if total == 0:
            raise InvalidInputError("drop: no questions (lm-eval's mean of nothing divides by zero)")
        seq = stats.sequence
        if seq is not None and len(seq) == stats.n_segments == total:
            f1_sum = sum(seq.tolist())  # lm-eval's mean: sum(arr) / len(arr), in order
        else:
            f1_sum = math.fsum(stats.sum_partials[0])
        f1 = f1_sum / total
        return DROPScore(self.name, f1, self.signature(stats), stats, f1=f1, em=em / total, total=total)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, 0].copy()
