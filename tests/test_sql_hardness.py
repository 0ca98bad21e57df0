"""Spider's hardness levels against test-suite-sql-eval's own ``get_sql`` + ``eval_hardness``
(tests/goldens/sql_hardness/cases.json, made by scripts/goldens/sql_hardness_goldens.py):
every gold query of its evaluation_examples and generated ones, level for level, and the
queries its parser rejects rejected here too."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("nltk")

from nlgmetrics.errors import InvalidInputError  # noqa: E402
from nlgmetrics.metrics.programs.sql_hardness import SqlParseError, hardness, parse, read_schema, tokenize  # noqa: E402

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "sql_hardness" / "cases.json").read_text())


def test_goldens_cover_every_level_and_rejections():
    seen = {c["hardness"] or "rejected" for c in GOLDENS["cases"]}
    assert seen == {"easy", "medium", "hard", "extra", "rejected"}
    assert sum(c["source"] == "gold.txt" for c in GOLDENS["cases"]) == 322


def test_levels_equal_the_reference_per_query():
    wrong = []
    for case in GOLDENS["cases"]:
        schema = GOLDENS["schemas"][case["db"]]
        try:
            got = hardness(case["query"], schema)
        except SqlParseError:
            got = None
        if got != case["hardness"]:
            wrong.append((case["db"], case["query"], case["hardness"] or case["error"], got))
    assert wrong == []


def test_spider_gold_level_counts():
    levels = [c["hardness"] for c in GOLDENS["cases"] if c["source"] == "gold.txt"]
    assert {lv: levels.count(lv) for lv in ("easy", "medium", "hard", "extra")} == {"easy": 146, "medium": 106, "hard": 38, "extra": 32}


@pytest.mark.parametrize("query, level", [  # each level as the reference's code gives it
    ("SELECT name FROM singer", "easy"),
    ("SELECT name FROM singer WHERE age > 20", "easy"),
    ("SELECT name, age FROM singer WHERE age > 20", "medium"),
    ("SELECT count(*), max(age) FROM singer", "medium"),
    ("SELECT name FROM singer WHERE age NOT LIKE '1'", "medium"),
    ("SELECT name FROM singer WHERE age > 20 OR country LIKE 'F%'", "hard"),
    ("SELECT name FROM singer WHERE age > 20 OR country LIKE 'F%' ORDER BY age", "extra"),
    ("SELECT name FROM singer EXCEPT SELECT name FROM singer WHERE age > 1", "hard"),
    ("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer) ORDER BY age", "extra"),
    # count_others counts a NOT condition in WHERE as an aggregation ...
    ("SELECT count(*) FROM singer WHERE age NOT IN (SELECT age FROM singer)", "extra"),
    ("SELECT count(*) FROM singer WHERE age IN (SELECT age FROM singer)", "hard"),
    # ... and HAVING's 'and' as one, but not its conditions' aggregates
    ("SELECT country FROM singer GROUP BY country HAVING count(*) > 1 AND avg(age) > 2", "easy"),
])
def test_hand_written_levels(query, level):
    assert hardness(query, {"singer": ["name", "age", "country"]}) == level


@pytest.mark.parametrize("query", [
    "SELECT nosuch FROM singer",       # a column not in the database
    "SELECT name FROM singer WHERE name = 'x",  # an odd number of quotes
    "SELECT name FROM singer LIMIT",   # cut off
    "SELECT singer FROM singer AS singer",  # an alias named as a table
    "SELECT name",                      # no FROM
])
def test_rejections_are_typed(query):
    with pytest.raises(SqlParseError):
        parse(query, {"singer": ["name", "age", "country"]})
    assert issubclass(SqlParseError, InvalidInputError)


def test_tokens_keep_quoted_values_and_join_comparisons():
    assert tokenize("SELECT a FROM t WHERE b != 'X y' AND c >= 2") == \
        ["select", "a", "from", "t", "where", "b", "!=", '"X y"', "and", "c", ">=", "2"]


def test_schema_is_read_lower_cased_in_the_databases_order_and_never_written(tmp_path):
    db = tmp_path / "d.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE Singer (Singer_ID INTEGER PRIMARY KEY AUTOINCREMENT, Name TEXT)")
    conn.execute('CREATE TABLE "Odd Name" ("Col ""A""" TEXT)')
    conn.execute("CREATE VIEW v AS SELECT * FROM Singer")
    conn.execute("INSERT INTO Singer (Name) VALUES ('x')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    assert read_schema(db) == {"singer": ["singer_id", "name"], "sqlite_sequence": ["name", "seq"], "odd name": ['col "a"']}
    assert db.read_bytes() == before
    with pytest.raises(InvalidInputError):
        read_schema(tmp_path / "missing.sqlite")
