"""LongBench qa_f1_score / qa_f1_zh_score against THUDM/LongBench metrics.py and eval.py's
scorer, reproduced below (LongBench/metrics.py, eval.py)."""
import random
import re
import string
from collections import Counter

import jieba
import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError, LengthMismatchError, MissingExtraError
from nlgmetrics.metrics.qa.longbench_qa import longbench_qa_f1, longbench_qa_f1_rows


def ref_normalize_answer(s):
    def remove_articles(text):
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    return white_space_fix(remove_articles(remove_punc(s.lower())))


def ref_normalize_zh_answer(s):
    cn_punctuation = "！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘’‛“”„‟…‧﹏."
    all_punctuation = set(string.punctuation + cn_punctuation)
    return "".join("".join(ch for ch in s.lower() if ch not in all_punctuation).split())


def ref_f1_score(prediction, ground_truth):
    common = Counter(prediction) & Counter(ground_truth)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction)
    recall = 1.0 * num_same / len(ground_truth)
    return (2 * precision * recall) / (precision + recall)


def ref_qa_f1_score(prediction, ground_truth):
    return ref_f1_score(ref_normalize_answer(prediction).split(), ref_normalize_answer(ground_truth).split())


def ref_qa_f1_zh_score(prediction, ground_truth):
    p = [ref_normalize_zh_answer(t) for t in jieba.cut(prediction, cut_all=False)]
    g = [ref_normalize_zh_answer(t) for t in jieba.cut(ground_truth, cut_all=False)]
    return ref_f1_score([t for t in p if len(t) > 0], [t for t in g if len(t) > 0])


def ref_scorer(fn, predictions, answers, first_line=False):
    total_score = 0.0
    for prediction, ground_truths in zip(predictions, answers):
        score = 0.0
        if first_line:
            prediction = prediction.lstrip("\n").split("\n")[0]
        for ground_truth in ground_truths:
            score = max(score, fn(prediction, ground_truth))
        total_score += score
    return round(100 * total_score / len(predictions), 2)


PIECES = ["the", "A", "an", "北京", "是", "中国的首都", "Beijing", "capital", "，", "。", "！", "ＡＢＣ", "１２３",
          "full－width", "（括号）", "—", "…", " ", "\t", "\n", "", "The Eiffel Tower", "埃菲尔铁塔", "1889", "e.g.", "don't", "“quoted”"]


def _text(rng):
    return "".join(rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(0, 8)))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("zh", [False, True])
def test_equal_to_longbench(seed, zh):
    rng = random.Random(seed)
    m = rng.randint(1, 40)
    preds = [_text(rng) for _ in range(m)]
    answers = [[_text(rng) for _ in range(rng.randint(1, 4))] for _ in range(m)]
    fn = ref_qa_f1_zh_score if zh else ref_qa_f1_score
    for first_line in (False, True):
        rows = longbench_qa_f1_rows(preds, answers, zh=zh, first_line=first_line)
        assert longbench_qa_f1(preds, answers, zh=zh, first_line=first_line) == ref_scorer(fn, preds, answers, first_line)
        for p, gs, r in zip(preds, answers, rows):
            if first_line:
                p = p.lstrip("\n").split("\n")[0]
            best = 0.0
            for g in gs:
                best = max(best, fn(p, g))
            assert r == best


def test_known_values():
    assert longbench_qa_f1(["The Eiffel Tower"], [["eiffel tower!", "x"]]) == 100.0
    assert longbench_qa_f1(["北京是中国的首都"], [["中国的首都"]], zh=True) == ref_scorer(ref_qa_f1_zh_score, ["北京是中国的首都"], [["中国的首都"]])


def test_typed_errors():
    with pytest.raises(InvalidInputError):
        longbench_qa_f1([], [])
    with pytest.raises(LengthMismatchError):
        longbench_qa_f1(["a"], [])
    with pytest.raises(InputTypeError):
        longbench_qa_f1(["a"], ["a"])
    with pytest.raises(InputTypeError):
        longbench_qa_f1([None], [["a"]])


def test_missing_jieba_names_the_extra(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "jieba", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[zh\]"):
        longbench_qa_f1(["中文"], [["中文"]], zh=True)
