"""lm-eval 0.4.13 aggregates against their source, reproduced verbatim from
lm_eval/api/metrics.py in the lm-eval==0.4.13 wheel on PyPI."""
import math
import random

import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError
from nlgmetrics.metrics.llm import lm_eval_aggregates as agg


def ref_weighted_mean(items):  # lm_eval/api/metrics.py 0.4.13
    a, b = zip(*items)
    return sum(a) / sum(b)


def ref_weighted_perplexity(items):
    return math.exp(-ref_weighted_mean(items))


def ref_bits_per_byte(items):
    return -ref_weighted_mean(items) / math.log(2)


def _items(rng, texts):
    # per document: rolling loglikelihood, word count (split()) and UTF-8 byte count
    out = []
    for t in texts:
        ll = -rng.uniform(0, 5) * max(1, len(t)) - rng.random()
        out.append((ll, len(t.split()), len(t.encode("utf-8"))))
    return out


TEXTS = ["The cat sat.", "猫坐在垫子上。", "ＦＵＬＬ－ＷＩＤＴＨ　ｔｅｘｔ！", "mixed 中文 and English，标点。", " ", "x" * 500, "a\tb\nc"]


@pytest.mark.parametrize("seed", range(15))
def test_equal_to_lm_eval(seed):
    rng = random.Random(seed)
    texts = [rng.choice(TEXTS) for _ in range(rng.randint(1, 300))]
    rows = _items(rng, texts)
    words = [(ll, w) for ll, w, _ in rows]
    bytes_ = [(ll, b) for ll, _, b in rows]
    if sum(w for _, w in words):
        assert agg.word_perplexity(words) == ref_weighted_perplexity(words)
    assert agg.byte_perplexity(bytes_) == ref_weighted_perplexity(bytes_)
    assert agg.bits_per_byte(bytes_) == ref_bits_per_byte(bytes_)


def test_typed_errors():
    with pytest.raises(InvalidInputError):
        agg.bits_per_byte([])
    with pytest.raises(InvalidInputError):
        agg.word_perplexity([(-1.0, 0)])  # whitespace-only document: no words
    with pytest.raises(InputTypeError):
        agg.bits_per_byte([(-1.0,)])
    with pytest.raises(InputTypeError):
        agg.bits_per_byte([("-1", 3)])
    with pytest.raises(InvalidInputError):
        agg.bits_per_byte([(float("nan"), 3)])
