"""Plain-text corpora: one segment per line, as sacrebleu reads them.

Lines are split on ``\\n`` only (a ``\\r`` or U+2028 inside a segment stays in it) and
each line is right-stripped. Decoding is strict UTF-8: an invalid byte is an error that
names the file, line and byte offset, never a silently replaced character.
"""

from __future__ import annotations

import gzip
import sys
from typing import BinaryIO

from ..errors import InvalidTextError


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1)
        raise InvalidTextError(f"{name}: invalid UTF-8 at line {line}, byte {col + 1}") from None


def split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read_lines(path: str, stdin: BinaryIO | None = None) -> list[str]:
    """Read a text file (``-`` for stdin, ``.gz`` transparently) into right-stripped lines."""
    if path == "-":
        data = (stdin or sys.stdin.buffer).read()
        name = "<stdin>"
    elif path.endswith(".gz"):
        with gzip.open(path, "rb") as fh:
            data = fh.read()
        name = path
    else:
        with open(path, "rb") as fh:
            data = fh.read()
        name = path
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return split_lines(_decode(data, name))
