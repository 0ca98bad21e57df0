"""A hostile user against the program-checked metrics: SQL the sandbox's own tests do not
name, database files that are not what they seem, malformed TREC files, broken inputs to
ragas, extractive fragments and SPA. Each case gets a right number or a typed error."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.errors import InvalidInputError
from nlgmetrics.metrics.programs.execution_accuracy import ExecutionAccuracy
from nlgmetrics.metrics.programs.sql_sandbox import Limits, Sandbox

SMALL = Limits(max_instructions=5_000_000, wall_seconds=30, max_rows=1000, max_length=1_000_000, heap_bytes=64 * 2**20)


def _database(path, rows=range(10), wal=False):
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (a INTEGER, b TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"row {i}") for i in rows])
    conn.commit()
    return conn


@pytest.fixture()
def db(tmp_path):
    path = tmp_path / "d" / "d.sqlite"
    _database(path).close()
    return path


@pytest.fixture()
def sandbox():
    with Sandbox(SMALL) as sb:
        yield sb


def _fingerprint(path):
    st = os.stat(path)
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns, st.st_size, sorted(os.listdir(path.parent))


# -- SQL: write and escape forms the sandbox's own tests do not spell ----------------------
HOSTILE = [
    ("/* hi */ ATTACH DATABASE '/tmp/x.sqlite' AS x", "denied", "ATTACH"),
    ("-- c\n  attach '/tmp/x.sqlite' as x", "denied", "ATTACH"),
    ("SELECT 1 /* ; */; ATTACH '/tmp/x.sqlite' AS x", "denied", "multiple statements"),
    ("SELECT * FROM t;\n-- then\nINSERT INTO t VALUES (1, 'x')", "denied", "multiple statements"),
    ("SELECT 1;;", "denied", "multiple statements"),
    ("WITH x AS (SELECT 1) REPLACE INTO t VALUES (1, 'x')", "denied", "INSERT t"),
    ("SELECT * FROM pragma_writable_schema", "denied", ""),
    ("SELECT * FROM json_each('[1, 2]')", "denied", ""),
    ("SELECT * FROM dbstat", "denied", ""),
    ("EXPLAIN SELECT 1", "denied", "EXPLAIN"),
    ("pragma\tquery_only=0", "denied", "PRAGMA"),
    ("SELECT sqlite_version()", "denied", "FUNCTION sqlite_version"),
    ("SELECT fts3_tokenizer('simple')", "denied", "FUNCTION fts3_tokenizer"),
    ("SELECT random() FROM t", "denied", "FUNCTION random"),
    ("SELECT length(format('%.*c', 1000000000, 'x'))", "limit", "format with a precision on %c (a repeat count)"),
    ("SELECT length(group_concat(hex(zeroblob(100000)))) FROM t", "limit", "string or blob too big"),
    ("SELECT length(json_group_array(hex(zeroblob(100000)))) FROM t", "limit", "string or blob too big"),
    ("SELECT hex(zeroblob(600000))", "limit", "string or blob too big"),
    ("SELECT * FROM (" * 150 + "SELECT 1" + ")" * 150, "limit", "parser stack overflow"),
    ("SELECT 1 WHERE 1 IN " + "(SELECT 1 WHERE 1 IN " * 60 + "(1)" + ")" * 60, "limit", ""),
    ("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT max(x) FROM r, t", "limit", "instruction budget of 5000000 exceeded"),
    ("SELECT 1 -- " + "x" * 1_000_000, "limit", "query longer than 100000 characters"),
    ("SELECT 1\x00; DROP TABLE t", "error", "the query contains a NUL character"),
]


@pytest.mark.parametrize("sql,status,detail", HOSTILE, ids=[f"hostile{i}" for i in range(len(HOSTILE))])
def test_hostile_sql_is_refused_and_reported_never_run(db, sandbox, sql, status, detail):
    before = _fingerprint(db)
    start = time.monotonic()
    out = sandbox.run(db, sql)
    assert out.status == status, out
    assert detail in out.detail
    assert time.monotonic() - start < 20
    assert _fingerprint(db) == before
    assert sandbox.run(db, "SELECT count(*) FROM t").rows == [(10,)]  # the next query still runs


def test_unicode_sql_runs_as_sqlite_reads_it(db, sandbox):
    assert sandbox.run(db, "SELECT 'héllo ✓ 𝄞' AS «x»").rows == [("héllo ✓ 𝄞",)]
    assert sandbox.run(db, "SELECT b FROM t WHERE a = 3 -- ünïcode comment").rows == [("row 3",)]


# -- SQL: database files that are not what they seem ---------------------------------------
def test_a_symlinked_database_is_read_and_its_target_untouched(db, sandbox, tmp_path):
    link = tmp_path / "link.sqlite"
    link.symlink_to(db)
    before = _fingerprint(db)
    assert sandbox.run(link, "SELECT count(*) FROM t").rows == [(10,)]
    assert sandbox.run(link, "DELETE FROM t").status == "denied"
    assert _fingerprint(db) == before and link.is_symlink()


def test_a_dangling_link_a_folder_and_a_missing_file_are_typed_errors(sandbox, tmp_path):
    (tmp_path / "dangling.sqlite").symlink_to(tmp_path / "nowhere")
    for path in [tmp_path / "dangling.sqlite", tmp_path, tmp_path / "missing.sqlite"]:
        with pytest.raises(InvalidInputError, match="no database file"):
            sandbox.run(path, "SELECT 1")


@pytest.mark.parametrize("content,message", [(b"hello, not a database\n", "file is not a database"),
                                             (b"SQLite format 3\x00" + b"\xff" * 200, "")])
def test_a_file_that_is_not_sqlite_is_a_typed_error_not_a_wrong_query(sandbox, tmp_path, content, message):
    """Before, BIRD's flavour scored it 0 in silence (the prediction 'failed')."""
    path = tmp_path / "x.sqlite"
    path.write_bytes(content)
    with pytest.raises(InvalidInputError, match=f"cannot open .* as a SQLite database: .*{message}"):
        sandbox.run(path, "SELECT 1")
    with pytest.raises(InvalidInputError):
        ExecutionAccuracy("bird", max_instructions=10**6).corpus_score(["SELECT 1"], ["SELECT 1"], [str(path)])


def test_an_empty_file_is_a_typed_error(sandbox, tmp_path):
    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    with pytest.raises(InvalidInputError, match="empty file"):
        sandbox.run(path, "SELECT 1")


def test_a_wal_database_with_a_pending_log_is_refused_not_read_stale(tmp_path, sandbox):
    """immutable=1 ignores a -wal file: the rows in it would be missing from every answer."""
    path = tmp_path / "w" / "w.sqlite"
    writer = _database(path, wal=True)
    writer.execute("INSERT INTO t VALUES (99, 'in the log')")
    writer.commit()
    assert (tmp_path / "w" / "w.sqlite-wal").stat().st_size > 0
    with pytest.raises(InvalidInputError, match="write-ahead log"):
        sandbox.run(path, "SELECT count(*) FROM t")
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert sandbox.run(path, "SELECT count(*) FROM t").rows == [(11,)]  # folded in: read whole
    writer.close()


def test_a_hot_rollback_journal_is_refused(db, sandbox):
    (db.parent / (db.name + "-journal")).write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + b"\x00" * 504)
    with pytest.raises(InvalidInputError, match="rollback journal"):
        sandbox.run(db, "SELECT 1")


def test_sqlites_side_files_are_not_test_suite_databases(db):
    """test-suite-sql-eval runs every '*.sqlite*' file of the folder; -shm / -wal / -journal
    beside a database are SQLite's own files, not variants of it."""
    (db.parent / (db.name + "-shm")).write_bytes(b"\x00" * 32768)
    (db.parent / (db.name + "-wal")).write_bytes(b"")
    variant = db.parent / "d2.sqlite"
    _database(variant, rows=range(3)).close()
    metric = ExecutionAccuracy("spider-test-suite", max_instructions=10**7)
    assert [r.correct for r in metric.details(["SELECT a FROM t", "SELECT 1 FROM t"], ["SELECT a FROM t", "SELECT 1 FROM t WHERE a < 3"], [str(db)] * 2)] == [True, False]


def test_a_database_that_changes_during_the_run_is_a_typed_error(db, sandbox):
    assert sandbox.run(db, "SELECT count(*) FROM t").rows == [(10,)]
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO t VALUES (10, 'late')")
    conn.commit()
    conn.close()
    with pytest.raises(InvalidInputError, match="changed during the run"):
        sandbox.run(db, "SELECT count(*) FROM t")


def test_a_database_replaced_during_the_run_is_a_typed_error(db, sandbox, tmp_path):
    assert sandbox.run(db, "SELECT count(*) FROM t").ok
    other = tmp_path / "other.sqlite"
    _database(other).close()
    os.replace(other, db)  # same bytes, another file
    with pytest.raises(InvalidInputError, match="changed during the run"):
        sandbox.run(db, "SELECT count(*) FROM t")
