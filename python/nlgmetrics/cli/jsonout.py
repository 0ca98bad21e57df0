"""JSON for stdout: always strict JSON that any parser reads.

``json.dumps`` writes ``NaN`` and ``Infinity`` for non-finite floats, which are not JSON.
A value that is undefined (a correlation of constant scores, a score with nothing to
score) is written as ``null`` instead; NumPy scalars and arrays become plain numbers and
lists.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any


def _clean(obj: Any) -> Any:
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k) if not isinstance(k, str) else k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    tolist = getattr(obj, "tolist", None)  # NumPy scalars and arrays
    if callable(tolist):
        return _clean(tolist())
    return obj


def json_text(obj: Any, **kwargs: Any) -> str:
    """``json.dumps(obj)`` with non-finite numbers as ``null`` (never NaN/Infinity tokens)."""
    import json  # here, not at the top: text output need not load it

    return json.dumps(_clean(obj), ensure_ascii=False, allow_nan=False, **kwargs)
