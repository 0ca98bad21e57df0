"""chrF's packed character n-gram path (dense per-segment character ids packed into 64-bit
keys) against sacrebleu 2.6.0 on adversarial generated text: non-ASCII, astral characters,
combining marks, every kind of Python whitespace, segments shorter and longer than the
order, empty segments, several references, and alphabets around the packing limit
(more than 1,023 distinct characters a segment do not pack for 6 orders: the interning
path takes them). Statistics, corpus and sentence scores are compared with ``==``."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF as SacreCHRF
from sacrebleu.utils import sum_of_lists

import nlgmetrics as nm

SPACES = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"
ALPHABET = "aAbB zZ.,()İΣςé\u0301e\u0303Éßẞŉǅΐ日本語你好カナ\U0001d518\U0001d52b\U0001F600\u200b\x00" + SPACES
text = st.text(alphabet=ALPHABET, max_size=30)
OPTIONS = [
    {}, {"lowercase": True}, {"whitespace": True}, {"char_order": 8}, {"char_order": 1}, {"char_order": 3, "eps_smoothing": True},
    {"word_order": 2}, {"char_order": 12, "lowercase": True, "whitespace": True},
]


def assert_identical(hyps, refs, **opts):
    m = SacreCHRF(**opts)
    streams = [list(s) for s in itertools.zip_longest(*refs)]
    want = m._extract_corpus_statistics(hyps, streams)
    metric = nm.CHRF(**opts)
    seg = metric.stats(hyps, refs)
    np.testing.assert_array_equal(seg.counts, np.array(want, dtype=np.uint64).reshape(seg.counts.shape))
    assert metric.score_stats(seg).score == m._compute_score_from_stats(sum_of_lists(want)).score
    assert metric.sentence_scores(hyps, refs).tolist() == [m._compute_score_from_stats(s).score for s in want]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=5),
    opts=st.sampled_from(OPTIONS),
)
def test_generated_adversarial_identical(data, opts):
    hyps = [h for h, _ in data]
    width = min(len(r) for _, r in data)
    refs = [r[:width] for _, r in data]
    assert_identical(hyps, refs, **opts)


def test_alphabet_sizes_around_the_packing_limit():
    """1,023 distinct characters pack 6 orders (10 bits an id), 1,024 do not: both sides
    of the limit, whitespace (which gets no id) included, equal sacrebleu."""
    for distinct in (1, 2, 3, 4, 7, 8, 31, 32, 63, 64, 127, 128, 255, 256, 1023, 1024, 1100):
        chars = "".join(chr(0x4E00 + i) for i in range(distinct))
        hyp = chars + " \u3000" + chars[: distinct // 2]
        ref = chars[::-1] + "\t" + chars[distinct // 3:]
        for opts in ({}, {"whitespace": True}, {"char_order": 5}):
            assert_identical([hyp, "a"], [[ref], [hyp]], **opts)


def test_long_segments_and_short_ones():
    long = "the cat sat on the mat " * 400
    for hyp, ref in ((long, long[5:]), ("ab", long), (long, "abcde"), ("", long), (long, "")):
        assert_identical([hyp], [[ref, long[::-1]]])
