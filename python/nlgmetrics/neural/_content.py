"""What the caches of loaded models key on: the content of the model's files.

A loaded model is reused across metric objects and calls; the key is a SHA-256 of the
files it was read from (weights, config, tokenizer), so a file edited in place, replaced
by one with the same mtime (``cp -p``, ``shutil.copy2``) or swapped through a symbolic
link gives a new key and the new weights are read. A file's hash is remembered by its
resolved path and full ``stat`` (device, inode, size, mtime and ctime in nanoseconds):
ctime cannot be set by a user, and any write or replacement changes it, so an unchanged
file is not read again on every call.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Iterable

from .._safe_pickle import describe
from ..errors import InvalidOptionError

_HASHES: dict[tuple, str] = {}
_LOCK = threading.Lock()
_BLOCK = 1 << 22


def file_hash(path: Path) -> str:
    """The SHA-256 (hex) of the file's bytes (``path`` followed through links)."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
        key = (real, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        with _LOCK:
            known = _HASHES.get(key)
        if known is not None:
            return known
        h = hashlib.sha256()
        with open(real, "rb") as f:
            for block in iter(lambda: f.read(_BLOCK), b""):
                h.update(block)
    except OSError as e:
        raise InvalidOptionError(f"cannot read {str(path)!r}: {describe(e)}") from None
    digest = h.hexdigest()
    with _LOCK:
        if len(_HASHES) > 4096:
            _HASHES.clear()
        _HASHES[key] = digest
    return digest


def files_key(paths: Iterable[Path]) -> str:
    """One SHA-256 over the names and content hashes of ``paths`` (in the given order)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(Path(path).name.encode("utf-8", "surrogatepass") + b"\0" + file_hash(Path(path)).encode() + b"\0")
    return h.hexdigest()


def directory_key(directory: Path) -> str:
    """The content key of every regular file directly in ``directory`` (a model directory:
    weights, config, tokenizer files), sorted by name."""
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if entry.is_file())
    except OSError as e:
        raise InvalidOptionError(f"cannot read the model directory {str(directory)!r}: {describe(e)}") from None
    return files_key(directory / n for n in names)
