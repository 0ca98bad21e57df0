"""The SQL sandbox's threat model (docs/sql_sandbox.md): one test per line of its table.
Every test bounds itself: a small instruction budget, a wall-clock limit, small caps."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import time

import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError
from nlgmetrics.metrics.programs import _sql_worker
from nlgmetrics.metrics.programs.sql_sandbox import Limits, Sandbox, database_uri

SMALL = Limits(max_instructions=5_000_000, wall_seconds=30, max_rows=1000, max_length=1_000_000, heap_bytes=64 * 2**20)


@pytest.fixture()
def db(tmp_path):
    path = tmp_path / "shop.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (a INTEGER, b TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"row {i}") for i in range(100)])
    conn.execute("CREATE INDEX ta ON t (a)")
    conn.commit()
    conn.close()
    return path


@pytest.fixture()
def sandbox():
    with Sandbox(SMALL) as sb:
        yield sb


def _fingerprint(path):
    st = os.stat(path)
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns, st.st_size, sorted(os.listdir(path.parent))


def _direct(db, sql):
    """The worker's query function itself, past the parent's first-keyword check: the
    authorizer and limits must refuse on their own."""
    req = {"uri": database_uri(db), "sql": sql, "text": "strict", **SMALL._asdict()}
    req["heap_limit"] = req.pop("heap_bytes")
    return _sql_worker._run(req)


def test_reads_work(db, sandbox):
    out = sandbox.run(db, "SELECT count(*), sum(a) FROM t WHERE b LIKE 'row 1%'")
    assert out.ok and out.rows == [(11, 1 + sum(range(10, 20)))]


@pytest.mark.parametrize("sql", ["INSERT INTO t VALUES (1, 'x')", "UPDATE t SET a = 0", "DELETE FROM t",
                                 "DROP TABLE t", "CREATE TABLE x (a)", "ALTER TABLE t ADD COLUMN c", "REPLACE INTO t VALUES (1, 'x')",
                                 "CREATE INDEX i ON t(a)", "REINDEX", "ANALYZE",
                                 "WITH x AS (SELECT 1) INSERT INTO t SELECT 1, 'x' FROM x", "WITH x AS (SELECT 1) DELETE FROM t",
                                 "WITH x AS (SELECT 1) UPDATE t SET a = 0"])
def test_writes_are_denied_and_the_file_is_untouched(db, sandbox, sql):
    before = _fingerprint(db)
    out = sandbox.run(db, sql)
    assert out.status == "denied"
    assert _direct(db, sql)["status"] == "denied"  # the authorizer alone refuses too
    assert _fingerprint(db) == before


def test_attach_to_another_file_is_denied(db, sandbox, tmp_path):
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).close()
    sql = f"ATTACH '{other}' AS o"
    assert sandbox.run(db, sql).status == "denied"
    assert _direct(db, sql) == {"status": "denied", "detail": "ATTACH " + str(other)}


def test_load_extension_is_denied(db, sandbox):
    out = sandbox.run(db, "SELECT load_extension('/tmp/evil.so')")
    assert (out.status, out.detail) == ("denied", "FUNCTION load_extension")


@pytest.mark.parametrize("sql", ["PRAGMA writable_schema = 1", "PRAGMA journal_mode = DELETE", "PRAGMA query_only = 0",
                                 "SELECT * FROM pragma_table_info('t')"])
def test_pragmas_are_denied(db, sandbox, sql):
    assert sandbox.run(db, sql).status == "denied"
    assert _direct(db, sql)["status"] == "denied"


def test_recursive_cte_infinite_loop_stops_at_the_budget(db, sandbox):
    start = time.monotonic()
    out = sandbox.run(db, "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r")
    assert (out.status, out.detail) == ("limit", "instruction budget of 5000000 exceeded")
    assert time.monotonic() - start < 20


def test_the_budget_is_deterministic(db, sandbox):
    """The same query stops at the same place each time: it is counted, not timed."""
    sql = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT {n}) SELECT max(x) FROM r"
    assert sandbox.run(db, sql.format(n=100_000)).rows == [(100_000,)]
    assert [sandbox.run(db, sql.format(n=10_000_000)).status for _ in range(2)] == ["limit", "limit"]


def test_cartesian_product_blowup_stops_at_the_budget(db, sandbox):
    out = sandbox.run(db, "SELECT count(*) FROM t a, t b, t c, t d, t e")
    assert out.status == "limit" and "budget" in out.detail


@pytest.mark.parametrize("sql,status", [
    ("SELECT randomblob(1000000000)", "denied"),
    ("SELECT zeroblob(1000000000)", "limit"),
    ("SELECT length(printf('%.*c', 1000000000, 'x'))", "limit"),
    ("SELECT replace(hex(zeroblob(400000)), '0', '0000000000')", "limit"),
    ("WITH RECURSIVE r(x) AS (SELECT 'x' UNION ALL SELECT x || x FROM r) SELECT length(x) FROM r", "limit"),
])
def test_huge_strings_are_capped(db, sandbox, sql, status):
    start = time.monotonic()
    assert sandbox.run(db, sql).status == status
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("fmt", ["%.*c", "%.1000000000c", "%-5.*c", "%!.2000000000c", "%.99lc", "%-0*.*llc"])
def test_printf_repeat_counts_are_refused(db, sandbox, fmt):
    """%c with a precision repeats a character in one VM instruction, past the length
    limit's reach (about a minute for 2**31): refused before it starts."""
    start = time.monotonic()
    out = sandbox.run(db, f"SELECT length(printf('{fmt}', 2000000000, 'x'))")
    assert (out.status, out.detail) == ("limit", "printf with a precision on %c (a repeat count)")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("call", ["instr(h, n)", "replace(h, n, 'x')", "trim(h, n)", "ltrim(h, n)", "rtrim(h, n)"])
def test_quadratic_functions_are_refused_past_their_cost(db, sandbox, call):
    """instr / replace / trim compare naively: time is the product of the two lengths, in
    one VM instruction. Past 2**30 comparisons the call is refused, at once."""
    sql = (f"WITH s(h, n) AS (SELECT replace(hex(zeroblob(400000)), '0', 'a'), replace(hex(zeroblob(200000)), '0', 'a') || 'b') "
           f"SELECT {call} IS NULL FROM s")
    start = time.monotonic()
    out = sandbox.run(db, sql)
    assert out.status == "limit" and "comparisons" in out.detail
    assert time.monotonic() - start < 5


def test_wrapped_functions_give_sqlites_own_answers(db, sandbox):
    sql = ("SELECT instr('hello', 'l'), instr(x'0102', x'02'), instr(NULL, 'a'), instr(12345, 34), replace('a.b.c', '.', '--'), "
           "replace('abc', '', 'x'), trim('xxhixx', 'x'), ltrim('  a  '), rtrim('aab', 'b'), trim(12300, 0), instr('ééa', 'a')")
    want = sqlite3.connect(":memory:").execute(sql).fetchall()
    assert sandbox.run(db, sql).rows == want == [(3, 2, None, 3, "a--b--c", "abc", "hi", "a  ", "aa", "123", 3)]


def test_printf_otherwise_is_sqlites_own(db, sandbox):
    sql = "SELECT printf('%.2f|%5s|%-3d|%%|%c|%q|%,d', 3.14159, 'ab', 7, 'xyz', 'it''s', 1234567), format('%d%%', 50), printf('%s', NULL), printf(NULL)"
    want = sqlite3.connect(":memory:").execute(sql).fetchall()
    assert sandbox.run(db, sql).rows == want == [("3.14|   ab|7  |%|x|it''s|1,234,567", "50%", "", None)]


def test_deep_expression_is_refused(db, sandbox):
    out = sandbox.run(db, "SELECT " + "(" * 500 + "1" + ")" * 500)
    assert out.status == "limit" and "stack overflow" in out.detail
    assert sandbox.run(db, "SELECT 1" + " + 1" * 1000).status == "limit"


@pytest.mark.parametrize("sql", ["CREATE TEMP TABLE x (a)", "CREATE TEMP VIEW v AS SELECT 1", "CREATE TEMP TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; END",
                                 "CREATE VIRTUAL TABLE v USING fts5(a)", "BEGIN", "SAVEPOINT s", "DETACH main"])
def test_temp_objects_and_transactions_are_denied(db, sandbox, sql):
    assert sandbox.run(db, sql).status == "denied"
    assert _direct(db, sql)["status"] in ("denied", "error")  # "error": SQLite refuses it before asking


def test_vacuum_into_writes_no_file(db, sandbox, tmp_path):
    target = tmp_path / "copy.sqlite"
    assert sandbox.run(db, f"VACUUM INTO '{target}'").status == "denied"
    assert _direct(db, f"VACUUM INTO '{target}'")["status"] == "denied"
    assert not target.exists()


@pytest.mark.parametrize("sql", ["SELECT 1; DROP TABLE t", "SELECT 1; SELECT 2", "SELECT 1;\nATTACH 'x' AS y"])
def test_multiple_statements_are_refused(db, sandbox, sql):
    before = _fingerprint(db)
    assert (sandbox.run(db, sql).status, sandbox.run(db, sql).detail) == ("denied", "multiple statements")
    assert _fingerprint(db) == before
    assert sandbox.run(db, "SELECT 1; -- a comment after the one statement").rows == [(1,)]


def test_reading_another_database_file_is_impossible(db, sandbox, tmp_path):
    other = tmp_path / "secret.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE s (x)")
    conn.commit()
    conn.close()
    for sql in [f"SELECT * FROM '{other}'.s", "SELECT readfile('/etc/passwd')", f"SELECT * FROM s"]:
        assert sandbox.run(db, sql).status in ("error", "denied")


def test_a_path_cannot_add_uri_parameters(tmp_path, sandbox):
    """A '?' or '#' in the path is percent-encoded: it cannot turn mode=ro off."""
    folder = tmp_path / "x?mode=rwc&immutable=0#"
    folder.mkdir()
    path = folder / "d.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (a)")
    conn.commit()
    conn.close()
    before = _fingerprint(path)
    assert database_uri(path).endswith("?mode=ro&immutable=1") and "%3F" in database_uri(path)
    assert sandbox.run(path, "SELECT count(*) FROM t").rows == [(0,)]
    assert sandbox.run(path, "INSERT INTO t VALUES (1)").status == "denied"
    assert _fingerprint(path) == before


def test_time_bomb_is_killed_by_the_wall_clock(db):
    """The last resort: a budget too large to stop it, a wall clock that does."""
    with Sandbox(Limits(max_instructions=10**15, wall_seconds=1.0)) as sb:
        start = time.monotonic()
        out = sb.run(db, "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r")
        assert out.status == "timeout" and time.monotonic() - start < 10
        assert sb.run(db, "SELECT count(*) FROM t").rows == [(100,)]  # a fresh worker answers the next one


def test_memory_is_capped(db):
    with Sandbox(Limits(max_instructions=10**9, wall_seconds=60, heap_bytes=8 * 2**20)) as sb:
        out = sb.run(db, "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 2000000) "
                         "SELECT count(*) FROM (SELECT DISTINCT printf('%030d', x) FROM r)")
        assert out.status == "limit" and "memory" in out.detail
        assert sb.run(db, "SELECT 1").rows == [(1,)]


def test_a_worker_that_dies_is_reported_and_replaced(db, sandbox):
    assert sandbox.run(db, "SELECT 1").ok
    sandbox._proc.kill()
    sandbox._proc.wait()
    assert sandbox.run(db, "SELECT 2").rows == [(2,)]
    with Sandbox(Limits(memory_bytes=64 * 2**20, wall_seconds=30)) as sb:  # too little for the interpreter
        out = sb.run(db, "SELECT 1")
        assert out.status in ("crash", "ok")


def test_result_rows_and_bytes_are_capped(db):
    with Sandbox(Limits(max_instructions=10**8, wall_seconds=30, max_rows=50, max_result_bytes=10_000)) as sb:
        assert sb.run(db, "SELECT * FROM t").status == "limit"
        assert sb.run(db, "SELECT a FROM t LIMIT 50").ok
        out = sb.run(db, "SELECT hex(zeroblob(2500)) FROM t LIMIT 40")
        assert out.status == "limit" and "bytes" in out.detail


def test_the_users_file_is_never_modified(db, sandbox):
    before = _fingerprint(db)
    for sql in ["SELECT * FROM t", "INSERT INTO t VALUES (1, 'x')", "PRAGMA user_version = 7", "VACUUM",
                "SELECT count(*) FROM t a, t b, t c, t d", "CREATE TABLE z (a)", "SELECT 1; DELETE FROM t"]:
        sandbox.run(db, sql)
    assert _fingerprint(db) == before  # bytes, mtime, size, and no -journal or -wal beside it


def test_non_databases_and_non_strings_are_typed_errors(db, sandbox, tmp_path):
    with pytest.raises(InvalidInputError):
        sandbox.run(tmp_path, "SELECT 1")  # a folder
    with pytest.raises(InvalidInputError):
        sandbox.run(tmp_path / "nope.sqlite", "SELECT 1")
    with pytest.raises(InputTypeError):
        sandbox.run(db, b"SELECT 1")
    with pytest.raises(InputTypeError):
        sandbox.run(3, "SELECT 1")
    assert sandbox.run(db, "SELECT '\x00'").status == "error"
    assert sandbox.run(db, "SELECT '\ud800'").status == "error"
    assert sandbox.run(db, "").status == "denied"
    assert sandbox.run(db, "SELECT 1 -- x" + " " * 200_000).status == "limit"


def test_the_worker_runs_isolated(db, sandbox):
    """No environment, no site packages: a PYTHONPATH set by a user cannot inject code."""
    sandbox.run(db, "SELECT 1")
    environ = open(f"/proc/{sandbox._proc.pid}/environ", "rb").read()
    assert environ == b""
    cmdline = open(f"/proc/{sandbox._proc.pid}/cmdline", "rb").read().split(b"\x00")
    assert cmdline[1] == b"-I"
