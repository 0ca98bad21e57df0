"""Arrays of real numbers from user input, checked before numpy converts them.

``np.asarray(x, dtype=np.float64)`` is not a check: it drops the imaginary part of a complex
array (a warning, not an error), parses the strings ``"0.5"``, reads ``True`` as ``1.0``
and turns ``None`` into ``nan`` in an object array. Every metric input that is an array of
numbers goes through :func:`real_array`, so each of those is a typed error naming the input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import InputTypeError, InvalidInputError

_KIND_NAMES = {"c": "complex numbers", "b": "booleans", "U": "strings", "S": "bytes", "O": "objects",
               "M": "dates", "m": "time spans", "V": "raw records"}


def _kind_of_objects(a: np.ndarray) -> str:
    for v in a.ravel().tolist():
        if isinstance(v, (bool, np.bool_)):
            return "b"
        if isinstance(v, complex):
            return "c"
        if not isinstance(v, (int, float)):
            return "O"
    return "f"


def real_array(x: Any, what: str, *, ndim: tuple[int, ...] = (1,), allow_nan: bool = False, allow_bool: bool = False) -> np.ndarray:
    """``x`` as a float64 array of ``ndim`` dimensions; complex numbers, strings, objects,
    booleans (unless ``allow_bool``) and NaN (unless ``allow_nan``) are typed errors."""
    if x is None or isinstance(x, (str, bytes)):
        raise InputTypeError(f"{what} must be an array of real numbers, not {type(x).__name__}")
    try:
        a = np.asarray(x)
    except (TypeError, ValueError):  # ragged rows
        raise InputTypeError(f"{what} must be an array of real numbers with rows of one length") from None
    kind = a.dtype.kind if a.dtype.kind != "O" else _kind_of_objects(a)
    if kind == "b" and allow_bool:
        kind = "f"
    if kind not in "iuf":
        raise InputTypeError(f"{what} must be real numbers, got {_KIND_NAMES.get(kind, str(a.dtype))}")
    if a.ndim not in ndim:
        raise InputTypeError(f"{what} must have {' or '.join(map(str, ndim))} dimension(s), got shape {a.shape}")
    out = a.astype(np.float64)
    if not allow_nan and np.isnan(out).any():
        at = np.unravel_index(int(np.flatnonzero(np.isnan(out).ravel())[0]), out.shape)
        raise InvalidInputError(f"{what}[{']['.join(str(int(i)) for i in at)}] is NaN")
    return out
