"""Plain-text corpora: one segment per line, as sacrebleu reads them.

Lines are split on ``\\n`` only (a ``\\r`` or U+2028 inside a segment stays in it) and
each line is right-stripped. Decoding is strict UTF-8: an invalid byte is an error that
names the file, line and byte offset, never a silently replaced character. A truncated or
corrupt ``.gz`` file is an :class:`~nlgmetrics.errors.InvalidInputError` naming the file.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

from ..errors import InvalidInputError, InvalidTextError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import BinaryIO, Iterator

# gzip and zlib are imported only for a .gz file (a fresh interpreter's import time).


def _gzip_error_types() -> tuple[type[BaseException], ...]:
    """What gzip raises on a damaged file: BadGzipFile (an OSError), a truncated stream
    (EOFError), a bad deflate block or checksum (zlib.error)."""
    import gzip
    import zlib

    return (gzip.BadGzipFile, EOFError, zlib.error)


def stdin_buffer(stdin: BinaryIO | None = None) -> BinaryIO:
    """The byte stream of standard input (an error if the process has none)."""
    if stdin is not None:
        return stdin
    if sys.stdin is None:
        raise InvalidInputError("stdin is closed: give the input as a file")
    return getattr(sys.stdin, "buffer", sys.stdin)


@contextmanager
def gzip_errors(name: str) -> Iterator[None]:
    """Turn a damaged ``.gz`` file's error into one naming the file."""
    try:
        yield
    except Exception as e:
        if isinstance(e, _gzip_error_types()):
            raise InvalidInputError(f"{name}: corrupt or truncated gzip file ({e})") from None
        raise


def check_record(line: str, record: object, where: str) -> None:
    """An :class:`InvalidTextError` naming ``where`` (a file and its line) and the field when
    a string of ``record`` (``json.loads(line)``) holds a lone surrogate: a ``\\ud800``
    escape, which ``json.loads`` keeps as it is, has no UTF-8 form to score."""
    import json  # here, not at the top: the plain-text path need not load it

    if "\\u" not in line:  # only an escape gives one (the line itself was strict UTF-8)
        return
    stack = [(record, "the record")]
    while stack:
        v, at = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError as e:
                raise InvalidTextError(f"{where}: {at} is not valid Unicode (a lone surrogate {ascii(v[e.start])} at character {e.start})") from None
        elif isinstance(v, dict):
            top = at == "the record"
            for k, x in reversed(list(v.items())):
                name = json.dumps(k)
                stack.append((x, name if top else f"{at}[{name}]"))
                stack.append((k, f"the key {name}" if top else f"the key {name} in {at}"))
        elif isinstance(v, list):
            stack.extend((x, f"{at}[{i}]") for i, x in reversed(list(enumerate(v))))


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
        data = stdin_buffer(stdin).read()
        name = "<stdin>"
    elif path.endswith(".gz"):
        import gzip

        with gzip_errors(path), gzip.open(path, "rb") as fh:
            data = fh.read()
        name = path
    else:
        with open(path, "rb") as fh:
            data = fh.read()
        name = path
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return split_lines(_decode(data, name))


def parse_json(text: str, where: str, *, line: int | None = None) -> object:
    """``json.loads(text)``, or an :class:`InvalidInputError` naming ``where`` and the line:
    ``line`` when the text is one line of a file, else the decoder's own line; a document
    nested too deeply or holding a lone surrogate is named the same way."""
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"{where}:{e.lineno if line is None else line}: not JSON ({e.msg})") from None
    except RecursionError:
        raise InvalidInputError(f"{where}{'' if line is None else f':{line}'}: not JSON (nested too deeply)") from None
    check_record(text, value, where if line is None else f"{where}:{line}")
    return value


def read_jsonl_records(path: str) -> list[tuple[int, object]]:
    """``(line number, record)`` for every non-blank line of a JSON-lines file, read as
    :func:`read_lines` reads text (strict UTF-8, ``.gz``); a line that is not JSON, is nested
    too deeply or holds a lone surrogate is an error naming the file and line."""
    return [(lineno, parse_json(line, str(path), line=lineno))
            for lineno, line in enumerate(read_lines(str(path)), 1) if line.strip()]
