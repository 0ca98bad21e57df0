"""Resource checks shared by every public entry point: thread counts and big allocations.

``n_threads``: ``0`` means every core; a larger request than the machine's parallelism is capped to it
(results never depend on the thread count, so the cap changes nothing but resource use).
The Rust core caps again and reuses its thread pools, so no value starts more threads
than the machine has cores.
"""

from __future__ import annotations

import os
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .errors import InvalidOptionError, ResourceLimitError


def max_threads() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def n_threads_value(n_threads: Any) -> int:
    """``n_threads`` validated (a non-negative int, not a bool) and capped at the cores."""
    if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads < 0:
        raise InvalidOptionError(f"n_threads must be a non-negative integer (0 = every core), got {n_threads!r}")
    return min(n_threads, max_threads())


def available_memory() -> int | None:
    """Bytes the system reports as available (Linux ``MemAvailable``), ``None`` if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_allocation(n_bytes: int, what: str) -> None:
    """Raise :class:`ResourceLimitError` (a ``MemoryError``) before allocating ``n_bytes``
    for ``what`` when the machine does not have them, instead of letting the process die."""
    if n_bytes >= 1 << 62:
        raise ResourceLimitError(f"{what} needs {n_bytes / 2**30:.3g} GiB, more than any machine's address space")
    avail = available_memory()
    if avail is not None and n_bytes > avail:
        raise ResourceLimitError(f"{what} needs {n_bytes / 2**30:.1f} GiB, more than the {avail / 2**30:.1f} GiB available")
