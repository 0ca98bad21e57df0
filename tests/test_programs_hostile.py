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


def test_the_cli_leaves_the_database_bytes_and_mtime_as_they_were(tmp_path, capsys):
    db = tmp_path / "db" / "s" / "s.sqlite"
    _database(db).close()
    os.utime(db, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before = _fingerprint(db)
    (tmp_path / "gold.sql").write_text("SELECT count(*) FROM t\ts\nSELECT a FROM t\ts\n", encoding="utf-8")
    (tmp_path / "pred.sql").write_text("SELECT count(*) FROM t; DROP TABLE t\nWITH x AS (SELECT 1) DELETE FROM t\n", encoding="utf-8")
    for flavour in ("spider-test-suite", "bird"):
        code = main(["sql", "--flavour", flavour, "--gold", str(tmp_path / "gold.sql"), "--pred", str(tmp_path / "pred.sql"),
                     "--db", str(tmp_path / "db"), "--max-instructions", "1000000", "-f", "json"])
        out, err = capsys.readouterr()
        assert code == 0 and err == ""
        doc = json.loads(out)
        assert doc["execution_accuracy"] == 0.0 and doc["refused"]["count"] == 2 and doc["signature"]
        assert _fingerprint(db) == before


@pytest.mark.parametrize("name,writer", [("not SQLite", lambda p: p.write_bytes(b"plain text\n")), ("empty", lambda p: p.write_bytes(b""))])
def test_the_cli_names_a_database_that_is_not_one_exit_1_one_line(tmp_path, capsys, name, writer):
    db = tmp_path / "db" / "s" / "s.sqlite"
    db.parent.mkdir(parents=True)
    writer(db)
    (tmp_path / "gold.sql").write_text("SELECT 1\ts\n", encoding="utf-8")
    (tmp_path / "pred.sql").write_text("SELECT 1\n", encoding="utf-8")
    for flavour in ("spider-test-suite", "bird"):
        code = main(["sql", "--flavour", flavour, "--gold", str(tmp_path / "gold.sql"), "--pred", str(tmp_path / "pred.sql"),
                     "--db", str(tmp_path / "db"), "-f", "json"])
        out, err = capsys.readouterr()
        assert (code, out) == (1, "") and err.count("\n") == 1 and "s.sqlite" in err


# -- retrieval: TREC files as trec_eval reads them -----------------------------------------
from nlgmetrics.metrics.programs.retrieval import Retrieval  # noqa: E402
from nlgmetrics.metrics.programs.trec_files import read_qrels, read_run  # noqa: E402

RUN = "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d1 1 1.0 t\n"
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n"


def test_a_byte_order_mark_is_not_part_of_the_first_query_id(tmp_path):
    """Before, '\\ufeffq1' matched no judged query: q1 was dropped and map fell from 1.0 to 0.5."""
    (tmp_path / "run").write_bytes(b"\xef\xbb\xbf" + RUN.encode())
    (tmp_path / "qrels").write_bytes(b"\xef\xbb\xbf" + QRELS.encode())
    assert set(read_run(tmp_path / "run")) == set(read_qrels(tmp_path / "qrels")) == {"q1", "q2"}
    assert Retrieval(measures=["map"]).corpus_score(str(tmp_path / "run"), str(tmp_path / "qrels")).score == 1.0


def test_fields_are_cut_at_ascii_blanks_as_trec_eval_cuts_them(tmp_path):
    """A no-break space or U+3000 inside an id is part of it for trec_eval (C's isspace);
    str.split() cut it, so the line had the wrong number of fields."""
    (tmp_path / "run").write_text("q1 Q0 d\u00a01 1 2.0 t\nq1\tQ0\td\u30002\t2\t1.0\tt\r\n", encoding="utf-8")
    (tmp_path / "qrels").write_text("q1 0 d\u00a01 1\nq1 0 d\u30002 1\n", encoding="utf-8")
    assert read_run(tmp_path / "run") == {"q1": {"d\u00a01": 2.0, "d\u30002": 1.0}}
    assert read_qrels(tmp_path / "qrels") == {"q1": {"d\u00a01": 1, "d\u30002": 1}}


def test_gzip_and_stdin_runs_read_as_the_plain_file(tmp_path, monkeypatch):
    import gzip
    import io
    import sys

    with gzip.open(tmp_path / "run.gz", "wt", encoding="utf-8") as f:
        f.write(RUN)
    assert read_run(tmp_path / "run.gz") == read_run(RUN.splitlines())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RUN.encode())))
    assert read_run("-") == read_run(RUN.splitlines())
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b\x08\x00broken")
    with pytest.raises(InvalidInputError, match="bad.gz"):
        read_run(tmp_path / "bad.gz")
    (tmp_path / "latin").write_bytes(RUN.encode() + b"q3 Q0 \xe9 1 1.0 t\n")
    with pytest.raises(InvalidInputError, match="latin: invalid UTF-8 at line 4"):
        read_run(tmp_path / "latin")


HOSTILE_RUNS = {  # equal to pytrec_eval wherever it answers
    "negative and zero judgments": ({"q": {"a": 3.0, "b": 2.0, "c": 1.0}}, {"q": {"a": -1, "b": 0, "c": 1}}),
    "all ties: document ids break them, descending": ({"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}}, {"q": {"a": 1, "d": 2}}),
    "ties in single precision only": ({"q": {"a": 1.0, "b": 1.0 + 1e-9, "c": 1.0 - 1e-9}}, {"q": {"a": 1}}),
    "infinite scores": ({"q": {"a": float("inf"), "b": float("-inf"), "c": 0.5}}, {"q": {"b": 1, "c": 1}}),
    "a judged query the run lacks, a run query nobody judged": ({"q": {"a": 1.0}, "z": {"a": 1.0}}, {"q": {"a": 1}, "r": {"x": 1}}),
    "an empty ranking": ({"q": {}, "p": {"a": 1.0}}, {"q": {"a": 1}, "p": {"a": 1}}),
    "a query judged with nothing": ({"q": {"a": 1.0}, "p": {"a": 1.0}}, {"q": {}, "p": {"a": 1}}),
    "an empty document id and unicode ids": ({"é": {"": 1.0, "ü": 0.5, "Z": 0.5}}, {"é": {"": 1, "Z": 2}}),
    "far-apart scores": ({"q": {"a": 1e300, "b": 1e-300, "c": -1e300}}, {"q": {"b": 1}}),
}
MEASURES = ["map", "ndcg_cut.10", "P.5", "recall.100", "recip_rank", "success.1", "map_cut.3", "ndcg", "Rprec",
            "P.1000000000", "ndcg_cut.4611686018427387904"]


@pytest.mark.parametrize("case", sorted(HOSTILE_RUNS))
def test_hostile_runs_equal_pytrec_eval(case):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run, qrels = HOSTILE_RUNS[case]
    want = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES)).evaluate(run)
    assert Retrieval(measures=MEASURES).per_query(run, qrels) == want


def test_a_nan_score_is_a_typed_error_naming_the_document():
    """pytrec_eval ranks a NaN wherever its sort leaves it: no defined answer."""
    with pytest.raises(InvalidInputError, match="NaN"):
        Retrieval(measures=["map"]).corpus_score({"q": {"a": float("nan"), "b": 1.0}}, {"q": {"a": 1}})


# -- SPA / acc-eq: scores past the reference's arithmetic ----------------------------------
def test_scores_that_overflow_the_permutation_test_are_a_typed_error_not_an_spa_of_0():
    """mt-metrics-eval sums the scores in float32: past 3.4e38 the sums are inf and NaN,
    every comparison False, and SPA came out 0.0 (1.0 for the same scores scaled down)."""
    from nlgmetrics.engines.meta_pairwise import soft_pairwise_accuracy, tie_calibrated_accuracy

    human = [[1, 2], [3, 4]]
    assert soft_pairwise_accuracy([[1e30, 2e30], [2e30, 3e30]], human) == soft_pairwise_accuracy([[1, 2], [2, 3]], human) == 1.0
    for metric in ([[1e308, -1e308], [1e308, 1e308]], [[3e38, 3e38], [1, 2]]):
        with pytest.raises(InvalidInputError, match="overflow single precision"):
            soft_pairwise_accuracy(metric, human)
    with pytest.raises(InvalidInputError, match="largest double"):
        tie_calibrated_accuracy([[1e308, -1e308], [1e308, 1e308]], human)
    assert tie_calibrated_accuracy([[1e307, -1e307], [1e307, 1e307]], human).value == tie_calibrated_accuracy([[1, -1], [1, 1]], human).value


def test_a_query_the_budget_does_not_see_is_killed_by_the_wall_clock(db):
    """Each row copies a 1 MB blob in a few instructions: the budget is far away when the
    wall clock stops it; a fresh worker answers the next query."""
    with Sandbox(Limits(max_instructions=10**9, wall_seconds=2.0)) as sb:
        start = time.monotonic()
        out = sb.run(db, "WITH RECURSIVE r(x) AS (SELECT zeroblob(1000000) UNION ALL SELECT x FROM r) SELECT count(*) FROM r")
        assert out.status == "timeout" and time.monotonic() - start < 15
        assert sb.run(db, "SELECT count(*) FROM t").rows == [(10,)]


def test_every_threat_model_line_names_tests_that_exist():
    """docs/sql_sandbox.md's table: each threat names one or more tests (or says why none applies)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    rows = [line for line in (root / "docs" / "sql_sandbox.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| threat") and "---" not in line]
    assert len(rows) >= 30
    for row in rows:
        cell = row.rstrip(" |").rsplit("|", 1)[1].strip()
        if cell == "—":
            continue
        m = re.fullmatch(r"(tests/\w+\.py)::(\w+(?:, \w+)*)", cell)
        assert m, row
        source = (root / m.group(1)).read_text(encoding="utf-8")
        for name in m.group(2).split(", "):
            assert f"def {name}(" in source, f"{m.group(1)} has no {name}"


# -- ragas: long contexts ------------------------------------------------------------------
def test_string_distances_of_long_contexts_are_exact_and_quick():
    """The cell-by-cell edit-distance table took about 70 s for two 8,000-character
    contexts here (a quarter of an hour at 30,000); the bit-parallel form is exact and quick."""
    from nlgmetrics.metrics.programs._ragas_distances import levenshtein_distance, normalized_distance
    from nlgmetrics.metrics.programs.ragas import RagasContext, RagasString

    n = 8000
    a, b = "ab" * (n // 2), "ba" * (n // 2)
    start = time.monotonic()
    assert levenshtein_distance(a, b) == 2 and levenshtein_distance("x" * n, "y" * n) == n
    assert levenshtein_distance("kitten" * 1000, "sitting" * 1000) == 3000
    assert RagasString("non_llm_string_similarity").sentence_scores([a], [b]).tolist() == [1 - 2 / n]
    assert normalized_distance("jaro", "x" * n, "y" * n) == 1.0
    contexts = ["the cat sat on the mat " * 300, "a dog ran in the park " * 300]
    assert RagasContext("non_llm_context_recall").corpus_score([contexts], [contexts[::-1]]).score == 1.0
    assert time.monotonic() - start < 10


def test_long_string_distances_equal_rapidfuzz():
    rapidfuzz = pytest.importorskip("rapidfuzz")
    import random

    from nlgmetrics.metrics.programs._ragas_distances import MEASURES, normalized_distance

    ref = {"levenshtein": rapidfuzz.distance.Levenshtein, "hamming": rapidfuzz.distance.Hamming,
           "jaro": rapidfuzz.distance.Jaro, "jaro_winkler": rapidfuzz.distance.JaroWinkler}
    rng = random.Random(34)
    for _ in range(40):
        alphabet = rng.choice(["ab", "abcdefgh ", "aé\u0301漢 "])
        a = "".join(rng.choice(alphabet) for _ in range(rng.choice([63, 64, 65, 500, 3000])))
        b = "".join(rng.choice(alphabet) for _ in range(rng.choice([1, 64, 129, 700, 2500])))
        for m in MEASURES:
            assert normalized_distance(m, a, b) == ref[m].normalized_distance(a, b), m


def test_bird_golds_that_fail_are_named_not_lost_in_silence(tmp_path, capsys):
    """BIRD scores an item whose gold fails 0 (parity); before, the CLI said nothing of it."""
    _database(tmp_path / "db" / "s" / "s.sqlite").close()
    (tmp_path / "gold.sql").write_text("SELECT count(*) FROM t\ts\nSELECT * FROM nope\ts\nDELETE FROM t\ts\n", encoding="utf-8")
    (tmp_path / "pred.sql").write_text("SELECT count(*) FROM t\nSELECT 1\nSELECT 1\n", encoding="utf-8")
    argv = ["sql", "--flavour", "bird", "--gold", str(tmp_path / "gold.sql"), "--pred", str(tmp_path / "pred.sql"), "--db", str(tmp_path / "db")]
    assert main([*argv, "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    gold = str(tmp_path / "gold.sql")
    assert doc["execution_accuracy"] == 1 / 3 and doc["refused"]["count"] == 0
    assert doc["gold_failed"] == {"count": 2, "items": [
        {"item": 2, "where": f"{gold}:2", "reason": "error: no such table: nope"},
        {"item": 3, "where": f"{gold}:3", "reason": "denied: DELETE (only SELECT, WITH or VALUES run)"}]}
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"gold queries that failed, their items scored 0 as BIRD's evaluation.py scores them: 2 ({gold}:2: error: no such table: nope, " in out


def test_a_spider_gold_that_fails_is_named_by_file_and_line(tmp_path, capsys):
    _database(tmp_path / "db" / "s" / "s.sqlite").close()
    (tmp_path / "gold.sql").write_text("SELECT count(*) FROM t\ts\n\nSELECT * FROM nope\ts\n", encoding="utf-8")
    (tmp_path / "pred.sql").write_text("SELECT count(*) FROM t\nSELECT 1\n", encoding="utf-8")
    code = main(["sql", "--gold", str(tmp_path / "gold.sql"), "--pred", str(tmp_path / "pred.sql"), "--db", str(tmp_path / "db"), "-f", "json"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "") and err.count("\n") == 1
    assert f"{tmp_path / 'gold.sql'}:3: the gold query fails on " in err and "no such table: nope" in err
