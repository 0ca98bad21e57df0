"""rouge-score flavour: the batch paths against rouge-score 0.1.2 on adversarial text.

The core reads rouge-score's tokens 64 bytes at a time from bit masks, packs tokens of up
to 16 bytes into integer keys read straight from the text, numbers them per pair in
tables emptied by a generation stamp, clips n-grams in such a table and runs the
bit-parallel LCS one machine word per 64 tokens. These tests feed it what could break
those shortcuts: tokens of 8, 9, 16 and 17 bytes, mask boundaries, the two characters
Python lowercases to ASCII letters (U+212A KELVIN SIGN, U+0130) next to characters that
share their first UTF-8 byte, other non-ASCII letters and digits, long segments with
few distinct tokens (LCS blocks, repeated n-grams), line ends for ``rougeLsum``, several
references, and many pairs per call (tables reused across pairs). Every value must be
``==`` rouge-score's, on the plain-list path and on the validating path alike.
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from test_rouge_score import reference_matrix

from nlgmetrics import ROUGE, RougeTokenizerWarning

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]

PIECES = [
    "a", "the", "The", "THE", "cat", "x9", "2024", "0", "abcdefgh", "ABCDEFGHi", "abcdefghijklmnop", "Abcdefghijklmnopq",
    "runnings", "generalizations", "\u212aelvin", "\u0130stanbul", "\u212a", "\u0130", "\u212b", "\u0131", "\u0100",
    "\u20ac", "\u2019", "\u2103", "\u00df", "caf\u00e9", "\u4f60\u597d", "\uff11\uff12", "na\u00efve", "\U0001f600",
]
SEPARATORS = [" ", " ", " ", "", "  ", ",", ". ", "-", "\n", "\n\n", "\t", "\r\n", " '' ", "\u00a0"]
SMALL_VOCAB = ["a", "b", "the", "cat", "A", "B", "The"]

piece = st.one_of(st.sampled_from(PIECES), st.text(alphabet="aZ9\u212a\u0130\u00e9\u4f60 .\n-", max_size=20))
short_text = st.lists(st.tuples(piece, st.sampled_from(SEPARATORS)), max_size=40).map(lambda ps: "".join(a + b for a, b in ps))
# segments longer than a 64-token LCS block, few distinct tokens: repeated n-grams, long LCSs
long_text = st.lists(st.tuples(st.sampled_from(SMALL_VOCAB), st.sampled_from(SEPARATORS)), min_size=50, max_size=220).map(
    lambda ps: "".join(a + b for a, b in ps)
)
text = st.one_of(short_text, long_text)
pair = st.tuples(text, st.lists(text, min_size=1, max_size=3))
# n pairs of n references each could read as sacrebleu's streams layout (checked, and
# refused on strong evidence): not what these tests are about
batch = st.lists(pair, min_size=1, max_size=6).filter(lambda ps: len(ps) < 2 or any(len(rs) != len(ps) for _, rs in ps))


def reference_rows(preds, refs, stem):
    return reference_matrix(TYPES, preds, refs, stem)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(pairs=batch, stem=st.booleans(), n_threads=st.sampled_from([1, 2]))
def test_batches_equal_rouge_score(pairs, stem, n_threads):
    preds = [p for p, _ in pairs]
    refs = [rs for _, rs in pairs]
    want = reference_rows(preds, refs, stem)
    metric = ROUGE(rouge_types=TYPES, use_stemmer=stem, n_threads=n_threads)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RougeTokenizerWarning)
        in_place = metric.stats(preds, refs).sums  # plain lists: read in place by the core
        validated = metric.stats(tuple(preds), tuple(tuple(r) for r in refs)).sums  # the validating path
        single = [metric.stats([p], [r[0]]).sums for p, r in zip(preds, refs)]  # a str reference per segment
    np.testing.assert_array_equal(in_place, want)
    np.testing.assert_array_equal(validated, want)
    for k, (p, rs) in enumerate(zip(preds, refs)):
        np.testing.assert_array_equal(single[k][0], reference_rows([p], [[rs[0]]], stem)[0])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cands=st.lists(text, min_size=1, max_size=4), refs=st.lists(text, min_size=1, max_size=4), rouge_type=st.sampled_from(TYPES))
def test_pairwise_equals_rouge_score(cands, refs, rouge_type):
    sc = rouge_scorer.RougeScorer([rouge_type])
    want = np.array([[sc.score(r, c)[rouge_type].fmeasure for r in refs] for c in cands])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RougeTokenizerWarning)
        got = ROUGE(rouge_types=[rouge_type]).pairwise(cands, refs)
    np.testing.assert_array_equal(got, want)


def test_mask_and_key_boundaries_one_by_one():
    """Words that straddle each 64-byte mask boundary and fill 8/16-byte keys exactly,
    with the letter-making characters at every offset, against rouge-score."""
    preds, refs = [], []
    for offset in range(56, 72):
        for word in ("abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq", "x\u212ay", "\u0130x", "ab\u0100cd"):
            t = "z" * offset + " " + word + " tail"
            preds.append(t)
            refs.append([t.upper() + "\n" + word])
    want = reference_rows(preds, refs, False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RougeTokenizerWarning)
        np.testing.assert_array_equal(ROUGE(rouge_types=TYPES).stats(preds, refs).sums, want)
