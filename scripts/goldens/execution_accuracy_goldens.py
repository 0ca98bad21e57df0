"""Goldens for execution_accuracy from the reference programs themselves.

Run with a Python that can import the references (nothing of theirs is committed):
test-suite-sql-eval's ``exec_eval.py`` and ``parse.py`` (taoyds/test-suite-sql-eval e97acc5)
and BIRD's ``evaluation.py`` saved as ``bird_evaluation.py`` (AlibabaResearch/DAMO-ConvAI
dec31ae, bird/llm/src), with sqlparse, func_timeout and tqdm installed:

    PYTHONPATH=/path/to/refs:/path/to/site-packages python scripts/goldens/execution_accuracy_goldens.py /path/to/refs

Writes tests/goldens/execution_accuracy/goldens.json: the generated databases (schema and
rows, rebuilt by the tests), each (prediction, gold, database) case with the reference's
0/1 for spider-test-suite (with and without keep_distinct) and bird, and sqlparse's
remove_distinct of generated queries.
"""
from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "execution_accuracy" / "goldens.json"

# name -> (folder, [(table, columns, rows)]); rows hold ints, floats, strings, None and
# {"text_hex": ...} (a TEXT value of raw bytes, not always UTF-8). Folder "suite" has two
# files: the test suite's rule runs a query on both.
VALUES = [0, 1, 1, 2, 2, 3, -1, 1.0, 2.0, 2.5, 0.1 + 0.2, None, None, "a", "b", "B", "1", "", "a b", "é"]


def _databases(rng: random.Random) -> dict:
    dbs = {}
    for name in ("alpha", "beta"):
        tables = []
        for t in ("t", "u"):
            rows = [[rng.choice(VALUES) for _ in range(4)] for _ in range(rng.randint(3, 9))]
            tables.append([t, ["a", "b", "c", "d"], rows])
        dbs[name] = {"folder": name, "tables": tables}
    dbs["gamma"] = {"folder": "gamma", "tables": [["t", ["a", "b", "c", "d"], [[1, "x", 1.0, None], [1, "x", 1, None], [2, "y", 2.0, 0], [2, "y", 2.0, 0], [3, None, None, 3]]],
                                                    ["u", ["a", "b", "c", "d"], [[1, {"text_hex": "ff61"}, 1, 1], [2, "b", 2, 2], [3, {"text_hex": "62ff"}, 3, 3]]]]}
    dbs["suite"] = {"folder": "suite", "tables": [["t", ["a", "b", "c", "d"], [[1, "x", 1, 1], [2, "y", 2, 2]]], ["u", ["a", "b", "c", "d"], [[1, 1, 1, 1]]]]}
    dbs["suite_2"] = {"folder": "suite", "tables": [["t", ["a", "b", "c", "d"], [[1, "x", 1, 1], [2, "y", 1, 2], [3, "z", 3, 3]]], ["u", ["a", "b", "c", "d"], [[1, 1, 1, 1]]]]}
    return dbs


def build(dbs: dict, root: Path) -> dict[str, str]:
    """Write the databases under ``root``; name -> path (``<folder>/<name>.sqlite``)."""
    paths = {}
    for name, spec in dbs.items():
        folder = root / spec["folder"]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.sqlite"
        conn = sqlite3.connect(path)
        for table, cols, rows in spec["tables"]:
            conn.execute(f"CREATE TABLE {table} ({', '.join(cols)})")
            for row in rows:
                marks = ", ".join("CAST(? AS TEXT)" if isinstance(v, dict) else "?" for v in row)
                conn.execute(f"INSERT INTO {table} VALUES ({marks})",
                             [bytes.fromhex(v["text_hex"]) if isinstance(v, dict) else v for v in row])
        conn.commit()
        conn.close()
        paths[name] = str(path)
    return paths


AGGS = ["count(*)", "count({c})", "sum({c})", "avg({c})", "max({c})", "min({c})", "count(distinct {c})", "total({c})"]


def _query(rng: random.Random) -> str:
    t = rng.choice(["t", "u"])
    cols = rng.sample(["a", "b", "c", "d"], rng.randint(1, 4))
    kind = rng.random()
    if kind < 0.25:
        g = rng.choice(cols)
        agg = rng.choice(AGGS).format(c=rng.choice(["a", "b", "c", "d"]))
        q = f"SELECT {g}, {agg} FROM {t} GROUP BY {g}"
    elif kind < 0.35:
        q = f"SELECT {rng.choice(AGGS).format(c=rng.choice('abcd'))} FROM {t}"
    elif kind < 0.45:
        q = f"SELECT {cols[0]} FROM t UNION {rng.choice(['', 'ALL '])}SELECT {cols[0]} FROM u"
    else:
        distinct = "DISTINCT " if rng.random() < 0.2 else ""
        q = f"SELECT {distinct}{', '.join(cols)} FROM {t}"
        if rng.random() < 0.4:
            q += f" WHERE {rng.choice('abcd')} {rng.choice(['>', '<', '=', '!=', '> =', 'IS', 'IS NOT'])} {rng.choice(['1', '2', 'NULL', chr(39) + 'a' + chr(39), '1.0'])}"
    if rng.random() < 0.3 and "UNION" not in q:
        q += f" ORDER BY {rng.choice(['1', 'a', 'b', 'c', 'd'])}{rng.choice(['', ' DESC'])}"
    if rng.random() < 0.15:
        q += f" LIMIT {rng.randint(0, 3)}"
    return q


def _variant(rng: random.Random, gold: str) -> str:
    """A prediction near the gold: the same, columns swapped, a different order, a
    distinct toggled, a cast to REAL, another query."""
    r = rng.random()
    if r < 0.2:
        return gold
    if r < 0.35 and gold.startswith("SELECT ") and " FROM " in gold:
        head, _, tail = gold[7:].partition(" FROM ")
        distinct = head.startswith("DISTINCT ")
        cols = head[9:].split(", ") if distinct else head.split(", ")
        rng.shuffle(cols)
        return f"SELECT {'DISTINCT ' if distinct else ''}{', '.join(cols)} FROM {tail}"
    if r < 0.45:
        return gold.replace(" DESC", "") if " DESC" in gold else gold.replace("ORDER BY 1", "ORDER BY 1 DESC")
    if r < 0.55:
        return gold.replace("SELECT DISTINCT ", "SELECT ") if "DISTINCT" in gold else gold.replace("SELECT ", "SELECT DISTINCT ", 1)
    if r < 0.65:
        return gold.replace("SELECT a", "SELECT CAST(a AS REAL)", 1)
    if r < 0.7:
        return gold.replace("FROM", "FORM")  # a syntax error
    return _query(rng)


HANDMADE = [  # (prediction, gold, database)
    ("SELECT a FROM t", "SELECT a FROM t", "gamma"),
    ("SELECT c FROM t", "SELECT a FROM t", "gamma"),
    ("SELECT c FROM t WHERE c IS NOT NULL", "SELECT a FROM t WHERE a < 3", "gamma"),  # 1.0 vs 1: equal in Python
    ("SELECT b, a FROM t", "SELECT a, b FROM t", "gamma"),
    ("SELECT a, b FROM t ORDER BY a DESC", "SELECT a, b FROM t ORDER BY a", "gamma"),
    ("SELECT DISTINCT a FROM t", "SELECT a FROM t", "gamma"),
    ("SELECT a FROM t GROUP BY a", "SELECT a FROM t", "gamma"),
    ("SELECT b FROM u", "SELECT b FROM u", "gamma"),  # text that is not UTF-8
    ("SELECT a FROM u WHERE a = 2", "SELECT a FROM u WHERE b = 'b'", "gamma"),
    ("SELECT d FROM t", "SELECT d FROM t WHERE d IS NULL OR d >= 0", "gamma"),
    ("SELECT a FROM t WHERE a > 9", "SELECT b FROM t WHERE a > 99", "gamma"),  # both empty
    ("SELECT a, b FROM t WHERE a > 9", "SELECT a FROM t WHERE a > 99", "gamma"),
    ("SELECT a FROM t WHERE a > = 2", "SELECT a FROM t WHERE a >= 2", "gamma"),
    ("SELECT a FROM t WHERE a ! = 2", "SELECT a FROM t WHERE a <> 2", "gamma"),
    ("SELECT 2020", "SELECT YEAR(CURDATE())", "gamma"),
    ("SELECT count(DISTINCT a) FROM t", "SELECT count(a) FROM t", "gamma"),
    ("SELECT a FROM t", "SELECT a FROM t ORDER BY a", "gamma"),
    ("SELECT a FROM t ORDER BY b DESC", "SELECT a FROM t ORDER BY a DESC", "gamma"),
    ("SELECT a, b, c, d FROM t", "SELECT d, c, b, a FROM t", "gamma"),
    ("SELECT a, a, b, c FROM t", "SELECT a, b, c, a FROM t", "gamma"),
    ("SELECT a, c, b, d FROM t", "SELECT a, b, c, d FROM t", "gamma"),
    ("SELECT a, 'distinct' FROM t", "SELECT a, 'distinct' FROM t", "gamma"),
    ("SELECT nope FROM t", "SELECT a FROM t", "gamma"),
    ("SELECT a FROM t WHERE c = 1", "SELECT a FROM t WHERE c = 1", "suite"),
    ("SELECT a FROM t WHERE c = 1", "SELECT a FROM t WHERE a = 1", "suite"),  # differs on suite_2 only
    ("SELECT a FROM t WHERE a < 3", "SELECT a FROM t", "suite"),
    ("SELECT a FROM t", "SELECT a FROM t", "suite"),
    ("", "SELECT 1", "gamma"),
]


PIECES = ["distinct", "DISTINCT", "Distinct", " ", "\n", "\t", "'", '"', "`", "[", "]", "(", ")", ".", ",", "--", "# ", "#",
          "/*", "*/", "$", "$$", "$a$", "@", ":", "?", "\\", "a", "x1", "1", "2.5", "é", "_", "select", "from", "t", "''",
          '""', "e", "-", "*", "%s", "::", "distinct(", "t.distinct", "distinct$", "1e5", "0x1f", "N", "nulls first",
          "order by", "as", "case", "end", "´", "12", ".5", "in", "join", "left join", "\r"]


def main(refs: str) -> None:
    sys.path.insert(0, refs)
    import bird_evaluation
    import exec_eval
    import parse
    import sqlparse

    rng = random.Random(34)
    dbs = _databases(rng)
    cases = [list(c) for c in HANDMADE]
    for _ in range(400):
        gold = _query(rng)
        cases.append([_variant(rng, gold), gold, rng.choice(["alpha", "beta", "gamma"])])
    with tempfile.TemporaryDirectory() as tmp:
        paths = build(dbs, Path(tmp))
        out = []
        for pred, gold, db in cases:
            row = {"prediction": pred, "gold": gold, "database": db}
            for key, keep in (("spider", False), ("spider_keep_distinct", True)):
                try:
                    row[key] = exec_eval.eval_exec_match(paths[db], pred, gold, plug_value=False, keep_distinct=keep,
                                                         progress_bar_for_each_datapoint=False)
                except AssertionError:
                    row[key] = "gold_error"
                except IndexError:  # sqlparse.parse("")[0] in remove_distinct
                    row[key] = "reference_crash"
            row["bird"] = bird_evaluation.execute_model(pred, gold, paths[db], 0, 30.0)["res"]
            out.append(row)
    distinct_cases = [
        "SELECT DISTINCT a FROM t", "select distinct(a) from t", "SELECT count(DISTINCT a) FROM t", "SELECT 'distinct' FROM t",
        'SELECT "distinct" FROM t', "SELECT `distinct` FROM t", "SELECT [distinct] FROM t", "SELECT t.distinct FROM t",
        "SELECT distinctive, indistinct FROM t", "SELECT a -- distinct\nFROM t", "SELECT /* distinct */ a FROM t",
        "SELECT DiStInCt a FROM t", "SELECT distinct$ FROM t", "SELECT @distinct FROM t", "SELECT :distinct FROM t",
        "SELECT 'it''s distinct' FROM t", "SELECT a FROM t # distinct\n", "SELECT distinct\na FROM t", "SELECT\tDISTINCT\ta",
        "SELECT 1distinct", "SELECT _distinct, distinct_ FROM t", "SELECT éDISTINCT, DISTINCTé", "SELECT 'a\\'distinct' FROM t",
    ]
    for _ in range(200):
        distinct_cases.append(_query(rng).replace("SELECT ", rng.choice(["SELECT DISTINCT ", "select distinct ", "SELECT "]), 1))
    # strings of lexer-significant pieces (quotes, comments, dollar quotes, numbers, dots),
    # single statements only (several are refused, never run)
    fuzz = 0
    while fuzz < 1500:
        q = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))
        if len(sqlparse.parse(q)) == 1:
            distinct_cases.append(q)
            fuzz += 1
    remove = [[q, parse.remove_distinct(q)] for q in distinct_cases]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({
        "references": {"test-suite-sql-eval": "e97acc546ecbee8fa27fa8dbf025ef61493a876c",
                       "bird": "DAMO-ConvAI dec31ae335d7a5168ee17d5cc40c105e0da66d4e bird/llm/src/evaluation.py",
                       "sqlparse": sqlparse.__version__, "python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version},
        "databases": dbs, "cases": out, "remove_distinct": remove}, indent=1, ensure_ascii=True) + "\n")
    print(f"{len(out)} cases, {len(remove)} remove_distinct cases -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("REFS", "."))
