"""Input orientation and validation shared by every metric.

``predictions[i]`` is a string; ``references[i]`` is a string or a sequence of strings
(the references of ``predictions[i]``, any number of them). The transposed,
sacrebleu-style layout is accepted only through :func:`references_from_streams`.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from .errors import InputTypeError, InvalidTextError, LengthMismatchError, MissingReferenceError


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


def as_texts(items: Any, what: str = "predictions") -> list[str]:
    """A list of strings from any sequence of strings (list, tuple, numpy array, Series)."""
    if isinstance(items, (str, bytes)):
        raise InputTypeError(f"{what} must be a sequence of strings, not a single {_describe(items)}")
    if _is_table(items):
        raise InputTypeError(f"{what} must be a sequence of strings (e.g. one column), not a table with columns {list(items.columns)!r}")
    try:
        out = list(items)
    except TypeError:
        raise InputTypeError(f"{what} must be a sequence of strings, got {_describe(items)}") from None
    for i, s in enumerate(out):
        if not isinstance(s, str):
            raise InputTypeError(f"{what}[{i}] must be a string, got {_describe(s)}")
    return out


def as_references(references: Any, n: int | None = None, what: str = "references") -> list[list[str]]:
    """``references[i]`` as a list of strings per segment; missing entries (``None``, NaN) are dropped.

    A table (pandas DataFrame) is read row by row: its columns are reference streams.
    """
    if isinstance(references, (str, bytes)):
        raise InputTypeError(f"{what} must be a sequence (one entry per prediction), not a single string")
    try:
        items = list(references.itertuples(index=False, name=None)) if _is_table(references) else list(references)
    except TypeError:
        raise InputTypeError(f"{what} must be a sequence, got {_describe(references)}") from None
    if n is not None and len(items) != n:
        raise LengthMismatchError(
            f"{n} predictions but {len(items)} references: references[i] must hold the reference(s) of predictions[i]"
        )
    out: list[list[str]] = []
    for i, r in enumerate(items):
        if isinstance(r, str):
            out.append([r])
            continue
        if is_missing(r):
            raise MissingReferenceError(f"{what}[{i}] is missing ({r!r})")
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
    return out


def references_from_streams(streams: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Transpose sacrebleu's ``refs[stream][segment]`` layout into ``refs[segment]``.

    Unlike ``zip(*streams)``, streams of different lengths are an error, not a silent
    truncation. ``None`` marks a missing reference in a stream.
    """
    streams = [list(s) for s in streams]
    if not streams:
        raise MissingReferenceError("no reference streams given")
    lengths = {len(s) for s in streams}
    if len(lengths) > 1:
        raise LengthMismatchError(f"reference streams have different lengths: {sorted(lengths)}")
    return [list(seg) for seg in zip(*streams)]


def check_all_text(texts: Iterable[str], what: str) -> None:
    """Locate the first string the Rust core could not accept, for a precise error."""
    for i, s in enumerate(texts):
        _check_text(s, f"{what}[{i}]")
