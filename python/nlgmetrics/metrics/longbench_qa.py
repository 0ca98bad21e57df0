"""LongBench's ``qa_f1_score`` / ``qa_f1_zh_score`` (THUDM/LongBench ``metrics.py``) and its
``eval.py`` scorer: max over the gold answers per example, then
``round(100 * total_score / len(predictions), 2)``. Pure Python (no native code); the Chinese
flavour segments with jieba (``pip install nlgmetrics[zh]``), ``cut_all=False``.

LongBench's scorer keeps only the first line of the prediction
(``prediction.lstrip('\\n').split('\\n')[0]``) for triviaqa (and trec, samsum, lsht):
pass ``first_line=True`` for triviaqa.
"""
from __future__ import annotations

import re
import string
from collections import Counter
from typing import Any, Sequence

from ..errors import InputTypeError, InvalidInputError, LengthMismatchError

_CN_PUNCT = ("！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】"
             "〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘’‛“”„‟…‧﹏.")
_EN_PUNCT = frozenset(string.punctuation)
_ALL_PUNCT = frozenset(string.punctuation + _CN_PUNCT)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(s: str) -> str:
    s = "".join(ch for ch in s.lower() if ch not in _EN_PUNCT)
    return " ".join(_ARTICLES.sub(" ", s).split())


def normalize_zh_answer(s: str) -> str:
    return "".join("".join(ch for ch in s.lower() if ch not in _ALL_PUNCT).split())


def _f1(prediction: list[str], ground_truth: list[str]) -> float:
    num_same = sum((Counter(prediction) & Counter(ground_truth)).values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction)
    recall = 1.0 * num_same / len(ground_truth)
    return (2 * precision * recall) / (precision + recall)


def qa_f1_score(prediction: str, ground_truth: str) -> float:
    return _f1(normalize_answer(prediction).split(), normalize_answer(ground_truth).split())


def qa_f1_zh_score(prediction: str, ground_truth: str) -> float:
    # jieba.cut(text, cut_all=False), in the core's copy of jieba (nlgmetrics.tokenizers.jieba_cut)
    from ..tokenizers import jieba_cut

    pw, gw = jieba_cut([prediction, ground_truth])
    p = [t for t in (normalize_zh_answer(t) for t in pw) if len(t) > 0]
    g = [t for t in (normalize_zh_answer(t) for t in gw) if len(t) > 0]
    return _f1(p, g)


def longbench_qa_f1_rows(predictions: Sequence[str], answers: Sequence[Sequence[str]], *, zh: bool = False, first_line: bool = False) -> list[float]:
    """Per example: max over its gold answers (LongBench's ``score = max(score, ...)`` from 0.0)."""
    if isinstance(predictions, str) or isinstance(answers, str):
        raise InputTypeError("longbench qa_f1: predictions and answers must be lists")
    predictions, answers = list(predictions), list(answers)
    if len(predictions) != len(answers):
        raise LengthMismatchError(f"longbench qa_f1: {len(predictions)} predictions but {len(answers)} answer lists")
    fn = qa_f1_zh_score if zh else qa_f1_score
    rows = []
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not isinstance(pred, str) or isinstance(golds, str) or not all(isinstance(g, str) for g in golds):
            raise InputTypeError(f"longbench qa_f1: example {i}: a prediction string and a list of answer strings are required")
        if first_line:
            pred = pred.lstrip("\n").split("\n")[0]
        score = 0.0
        for g in golds:
            score = max(score, fn(pred, g))
        rows.append(score)
    return rows


def longbench_qa_f1(predictions: Sequence[str], answers: Sequence[Sequence[str]], *, zh: bool = False, first_line: bool = False) -> float:
    """LongBench ``eval.py``'s ``scorer``: ``round(100 * total_score / len(predictions), 2)``."""
    rows = longbench_qa_f1_rows(predictions, answers, zh=zh, first_line=first_line)
    if not rows:
        raise InvalidInputError("LongBench's scorer of no example divides by zero")
    total = 0.0
    for v in rows:
        total += v
    return round(100 * total / len(rows), 2)
