"""Run model-written SQL on a user's SQLite database without letting it write, escape,
loop forever or exhaust the machine.

Each query runs in a worker process (:mod:`._sql_worker`, started with ``python -I``) that:
opens the database as ``file:...?mode=ro&immutable=1`` (the file is never written, not even
a lock or a journal), turns ``load_extension`` off, sets ``PRAGMA query_only``, a SQLite heap
limit and in-memory temporary storage, lowers SQLite's limits (string length, SQL length,
columns, expression depth, ``ATTACHED = 0``), installs an authorizer that allows reading,
``SELECT``, recursive CTEs and an allow-list of pure functions and denies everything else,
and counts VM instructions with a progress handler (a deterministic budget, not a clock).
The process itself has an address-space cap (``RLIMIT_AS``), may grow no file
(``RLIMIT_FSIZE = 0``) and is killed when a wall-clock limit passes (the last resort).
Before a query is sent, its first keyword must be ``SELECT``, ``WITH`` or ``VALUES``.

A query that is refused or stopped gets an :class:`Outcome` whose status says why
(``denied``, ``limit``, ``timeout``, ``crash``, ``error``) and whose detail names it
("denied: ATTACH"); it is never retried. docs/sql_sandbox.md lists the threats and tests.
"""
from __future__ import annotations

import json
import os
import select
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError

WORKER = Path(__file__).with_name("_sql_worker.py")
READ_ONLY_STARTS = ("select", "with", "values")


class Limits(NamedTuple):
    """What one query may use. ``max_instructions`` is the deterministic budget (SQLite VM
    instructions); ``wall_seconds`` only stops a worker that the budget did not."""

    max_instructions: int = 2_000_000_000
    max_rows: int = 1_000_000
    max_result_bytes: int = 256 * 2**20
    max_length: int = 16 * 2**20  # longest string or blob a query may build
    max_sql_length: int = 100_000
    max_columns: int = 2000
    max_expr_depth: int = 200
    max_compound_select: int = 500
    max_function_args: int = 100
    max_like_pattern: int = 50_000
    max_variables: int = 0
    heap_bytes: int = 1 * 2**30
    memory_bytes: int = 3 * 2**30
    wall_seconds: float = 600.0

    def checked(self) -> "Limits":
        for name, value in self._asdict().items():
            kind = float if name == "wall_seconds" else int
            if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
                raise InvalidOptionError(f"sql sandbox: {name} must be a {'number' if kind is float else 'whole number'}, got {value!r}")
            if not value >= 0 or (name == "wall_seconds" and value == float("inf")):
                raise InvalidOptionError(f"sql sandbox: {name} must be a finite number >= 0, got {value!r}")
        if self.max_instructions < 1:
            raise InvalidOptionError("sql sandbox: max_instructions must be at least 1")
        return self


class Outcome(NamedTuple):
    """One query's run: ``status`` is ``ok`` (``rows`` holds the result as tuples of int,
    float, str, bytes or None) or why it has none; ``detail`` names the cause."""

    status: str
    rows: list | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def describe(self) -> str:
        return "ok" if self.ok else f"{self.status}: {self.detail}"


def _skip_space_and_comments(sql: str, i: int = 0) -> int:
    n = len(sql)
    while i < n:
        if sql[i].isspace() or sql[i] == "(":
            i += 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            break
    return i


def first_keyword(sql: str) -> str:
    """The statement's first word (after spaces, comments and opening parentheses), upper case."""
    i = _skip_space_and_comments(sql)
    j = i
    while j < len(sql) and (sql[j].isalnum() or sql[j] == "_"):
        j += 1
    return sql[i:j].upper()


def database_uri(path: Any) -> str:
    """The read-only, immutable URI of an existing database file (percent-encoded, so a
    ``?`` or ``#`` in the path cannot add URI parameters)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputTypeError(f"sql: a database path must be a str or a path, got {type(path).__name__}")
    try:
        p = Path(path).resolve()
        regular = p.is_file()
    except (OSError, ValueError) as e:  # a NUL in the path, a loop of links
        raise InvalidInputError(f"sql: database path {str(path)!r}: {e}") from None
    if not regular:
        raise InvalidInputError(f"sql: no database file at {str(path)!r}")
    _check_no_pending_writes(p, path)
    return p.as_uri() + "?mode=ro&immutable=1"


# Beside a database, files whose content SQLite would merge into it on a normal open but
# that ``immutable=1`` ignores: reading past them would give answers from an older database
# than the one every other program (the references included) sees.
PENDING_WRITES = {"-wal": "a write-ahead log", "-journal": "a rollback journal (a write was interrupted)"}


def _check_no_pending_writes(resolved: Path, given: Any) -> None:
    try:
        if resolved.stat().st_size == 0:
            raise InvalidInputError(f"sql: database {str(given)!r} is an empty file (0 bytes): no tables to query")
        for suffix, what in PENDING_WRITES.items():
            side = resolved.with_name(resolved.name + suffix)
            if side.is_file() and side.stat().st_size > 0:
                raise InvalidInputError(
                    f"sql: database {str(given)!r} has {what} beside it ({side.name}) that read-only access would ignore; "
                    f"let SQLite fold it in first (sqlite3 {resolved.name} 'PRAGMA wal_checkpoint(TRUNCATE)', or open and close it once)")
    except OSError as e:
        raise InvalidInputError(f"sql: database path {str(given)!r}: {e}") from None


def file_state(path: Any) -> tuple:
    """What changes when a file is written or replaced: device, inode, size, mtime."""
    st = os.stat(path)
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


class Sandbox:
    """A worker process that runs queries one at a time (see the module). Use as a context
    manager, or call :meth:`close`; a worker that was killed is restarted for the next query."""

    def __init__(self, limits: Limits | None = None):
        self.limits = (limits or Limits()).checked()
        self._proc: subprocess.Popen | None = None
        self._states: dict[str, tuple] = {}  # each database's file_state when first run on

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                proc.stdin.close()  # type: ignore[union-attr]
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            proc.stdout.close()  # type: ignore[union-attr]

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()  # type: ignore[union-attr]
                except OSError:
                    pass

    def _worker(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", str(WORKER), str(self.limits.memory_bytes)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env={}, cwd="/", close_fds=True, start_new_session=True)
        return self._proc

    def run(self, database: Any, sql: Any, *, text: str = "strict") -> Outcome:
        """Run ``sql`` on ``database`` (a path). ``text``: ``strict`` (Python's decoding: a
        column that is not UTF-8 is an error) or ``ignore`` (bad bytes dropped)."""
        if not isinstance(sql, str):
            raise InputTypeError(f"sql: a query must be a string, got {type(sql).__name__}")
        uri = database_uri(database)
        self._check_unchanged(uri, database)
        word = first_keyword(sql)
        if word.lower() not in READ_ONLY_STARTS:
            return Outcome("denied", None, f"{word or 'empty statement'} (only SELECT, WITH or VALUES run)")
        if "\x00" in sql:
            return Outcome("error", None, "the query contains a NUL character")
        try:
            sql.encode("utf-8")
        except UnicodeEncodeError:
            return Outcome("error", None, "the query has a lone surrogate (no UTF-8 form)")
        if len(sql) > self.limits.max_sql_length:
            return Outcome("limit", None, f"query longer than {self.limits.max_sql_length} characters")
        req = {"uri": uri, "sql": sql, "text": text, **self.limits._asdict()}
        req["heap_limit"] = req.pop("heap_bytes")
        data = json.dumps(req).encode("ascii")
        proc = self._worker()
        try:
            proc.stdin.write(struct.pack(">I", len(data)) + data)  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            answer = self._answer(proc)
        except (BrokenPipeError, OSError):
            self._kill()
            return Outcome("crash", None, "the worker process ended")
        if answer is None:
            return Outcome("crash", None, "the worker process ended (memory cap or a signal)")
        if answer == "timeout":
            return Outcome("timeout", None, f"killed after {self.limits.wall_seconds:g} s")
        if not isinstance(answer, dict) or not isinstance(answer.get("rows", []), list):
            self._kill()
            return Outcome("crash", None, "the worker answered out of protocol")
        status = answer.get("status")
        if status == "open_error":
            raise InvalidInputError(f"sql: cannot open {database!s} as a SQLite database: {answer.get('detail')}")
        self._check_unchanged(uri, database)
        if status != "ok":
            return Outcome(status, None, answer.get("detail", ""))
        rows = [tuple(bytes.fromhex(v["blob"]) if isinstance(v, dict) else v for v in row) for row in answer["rows"]]
        return Outcome("ok", rows, "")

    def _check_unchanged(self, uri: str, database: Any) -> None:
        """The database must stay as it was when this sandbox first read it: SQLite reads an
        immutable file without locks, so a write during the run could mix two versions."""
        path = os.path.realpath(database)
        try:
            state = file_state(path)
        except OSError as e:
            raise InvalidInputError(f"sql: database {str(database)!r} went away during the run: {e}") from None
        first = self._states.setdefault(uri, state)
        if state != first:
            raise InvalidInputError(f"sql: database {str(database)!r} changed during the run (written or replaced); "
                                    "scores would mix two versions of it: run again on a copy no program writes")

    def _answer(self, proc: subprocess.Popen) -> Any:
        fd = proc.stdout.fileno()  # type: ignore[union-attr]
        deadline = time.monotonic() + self.limits.wall_seconds
        buf = b""
        need = 4
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._kill()
                return "timeout"
            chunk = os.read(fd, min(need - len(buf), 1 << 20))
            if not chunk:
                self._kill()
                return None
            buf += chunk
            if len(buf) >= 4:
                need = 4 + struct.unpack(">I", buf[:4])[0]
                if len(buf) >= need:
                    try:
                        return json.loads(buf[4:need])
                    except ValueError:  # not what the worker writes: trust nothing more from it
                        self._kill()
                        return None
