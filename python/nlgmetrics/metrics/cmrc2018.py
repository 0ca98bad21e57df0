"""CMRC 2018's official F1 / EM (ymcui/cmrc2018 ``squad-style-data/cmrc2018_evaluate.py``, v5).

Pure Python (no native code). Text is lowercased and stripped; ``mixed_segmentation`` emits
each CJK character (U+4E00–U+9FA5) and each listed punctuation character as a token and runs
of other characters through nltk's ``word_tokenize`` (the English Punkt model, read offline:
see ``nltk_word_tokenize``); with ``rm_punc`` the listed punctuation is dropped. F1 per answer
is from the longest common contiguous token run (``find_lcs``), max over answers; EM compares
the texts with that punctuation removed. Corpus values are ``100.0 * sum / total`` with the
script's sequential ``+=``. The script is Python 2; the listed ``'……'`` is two characters, so
(as there) it never matches a single character.
"""
from __future__ import annotations

import re
from typing import Sequence

from ..errors import InputTypeError, InvalidInputError, LengthMismatchError

_SP_CHAR = ['-', ':', '_', '*', '^', '/', '\\', '~', '`', '+', '=',
            '，', '。', '：', '？', '！', '“', '”', '；', '’', '《', '》', '……', '·', '、',
            '「', '」', '（', '）', '－', '～', '『', '』']
_CJK = re.compile("[\u4e00-\u9fa5]")


def mixed_segmentation(in_str: str, rm_punc: bool = False) -> list[str]:
    from .nltk_word_tokenize import word_tokenizer

    tok = word_tokenizer()
    in_str = in_str.lower().strip()
    out: list[str] = []
    temp = ""
    for char in in_str:
        if rm_punc and char in _SP_CHAR:
            continue
        if _CJK.search(char) or char in _SP_CHAR:
            if temp != "":
                out.extend(tok(temp))
                temp = ""
            out.append(char)
        else:
            temp += char
    if temp != "":
        out.extend(tok(temp))
    return out


def remove_punctuation(in_str: str) -> str:
    return "".join(ch for ch in in_str.lower().strip() if ch not in _SP_CHAR)


def find_lcs(s1: Sequence[str], s2: Sequence[str]) -> tuple[Sequence[str], int]:
    m = [[0] * (len(s2) + 1) for _ in range(len(s1) + 1)]
    mmax = p = 0
    for i in range(len(s1)):
        for j in range(len(s2)):
            if s1[i] == s2[j]:
                m[i + 1][j + 1] = m[i][j] + 1
                if m[i + 1][j + 1] > mmax:
                    mmax = m[i + 1][j + 1]
                    p = i + 1
    return s1[p - mmax:p], mmax


def calc_f1_score(answers: Sequence[str], prediction: str) -> float:
    scores = []
    for ans in answers:
        ans_segs = mixed_segmentation(ans, rm_punc=True)
        pred_segs = mixed_segmentation(prediction, rm_punc=True)
        _, n = find_lcs(ans_segs, pred_segs)
        if n == 0:
            scores.append(0)
            continue
        precision = 1.0 * n / len(pred_segs)
        recall = 1.0 * n / len(ans_segs)
        scores.append((2 * precision * recall) / (precision + recall))
    return max(scores)


def calc_em_score(answers: Sequence[str], prediction: str) -> int:
    p = remove_punctuation(prediction)
    return int(any(remove_punctuation(a) == p for a in answers))


def cmrc2018(predictions: Sequence[str], answers: Sequence[Sequence[str]]) -> dict[str, float]:
    """``{"f1", "em", "average"}`` as the script computes them (unrounded; it prints ``%.3f``)."""
    if isinstance(predictions, str) or isinstance(answers, str):
        raise InputTypeError("cmrc2018: predictions and answers must be lists")
    predictions, answers = list(predictions), list(answers)
    if len(predictions) != len(answers):
        raise LengthMismatchError(f"cmrc2018: {len(predictions)} predictions but {len(answers)} answer lists")
    if not predictions:
        raise InvalidInputError("cmrc2018: no questions (the script divides by zero)")
    f1 = 0
    em = 0
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not isinstance(pred, str) or isinstance(golds, str) or not all(isinstance(g, str) for g in golds):
            raise InputTypeError(f"cmrc2018: question {i}: a prediction string and a list of answer strings are required")
        if not golds:
            raise InvalidInputError(f"cmrc2018: question {i} has no gold answer (the script's max() of nothing)")
        f1 += calc_f1_score(golds, pred)
        em += calc_em_score(golds, pred)
    f1_score = 100.0 * f1 / len(predictions)
    em_score = 100.0 * em / len(predictions)
    return {"f1": f1_score, "em": em_score, "average": (em_score + f1_score) * 0.5}
