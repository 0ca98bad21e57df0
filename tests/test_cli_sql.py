"""``nlgmetrics sql``: execution accuracy of gold / prediction files in test-suite-sql-eval's
and BIRD's habits, on small databases generated here; the numbers are the library's
(``execution_accuracy``, checked against the references in tests/test_execution_accuracy.py)
and the tables are the references' layouts."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.cli.main import main

SINGERS = [("Joe", 52, "France"), ("Ann", 41, "Netherlands"), ("Tim", 29, "France")]
LIMIT = ["--max-instructions", "10000000"]


def _database(path: Path, singers) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE singer (name TEXT, age INTEGER, country TEXT)")
    conn.executemany("INSERT INTO singer VALUES (?, ?, ?)", singers)
    conn.execute("CREATE TABLE concert (id INTEGER, year INTEGER)")
    conn.executemany("INSERT INTO concert VALUES (?, ?)", [(1, 2014), (2, 2015), (3, 2014)])
    conn.commit()
    conn.close()


@pytest.fixture()
def root(tmp_path):
    _database(tmp_path / "db" / "singer" / "singer.sqlite", SINGERS)
    _database(tmp_path / "db" / "music" / "music.sqlite", SINGERS[:2])
    return tmp_path


GOLD = [
    ("SELECT name, country FROM singer", "singer"),
    ("SELECT name FROM singer ORDER BY age DESC", "singer"),
    ("SELECT count(*) FROM singer", "singer"),
    ("SELECT DISTINCT year FROM concert", "music"),
]
PRED = [
    "SELECT country, name FROM singer",  # columns permuted: spider right, bird wrong
    "SELECT name FROM singer ORDER BY age",  # order differs: spider wrong, bird right
    "SELECT count(*) FROM singer; DROP TABLE singer",  # two statements: refused
    "SELECT year FROM concert",  # DISTINCT removed by spider; bird compares sets
]


def _write(root: Path, gold=GOLD, pred=PRED) -> tuple[str, str]:
    (root / "gold.sql").write_text("".join(f"{q}\t{db}\n" for q, db in gold), encoding="utf-8")
    (root / "pred.txt").write_text("".join(f"{q}\n" for q in pred), encoding="utf-8")
    return str(root / "gold.sql"), str(root / "pred.txt")


def _bird_json(root: Path, gold=GOLD, pred=PRED) -> str:
    path = root / "predict_dev.json"
    path.write_text(json.dumps({str(i): f"{q}\t----- bird -----\t{db}" for i, (q, (_, db)) in enumerate(zip(pred, gold))}), encoding="utf-8")
    return str(path)


def _run(capsys, argv) -> tuple[int, str, str]:
    code = main(["sql", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys, argv) -> dict:
    code, out, err = _run(capsys, [*argv, "-f", "json"])
    assert code == 0, err
    return json.loads(out)


# -- test-suite-sql-eval's habit ----------------------------------------------------------
def test_spider_lines_table_and_numbers(root, capsys):
    gold, pred = _write(root)
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])
    assert code == 0, err
    # evaluation.py's print_scores for etype exec: levels from eval_hardness (the first gold
    # query is medium, two SELECT columns; the rest easy), an empty level shows 0.000
    assert out.splitlines() == [
        f"{'':20} {'easy':20} {'medium':20} {'hard':20} {'extra':20} {'all':20}",
        f"{'count':20} {3:<20d} {1:<20d} {0:<20d} {0:<20d} {4:<20d}",
        "=====================   EXECUTION ACCURACY     =====================",
        f"{'execution':20} {1 / 3:<20.3f} {1.0:<20.3f} {0.0:<20.3f} {0.0:<20.3f} {0.5:<20.3f}",
        "refused by the sandbox: 1 (items 3)",
    ]
    assert out.splitlines()[3] == "execution            0.333                1.000                0.000                0.000                0.500               "
    doc = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT, "--per-item"])
    assert (doc["execution_accuracy"], doc["count"], doc["correct"]) == (0.5, 4, 2)
    assert doc["levels"] == {"easy": {"count": 3, "accuracy": 1 / 3}, "medium": {"count": 1, "accuracy": 1.0},
                             "hard": {"count": 0, "accuracy": None}, "extra": {"count": 0, "accuracy": None},
                             "unparsed": {"count": 0, "accuracy": None}, "all": {"count": 4, "accuracy": 0.5}}
    assert doc["unparsed"] == {"count": 0, "items": []}
    assert [i["correct"] for i in doc["items"]] == [True, False, False, True]
    assert [i["hardness"] for i in doc["items"]] == ["medium", "easy", "easy", "easy"]
    assert doc["refused"] == {"count": 1, "items": [{"item": 3, "where": f"{pred}:3", "reason": "denied: multiple statements"}]}
    assert doc["signature"].startswith("flavour:spider-test-suite|distinct:remove|budget:10000000|")
    # the library's own number on the same queries
    metric = nlgmetrics.load("execution_accuracy", max_instructions=10**7)
    dbs = [str(root / "db" / db / f"{db}.sqlite") for _, db in GOLD]
    assert metric.corpus_score(PRED, [q for q, _ in GOLD], dbs).score == doc["execution_accuracy"]


def test_spider_hard_and_extra_columns(root, capsys):
    """Levels as test-suite-sql-eval's eval_hardness gives them (checked there): where + or +
    like is hard; a nested query with ORDER BY is extra."""
    gold, pred = _write(root, [("SELECT name FROM singer WHERE age > 30 OR country LIKE 'F%'", "singer"),
                               ("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer) ORDER BY age", "singer"),
                               ("SELECT name FROM singer", "singer")],
                        ["SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 40 ORDER BY age", "SELECT name FROM singer"])
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])
    assert code == 0, err
    assert out.splitlines()[1:] == [
        f"{'count':20} {1:<20d} {0:<20d} {1:<20d} {1:<20d} {3:<20d}",
        "=====================   EXECUTION ACCURACY     =====================",
        f"{'execution':20} {1.0:<20.3f} {0.0:<20.3f} {0.0:<20.3f} {1.0:<20.3f} {2 / 3:<20.3f}",
    ]
    levels = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])["levels"]
    assert levels["hard"] == {"count": 1, "accuracy": 0.0} and levels["extra"] == {"count": 1, "accuracy": 1.0}


def test_spider_gold_the_parser_cannot_read_is_an_unparsed_level_named_by_line(root, capsys):
    """evaluation.py stops on such a gold query; here it is counted in its own column (shown
    only then), named by file and line, and still part of all."""
    gold, pred = _write(root, [("SELECT name FROM singer", "singer"), ("SELECT count(*) FROM singer WHERE age <> 1", "singer")],
                        ["SELECT name FROM singer", "SELECT count(*) FROM singer WHERE age != 1"])
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])
    assert code == 0, err
    assert out.splitlines() == [
        f"{'':20} {'easy':20} {'medium':20} {'hard':20} {'extra':20} {'unparsed':20} {'all':20}",
        f"{'count':20} {1:<20d} {0:<20d} {0:<20d} {0:<20d} {1:<20d} {2:<20d}",
        "=====================   EXECUTION ACCURACY     =====================",
        f"{'execution':20} {1.0:<20.3f} {0.0:<20.3f} {0.0:<20.3f} {0.0:<20.3f} {1.0:<20.3f} {1.0:<20.3f}",
        f"gold queries the Spider parser cannot read (level unparsed): 1 ({gold}:2)",
    ]
    doc = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT, "--per-item"])
    assert doc["unparsed"] == {"count": 1, "items": [{"item": 2, "where": f"{gold}:2"}]}
    assert doc["levels"]["unparsed"] == {"count": 1, "accuracy": 1.0}
    assert [i["hardness"] for i in doc["items"]] == ["easy", "unparsed"]


def test_spider_levels_need_nltk_the_accuracy_does_not(root, capsys, monkeypatch):
    """Without nltk (the Spider tokenizer) the accuracy is still printed, the levels are not,
    and one line on stderr says which extra gives them."""
    import sys

    gold, pred = _write(root)
    full = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])
    monkeypatch.setitem(sys.modules, "nltk", None)
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT, "-f", "json"])
    doc = json.loads(out)
    assert code == 0 and "nlgmetrics[nltk]" in err and err.count("\n") == 1
    assert (doc["count"], doc["correct"], doc["execution_accuracy"]) == (full["count"], full["correct"], full["execution_accuracy"])
    assert set(doc.get("levels") or {}) <= {"all"}
    assert _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])["count"] == 4


def test_spider_runs_every_database_of_the_test_suite(root, capsys):
    """A variant beside the database (test-suite-sql-eval's folders): right on one, wrong on the other."""
    _database(root / "db" / "singer" / "singer_variant.sqlite", [("Joe", 52, "France"), ("Ann", 41, "France")])
    gold, pred = _write(root, [("SELECT name FROM singer WHERE country = 'France'", "singer")], ["SELECT name FROM singer WHERE age > 40"])
    doc = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])
    assert doc["execution_accuracy"] == 0.0  # right on singer.sqlite (Joe), wrong on the variant (Joe, Ann)... and the reverse
    gold, pred = _write(root, [("SELECT name FROM singer WHERE country = 'France'", "singer")], ["SELECT name FROM singer WHERE country LIKE 'Fr%'"])
    assert _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])["execution_accuracy"] == 1.0


def test_spider_value_placeholder_and_keep_distinct(root, capsys):
    gold, pred = _write(root, [("SELECT name FROM singer WHERE age > 30", "singer"), ("SELECT DISTINCT year FROM concert", "music")],
                        ["SELECT name FROM singer WHERE age > value", "SELECT year FROM concert"])
    doc = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT, "--per-item"])
    # "value" becomes 1 (evaluation.py): age > 1 keeps Tim too, so the first is wrong; DISTINCT removed: the second is right
    assert [i["correct"] for i in doc["items"]] == [False, True]
    doc = _json(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT, "--per-item", "--keep_distinct"])
    assert [i["correct"] for i in doc["items"]] == [False, False]
    assert "distinct:keep" in doc["signature"]
    doc = _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT, "--per-item"])
    assert doc["items"][0]["prediction"].startswith("error: no such column: value")  # BIRD keeps the word


def test_predictions_from_stdin_and_gzip(root, capsys, monkeypatch):
    import gzip
    import io

    gold, pred = _write(root)
    (root / "pred.txt.gz").write_bytes(gzip.compress((root / "pred.txt").read_bytes()))
    assert _json(capsys, ["--gold", gold, "--pred", str(root / "pred.txt.gz"), "--db", str(root / "db"), *LIMIT])["execution_accuracy"] == 0.5
    bird = Path(_bird_json(root)).read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(bird)))
    doc = _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", "-", "--db", str(root / "db"), *LIMIT])
    assert doc["execution_accuracy"] == 0.5 and doc["refused"]["items"][0]["where"] == "-: key '2'"


def test_spider_prediction_after_a_tab_is_ignored_and_blank_lines_skipped(root, capsys):
    (root / "gold.sql").write_text("SELECT count(*) FROM singer\tsinger\n\n", encoding="utf-8")
    (root / "pred.txt").write_text("\nSELECT 3\tsinger\n", encoding="utf-8")
    doc = _json(capsys, ["--gold", str(root / "gold.sql"), "--pred", str(root / "pred.txt"), "--db", str(root / "db"), *LIMIT])
    assert (doc["count"], doc["execution_accuracy"]) == (1, 1.0)


# -- BIRD's habit -------------------------------------------------------------------------
def test_bird_json_with_difficulties(root, capsys):
    gold, _ = _write(root)
    pred = _bird_json(root)
    (root / "dev.json").write_text(json.dumps([{"difficulty": d} for d in ("simple", "moderate", "simple", "challenging")]), encoding="utf-8")
    argv = ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), "--diff-json", str(root / "dev.json"), *LIMIT]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    row = lambda name, cells: ("{:20} " + " ".join(["{:<20}"] * len(cells))).format(name, *cells)  # noqa: E731
    assert out.splitlines() == [
        "{:20} {:20} {:20} {:20} {:20}".format("", "simple", "moderate", "challenging", "total"),
        row("count", [2, 1, 1, 4]),
        "======================================    ACCURACY    =====================================",
        row("accuracy", ["0.00", "100.00", "100.00", "50.00"]),
        "===========================================================================================",
        "refused by the sandbox: 1 (items 3)",
    ]
    doc = _json(capsys, [*argv, "--per-item"])
    assert doc["levels"] == {"simple": {"count": 2, "accuracy": 0.0}, "moderate": {"count": 1, "accuracy": 1.0},
                             "challenging": {"count": 1, "accuracy": 1.0}, "total": {"count": 4, "accuracy": 0.5}}
    assert [i["difficulty"] for i in doc["items"]] == ["simple", "moderate", "simple", "challenging"]
    assert doc["refused"]["items"] == [{"item": 3, "where": f"{pred}: key '2'", "reason": "denied: multiple statements"}]
    assert doc["signature"].startswith("flavour:bird|budget:10000000|")


def test_bird_lines_habit_and_missing_predictions(root, capsys):
    gold, pred = _write(root)
    doc = _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), *LIMIT])
    assert doc["levels"] == {"total": {"count": 4, "accuracy": 0.5}}
    path = root / "predict_dev.json"  # a prediction that is not a string: BIRD scores it 0
    path.write_text(json.dumps({"0": 0, "1": "SELECT count(*) FROM singer\t----- bird -----\tsinger"}), encoding="utf-8")
    gold, _ = _write(root, [("SELECT 1", "singer"), ("SELECT 3", "singer")], ["x", "y"])
    doc = _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", str(path), "--db", str(root / "db"), *LIMIT, "--per-item"])
    assert [(i["correct"], i["prediction"]) for i in doc["items"]] == [(False, "missing: no prediction"), (True, "ok")]
    assert doc["refused"]["count"] == 0


def test_bird_empty_level_shows_a_dash(root, capsys):
    gold, _ = _write(root, GOLD[:1], PRED[:1])
    pred = _bird_json(root, GOLD[:1], ["SELECT name, country FROM singer"])
    (root / "dev.json").write_text(json.dumps([{"difficulty": "simple"}]), encoding="utf-8")
    code, out, _ = _run(capsys, ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), "--diff-json", str(root / "dev.json")])
    assert code == 0
    assert out.splitlines()[3].split() == ["accuracy", "100.00", "-", "-", "100.00"]
    doc = _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), "--diff-json", str(root / "dev.json")])
    assert doc["levels"]["moderate"] == {"count": 0, "accuracy": None}


# -- hostile SQL ----------------------------------------------------------------------------
HOSTILE = [
    "DROP TABLE singer",
    "INSERT INTO singer VALUES ('x', 1, 'y')",
    "ATTACH DATABASE '/tmp/nlgmetrics_sql_cli_x.db' AS x",
    "PRAGMA writable_schema = 1",
    "SELECT 1; DELETE FROM singer",
    "SELECT load_extension('/tmp/x.so')",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
]


@pytest.mark.parametrize("flavour", ["spider-test-suite", "bird"])
def test_hostile_sql_is_reported_not_run(root, capsys, flavour):
    db = root / "db" / "singer" / "singer.sqlite"
    before = hashlib.sha256(db.read_bytes()).hexdigest(), db.stat().st_mtime_ns
    gold, pred = _write(root, [("SELECT count(*) FROM singer", "singer")] * len(HOSTILE), HOSTILE)
    doc = _json(capsys, ["--flavour", flavour, "--gold", gold, "--pred", pred, "--db", str(root / "db"), "--max-instructions", "100000", "--per-item"])
    assert doc["execution_accuracy"] == 0.0
    assert doc["refused"]["count"] == len(HOSTILE)
    assert [r["item"] for r in doc["refused"]["items"]] == list(range(1, len(HOSTILE) + 1))
    reasons = [r["reason"] for r in doc["refused"]["items"]]
    assert all(r.startswith("denied") for r in reasons[:-1]), reasons
    assert reasons[-1].startswith("limit: instruction budget of 100000"), reasons
    assert (hashlib.sha256(db.read_bytes()).hexdigest(), db.stat().st_mtime_ns) == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["singer.sqlite"]  # no journal, no attached file
    assert not Path("/tmp/nlgmetrics_sql_cli_x.db").exists()


# -- bad input -------------------------------------------------------------------------------
def test_line_count_mismatch_names_file_and_line(root, capsys):
    gold, pred = _write(root, GOLD, PRED[:2])
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db")])
    assert (code, out) == (1, "")
    assert err == f"nlgmetrics: error: {pred}: 2 predictions but {gold} has 4 queries (its line 3 has no prediction)\n"
    gold, pred = _write(root, GOLD[:1], PRED[:2])
    code, _, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db")])
    assert code == 1 and "prediction 2 has no gold" in err and err.count("\n") == 1


@pytest.mark.parametrize("gold_text, message", [
    ("SELECT 1\tnowhere\n", "gold.sql:1: no database "),
    ("SELECT 1\tsinger\nSELECT 2\n", "gold.sql:2: expected SQL<TAB>db_id"),
    ("SELECT 1\t../singer\n", "gold.sql:1: db_id '../singer' is not a folder name"),
    ("\n\n", "gold.sql: no gold queries"),
    ("SELECT 1\tsinger\n\xff", "gold.sql"),
])
def test_bad_gold_files_are_data_errors(root, capsys, gold_text, message):
    (root / "gold.sql").write_bytes(gold_text.encode("latin-1") if "\xff" in gold_text else gold_text.encode())
    (root / "pred.txt").write_text("SELECT 1\n", encoding="utf-8")
    code, out, err = _run(capsys, ["--gold", str(root / "gold.sql"), "--pred", str(root / "pred.txt"), "--db", str(root / "db")])
    assert (code, out) == (1, "")
    assert message in err and err.count("\n") == 1


def test_bad_bird_files_are_data_errors(root, capsys):
    gold, _ = _write(root, GOLD[:1], PRED[:1])
    base = ["--flavour", "bird", "--gold", gold, "--db", str(root / "db")]
    cases = [
        ('{"0": "SELECT 1"}', "key '0': expected SQL\\t----- bird -----\\tdb_id"),
        ('{"0": "SELECT 1\\t----- bird -----\\tmusic"}', f"key '0': database 'music', but {gold}:1 has 'singer'"),
        ('{"0": ', "not JSON"),
        ('{"0": 0, "1": 0}', "2 predictions but"),
    ]
    for text, message in cases:
        (root / "p.json").write_text(text, encoding="utf-8")
        code, out, err = _run(capsys, [*base, "--pred", str(root / "p.json")])
        assert (code, out) == (1, "") and message in err and err.count("\n") == 1, (text, err)
    pred = _bird_json(root, GOLD[:1], PRED[:1])
    (root / "dev.json").write_text("[]", encoding="utf-8")
    code, _, err = _run(capsys, [*base, "--pred", pred, "--diff-json", str(root / "dev.json")])
    assert code == 1 and "0 entries but 1 gold queries" in err


def test_a_gold_that_fails_is_a_data_error_in_spider(root, capsys):
    gold, pred = _write(root, [("SELECT nope FROM singer", "singer")], ["SELECT 1"])
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db")])
    assert (code, out) == (1, "") and "the gold query fails" in err
    doc = _json(capsys, ["--flavour", "bird", "--gold", gold, "--pred", pred, "--db", str(root / "db"), "--per-item"])
    assert doc["items"][0]["gold"].startswith("error: no such column")  # bird scores it 0


@pytest.mark.parametrize("extra, message", [
    (["--etype", "match"], "--etype match"),
    (["--plug-value"], "--plug-value"),
    (["--flavour", "bird", "--keep-distinct"], "--keep-distinct"),
    (["--diff-json", "x.json"], "--diff-json"),
    (["--max-instructions", "0"], "--max-instructions"),
    (["--flavour", "sparc"], "--flavour"),
])
def test_usage_errors_exit_2(root, capsys, extra, message):
    gold, pred = _write(root)
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), *extra])
    assert (code, out) == (2, "") and message in err and err.count("\n") == 1


def test_missing_required_options_and_files(root, capsys):
    gold, pred = _write(root)
    assert _run(capsys, ["--gold", gold, "--pred", pred])[0] == 2
    code, _, err = _run(capsys, ["--gold", gold, "--pred", str(root / "none.txt"), "--db", str(root / "db")])
    assert code == 1 and "none.txt" in err
    code, _, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "nodb")])
    assert code == 1 and "not a folder" in err


def test_ctrl_c_exits_130(root, capsys, monkeypatch):
    from nlgmetrics.metrics.programs import execution_accuracy

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(execution_accuracy.ExecutionAccuracy, "details", interrupted)
    gold, pred = _write(root)
    code, out, err = _run(capsys, ["--gold", gold, "--pred", pred, "--db", str(root / "db"), "-f", "json"])
    assert (code, out, err) == (130, "", "nlgmetrics: interrupted\n")


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the worker")
def test_sigint_during_a_query_exits_130_and_leaves_no_worker(root):
    import signal
    import subprocess
    import sys
    import time

    gold, pred = _write(root, [("SELECT 1", "singer")], ["WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"])
    proc = subprocess.Popen([sys.executable, "-m", "nlgmetrics", "sql", "--gold", gold, "--pred", pred, "--db", str(root / "db"), "-f", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while not workers and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert workers, "the query's worker never started"
    time.sleep(0.5)  # the query is running (its budget is minutes)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (130, "", "nlgmetrics: interrupted\n")
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_spider_table_equals_evaluation_py_on_its_examples(tmp_path, capsys):
    """test-suite-sql-eval's evaluation_examples (gold.txt, predict.txt: 322 Spider / SParC dev
    queries as one session) over empty databases of their schemas: the table evaluation.py
    printed (tests/goldens/sql_hardness, scripts/goldens/sql_hardness_goldens.py), line for line."""
    pytest.importorskip("nltk")
    goldens = json.loads((Path(__file__).parent / "goldens" / "sql_hardness" / "cases.json").read_text())
    cli = goldens["cli"]
    for db in {line.split("\t")[1] for line in cli["gold"]}:
        (tmp_path / "db" / db).mkdir(parents=True)
        conn = sqlite3.connect(tmp_path / "db" / db / f"{db}.sqlite")
        for table, columns in goldens["schemas"][db].items():
            conn.execute(f'CREATE TABLE "{table}" ({", ".join(chr(34) + c + chr(34) for c in columns)})')
        conn.commit()
        conn.close()
    (tmp_path / "gold.txt").write_text("\n".join(cli["gold"]) + "\n", encoding="utf-8")
    (tmp_path / "predict.txt").write_text("\n".join(cli["predict"]) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, ["--gold", str(tmp_path / "gold.txt"), "--pred", str(tmp_path / "predict.txt"), "--db", str(tmp_path / "db")])
    assert code == 0, err
    assert out.splitlines() == cli["table"]
