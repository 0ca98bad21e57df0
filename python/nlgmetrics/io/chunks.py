"""Read corpora of any size as a sequence of bounded chunks.

:func:`iter_lines` yields the right-stripped lines of a text file (``-`` for stdin,
``.gz`` transparently) with exactly :func:`~nlgmetrics.io.text.read_lines`' semantics
(split on ``\\n`` only, strict UTF-8, a leading BOM dropped) while holding one block of
bytes at a time. :func:`iter_chunks` zips several such files into chunks of
``chunk_size`` lines, and :func:`iter_jsonl_chunks` does the same for JSON lines with
``"prediction"`` and ``"references"``. Memory is bounded by one chunk (plus one block),
whatever the size of the files.
"""

from __future__ import annotations

import gzip
import json
from contextlib import ExitStack
from typing import BinaryIO, Iterator, Sequence

from .._inputs import SegmentReferences
from ..errors import InvalidInputError, InvalidOptionError, InvalidTextError, LengthMismatchError
from .text import check_record, gzip_errors, stdin_buffer

DEFAULT_CHUNK_SIZE = 20_000
# Bytes decoded at once: large enough that per-block overhead vanishes, small enough
# not to matter next to a chunk.
_BLOCK_BYTES = 1 << 22


def _open(path: str, stdin: BinaryIO | None, stack: ExitStack) -> tuple[BinaryIO, str]:
    if path == "-":
        return stdin_buffer(stdin), "<stdin>"
    if path.endswith(".gz"):
        return stack.enter_context(gzip.open(path, "rb")), path
    return stack.enter_context(open(path, "rb")), path


def _decode_block(lines: list[bytes], name: str, first_line: int) -> list[str]:
    data = b"".join(lines)
    if not data:  # a file holding only a BOM
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = first_line + data.count(b"\n", 0, e.start)
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1)
        raise InvalidTextError(f"{name}: invalid UTF-8 at line {line}, byte {col + 1}") from None
    out = text.split("\n")
    if data.endswith(b"\n"):
        out.pop()
    return [line.rstrip() for line in out]


def iter_lines(path: str, stdin: BinaryIO | None = None, block_bytes: int = _BLOCK_BYTES) -> Iterator[list[str]]:
    """Blocks of right-stripped lines of a text file, a few MB at a time."""
    with ExitStack() as stack:
        fh, name = _open(path, stdin, stack)
        lineno = 1
        first = True
        while True:
            with gzip_errors(name):
                raw = fh.readlines(block_bytes)
            if not raw:
                return
            if first and raw[0].startswith(b"\xef\xbb\xbf"):
                raw[0] = raw[0][3:]
            first = False
            lines = _decode_block(raw, name, lineno)
            lineno += len(lines)
            yield lines


def _check_chunk_size(chunk_size: int) -> int:
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidOptionError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    return chunk_size


class _Column:
    """One file's lines, handed out ``n`` at a time."""

    def __init__(self, path: str, stdin: BinaryIO | None):
        self.path = path
        self._blocks = iter_lines(path, stdin)
        self._buf: list[str] = []
        self._pos = 0
        self.consumed = 0

    def take(self, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            if self._pos == len(self._buf):
                self._buf = next(self._blocks, [])
                self._pos = 0
                if not self._buf:
                    break
            piece = self._buf[self._pos:self._pos + n - len(out)]
            self._pos += len(piece)
            out.extend(piece)
        self.consumed += len(out)
        return out

    def count_rest(self) -> int:
        rest = len(self._buf) - self._pos
        return self.consumed + rest + sum(len(b) for b in self._blocks)


def iter_chunks(paths: Sequence[str], chunk_size: int = DEFAULT_CHUNK_SIZE, stdin: BinaryIO | None = None) -> Iterator[list[list[str]]]:
    """Chunks of parallel files: each chunk is one list of lines per path, ``chunk_size``
    lines long (the last one shorter). Files of different lengths are an error naming them."""
    chunk_size = _check_chunk_size(chunk_size)
    columns = [_Column(p, stdin) for p in paths]
    while True:
        parts = [c.take(chunk_size) for c in columns]
        lengths = {len(p) for p in parts}
        if len(lengths) > 1:
            counts = [c.count_rest() for c in columns]
            desc = ", ".join(f"{c.path} has {k}" for c, k in zip(columns, counts))
            raise LengthMismatchError(f"files of different lengths (lines): {desc}")
        if not parts or not parts[0]:
            return
        yield parts


def parse_jsonl_record(line: str, where: str) -> tuple[str, list[str]] | None:
    """A ``{"prediction", "references"}`` record (``None`` for a blank line)."""
    if not line.strip():
        return None
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"{where}: invalid JSON ({e.msg})") from None
    except RecursionError:
        raise InvalidInputError(f"{where}: JSON nested too deeply") from None
    check_record(line, obj, where)
    pred = obj.get("prediction", obj.get("hypothesis")) if isinstance(obj, dict) else None
    ref = obj.get("references", obj.get("reference")) if isinstance(obj, dict) else None
    if not isinstance(pred, str) or ref is None:
        raise InvalidInputError(f'{where}: expected an object with "prediction" and "references"')
    if isinstance(ref, str):
        return pred, [ref]
    # a list of strings only: an object would be read by its keys, a number has no text
    if not isinstance(ref, list) or not ref or not all(isinstance(r, str) for r in ref):
        got = type(ref).__name__ if not isinstance(ref, list) else ("an empty list" if not ref else "a list with non-strings")
        raise InvalidInputError(f'{where}: "references" must be a string or a non-empty list of strings, got {got}')
    return pred, list(ref)


def iter_jsonl_chunks(path: str, chunk_size: int = DEFAULT_CHUNK_SIZE, stdin: BinaryIO | None = None) -> Iterator[tuple[list[str], list[list[str]]]]:
    """``(predictions, references)`` chunks of a JSON-lines file (blank lines skipped)."""
    chunk_size = _check_chunk_size(chunk_size)
    preds: list[str] = []
    refs: list[list[str]] = []
    lineno = 0
    for block in iter_lines(path, stdin):
        for line in block:
            lineno += 1
            rec = parse_jsonl_record(line, f"{path}:{lineno}")
            if rec is None:
                continue
            preds.append(rec[0])
            refs.append(rec[1])
            if len(preds) == chunk_size:
                yield preds, refs
                preds, refs = [], []
    if preds:
        yield preds, refs


def iter_pair_chunks(hypotheses: str, references: Sequence[str], chunk_size: int = DEFAULT_CHUNK_SIZE, stdin: BinaryIO | None = None) -> Iterator[tuple[list[str], list[list[str]]]]:
    """``(predictions, references)`` chunks of a system output file and its reference
    files (one reference per file and line, sacrebleu's layout)."""
    if not references:
        raise InvalidInputError("no reference file given")
    for hyps, *streams in iter_chunks([hypotheses, *references], chunk_size, stdin):
        yield hyps, SegmentReferences(list(seg) for seg in zip(*streams))
