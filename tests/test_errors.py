"""Bad input gets a clear typed error, never a crash or a silent wrong number."""

from __future__ import annotations

import sys

import pytest

import nlgmetrics
from nlgmetrics import BLEU, errors


def test_length_mismatch_names_both_lengths():
    with pytest.raises(errors.LengthMismatchError, match="2 predictions but 1 references"):
        nlgmetrics.bleu(["a", "b"], [["a"]])
    assert issubclass(errors.LengthMismatchError, ValueError)


def test_non_string_items():
    with pytest.raises(errors.InputTypeError, match=r"predictions\[1\] must be a string, got int"):
        nlgmetrics.bleu(["a", 3], [["a"], ["b"]])
    with pytest.raises(errors.InputTypeError, match=r"references\[0\]\[1\] must be a string"):
        nlgmetrics.bleu(["a"], [["a", None, 5]])
    with pytest.raises(errors.InputTypeError, match="not a single str"):
        nlgmetrics.bleu("a cat", ["a cat"])
    assert issubclass(errors.InputTypeError, TypeError)


def test_missing_references():
    with pytest.raises(errors.MissingReferenceError, match=r"references\[1\] holds no reference"):
        nlgmetrics.bleu(["a", "b"], [["a"], []])
    with pytest.raises(errors.MissingReferenceError):
        nlgmetrics.bleu(["a"], [None])
    with pytest.raises(errors.LengthMismatchError):
        nlgmetrics.references_from_streams([["a", "b"], ["a"]])


def test_invalid_unicode_in_strings():
    with pytest.raises(errors.InvalidTextError, match=r"predictions\[1\].*surrogate"):
        nlgmetrics.bleu(["ok", "bad \udcff"], [["ok"], ["bad"]])


def test_unknown_options():
    with pytest.raises(errors.InvalidOptionError, match="unknown tokenizer '13b'"):
        BLEU(tokenize="13b")
    with pytest.raises(errors.InvalidOptionError, match="unknown smooth_method"):
        BLEU(smooth_method="laplace")
    with pytest.raises(errors.InvalidOptionError, match="unknown BLEU flavour"):
        BLEU(flavour="moses")
    with pytest.raises(errors.InvalidOptionError, match="max_ngram_order"):
        BLEU(max_ngram_order=0)
    with pytest.raises(errors.InvalidOptionError, match="unknown metric"):
        nlgmetrics.load("blue")
    with pytest.raises(errors.InvalidOptionError):
        BLEU(n_threads=-1)
    with pytest.raises(TypeError):
        BLEU(smoothing="exp")


def test_incompatible_statistics_do_not_merge():
    a = BLEU(tokenize="13a").stats(["a"], [["a"]]).total()
    b = BLEU(tokenize="zh").stats(["a"], [["a"]]).total()
    with pytest.raises(errors.IncompatibleStatsError):
        a + b
    with pytest.raises(errors.IncompatibleStatsError):
        BLEU(tokenize="zh").score_stats(a)


def test_compute_without_data():
    with pytest.raises(errors.InvalidInputError, match="nothing to score"):
        BLEU().compute()


def test_empty_and_whitespace_segments_follow_sacrebleu():
    # An empty or whitespace-only hypothesis has length 0 (BP = 0); an empty reference
    # counts as a reference of length 0, as in sacrebleu.
    s = nlgmetrics.bleu(["", "   "], [["a b"], ["c"]])
    assert (s.score, s.sys_len, s.ref_len) == (0.0, 0, 3)
    s = nlgmetrics.bleu(["a b c d"], [["", "a b c d"]])
    assert s.score == pytest.approx(100.0)


@pytest.mark.parametrize("tok,module,extra", [
    ("ja-mecab", "MeCab", "ja"), ("ko-mecab", "mecab_ko", "ko"), ("jieba", "jieba", "zh"),
])
def test_missing_extra_is_named(monkeypatch, tok, module, extra):
    # The extra is installed in the test environment: hide its module to see what a user
    # without it gets (a None entry in sys.modules makes the import fail).
    from nlgmetrics import tokenizers
    monkeypatch.setitem(sys.modules, module, None)
    tokenizers.pretokenizer.cache_clear()
    try:
        with pytest.raises(errors.MissingExtraError, match=rf"nlgmetrics\[{extra}\]"):
            BLEU(tokenize=tok)
    finally:
        tokenizers.pretokenizer.cache_clear()
    assert issubclass(errors.MissingExtraError, ImportError)
