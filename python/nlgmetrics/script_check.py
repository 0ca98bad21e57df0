"""One warning, shared by every metric, for text its tokenizer cannot see.

A metric describes its tokenizer with a :class:`Segmentation` (``Metric._segmentation()``);
:func:`check` samples the input, applies one of three rules and warns with
:class:`TokenizationWarning`, naming the option that fixes the problem.

- ``deletes_non_ascii`` (rouge-score's and ROUGE-1.5.5's ``[a-z0-9]`` tokenizers): warn
  when more than half of the letters and digits are non-ASCII, i.e. deleted.
- ``merges`` (whitespace-like tokenizers: ``none``, ``13a``, ``intl``, PTB, tercom,
  jiwer's split): Chinese and Japanese are written without spaces, so such a tokenizer
  turns a clause into one "word". Let ``h(t)`` be the number of Han characters of token
  ``t`` and ``c(t)`` its number of Han and kana characters. The rule measures
  ``L = Σ h(t)·c(t) / Σ h(t)``, the length of the token a random Han character falls in,
  and warns when ``L > 4`` and Han and kana are at least half of the letters and digits.
  Measured on the WMT22 references: jieba words give ``L = 2.0`` (zh), MeCab-IPAdic words
  2.0 (ja), sacrebleu's ``zh`` and tercom's ``asian_support`` 1.0, while whitespace
  splitting gives 29 (zh) and 54 (ja), ``intl`` 12 and 21. Weighting by Han characters
  leaves out kana-only tokens (Japanese inflections and loanwords, which word
  segmenters keep long) and responses of one short word ("我不知道" is 4, "好的" 2, not
  more than 4). Hangul is not counted: Korean is written with spaces between words
  (eojeols), so its whitespace tokens are words.
- ``unsupported`` (METEOR 1.5: English resources only): warn when Han, kana and Hangul
  are more than half of the letters and digits, whatever the segmentation.

The input is sampled (at most 512 evenly spaced texts of predictions and references),
so the check costs a fixed, small time whatever the corpus size; it only decides
whether to warn and never changes a number.
"""

from __future__ import annotations

import os
import sys
import warnings
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    import re
    from typing import Any, Callable

SAMPLE_TEXTS = 512
MERGED_LENGTH = 4.0

# Han (CJK unified ideographs, extensions, compatibility), hiragana, katakana (+ phonetic
# extensions, halfwidth forms): the scripts written without spaces between words.
class _LazyPattern:
    """A regular expression compiled on first use: only non-ASCII input needs these, and
    compiling their Unicode classes at import would cost every fresh interpreter ~5 ms."""

    def __init__(self, pattern: str):
        self._pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            import re

            self._compiled = re.compile(self._pattern)
        return getattr(self._compiled, name)


UNSPACED_RANGES = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_UNSPACED_CHAR = _LazyPattern(f"[{UNSPACED_RANGES}]")
_NON_CJK_RUNS = _LazyPattern(f"[^{UNSPACED_RANGES}{_HANGUL}]+")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_HAN_CHAR = _LazyPattern(f"[{_HAN}]")
_HAN_TOKEN = _LazyPattern(f"\\S*[{_HAN}]\\S*")
_NON_WORD_RUNS = _LazyPattern(r"[\W_]+")
_NON_UNSPACED_RUNS = _LazyPattern(f"[^{UNSPACED_RANGES}]+")
_NON_ASCII_WORD_CHAR = _LazyPattern(r"(?![\x00-\x7f])[^\W_]")
_ASCII_ALNUM = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class TokenizationWarning(UserWarning):
    """The metric's tokenizer deletes or merges most of the letters of the input
    (e.g. unsegmented Chinese or Japanese split on whitespace), so its number is
    degenerate; the message names the option to use."""


class Segmentation:
    """How a metric's tokenizer treats text, for :func:`check`; immutable.

    ``rule``: ``merges``, ``deletes_non_ascii`` or ``unsupported``; ``tokenizer``: how
    the message names it; ``fix``: the option to use instead; ``tokens``: the tokenizer
    itself applied to a list of texts (space-joined tokens), ``None`` = whitespace split.
    (Not a dataclass: importing ``dataclasses`` would be most of a fresh interpreter's
    import time, and every metric builds one of these.)
    """

    __slots__ = ("rule", "tokenizer", "fix", "tokens", "category")
    _FIELDS = __slots__

    rule: str
    tokenizer: str
    fix: str
    tokens: Callable[[list[str]], list[str]] | None
    category: type[Warning]

    def __init__(self, rule: str, tokenizer: str, fix: str, tokens: Callable[[list[str]], list[str]] | None = None, category: type[Warning] = TokenizationWarning):
        for name, value in zip(self._FIELDS, (rule, tokenizer, fix, tokens, category)):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, f) for f in self._FIELDS)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "Segmentation(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS) + ")"


def sample_texts(predictions: Any, references: Any = None, limit: int = SAMPLE_TEXTS) -> list[str]:
    """At most ``limit`` evenly spaced texts of the predictions (strings or token lists)
    and references (per segment a string or a list of strings or token lists); token
    lists are joined by spaces, anything else is skipped."""
    out: list[str] = []
    for group, nested in ((predictions, False), (references, True)):
        if isinstance(group, str):
            out.append(group)
            continue
        group = getattr(group, "iloc", group)  # a pandas Series: by position
        try:
            n = len(group)
        except TypeError:
            continue
        for i in range(0, n, max(1, n // limit)):
            item = group[i]
            for text in (item if nested and isinstance(item, (list, tuple)) else (item,))[:4]:
                if isinstance(text, str):
                    out.append(text)
                elif isinstance(text, (list, tuple)) and all(isinstance(t, str) for t in text):
                    out.append(" ".join(text))
    return out[:: max(1, len(out) // limit)][:limit]


def deleted_fraction(texts: list[str]) -> float:
    """Share of the letters and digits of ``texts`` that are not ASCII (deleted by an
    ``[a-z0-9]`` tokenizer). All-ASCII input is recognised at C speed."""
    if all(s.isascii() for s in texts):
        return 0.0
    joined = "".join(texts)
    ascii_part = joined.encode("ascii", "ignore")
    kept = len(ascii_part) - len(ascii_part.translate(None, _ASCII_ALNUM))
    deleted = len(_NON_ASCII_WORD_CHAR.findall(joined))
    total = kept + deleted
    return deleted / total if total else 0.0


def unspaced_share(texts: list[str]) -> float:
    """Share of Han and kana among the letters and digits of ``texts``."""
    joined = "\n".join(texts)
    if joined.isascii() or not _UNSPACED_CHAR.search(joined):
        return 0.0
    letters = len(_NON_WORD_RUNS.sub("", joined))
    return len(_NON_UNSPACED_RUNS.sub("", joined)) / letters if letters else 0.0


def merged_length(tokenized: list[str]) -> float:
    """``L = Σ h(t)·c(t) / Σ h(t)`` over the whitespace tokens ``t`` of ``tokenized``
    (0 without Han characters)."""
    s1 = s2 = 0
    for line in tokenized:
        for tok in _HAN_TOKEN.findall(line):
            h = len(_HAN_CHAR.findall(tok))
            s1 += h
            s2 += h * len(_UNSPACED_CHAR.findall(tok))
    return s2 / s1 if s1 else 0.0


def cjk_share(texts: list[str]) -> float:
    """Share of Han, kana and Hangul among the letters and digits of ``texts``."""
    joined = "\n".join(texts)
    if joined.isascii():
        return 0.0
    letters = len(_NON_WORD_RUNS.sub("", joined))
    return len(_NON_CJK_RUNS.sub("", joined)) / letters if letters else 0.0


def problem(seg: Segmentation, texts: list[str]) -> str | None:
    """The warning's message for these (sampled) texts, or ``None``."""
    if not texts or all(s.isascii() for s in texts):
        return None
    if seg.rule == "deletes_non_ascii":
        frac = deleted_fraction(texts)
        if frac > 0.5:
            return f"{seg.tokenizer} deletes {frac:.0%} of the letters and digits of the input (non-ASCII script), so the scores are near 0"
        return None
    if seg.rule == "unsupported":
        share = cjk_share(texts)
        if share > 0.5:
            return f"{seg.tokenizer} does not support Chinese, Japanese or Korean ({share:.0%} of the letters of the input)"
        return None
    if unspaced_share(texts) < 0.5:  # decided before running the tokenizer on the sample
        return None
    length = merged_length(seg.tokens(texts) if seg.tokens is not None else texts)
    if length > MERGED_LENGTH:
        return (
            f"{seg.tokenizer} leaves Chinese/Japanese unsegmented: a Han character sits in a token of "
            f"{length:.0f} Han/kana characters on average (words have about 2), so tokens are whole clauses and the number is degenerate"
        )
    return None


def check(seg: Segmentation | None, predictions: Any, references: Any = None) -> None:
    """Warn (:class:`TokenizationWarning`) if ``seg``'s tokenizer deletes or merges most
    of the letters of a sample of the input."""
    if seg is None:
        return
    try:
        message = problem(seg, sample_texts(predictions, references))
    except Exception:  # noqa: BLE001 - invalid input: the metric's own validation reports it
        return
    if message is not None:
        warnings.warn(f"{message}; {seg.fix}", seg.category, stacklevel=_caller_level())


def _caller_level() -> int:
    """The stack level of the first frame outside this package (the user's call)."""
    frame = sys._getframe(2)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR + os.sep):
        frame = frame.f_back
        level += 1
    return level
