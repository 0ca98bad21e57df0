"""The worker process of the SQL sandbox: runs one query at a time on a database opened
read-only, under an authorizer, a VM-instruction budget, SQLite limits and process limits.

Run as ``python -I _sql_worker.py`` (isolated: no PYTHONPATH, no site packages, no
environment) by :mod:`nlgmetrics.metrics.programs.sql_sandbox`; it imports the standard library
only. Requests and answers are length-prefixed JSON on stdin / stdout (never pickle: the
parent parses what a process running hostile SQL wrote). docs/sql_sandbox.md gives the
threat model each defence answers.
"""
from __future__ import annotations

import json
import re
import resource
import signal
import sqlite3
import struct
import sys

# The authorizer's action codes (sqlite3.h), named in the "denied: ..." details.
ACTIONS = {
    1: "CREATE INDEX", 2: "CREATE TABLE", 3: "CREATE TEMP INDEX", 4: "CREATE TEMP TABLE",
    5: "CREATE TEMP TRIGGER", 6: "CREATE TEMP VIEW", 7: "CREATE TRIGGER", 8: "CREATE VIEW",
    9: "DELETE", 10: "DROP INDEX", 11: "DROP TABLE", 12: "DROP TEMP INDEX", 13: "DROP TEMP TABLE",
    14: "DROP TEMP TRIGGER", 15: "DROP TEMP VIEW", 16: "DROP TRIGGER", 17: "DROP VIEW",
    18: "INSERT", 19: "PRAGMA", 20: "READ", 21: "SELECT", 22: "TRANSACTION", 23: "UPDATE",
    24: "ATTACH", 25: "DETACH", 26: "ALTER TABLE", 27: "REINDEX", 28: "ANALYZE",
    29: "CREATE VTABLE", 30: "DROP VTABLE", 31: "FUNCTION", 32: "SAVEPOINT", 33: "RECURSIVE",
}
READ, SELECT, FUNCTION, RECURSIVE = 20, 21, 31, 33

# SQLite's built-in scalar, aggregate, window, date/time, math and JSON functions that read
# and compute only. Left out: load_extension, fts3_tokenizer (pointer registration),
# sqlite_* introspection, randomness (random, randomblob: an answer must not depend on luck).
FUNCTIONS = frozenset("""
abs changes char coalesce concat concat_ws format glob hex ifnull iif instr last_insert_rowid
length like likelihood likely lower ltrim max min nullif octet_length printf quote replace round
rtrim sign soundex substr substring total_changes trim typeof unhex unicode unlikely upper zeroblob
avg count group_concat string_agg sum total
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
date time datetime julianday unixepoch strftime timediff
acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2
mod pi pow power radians sin sinh sqrt tan tanh trunc
json json_array json_array_length json_extract json_insert json_object json_patch json_quote
json_remove json_replace json_set json_type json_valid json_group_array json_group_object
jsonb json_pretty json_error_position
""".split())

# Connection limits: sqlite3.SQLITE_LIMIT_* name -> the request's key.
LIMITS = {
    "SQLITE_LIMIT_LENGTH": "max_length", "SQLITE_LIMIT_SQL_LENGTH": "max_sql_length",
    "SQLITE_LIMIT_COLUMN": "max_columns", "SQLITE_LIMIT_EXPR_DEPTH": "max_expr_depth",
    "SQLITE_LIMIT_COMPOUND_SELECT": "max_compound_select", "SQLITE_LIMIT_FUNCTION_ARG": "max_function_args",
    "SQLITE_LIMIT_LIKE_PATTERN_LENGTH": "max_like_pattern", "SQLITE_LIMIT_VARIABLE_NUMBER": "max_variables",
    "SQLITE_LIMIT_TRIGGER_DEPTH": "zero", "SQLITE_LIMIT_ATTACHED": "zero", "SQLITE_LIMIT_WORKER_THREADS": "zero",
}
PROGRESS_STEP = 1000  # VM instructions between two calls of the progress handler

# Built-ins whose one call (one VM instruction, invisible to the budget) can run for
# minutes: printf's %c with a precision repeats the character that many times and keeps
# counting past SQLite's length limit (2**31 repeats: about a minute); instr, replace and
# trim with a set of characters compare naively, in time the product of their two
# arguments' lengths. They are wrapped: a refused call stops the query (status "limit"),
# any other is handed to the built-in itself on a second, empty connection.
_CONVERSION = re.compile(r"%%|%[-+ #!0,]*(?:\*|\d*)(\.(?:\*|\d*))?l{0,2}(.)", re.DOTALL)
MAX_QUADRATIC = 2**30  # instr / replace / trim: the most length(X) * length(Y) let run
QUADRATIC = {"instr": 2, "replace": 3, "trim": 2, "ltrim": 2, "rtrim": 2}


class _Refused(Exception):
    pass


def _guards(aux, stopped: list) -> dict:
    calls: dict[tuple, str] = {}

    def builtin(name, args):
        key = (name, len(args))
        if key not in calls:
            calls[key] = f"SELECT {name}({', '.join('?' * len(args))})"
        try:
            return aux.execute(calls[key], args).fetchone()[0]
        except sqlite3.Error as e:  # the built-in's own error ("string or blob too big")
            stopped.append(_classify(str(e)))
            raise _Refused() from None

    def printf_like(name):
        def call(*args):
            fmt = args[0] if args else None
            if isinstance(fmt, str):
                for m in _CONVERSION.finditer(fmt):
                    if m.group(2) == "c" and m.group(1) is not None:
                        stopped.append(("limit", f"{name} with a precision on %c (a repeat count)"))
                        raise _Refused()
            return builtin(name, args)
        return call

    def quadratic(name):
        def call(*args):
            x, y = args[0], args[1]
            if isinstance(x, (str, bytes)) and isinstance(y, (str, bytes)) and len(x) * len(y) > MAX_QUADRATIC:
                stopped.append(("limit", f"{name} of {len(x)} by {len(y)} characters (more than {MAX_QUADRATIC} comparisons)"))
                raise _Refused()
            return builtin(name, args)
        return call

    out = {(name, -1): printf_like(name) for name in ("printf", "format")}
    out.update({(name, n): quadratic(name) for name, n in QUADRATIC.items()})
    return out


def _classify(msg: str) -> tuple[str, str]:
    """A SQLite error: a limit reached, or an error of the query itself."""
    limit = any(k in msg for k in ("out of memory", "too big", "too many", "too large", "stack overflow"))
    return ("limit" if limit else "error"), msg


def _read(stream) -> dict | None:
    head = stream.read(4)
    if len(head) < 4:
        return None
    return json.loads(stream.read(struct.unpack(">I", head)[0]))


def _write(stream, answer: dict) -> None:
    data = json.dumps(answer, allow_nan=True).encode("ascii")
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def _value(v):
    """A result cell as JSON: numbers, strings and null as they are, a blob tagged."""
    return {"blob": v.hex()} if isinstance(v, bytes) else v


def _run(req: dict) -> dict:
    denied: list[str] = []

    def authorize(action, arg1, arg2, _db, _inner):
        if action in (READ, SELECT, RECURSIVE):
            return sqlite3.SQLITE_OK
        if action == FUNCTION and (arg2 or "").lower() in FUNCTIONS:
            return sqlite3.SQLITE_OK
        name = ACTIONS.get(action, f"action {action}")
        what = arg2 if action == FUNCTION else arg1
        denied.append(f"{name} {what}" if what else name)
        return sqlite3.SQLITE_DENY

    stopped: list[str] = []
    steps = [0]
    budget_steps = max(1, req["max_instructions"] // PROGRESS_STEP)

    def progress():
        steps[0] += 1
        return 1 if steps[0] > budget_steps else 0

    try:
        conn = sqlite3.connect(req["uri"], uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as e:
        return {"status": "open_error", "detail": str(e)}
    try:
        if hasattr(conn, "enable_load_extension"):
            conn.enable_load_extension(False)
        conn.execute("PRAGMA query_only = 1")
        conn.execute(f"PRAGMA hard_heap_limit = {int(req['heap_limit'])}")
        conn.execute("PRAGMA trusted_schema = 0")
        conn.execute("PRAGMA temp_store = MEMORY")  # sorts spill to the capped heap, never to a file
        for name, key in LIMITS.items():
            if hasattr(sqlite3, name):
                conn.setlimit(getattr(sqlite3, name), 0 if key == "zero" else int(req[key]))
        if req["text"] == "ignore":  # test-suite-sql-eval's text_factory
            conn.text_factory = lambda b: b.decode(errors="ignore")
        try:  # a file that is not SQLite (or is damaged) fails here, before any query: bad input, not a wrong query
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as e:
            return {"status": "open_error", "detail": str(e)}
        aux = sqlite3.connect(":memory:", isolation_level=None)
        aux.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, int(req["max_length"]))
        for (name, nargs), guard in _guards(aux, stopped).items():
            conn.create_function(name, nargs, guard, deterministic=True)
        conn.set_authorizer(authorize)
        conn.set_progress_handler(progress, PROGRESS_STEP)
        rows, size = [], 0
        try:
            cur = conn.execute(req["sql"])
            while True:
                batch = cur.fetchmany(256)
                if not batch:
                    break
                for row in batch:
                    size += 16 + sum(len(v) if isinstance(v, (str, bytes)) else 8 for v in row)
                    rows.append([_value(v) for v in row])
                if len(rows) > req["max_rows"]:
                    return {"status": "limit", "detail": f"more than {req['max_rows']} result rows"}
                if size > req["max_result_bytes"]:
                    return {"status": "limit", "detail": f"more than {req['max_result_bytes']} bytes of results"}
        except sqlite3.Warning as e:  # "You can only execute one statement at a time."
            return {"status": "denied", "detail": "multiple statements" if "one statement" in str(e) else str(e)}
        except sqlite3.Error as e:
            if denied:
                return {"status": "denied", "detail": denied[0]}
            if stopped:
                return {"status": stopped[0][0], "detail": stopped[0][1]}
            if steps[0] > budget_steps:
                return {"status": "limit", "detail": f"instruction budget of {req['max_instructions']} exceeded"}
            if "one statement at a time" in str(e):
                return {"status": "denied", "detail": "multiple statements"}
            status, detail = _classify(str(e))
            return {"status": status, "detail": detail}
        except MemoryError:
            return {"status": "limit", "detail": "memory cap reached"}
        except (ValueError, OverflowError) as e:  # a NUL in the query, a value Python cannot hold
            return {"status": "error", "detail": str(e)}
        return {"status": "ok", "rows": rows}
    finally:
        conn.close()


def main() -> None:
    mem = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    if mem > 0:
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # no file grows: a write fails with EFBIG
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when the worker ends
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        req = _read(stdin)
        if req is None:
            return
        try:
            answer = _run(req)
        except MemoryError:
            answer = {"status": "limit", "detail": "memory cap reached"}
        except Exception as e:  # the worker outlives anything a query does to it
            answer = {"status": "error", "detail": f"{type(e).__name__}: {e}"}
        _write(stdout, answer)


if __name__ == "__main__":
    main()
