"""Spider's hardness levels (easy / medium / hard / extra) of a gold query, as
test-suite-sql-eval's ``evaluation.py`` assigns them: ``Evaluator.eval_hardness`` over the
structure ``process_sql.get_sql(Schema(get_schema(db)), query)`` parses.

The parser here builds the same structure (clauses as lists and tuples, nested queries as
dicts) with the same rules, its quirks included, because the level depends on them:

- values in quotes are kept whole; ``'`` counts as ``"``; the rest is nltk's ``word_tokenize``
  lower-cased (the ``nltk`` extra: the English Punkt tables are never downloaded);
- a column must exist in the database (``t.col`` through an alias, or a bare name in a
  table of ``FROM``), else the query does not parse;
- ``count_others`` counts, as aggregations, a ``NOT`` condition in ``WHERE`` and each
  condition and ``AND`` / ``OR`` in ``HAVING`` (it reads their first field), as the reference does.

A query the reference's parser rejects (it raises, and ``evaluation.py`` stops) raises
:class:`SqlParseError` here. tests/test_sql_hardness.py checks every level and every
rejection against the reference's own code on Spider's gold queries and generated ones.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

from ...errors import InvalidInputError

LEVELS = ("easy", "medium", "hard", "extra")

CLAUSES = ("select", "from", "where", "group", "order", "limit", "intersect", "union", "except")
JOINS = ("join", "on", "as")
WHERE_OPS = ("not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists")
UNIT_OPS = ("none", "-", "+", "*", "/")
AGG_OPS = ("none", "max", "min", "count", "sum", "avg")
SET_OPS = ("intersect", "union", "except")
ORDER_DIRECTIONS = ("desc", "asc")
LIKE, BETWEEN = WHERE_OPS.index("like"), WHERE_OPS.index("between")


class SqlParseError(InvalidInputError):
    """The query is outside what the Spider parser reads (the reference raises on it)."""


class _Rejected(Exception):
    """One of the parser's checks failed (the reference's ``assert``)."""


def _need(ok: Any) -> None:
    if not ok:
        raise _Rejected


# -- schema --------------------------------------------------------------------------------
def read_schema(db_path: Any) -> dict[str, list[str]]:
    """``{table: [column, ...]}`` lower-cased, in ``sqlite_master``'s and ``table_info``'s
    order, as ``process_sql.get_schema``; the file is opened read-only and immutable."""
    import sqlite3

    from .sql_sandbox import database_uri

    conn = sqlite3.connect(database_uri(db_path), uri=True)
    try:
        names = [str(row[0]).lower() for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        quoted = lambda name: '"' + name.replace('"', '""') + '"'  # noqa: E731
        return {name: [str(col[1]).lower() for col in conn.execute(f"PRAGMA table_info({quoted(name)})")] for name in names}
    except sqlite3.Error as e:
        raise InvalidInputError(f"sql: cannot read the schema of {db_path}: {e}") from None
    finally:
        conn.close()


class _Schema:
    """The tables' columns and the names a query may point at (``Schema.idMap``'s keys)."""

    def __init__(self, tables: dict[str, list[str]]):
        self.tables = tables
        self.names = {"*"}
        for table, columns in tables.items():
            self.names.update(f"{table.lower()}.{c.lower()}" for c in columns)
        self.names.update(t.lower() for t in tables)

    def check(self, key: str) -> str:
        _need(key in self.names)
        return key


# -- tokens ----------------------------------------------------------------------------------
def tokenize(query: str) -> list[str]:
    """``process_sql.tokenize``: quoted values kept whole, nltk's words lower-cased, and
    ``!`` / ``>`` / ``<`` joined to a following ``=``."""
    from ..nltk_word_tokenize import word_tokenizer

    text = str(query).replace("'", '"')
    quotes = [i for i, c in enumerate(text) if c == '"']
    _need(len(quotes) % 2 == 0)
    values = {}
    for k in range(len(quotes) - 1, -1, -2):  # from the end, so earlier offsets hold
        start, end = quotes[k - 1], quotes[k]
        key = f"__val_{start}_{end}__"
        values[key] = text[start:end + 1]
        text = text[:start] + key + text[end + 1:]
    toks = [values.get(w, w) for w in (w.lower() for w in word_tokenizer()(text))]
    for at in reversed([i for i, t in enumerate(toks) if t == "="]):
        before = toks[at - 1]  # at 0 this is the last token, as in the reference
        if before in ("!", ">", "<"):
            toks = toks[:at - 1] + [before + "="] + toks[at + 1:]
    return toks


# -- the parser ------------------------------------------------------------------------------
class _Parser:
    """``process_sql``'s recursive descent; each method returns (next index, structure)."""

    def __init__(self, schema: _Schema, toks: list[str]):
        self.schema = schema
        self.aliases: dict[str, str] = {}
        for i, t in enumerate(toks):
            if t == "as":
                self.aliases[toks[i + 1]] = toks[i - 1]
        for table in schema.tables:
            _need(table not in self.aliases)
            self.aliases[table] = table

    def column(self, toks: list[str], i: int, tables: list | None) -> tuple[int, str]:
        tok = toks[i]
        if tok == "*":
            return i + 1, self.schema.check(tok)
        if "." in tok:
            alias, col = tok.split(".")
            return i + 1, self.schema.check(self.aliases[alias] + "." + col)
        _need(tables)
        for alias in tables:
            table = self.aliases[alias]
            if tok in self.schema.tables[table]:
                return i + 1, self.schema.check(table + "." + tok)
        raise _Rejected

    def col_unit(self, toks: list[str], i: int, tables: list | None) -> tuple[int, tuple]:
        n, block, distinct = len(toks), toks[i] == "(", False
        i += block
        if toks[i] in AGG_OPS:
            agg = AGG_OPS.index(toks[i])
            i += 1
            _need(i < n and toks[i] == "(")
            i += 1
            if toks[i] == "distinct":
                i, distinct = i + 1, True
            i, col = self.column(toks, i, tables)
            _need(i < n and toks[i] == ")")
            return i + 1, (agg, col, distinct)  # an opening '(' before the aggregate stays open
        if toks[i] == "distinct":
            i, distinct = i + 1, True
        i, col = self.column(toks, i, tables)
        if block:
            _need(toks[i] == ")")
            i += 1
        return i, (0, col, distinct)

    def val_unit(self, toks: list[str], i: int, tables: list | None) -> tuple[int, tuple]:
        block = toks[i] == "("
        i += block
        op, second = 0, None
        i, first = self.col_unit(toks, i, tables)
        if i < len(toks) and toks[i] in UNIT_OPS:
            op = UNIT_OPS.index(toks[i])
            i, second = self.col_unit(toks, i + 1, tables)
        if block:
            _need(toks[i] == ")")
            i += 1
        return i, (op, first, second)

    def value(self, toks: list[str], i: int, tables: list | None) -> tuple[int, Any]:
        start, n = i, len(toks)
        block = toks[i] == "("
        i += block
        if toks[i] == "select":
            i, val = self.query(toks, i)
        elif '"' in toks[i]:
            i, val = i + 1, toks[i]
        else:
            try:
                i, val = i + 1, float(toks[i])
            except ValueError:
                end = i
                while end < n and toks[end] not in (",", ")", "and") and toks[end] not in CLAUSES and toks[end] not in JOINS:
                    end += 1
                _, val = self.col_unit(toks[start:end], 0, tables)  # from the '(' if there was one
                i = end
        if block:
            _need(toks[i] == ")")
            i += 1
        return i, val

    def condition(self, toks: list[str], i: int, tables: list | None) -> tuple[int, list]:
        n, conds = len(toks), []
        while i < n:
            i, unit = self.val_unit(toks, i, tables)
            negated = toks[i] == "not"
            i += negated
            _need(i < n and toks[i] in WHERE_OPS)
            op = WHERE_OPS.index(toks[i])
            i, second = i + 1, None
            i, first = self.value(toks, i, tables)
            if op == BETWEEN:
                _need(toks[i] == "and")
                i, second = self.value(toks, i + 1, tables)
            conds.append((negated, op, unit, first, second))
            if i < n and (toks[i] in CLAUSES or toks[i] in (")", ";") or toks[i] in JOINS):
                break
            if i < n and toks[i] in ("and", "or"):
                conds.append(toks[i])
                i += 1
        return i, conds

    def select(self, toks: list[str], i: int, tables: list) -> tuple[bool, list]:
        n = len(toks)
        _need(toks[i] == "select")
        i += 1
        distinct = i < n and toks[i] == "distinct"
        i += distinct
        units = []
        while i < n and toks[i] not in CLAUSES:
            agg = 0
            if toks[i] in AGG_OPS:
                agg, i = AGG_OPS.index(toks[i]), i + 1
            i, unit = self.val_unit(toks, i, tables)
            units.append((agg, unit))
            if i < n and toks[i] == ",":
                i += 1
        return distinct, units

    def from_clause(self, toks: list[str], start: int) -> tuple[int, list, list, list]:
        _need("from" in toks[start:])
        n, i = len(toks), toks.index("from", start) + 1
        tables: list[str] = []
        units: list[tuple] = []
        conds: list = []
        while i < n:
            block = toks[i] == "("
            i += block
            if toks[i] == "select":
                i, sub = self.query(toks, i)
                units.append(("sql", sub))
            else:
                if i < n and toks[i] == "join":
                    i += 1
                key = self.aliases[toks[i]]
                i += 3 if i + 1 < n and toks[i + 1] == "as" else 1
                units.append(("table_unit", self.schema.check(key)))
                tables.append(key)
            if i < n and toks[i] == "on":
                i, more = self.condition(toks, i + 1, tables)
                if conds:
                    conds.append("and")
                conds.extend(more)
            if block:
                _need(toks[i] == ")")
                i += 1
            if i < n and (toks[i] in CLAUSES or toks[i] in (")", ";")):
                break
        return i, units, conds, tables

    def units_list(self, toks: list[str], i: int, tables: list, parse: Any, directions: bool) -> tuple[int, list, str]:
        """GROUP BY's column units or ORDER BY's value units (and its last direction)."""
        i += 1
        _need(toks[i] == "by")
        i, n, units, direction = i + 1, len(toks), [], "asc"
        while i < n and not (toks[i] in CLAUSES or toks[i] in (")", ";")):
            i, unit = parse(toks, i, tables)
            units.append(unit)
            if directions and i < n and toks[i] in ORDER_DIRECTIONS:
                direction, i = toks[i], i + 1
            if not (i < n and toks[i] == ","):
                break
            i += 1
        return i, units, direction

    def query(self, toks: list[str], start: int) -> tuple[int, dict]:
        n, i = len(toks), start
        block = toks[i] == "("
        i += block
        i, units, conds, tables = self.from_clause(toks, start)
        sql: dict[str, Any] = {"from": {"table_units": units, "conds": conds}}
        sql["select"] = self.select(toks, start + block, tables)
        sql["where"], sql["groupBy"], sql["having"], sql["orderBy"], sql["limit"] = [], [], [], [], None
        if i < n and toks[i] == "where":
            i, sql["where"] = self.condition(toks, i + 1, tables)
        if i < n and toks[i] == "group":
            i, sql["groupBy"], _ = self.units_list(toks, i, tables, self.col_unit, False)
        if i < n and toks[i] == "having":
            i, sql["having"] = self.condition(toks, i + 1, tables)
        if i < n and toks[i] == "order":
            i, units, direction = self.units_list(toks, i, tables, self.val_unit, True)
            sql["orderBy"] = (direction, units)
        if i < n and toks[i] == "limit":
            i += 2
            toks[i - 1]  # noqa: B018  the reference reads the number's place (an IndexError when it is missing)
            sql["limit"] = 1  # the number itself is never kept (the reference's type check is always false)
        while i < n and toks[i] == ";":
            i += 1
        if block:
            _need(toks[i] == ")")
            i += 1
        while i < n and toks[i] == ";":
            i += 1
        for op in SET_OPS:
            sql[op] = None
        if i < n and toks[i] in SET_OPS:
            op = toks[i]
            i, sql[op] = self.query(toks, i + 1)
        return i, sql


def parse(query: str, schema: dict[str, list[str]]) -> dict:
    """``process_sql.get_sql``'s structure of ``query`` over ``schema`` (``{table: [column]}``,
    lower-cased as :func:`read_schema` gives it); :class:`SqlParseError` where it raises."""
    if not isinstance(query, str):
        raise SqlParseError(f"sql: a query must be a str, got {type(query).__name__}")
    try:
        toks = tokenize(query)
        return _Parser(_Schema(schema), toks).query(toks, 0)[1]
    except (_Rejected, IndexError, KeyError, ValueError, RecursionError) as e:
        raise SqlParseError(f"the Spider parser cannot read this query ({type(e).__name__} in process_sql's rules)") from None


# -- counting ----------------------------------------------------------------------------------
def _aggregates(units: list) -> int:
    return sum(1 for u in units if u[0] != 0)  # the reference's has_agg: the first field is not 0


def _component1(sql: dict) -> int:
    count = sum(1 for part in (sql["where"], sql["groupBy"], sql["orderBy"]) if part) + (sql["limit"] is not None)
    count += max(len(sql["from"]["table_units"]) - 1, 0)
    links = sql["from"]["conds"][1::2] + sql["where"][1::2] + sql["having"][1::2]
    units = sql["from"]["conds"][::2] + sql["where"][::2] + sql["having"][::2]
    return count + links.count("or") + sum(1 for u in units if u[1] == LIKE)


def _nested(sql: dict) -> int:
    units = sql["from"]["conds"][::2] + sql["where"][::2] + sql["having"][::2]
    count = sum((type(u[3]) is dict) + (type(u[4]) is dict) for u in units)
    return count + sum(sql[op] is not None for op in SET_OPS)


def _others(sql: dict) -> int:
    aggs = _aggregates(sql["select"][1]) + _aggregates(sql["where"][::2]) + _aggregates(sql["groupBy"])
    if sql["orderBy"]:
        units = sql["orderBy"][1]
        aggs += _aggregates([u[1] for u in units if u[1]] + [u[2] for u in units if u[2]])
    aggs += _aggregates(sql["having"])  # conditions and their 'and' / 'or' alike
    return (aggs > 1) + (len(sql["select"][1]) > 1) + (len(sql["where"]) > 1) + (len(sql["groupBy"]) > 1)


def hardness_of(sql: dict) -> str:
    """``Evaluator.eval_hardness`` of a parsed query."""
    c1, c2, others = _component1(sql), _nested(sql), _others(sql)
    if c1 <= 1 and others == 0 and c2 == 0:
        return "easy"
    if (others <= 2 and c1 <= 1 and c2 == 0) or (c1 <= 2 and others < 2 and c2 == 0):
        return "medium"
    if (others > 2 and c1 <= 2 and c2 == 0) or (2 < c1 <= 3 and others <= 2 and c2 == 0) or (c1 <= 1 and others == 0 and c2 <= 1):
        return "hard"
    return "extra"


def hardness(query: str, schema: dict[str, list[str]]) -> str:
    """The level of ``query`` over ``schema``: ``easy``, ``medium``, ``hard`` or ``extra``."""
    return hardness_of(parse(query, schema))
