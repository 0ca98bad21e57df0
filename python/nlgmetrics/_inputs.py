"""Input orientation and validation shared by every metric.

``predictions[i]`` is a string; ``references[i]`` is a string or a sequence of strings
(the references of ``predictions[i]``, any number of them). The transposed,
sacrebleu-style layout is accepted only through :func:`references_from_streams`.

Containers without a meaningful order or alignment are refused with an
:class:`~nlgmetrics.errors.InputTypeError` saying what to pass: a mapping (iterating it
yields its keys), a set, ``bytes``, a single string, a table, an array of more than
one dimension where a flat sequence is needed.

Orientation rule (:func:`check_orientation`). When there are ``n >= 2`` predictions and
every ``references[i]`` is a sequence of exactly ``n`` strings, the input reads the same
in both layouts, so the texts decide. Each text is read as its set of words (Han, katakana and
Hangul characters one by one, hiragana left out); over the off-diagonal pairs (``i != j``, on the first 48
segments, when predictions average 8 characters or more), the overlap (Jaccard) of
``predictions[i]`` with ``references[i][j]`` (as given) is compared with its overlap with
``references[j][i]`` (as streams). The streams layout is *suggested* when it fits more
than 2.5 times as well with a mean overlap of at least 0.2; anything weaker is silent
(random or unrelated texts never warn). Suggestive evidence is *strong*, and a
:class:`~nlgmetrics.errors.ReferenceOrientationError` is raised, only when it cannot come
from a small or repetitive corpus: at least 3 segments, and at least 80% of them, fit
their stream column better than their row; predictions average 4 words or more; and the
predictions tell the segments apart (two different predictions overlap on average less
than half as much as a prediction and its stream references). Suggestive but weak
evidence (2 segments, short or near-identical texts) is a ``UserWarning``.
Either way, :func:`references_from_streams` (transpose) or :func:`references_by_segment`
(keep as given) states the layout and skips the check.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Set
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Iterable, Sequence

from .script_check import _LazyPattern  # compiled on first use: `re` costs every fresh interpreter
from .errors import (
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
    ReferenceOrientationError,
)


class SegmentReferences(list):
    """``references[i]`` lists whose layout the caller stated (no orientation check)."""


def _describe(x: Any) -> str:
    if is_missing(x) and x is not None:
        return f"a missing value ({x!r})"
    return type(x).__name__


def is_missing(x: Any) -> bool:
    """None, NaN, or pandas' NA / NaT: how a missing cell reads out of a table."""
    if x is None:
        return True
    if isinstance(x, float):
        return x != x
    return type(x).__name__ in ("NAType", "NaTType")


def _is_table(x: Any) -> bool:
    # a pandas DataFrame iterates over its column *names*: never a sequence of texts
    return hasattr(x, "columns") and hasattr(x, "itertuples")


def _check_text(s: str, what: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidTextError(
            f"{what} is not valid Unicode (unpaired surrogate at character {e.start}); "
            "decode files as UTF-8 with errors='strict'"
        ) from None


def unordered_reason(x: Any) -> str | None:
    """Why ``x`` cannot stand for an ordered sequence, or None if it can."""
    # a pandas Series has keys() too, but iterates its values
    if isinstance(x, Mapping) or (hasattr(x, "keys") and hasattr(x, "items") and not hasattr(x, "dtype")):
        return "a mapping (iterating it gives its keys): pass a list, e.g. list(d.values()) in a fixed order"
    if isinstance(x, Set):
        return "a set (it has no order to align with): pass a list"
    if isinstance(x, (bytes, bytearray, memoryview)):
        return "bytes: decode them first, e.g. data.decode('utf-8')"
    return None


def as_sequence(items: Any, what: str) -> list[Any]:
    """``items`` as a list, refusing containers that have no order or are one value."""
    if isinstance(items, str):
        raise InputTypeError(f"{what} must be a sequence (one entry per segment), not a single string")
    if _is_table(items):
        raise InputTypeError(f"{what} must be a sequence (e.g. one column), not a table with columns {list(items.columns)!r}")
    why = unordered_reason(items)
    if why:
        raise InputTypeError(f"{what} must be a sequence, not {why}")
    ndim = getattr(items, "ndim", 1)
    if isinstance(ndim, int) and ndim != 1 and what != "references":
        raise InputTypeError(f"{what} must be one-dimensional, got an array of shape {getattr(items, 'shape', '?')}")
    try:
        return list(items)
    except TypeError:
        raise InputTypeError(f"{what} must be a sequence, got {_describe(items)}") from None


def as_texts(items: Any, what: str = "predictions") -> list[str]:
    """A list of strings from any sequence of strings (list, tuple, numpy array, Series)."""
    if isinstance(items, (str, bytes)):
        raise InputTypeError(f"{what} must be a sequence of strings, not a single {_describe(items)}")
    out = as_sequence(items, what)
    for i, s in enumerate(out):
        if not isinstance(s, str):
            raise InputTypeError(f"{what}[{i}] must be a string, got {_describe(s)}")
    return out


def _looks_like_streams(items: Sequence[Any], n: int) -> bool:
    """Every entry a sequence of exactly ``n`` entries: could be ``n`` streams."""
    return all(not isinstance(r, str) and hasattr(r, "__len__") and len(r) == n for r in items)


def as_references(references: Any, n: int | None = None, what: str = "references", predictions: Sequence[str] | None = None) -> list[list[str]]:
    """``references[i]`` as a list of strings per segment; missing entries (``None``, NaN) are dropped.

    A table (pandas DataFrame) is read row by row: its columns are reference streams.
    With ``predictions``, the orientation rule of the module docstring applies.
    """
    stated = isinstance(references, SegmentReferences)
    if isinstance(references, (str, bytes)):
        raise InputTypeError(f"{what} must be a sequence (one entry per prediction), not a single {_describe(references)}")
    if _is_table(references):
        items = list(references.itertuples(index=False, name=None))
    else:
        items = as_sequence(references, what)
    if n is not None and len(items) != n:
        hint = ""
        if items and _looks_like_streams(items, n):
            hint = (f"; these look like {len(items)} reference streams of {n} segments each (sacrebleu's layout): "
                    "pass nlgmetrics.references_from_streams(references)")
        raise LengthMismatchError(
            f"{n} predictions but {len(items)} references: references[i] must hold the reference(s) of predictions[i]{hint}"
        )
    out: list[list[str]] = []
    for i, r in enumerate(items):
        if isinstance(r, str):
            out.append([r])
            continue
        if is_missing(r):
            raise MissingReferenceError(f"{what}[{i}] is missing ({r!r})")
        why = unordered_reason(r)
        if why:
            raise InputTypeError(f"{what}[{i}] must be a string or a list of strings, not {why}")
        if getattr(r, "ndim", 1) != 1:
            raise InputTypeError(f"{what}[{i}] must be a string or a flat list of strings, got an array of shape {r.shape}")
        try:
            refs = [x for x in r if not is_missing(x)]
        except TypeError:
            raise InputTypeError(f"{what}[{i}] must be a string or a sequence of strings, got {_describe(r)}") from None
        for j, x in enumerate(refs):
            if not isinstance(x, str):
                raise InputTypeError(f"{what}[{i}][{j}] must be a string, got {_describe(x)}")
        if not refs:
            raise MissingReferenceError(f"{what}[{i}] holds no reference")
        out.append(refs)
    if predictions is not None and not stated:
        check_orientation(predictions, out)
    return out


# Orientation evidence is read on at most this many segments (the check is quadratic).
_ORIENTATION_SAMPLE = 48
# Streams must fit this many times better than the given layout, with at least this mean
# overlap, to suggest the streams layout (below: silent).
_ORIENTATION_RATIO = 2.5
_ORIENTATION_MIN_OVERLAP = 0.2
_ORIENTATION_MIN_CHARS = 8
# Strong evidence (an error) also needs this many segments fitting their stream column
# better, and this share of the segments; this many words (or CJK characters) per
# prediction on average; and predictions that overlap each other at most this share of
# their overlap with the stream references.
_ORIENTATION_STRONG_SEGMENTS = 3
_ORIENTATION_STRONG_SHARE = 0.8
_ORIENTATION_STRONG_WORDS = 4
_ORIENTATION_DISTINCT_SHARE = 0.5


# Words, and every Han, katakana or Hangul character on its own (those scripts do not
# space their words): unrelated sentences share few of them, translations of one sentence
# many. Hiragana are left out: mostly particles and endings, every Japanese sentence has them.
_FEATURE = _LazyPattern(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\W_\u3040-\u309f]+")


def _features(text: str) -> set[str]:
    return set(_FEATURE.findall(text.lower()))


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def orientation_evidence(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> str:
    """``"none"``, ``"weak"`` or ``"strong"``: how well a square ``references`` fits the
    sacrebleu streams layout rather than the per-segment one (see module docstring)."""
    n = len(predictions)
    if n < 2 or len(references) != n or not _looks_like_streams(references, n):
        return "none"
    m = min(n, _ORIENTATION_SAMPLE)
    try:
        chars = sum(len(predictions[i]) for i in range(m))
        if chars < _ORIENTATION_MIN_CHARS * m:
            return "none"  # a few characters are no evidence either way
        hyp = [_features(predictions[i]) for i in range(m)]
        ref = [[_features(references[i][j]) for j in range(m)] for i in range(m)]
    except (TypeError, AttributeError):
        return "none"  # not strings: the type checks report it
    pairs = m * (m - 1)
    # the diagonal reads the same both ways: only off-diagonal pairs are evidence
    given = [sum(_overlap(hyp[i], ref[i][j]) for j in range(m) if j != i) for i in range(m)]
    streams = [sum(_overlap(hyp[i], ref[j][i]) for j in range(m) if j != i) for i in range(m)]
    as_given, as_streams = sum(given), sum(streams)
    if as_streams <= _ORIENTATION_RATIO * as_given or as_streams / pairs < _ORIENTATION_MIN_OVERLAP:
        return "none"
    between_predictions = sum(_overlap(hyp[i], hyp[j]) for i in range(m) for j in range(m) if j != i)
    column_wins = sum(s > g for s, g in zip(streams, given))
    strong = (
        column_wins >= max(_ORIENTATION_STRONG_SEGMENTS, math.ceil(_ORIENTATION_STRONG_SHARE * m))
        and sum(len(h) for h in hyp) >= _ORIENTATION_STRONG_WORDS * m
        and between_predictions < _ORIENTATION_DISTINCT_SHARE * as_streams
    )
    return "strong" if strong else "weak"


def check_orientation(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """Refuse references that fit far better read as sacrebleu streams, warn when they fit
    better on weak evidence (see module docstring); a stated layout is never checked."""
    if isinstance(references, SegmentReferences):
        return
    evidence = orientation_evidence(predictions, references)
    if evidence == "none":
        return
    n = len(predictions)
    advice = (
        f"references is {n} lists of {n}: read as references[i] = the references of predictions[i], but the texts "
        f"match better as {n} sacrebleu-style streams (references[stream][segment]). If they are streams, pass "
        "nlgmetrics.references_from_streams(references); if they are per-segment lists, pass "
        "nlgmetrics.references_by_segment(references)"
    )
    if evidence == "strong":
        raise ReferenceOrientationError(advice)
    warnings.warn(advice, UserWarning, stacklevel=4)


def references_from_streams(streams: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Transpose sacrebleu's ``refs[stream][segment]`` layout into ``refs[segment]``.

    Unlike ``zip(*streams)``, streams of different lengths are an error, not a silent
    truncation. ``None`` marks a missing reference in a stream.
    """
    streams = [as_sequence(s, f"streams[{k}]") for k, s in enumerate(as_sequence(streams, "streams"))]
    if not streams:
        raise MissingReferenceError("no reference streams given")
    lengths = {len(s) for s in streams}
    if len(lengths) > 1:
        raise LengthMismatchError(f"reference streams have different lengths: {sorted(lengths)}")
    return SegmentReferences(list(seg) for seg in zip(*streams))


def references_by_segment(references: Sequence[Sequence[str]]) -> list[list[str]]:
    """State that ``references[i]`` holds the references of ``predictions[i]``: skips the
    orientation check, for the rare square input whose texts fit the streams layout better."""
    return SegmentReferences(list(r) if not isinstance(r, str) else r for r in as_sequence(references, "references"))


def check_option_applies(option: str, value: Any, default: Any, applies: bool, when: str) -> None:
    """An option given a non-default value where the other options make it unused is a
    contradiction, not something to ignore silently (as the command line refuses a flag
    the chosen flavour or mode does not read)."""
    if not applies and value != default:
        raise InvalidOptionError(f"{option}={value!r} has no effect {when}; leave it at its default ({default!r})")


def check_all_text(texts: Iterable[str], what: str) -> None:
    """Locate the first string the Rust core could not accept, for a precise error."""
    for i, s in enumerate(texts):
        _check_text(s, f"{what}[{i}]")
