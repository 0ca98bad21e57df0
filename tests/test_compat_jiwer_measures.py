"""The measures of ``nlgmetrics.compat.jiwer`` (``wer``, ``mer``, ``wil``, ``wip``, ``cer``) with
jiwer's stock chains go straight to the core, which runs those chains itself (no Python
transform, no token renaming, no alignment): the values and their types stay jiwer's (==)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jiwer = pytest.importorskip("jiwer")

from nlgmetrics.compat import jiwer as compat  # noqa: E402
from nlgmetrics.compat.jiwer import measures, process  # noqa: E402

MEASURES = ("wer", "mer", "wil", "wip", "cer")
WORDS = st.sampled_from(["a", "b", "the", "The", "cat", "", " ", "\t", "\n", "\u00a0", "\u3000", "é", "can't", "x.", "中文", "\u200b"])
TEXTS = st.lists(WORDS, max_size=12).map(" ".join)


def _value(fn, *args, **kwargs):
    try:
        out = fn(*args, **kwargs)
    except ValueError:
        return "ValueError"
    return out, type(out)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXTS, TEXTS), min_size=1, max_size=4), st.booleans())
def test_measures_equal_jiwer(pairs, single):
    refs, hyps = ([pairs[0][0]], [pairs[0][1]]) if single else ([r for r, _ in pairs], [h for _, h in pairs])
    args = (refs[0], hyps[0]) if single else (refs, hyps)
    for name in MEASURES:
        assert _value(getattr(compat, name), *args) == _value(getattr(jiwer, name), *args), name


def test_stock_chains_skip_the_python_path(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the stock chain went through process_words")

    monkeypatch.setattr(measures, "process_words", refuse)
    monkeypatch.setattr(measures, "process_characters", refuse)
    ref, hyp = "the cat sat on the mat", "the cat sat on mat today"
    assert compat.wer(ref, hyp) == jiwer.wer(ref, hyp) == 2 / 6
    assert compat.cer(ref, hyp) == jiwer.cer(ref, hyp)


def test_other_chains_and_inputs_take_the_general_path():
    chain = compat.Compose([compat.ToLowerCase(), compat.RemoveMultipleSpaces(), compat.Strip(), compat.ReduceToListOfListOfWords()])
    theirs = jiwer.Compose([jiwer.ToLowerCase(), jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()])
    assert compat.wer("The Cat", "the cat", chain, chain) == jiwer.wer("The Cat", "the cat", theirs, theirs) == 0.0
    assert process.stock_counts(["a"], ["a", "b"], char=False) is None  # jiwer's length error comes from the general path
    with pytest.raises(ValueError):
        compat.wer(["a"], ["a", "b"])


def test_process_words_counts_are_the_alignments():
    out = compat.process_words(["a b c d", "x"], ["a c d e", "y z"])
    theirs = jiwer.process_words(["a b c d", "x"], ["a c d e", "y z"])
    assert repr(out) == repr(theirs)
