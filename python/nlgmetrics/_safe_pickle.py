"""Reading pickles that a user points us at without running any code they hold.

A pickle names the callables that rebuild its objects (``GLOBAL`` / ``STACK_GLOBAL`` /
``INST`` / ``EXT*`` opcodes); a plain ``pickle.load`` imports and calls whatever it
names, so a file can run code. Every one of those opcodes goes through
``Unpickler.find_class``; :class:`StrictUnpickler` answers it from an exact
``{(module, name): object}`` allow-list and never resolves a name itself (so a dotted
name such as ``_rebuild_tensor.__builtins__.get`` reaches nothing: it is not a key).
A name that is not allowed raises :class:`UnsafePickleError` naming it: a format's
legitimate classes (PyTorch Lightning's ``AttributeDict``) are listed by their readers,
nothing is ever stood in for.
"""

from __future__ import annotations

import _compat_pickle
import pickle
from collections.abc import Mapping
from typing import Any


class UnsafePickleError(pickle.UnpicklingError):
    """The pickle names something outside the allow-list (it may try to run code)."""


def _dotted(module: str, name: str) -> str:
    return f"{module}.{name}"


class StrictUnpickler(pickle.Unpickler):
    """An unpickler whose globals come only from ``allowed`` (exact ``(module, name)`` keys);
    any other name raises :class:`UnsafePickleError`."""

    def __init__(self, file: Any, *, allowed: Mapping[tuple[str, str], Any], **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        self._allowed = allowed

    def find_class(self, module: str, name: str) -> Any:  # every global of the stream comes here
        if isinstance(module, str) and isinstance(name, str):
            if (module, name) in _compat_pickle.NAME_MAPPING:  # Python 2 names (protocols 0-2), as pickle maps them
                module, name = _compat_pickle.NAME_MAPPING[(module, name)]
            elif module in _compat_pickle.IMPORT_MAPPING:
                module = _compat_pickle.IMPORT_MAPPING[module]
            obj = self._allowed.get((module, name))
            if obj is not None:
                return obj
        raise UnsafePickleError(f"the file names {_dotted(str(module), str(name))}, which is not allowed (a pickle that could run code)")


def builtins_allowed(*names: str) -> dict[tuple[str, str], Any]:
    import builtins

    return {("builtins", n): getattr(builtins, n) for n in names}


def plain_data_allowed() -> dict[tuple[str, str], Any]:
    """Plain containers and numbers, numpy scalars and ``bytes`` as protocol 2 writes them."""
    import _codecs
    import collections

    allowed: dict[tuple[str, str], Any] = builtins_allowed(
        "set", "frozenset", "list", "dict", "tuple", "int", "float", "str", "bool", "complex", "bytes", "bytearray", "slice")
    allowed[("collections", "OrderedDict")] = collections.OrderedDict
    allowed[("collections", "defaultdict")] = collections.defaultdict
    allowed[("_codecs", "encode")] = _codecs.encode  # how protocol 2 stores bytes: encode(str, 'latin1')
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return allowed
    for mod in ("numpy.core.multiarray", "numpy._core.multiarray"):
        allowed[(mod, "scalar")] = _numpy_scalar
    allowed[("numpy", "dtype")] = np.dtype
    return allowed


def _numpy_scalar(dtype: Any, data: Any = None) -> Any:
    """``numpy.core.multiarray.scalar`` for plain (non-object) dtypes only."""
    import numpy as np

    if not isinstance(dtype, np.dtype) or dtype.hasobject or not isinstance(data, bytes):
        raise UnsafePickleError("the file holds a numpy object scalar, which is not allowed")
    try:
        from numpy._core.multiarray import scalar
    except ImportError:  # numpy 1
        from numpy.core.multiarray import scalar
    return scalar(dtype, data)


def load(file: Any, *, allowed: Mapping[tuple[str, str], Any], encoding: str = "ASCII") -> Any:
    """One object from ``file`` through :class:`StrictUnpickler`."""
    return StrictUnpickler(file, allowed=allowed, encoding=encoding).load()


def describe(e: BaseException) -> str:
    """An exception as one line (torch and safetensors messages span several)."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 300 else text[:297] + "..."
