"""Self-BLEU: parity with a direct nltk computation under Texygen's conventions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

import nlgmetrics
from nlgmetrics import SelfBLEU, self_bleu
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError

from conftest import read_lines


def texygen(sentences, gram=3, method=1, exclude_self=True):
    """Texygen's ``get_bleu_parallel`` loop (serial), with nltk as the engine."""
    weight = tuple((1.0 / gram for _ in range(gram)))
    fn = getattr(SmoothingFunction(), f"method{method}")
    score, cnt, per = 0.0, 0, []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, hyp in enumerate(sentences):
            refs = sentences[:i] + sentences[i + 1:] if exclude_self else sentences
            per.append(sentence_bleu(refs, hyp, weight, smoothing_function=fn))
            score += per[-1]
            cnt += 1
    return score / cnt, per


@pytest.fixture(scope="module")
def dialogue(corpora):
    lines = read_lines(corpora / "dialogue_grade" / "eval_data" / "convai2" / "dialogGPT" / "human_hyp.txt")
    return lines[:120]


@pytest.mark.parametrize("gram", [2, 3, 4])
def test_parity_on_dialogue(dialogue, gram):
    toks = [s.split() for s in dialogue]
    expected, per = texygen(toks, gram)
    got = SelfBLEU(gram, n_threads=2).corpus_score(dialogue)
    assert got.score == pytest.approx(expected, rel=1e-12)
    assert np.allclose(got.sentence_scores, per, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", [0, 2, 3, 4, 5, 7])
def test_other_smoothing(dialogue, method):
    toks = [s.split() for s in dialogue[:40]]
    expected, per = texygen(toks, 3, method)
    got = SelfBLEU(3, smoothing=f"method{method}").sentence_scores(toks)
    assert np.allclose(got, per, rtol=1e-9, atol=0)


def test_conventions(dialogue):
    # The serial Texygen path keeps the sentence among its references: all ones.
    s = SelfBLEU(exclude_self=False).corpus_score(dialogue[:30])
    assert s.score == texygen([x.split() for x in dialogue[:30]], exclude_self=False)[0] == 1.0
    # Only the first sample_size sentences are used.
    assert SelfBLEU(sample_size=25).corpus_score(dialogue).score == SelfBLEU(sample_size=None).corpus_score(dialogue[:25]).score
    sig = str(SelfBLEU().signature())
    assert "n:3" in sig and "smooth:method1[eps=0.1]" in sig and "sample:500" in sig and "self:excluded" in sig
    assert SelfBLEU(n_threads=1).corpus_score(dialogue).score == SelfBLEU(n_threads=2).corpus_score(dialogue).score


words = st.sampled_from(["a", "b", "c", "the", "cat", "猫"])


@settings(max_examples=60, deadline=None)
@given(sents=st.lists(st.lists(words, max_size=7), min_size=2, max_size=7), gram=st.integers(1, 4))
def test_hypothesis_parity(sents, gram):
    expected, per = texygen(sents, gram)
    got = SelfBLEU(gram).corpus_score(sents)
    assert got.score == pytest.approx(expected, rel=1e-12, abs=1e-300)
    assert np.allclose(got.sentence_scores, per, rtol=1e-12, atol=0)


def test_errors():
    with pytest.raises(InvalidInputError):
        SelfBLEU().corpus_score(["only one"])
    with pytest.raises(InvalidOptionError):
        SelfBLEU(n=0)
    with pytest.raises(InvalidOptionError):
        SelfBLEU(sample_size=1)
    with pytest.raises(InvalidOptionError):
        SelfBLEU(tokenize="nope")
    with pytest.raises(InputTypeError):
        SelfBLEU().corpus_score("a b c")
    with pytest.raises(InputTypeError):
        SelfBLEU().corpus_score([["a"], "b"])
    assert self_bleu(["a b", "a b"], n=2).score == 1.0
    assert nlgmetrics.load("self_bleu").corpus_score(["a b c", "a b d"], None).score > 0


def test_docstring_examples():
    import doctest
    import importlib

    for name in ("bleu_nltk", "distinct", "self_bleu", "perplexity", "coverage"):
        mod = importlib.import_module(f"nlgmetrics.metrics.{name}")
        result = doctest.testmod(mod)
        assert result.failed == 0 and result.attempted > 0, name


def test_a_lone_surrogate_token_is_a_typed_error_naming_it():
    """Token lists reach the core without the text path's check: a token UTF-8 cannot
    encode is named (InvalidTextError), on every face, never a raw UnicodeEncodeError."""
    from nlgmetrics.errors import InvalidTextError

    for preds, where in (([[], ["\ud800"]], r"predictions\[1\]\[0\]"), ([["a", "b"], ["b", "\udfff c"]], r"predictions\[1\]\[1\]")):
        with pytest.raises(InvalidTextError, match=where):
            SelfBLEU().corpus_score(preds)
        with pytest.raises(InvalidTextError, match=where):
            SelfBLEU().sentence_scores(preds)
