"""One re-entrant lock per stateful object, kept outside the object.

Streaming objects (metrics, classification states, adapters) may be shared between
threads: each ``update`` computes its batch statistics without the lock (the Rust core
releases the GIL, so threads run in parallel) and folds the result into the state under
the object's lock, so no batch is lost.

The locks live in a table keyed by object identity rather than in the object, so they
never reach ``pickle``, ``copy.copy`` (a copy gets its own lock) or a subclass's
``__getstate__``; an entry is dropped when its object is collected.
"""

from __future__ import annotations

import threading
import weakref
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

# Re-entrant: a garbage collection can run a finalizer (``_forget``) on this very thread
# while it holds the guard (any allocation below may trigger one); a plain Lock deadlocked.
_guard = threading.RLock()
_locks: dict[int, threading.RLock] = {}


def _forget(key: int) -> None:
    with _guard:
        _locks.pop(key, None)


def state_lock(obj: Any) -> threading.RLock:
    """The lock guarding ``obj``'s mutable state (created on first use)."""
    key = id(obj)
    with _guard:
        lock = _locks.get(key)
        if lock is not None:
            return lock
        lock = _locks[key] = threading.RLock()
    # registered outside the guard: creating it may collect garbage and run other finalizers
    weakref.finalize(obj, _forget, key)
    return lock
