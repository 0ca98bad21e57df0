"""BLEU segment statistics == sacrebleu's on adversarial generated text.

The core reads `13a` and `none` tokens as byte ranges of the text (no token string is
built) and interns them by their bytes read a machine word at a time. These inputs probe
that path's boundaries: punctuation runs and digits around `.`, `,` and `-`, the
replacements (`<skipped>`, entities, newlines) that force a second scan, non-ASCII text
and non-ASCII whitespace inside tokens, NUL bytes, tokens of 8 / 9 / 16 / 17+ bytes that
share their first 8 or 16 bytes, tokens at the very end of short texts, repeats and
several references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU as RefBLEU

from nlgmetrics import BLEU, references_by_segment

# Generated CJK runs make the unsegmented-script warning fire; it is not what these test.
pytestmark = pytest.mark.filterwarnings("ignore::nlgmetrics.TokenizationWarning")

PIECES = st.sampled_from(
    [
        "a", "ab", "A", "7", "0", ".", ",", "-", " ", "  ", "\t", "(", ")", "$", "'", "\"", "?", "!", ":", "/",
        "é", "Σ", "İ", "我", "\u00a0", "\u3000", "\u2028", "\u0085", "\u200b", "\x1c", "\x00",
        "\n", "-\n", "<", ">", "&", "&amp;", "&quot;", "&lt;", "&gt;", "<skipped>",
        "abcdefgh", "abcdefghi", "abcdefghX", "abcdefghijklmnop", "abcdefghijklmnopq",
        "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyZ", "3,000.50", "1990-2000", "e.g.",
    ]
)
TEXT = st.lists(PIECES, max_size=14).map("".join)
SEGMENT = st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3))


@settings(max_examples=400, deadline=None)
@given(st.lists(SEGMENT, min_size=1, max_size=8), st.sampled_from(["13a", "none", "intl", "char"]), st.booleans())
def test_segment_statistics_equal_sacrebleu(corpus, tokenize, lowercase):
    hyps = [h for h, _ in corpus]
    refs = references_by_segment([r for _, r in corpus])  # generated per segment by construction
    width = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
    want = np.array(RefBLEU(tokenize=tokenize, lowercase=lowercase)._extract_corpus_statistics(hyps, streams), dtype=np.uint64)
    for n_threads in (1, 2):
        got = BLEU(tokenize=tokenize, lowercase=lowercase, n_threads=n_threads).stats(hyps, refs).counts
        np.testing.assert_array_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=3), st.integers(1, 400), st.sampled_from([" ", "", ".", "-"]))
def test_long_runs_equal_sacrebleu(pieces, repeat, sep):
    """Long texts of repeated pieces: many repeated n-grams, tables past their first size."""
    hyp = sep.join(pieces * repeat)
    refs = [sep.join(pieces[::-1] * (repeat // 2 + 1)), hyp[: len(hyp) // 2]]
    want = RefBLEU(tokenize="13a")._extract_corpus_statistics([hyp], [[refs[0]], [refs[1]]])
    got = BLEU(tokenize="13a").stats([hyp], references_by_segment([refs])).counts
    np.testing.assert_array_equal(got, np.array(want, dtype=np.uint64))
