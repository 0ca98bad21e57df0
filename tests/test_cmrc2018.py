"""CMRC 2018 F1/EM against cmrc2018_evaluate.py (ymcui/cmrc2018, v5), its functions reproduced
below in Python 3 (the script is Python 2: unicode handling only differs), with nltk's
word_tokenize on the offline Punkt model."""
import random
import re

import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError, LengthMismatchError
from nlgmetrics.metrics.qa.cmrc2018 import cmrc2018
from nlgmetrics.metrics.nltk_word_tokenize import word_tokenizer

SP = ['-', ':', '_', '*', '^', '/', '\\', '~', '`', '+', '=', '，', '。', '：', '？', '！', '“', '”', '；', '’',
      '《', '》', '……', '·', '、', '「', '」', '（', '）', '－', '～', '『', '』']


def ref_mixed_segmentation(in_str, rm_punc=False):
    word_tokenize = word_tokenizer()
    in_str = in_str.lower().strip()
    segs_out, temp_str = [], ""
    for char in in_str:
        if rm_punc and char in SP:
            continue
        if re.search(r'[\u4e00-\u9fa5]', char) or char in SP:
            if temp_str != "":
                segs_out.extend(word_tokenize(temp_str))
                temp_str = ""
            segs_out.append(char)
        else:
            temp_str += char
    if temp_str != "":
        segs_out.extend(word_tokenize(temp_str))
    return segs_out


def ref_remove_punctuation(in_str):
    return ''.join(c for c in in_str.lower().strip() if c not in SP)


def ref_find_lcs(s1, s2):
    m = [[0 for i in range(len(s2) + 1)] for j in range(len(s1) + 1)]
    mmax = 0
    p = 0
    for i in range(len(s1)):
        for j in range(len(s2)):
            if s1[i] == s2[j]:
                m[i + 1][j + 1] = m[i][j] + 1
                if m[i + 1][j + 1] > mmax:
                    mmax = m[i + 1][j + 1]
                    p = i + 1
    return s1[p - mmax:p], mmax


def ref_f1(answers, prediction):
    f1_scores = []
    for ans in answers:
        a = ref_mixed_segmentation(ans, rm_punc=True)
        p = ref_mixed_segmentation(prediction, rm_punc=True)
        lcs, n = ref_find_lcs(a, p)
        if n == 0:
            f1_scores.append(0)
            continue
        precision = 1.0 * n / len(p)
        recall = 1.0 * n / len(a)
        f1_scores.append((2 * precision * recall) / (precision + recall))
    return max(f1_scores)


def ref_em(answers, prediction):
    for ans in answers:
        if ref_remove_punctuation(ans) == ref_remove_punctuation(prediction):
            return 1
    return 0


def ref_evaluate(preds, answers):
    f1 = em = 0
    for p, a in zip(preds, answers):
        f1 += ref_f1(a, p)
        em += ref_em(a, p)
    return 100.0 * f1 / len(preds), 100.0 * em / len(preds)


PIECES = ["北京", "是", "中国的首都", "Beijing", "capital", "，", "。", "！", "ＡＢＣ", "１２３", "full-width", "（括号）",
          "……", "·", " ", "\t", "", "The Eiffel Tower", "埃菲尔铁塔", "1889年", "e.g.", "don't", "“quoted”", "U.S.", "$3.5"]


def _text(rng):
    return "".join(rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(0, 7)))


@pytest.mark.parametrize("seed", range(10))
def test_equal_to_script(seed):
    rng = random.Random(seed)
    m = rng.randint(1, 30)
    preds = [_text(rng) for _ in range(m)]
    answers = [[_text(rng) for _ in range(rng.randint(1, 3))] for _ in range(m)]
    got = cmrc2018(preds, answers)
    f1, em = ref_evaluate(preds, answers)
    assert (got["f1"], got["em"]) == (f1, em)
    assert got["average"] == (em + f1) * 0.5


def test_known_values():
    r = cmrc2018(["北京。", "the tower"], [["北京"], ["埃菲尔铁塔"]])
    assert r["em"] == 50.0 and r["f1"] == 50.0


def test_typed_errors():
    with pytest.raises(InvalidInputError):
        cmrc2018([], [])
    with pytest.raises(InvalidInputError):
        cmrc2018(["a"], [[]])
    with pytest.raises(LengthMismatchError):
        cmrc2018(["a"], [])
    with pytest.raises(InputTypeError):
        cmrc2018(["a"], ["a"])
