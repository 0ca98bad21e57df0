"""``nlgmetrics sql``: text-to-SQL execution accuracy of a predictions file against a gold file,
in the habits of the two reference programs.

    nlgmetrics sql --gold dev_gold.sql --pred pred.txt --db database/              # Spider test suite
    nlgmetrics sql --flavour bird --gold dev.sql --pred predict_dev.json --db dev_databases/ --diff-json dev.json

Files:

- gold: one query a line, ``SQL<TAB>db_id`` (test-suite-sql-eval's ``--gold``, BIRD's
  ``dev.sql`` / ``dev_gold.sql``); blank lines are skipped;
- predictions: one query a line (test-suite-sql-eval's ``--pred``; what follows a tab is
  ignored, as there), or BIRD's JSON object ``{"0": "SQL\\t----- bird -----\\tdb_id", ...}``
  in its keys' order (an entry that is not a string is a missing prediction, scored 0);
- each database at ``DB/<db_id>/<db_id>.sqlite`` (its folder is the test suite).

With ``spider-test-suite``, as test-suite-sql-eval's ``evaluation.py``, the word ``value`` in
a line-file prediction becomes ``1`` (its placeholder for values a model did not predict). Prints the reference's
table: test-suite's ``count`` / ``EXECUTION ACCURACY`` rows (columns easy / medium / hard /
extra / all, the gold queries' levels by its ``eval_hardness``: metrics.programs.sql_hardness;
``unparsed`` too when its parser cannot read a gold query), BIRD's
``simple / moderate / challenging / total`` rows (the levels from ``--diff-json``'s
``difficulty`` fields, else ``total`` alone). Queries the sandbox refused or stopped are
counted and named after the table. ``-f json`` gives the scores, the refusals, the
signature and, with ``--per-item``, each item's verdict.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

HELP = "text-to-SQL execution accuracy (Spider test-suite, BIRD) of a predictions file, run in the SQL sandbox"

BIRD_SEPARATOR = "\t----- bird -----\t"
BIRD_LEVELS = ("simple", "moderate", "challenging")
SPIDER_LEVELS = ("easy", "medium", "hard", "extra")  # evaluation.py's levels (sql_hardness.LEVELS)
UNPARSED = "unparsed"  # a gold query the Spider parser cannot read (evaluation.py stops on it)
REFUSED = ("denied", "limit", "timeout", "crash")  # sandbox verdicts (execution_accuracy.QueryResult.status)


def add_parser(sub: Any) -> None:
    c = sub.add_parser("sql", help=HELP)
    c.add_argument("--gold", required=True, metavar="GOLD_FILE", help="gold queries, one a line: SQL<TAB>db_id")
    c.add_argument("--pred", required=True, metavar="PRED_FILE", help="predicted queries: one a line, or BIRD's predict_dev.json")
    c.add_argument("--db", required=True, metavar="DB_DIR", help="the folder holding <db_id>/<db_id>.sqlite (and a test suite's variants beside it)")
    c.add_argument("--table", default=None, metavar="TABLES_JSON", help="tables.json (accepted as test-suite-sql-eval's; execution does not read it)")
    c.add_argument("--flavour", "--flavor", dest="flavour", choices=["spider-test-suite", "bird"], default="spider-test-suite",
                   help="the comparison rules: spider-test-suite (default) or bird")
    c.add_argument("--etype", choices=["exec", "match", "all"], default="exec", help="exec (execution accuracy; the only one here)")
    c.add_argument("--plug-value", "--plug_value", dest="plug_value", action="store_true", help="test-suite-sql-eval's gold-value plugging (not available)")
    c.add_argument("--keep-distinct", "--keep_distinct", dest="keep_distinct", action="store_true", help="spider-test-suite: keep DISTINCT")
    c.add_argument("--progress-bar-for-each-datapoint", "--progress_bar_for_each_datapoint", dest="progress_bar", action="store_true",
                   help="accepted for test-suite-sql-eval's command lines; prints nothing")
    c.add_argument("--diff-json", "--diff_json_path", dest="diff_json", default=None, metavar="DEV_JSON",
                   help="bird: the dev json whose 'difficulty' fields give the simple / moderate / challenging columns")
    c.add_argument("--max-instructions", dest="sql_max_instructions", type=int, default=None, metavar="N",
                   help="SQLite VM instructions each query may run (the sandbox's deterministic budget; default 2000000000)")
    c.add_argument("--per-item", dest="per_item", action="store_true", help="each item's verdict too")
    c.add_argument("-f", "--format", choices=["text", "json"], default="text", help="text: the reference's table (default); json: scores, refusals, signature")


# -- reading the files --------------------------------------------------------------------
class Item:
    __slots__ = ("gold_line", "gold", "db_id", "pred", "pred_where")

    def __init__(self, gold_line: int, gold: str, db_id: str):
        self.gold_line, self.gold, self.db_id = gold_line, gold, db_id
        self.pred: str | None = None
        self.pred_where = ""


def _data_error(message: str) -> Exception:
    from ..errors import InvalidInputError

    return InvalidInputError(message)


def read_gold(path: str) -> list[Item]:
    from ..io.text import read_lines

    items = []
    for lineno, line in enumerate(read_lines(path), 1):
        text = line.strip()
        if not text:
            continue
        fields = text.split("\t")
        if len(fields) != 2 or not fields[1].strip():
            raise _data_error(f"{path}:{lineno}: expected SQL<TAB>db_id, got {len(fields)} tab-separated field(s)")
        items.append(Item(lineno, fields[0], fields[1].strip()))
    if not items:
        raise _data_error(f"{path}: no gold queries")
    return items


def read_predictions(path: str, items: list[Item], gold_path: str, placeholder: bool) -> bool:
    """Fill each item's prediction; True when the file is BIRD's JSON (its first character
    that is not blank is ``{``). ``placeholder``: the word ``value`` becomes ``1``, as
    test-suite-sql-eval's ``evaluation.py`` does to each prediction it reads."""
    from ..io.text import read_lines

    lines = read_lines(path)
    first = next((line.lstrip() for line in lines if line.strip()), "")
    if first.startswith("{"):
        _read_bird_json(path, "\n".join(lines), items, gold_path)
        return True
    preds = [(n, line.strip().split("\t")[0]) for n, line in enumerate(lines, 1) if line.strip()]
    _same_count(path, len(preds), items, gold_path, "predictions")
    for item, (lineno, sql) in zip(items, preds):
        item.pred, item.pred_where = sql.replace("value", "1") if placeholder else sql, f"{path}:{lineno}"
    return False


def _same_count(path: str, n: int, items: list[Item], gold_path: str, what: str) -> None:
    if n < len(items):
        raise _data_error(f"{path}: {n} {what} but {gold_path} has {len(items)} queries (its line {items[n].gold_line} has no prediction)")
    if n > len(items):
        raise _data_error(f"{path}: {n} {what} but {gold_path} has {len(items)} queries (prediction {len(items) + 1} has no gold)")


def _read_bird_json(path: str, text: str, items: list[Item], gold_path: str) -> None:
    from ..io.text import parse_json

    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise _data_error(f"{path}: expected BIRD's object {{\"0\": \"SQL\\t----- bird -----\\tdb_id\", ...}}")
    _same_count(path, len(data), items, gold_path, "predictions")
    for item, (key, value) in zip(items, data.items()):
        item.pred_where = f"{path}: key {key!r}"
        if not isinstance(value, str):
            continue  # BIRD runs a blank query for it: scored 0
        parts = value.split(BIRD_SEPARATOR)
        if len(parts) != 2:
            raise _data_error(f"{path}: key {key!r}: expected SQL\\t----- bird -----\\tdb_id")
        sql, db_id = parts
        if db_id.strip() != item.db_id:
            raise _data_error(f"{path}: key {key!r}: database {db_id.strip()!r}, but {gold_path}:{item.gold_line} has {item.db_id!r}")
        item.pred = sql


def database_paths(db_root: str, items: list[Item], gold_path: str) -> list[str]:
    import os

    if not os.path.isdir(db_root):
        raise _data_error(f"--db {db_root}: not a folder")
    paths = []
    for item in items:
        if item.db_id in (".", "..") or any(c in item.db_id for c in "/\\\0"):
            raise _data_error(f"{gold_path}:{item.gold_line}: db_id {item.db_id!r} is not a folder name")
        path = os.path.join(db_root, item.db_id, item.db_id + ".sqlite")
        if not os.path.isfile(path):
            raise _data_error(f"{gold_path}:{item.gold_line}: no database {path}")
        paths.append(path)
    return paths


def read_difficulties(path: str, n: int) -> list[str]:
    from ..io.text import parse_json, read_lines

    data = parse_json("\n".join(read_lines(path)), path)
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise _data_error(f"{path}: expected BIRD's dev json, a list of objects with 'difficulty'")
    if len(data) != n:
        raise _data_error(f"{path}: {len(data)} entries but {n} gold queries")
    return [str(d.get("difficulty", "")) for d in data]


# -- scoring and printing -----------------------------------------------------------------
def _check_usage(args: argparse.Namespace) -> None:
    from .guard import UsageError

    if args.etype != "exec":
        raise UsageError(f"--etype {args.etype}: only execution accuracy (exec) is computed here; exact set match is not")
    if args.plug_value:
        raise UsageError("--plug-value is not available: give predictions with their values")
    if args.keep_distinct and args.flavour != "spider-test-suite":
        raise UsageError("--keep-distinct is an option of the spider-test-suite flavour")
    if args.diff_json is not None and args.flavour != "bird":
        raise UsageError("--diff-json is an option of the bird flavour (test-suite's levels come from its own hardness rules)")


def run(args: argparse.Namespace, out, err) -> int:
    _check_usage(args)
    items = read_gold(args.gold)
    read_predictions(args.pred, items, args.gold, placeholder=args.flavour == "spider-test-suite")
    paths = database_paths(args.db, items, args.gold)
    difficulties = read_difficulties(args.diff_json, len(items)) if args.diff_json is not None else None
    if args.flavour == "spider-test-suite":
        from ..errors import MissingExtraError

        try:
            difficulties = spider_hardness(items, paths)
        except MissingExtraError as e:  # the levels need nltk's tokenizer; the accuracy does not
            difficulties = None
            err.write(f"nlgmetrics: note: no hardness levels, only the all column: {e}\n")

    from ..metrics.programs.execution_accuracy import ExecutionAccuracy, QueryResult

    options: dict[str, Any] = {"keep_distinct": args.keep_distinct} if args.flavour == "spider-test-suite" else {}
    if args.sql_max_instructions is not None:
        options["max_instructions"] = args.sql_max_instructions
    metric = ExecutionAccuracy(args.flavour, **options)
    given = [i for i, item in enumerate(items) if item.pred is not None]
    ran = metric.details([items[i].pred for i in given], [items[i].gold for i in given], [paths[i] for i in given],
                         where=[f"{args.gold}:{items[i].gold_line}" for i in given])
    results = [QueryResult(False, "missing: no prediction", "not run")] * len(items)
    for i, r in zip(given, ran):
        results[i] = r
    levels = _levels(args.flavour, results, difficulties)
    refused = [{"item": i + 1, "where": items[i].pred_where, "reason": r.prediction} for i, r in enumerate(results) if r.status in REFUSED]
    unparsed = [{"item": i + 1, "where": f"{args.gold}:{item.gold_line}"} for i, item in enumerate(items)
                if difficulties is not None and difficulties[i] == UNPARSED]
    # bird: a gold that fails (or that the sandbox refuses) scores 0, as evaluation.py scores
    # it; named here so that no item loses its point in silence
    gold_failed = [{"item": i + 1, "where": f"{args.gold}:{items[i].gold_line}", "reason": r.gold}
                   for i, r in enumerate(results) if r.gold not in ("ok", "not run")]
    if args.format == "json":
        from .jsonout import json_text

        doc: dict[str, Any] = {"flavour": args.flavour, "execution_accuracy": levels[-1][2], "count": len(items),
                               "correct": sum(r.correct for r in results),
                               "levels": {name: {"count": n, "accuracy": acc} for name, n, acc in levels},
                               "refused": {"count": len(refused), "items": refused}}
        if args.flavour == "spider-test-suite":
            doc["unparsed"] = {"count": len(unparsed), "items": unparsed}
        else:
            doc["gold_failed"] = {"count": len(gold_failed), "items": gold_failed}
        if args.per_item:
            doc["items"] = [_verdict(i, item, r, difficulties, "difficulty" if args.flavour == "bird" else "hardness") for i, (item, r) in enumerate(zip(items, results))]
        doc["signature"] = metric.signature().format()
        out.write(json_text(doc, indent=2) + "\n")
        return 0
    lines = []
    if args.per_item:
        lines.extend(f"{i + 1}\t{int(r.correct)}\t{item.db_id}\t{r.prediction}" for i, (item, r) in enumerate(zip(items, results)))
    lines.extend(_bird_table(levels) if args.flavour == "bird" else _spider_table(levels))
    if unparsed:
        lines.append(f"gold queries the Spider parser cannot read (level {UNPARSED}): {len(unparsed)} ({', '.join(u['where'] for u in unparsed)})")
    if refused:
        lines.append(f"refused by the sandbox: {len(refused)} (items {', '.join(str(r['item']) for r in refused)})")
    if gold_failed:
        named = ", ".join(f"{g['where']}: {g['reason']}" for g in gold_failed)
        lines.append(f"gold queries that failed, their items scored 0 as BIRD's evaluation.py scores them: {len(gold_failed)} ({named})")
    out.write("\n".join(lines) + "\n")
    return 0


def spider_hardness(items: list[Item], paths: list[str]) -> list[str]:
    """Each gold query's Spider hardness (test-suite-sql-eval's ``eval_hardness``) over its
    database's schema; ``unparsed`` where the Spider parser cannot read the query (the
    reference stops there; here it is counted apart and named, and ``all`` still holds it)."""
    from ..metrics.programs.sql_hardness import SqlParseError, hardness, read_schema

    schemas: dict[str, dict] = {}
    levels = []
    for item, path in zip(items, paths):
        schema = schemas.get(path)
        if schema is None:
            schema = schemas[path] = read_schema(path)
        try:
            levels.append(hardness(item.gold, schema))
        except SqlParseError:
            levels.append(UNPARSED)
    return levels


def _verdict(i: int, item: Item, r: Any, difficulties: list[str] | None, key: str) -> dict[str, Any]:
    v: dict[str, Any] = {"item": i + 1, "gold_line": item.gold_line, "db_id": item.db_id, "correct": r.correct,
                         "prediction": r.prediction, "gold": r.gold}
    if difficulties is not None:
        v[key] = difficulties[i]
    return v


def _levels(flavour: str, results: list, difficulties: list[str] | None) -> list[tuple[str, int, float | None]]:
    """(level, count, accuracy as a fraction; None where the level is empty), the overall last."""
    out: list[tuple[str, int, float | None]] = []
    if difficulties is not None:
        names = BIRD_LEVELS if flavour == "bird" else (*SPIDER_LEVELS, UNPARSED)
        for level in names:
            hits = [r.correct for r, d in zip(results, difficulties) if d == level]
            out.append((level, len(hits), sum(hits) / len(hits) if hits else None))
    n = len(results)
    out.append(("total" if flavour == "bird" else "all", n, sum(r.correct for r in results) / n))
    return out


def _spider_table(levels: list) -> list[str]:
    """evaluation.py's print_scores for etype exec (one session: no turn rows); an empty
    level shows 0.000 as there. The unparsed column only when a gold query is unparsed."""
    levels = [lv for lv in levels if lv[0] != UNPARSED or lv[1]]
    names, counts, accs = zip(*((name, n, 0.0 if acc is None else acc) for name, n, acc in levels))
    row = lambda name, values, fmt: ("{:20} " + " ".join([fmt] * len(values))).format(name, *values)  # noqa: E731
    return [row("", names, "{:20}"), row("count", counts, "{:<20d}"),
            "=====================   EXECUTION ACCURACY     =====================",
            row("execution", accs, "{:<20.3f}")]


def _bird_table(levels: list) -> list[str]:
    """BIRD's print_data: accuracies in percent, two decimals; an empty level shows '-'."""
    names, counts, accs = zip(*levels)
    cells = ["-" if a is None else f"{a * 100:.2f}" for a in accs]
    return [("{:20} " + " ".join(["{:20}"] * len(names))).format("", *names),
            ("{:20} " + " ".join(["{:<20}"] * len(names))).format("count", *counts),
            "======================================    ACCURACY    =====================================",
            ("{:20} " + " ".join(["{:<20}"] * len(names))).format("accuracy", *cells),
            "==========================================================================================="]
