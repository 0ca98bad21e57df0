"""Text-to-SQL execution accuracy: the predicted and the gold query run on the database
(in :mod:`.sql_sandbox`) and their results are compared by one of two references' rules.

- ``spider-test-suite``: taoyds/test-suite-sql-eval (e97acc5) ``exec_eval.eval_exec_match``
  without ``plug_value``. Both queries: ``> =`` / ``< =`` / ``! =`` closed up,
  ``DISTINCT`` words removed (sqlparse tokens; ``keep_distinct=True`` keeps them),
  ``YEAR(CURDATE())`` replaced by 2020. They run on every file whose name contains
  ``.sqlite`` in the database's folder (the test suite); the prediction is correct when on
  each its result equals the gold's: the same rows in the same order when the gold
  contains ``order by``, else the same multiset of rows, in both cases up to a permutation
  of the columns (``result_eq``). Text is decoded with bad bytes dropped. A gold that fails
  is an error (the reference asserts).
- ``bird``: BIRD's ``evaluation.py`` (DAMO-ConvAI dec31ae): the prediction runs first, then
  the gold; correct when ``set(predicted_rows) == set(gold_rows)``; any error (in either,
  including text that is not UTF-8) or a time-out scores 0.

Values compare as Python compares them: ``1 == 1.0``, ``NULL`` only equals ``NULL``.

Where the references use a wall clock (BIRD's 30 s; test-suite's ``asyncio.wait_for``,
which cannot interrupt the blocking call), this uses the sandbox's deterministic
instruction budget: a query past it scores 0 and the details say so. Also unlike the
references, a prediction that is not one read-only statement (``SELECT 1; DROP TABLE t``,
``ATTACH``, ``PRAGMA``, a write) is never run: it scores 0, reported as ``denied``.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from itertools import product
from typing import Any, NamedTuple

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from .sql_sandbox import Limits, Outcome, Sandbox

FLAVOURS = ("spider-test-suite", "bird")
REFERENCES = {"spider-test-suite": "test-suite-sql-eval@e97acc5+sqlparse-0.6.1", "bird": "bird-evaluation@dec31ae"}

# -- the queries as test-suite-sql-eval rewrites them ---------------------------------------
_CUR_YEAR = re.compile(r"YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*", re.IGNORECASE)
# Which "distinct" is a token: sqlparse 0.6.1's lexer (BSD-3, python-sqlparse authors)
# decides, trying at each position, in this order, rules that give the same token
# boundaries as its own (its token types do not matter here); _WORD_RULES index the rules
# whose token may be the word itself.
_I = re.IGNORECASE | re.UNICODE
_L = "A-ZÀ-Ü"
_RULES = [re.compile(r, _I) for r in (
    r"(--|# ).*?(\r\n|\r|\n|$)",
    r"(\r\n|\r|\n)", r"\s+?", r":=", r"::", r"\*",
    r"`(``|[^`])*`", r"´(´´|[^´])*´",
    r"\?", r"%(\(\w+\))?s", r"(?<!\w)[$:?]\w+", r"\\\w+",
    r"(CASE|IN|VALUES|USING|FROM|AS)\b", r"(@|##|#)[" + _L + r"]\w+",
    r"[" + _L + r"]\w*(?=\s*\.(?!\d))", r"(?<=\.)[" + _L + r"]\w*", r"[" + _L + r"]\w*(?=\()",
    r"-?0x[\dA-F]+", r"-?\d+(\.\d+)?E-?\d+", r"(?![_" + _L + r"])-?(\d+(\.\d*)|\.\d+)(?![_" + _L + r"])",
    r"(?![_" + _L + r"])-?\d+(?![_" + _L + r"])",
    r"'(''|\\'|[^'])*'", r'"(""|\\"|[^"])*"', r'(""|".*?[^\\]")', r"(?<![\w\])])(\[[^\]\[]+\])",
    r"((LEFT\s+|RIGHT\s+|FULL\s+)?(INNER\s+|OUTER\s+|STRAIGHT\s+)?|(CROSS\s+|NATURAL\s+)?)?JOIN\b",
    r"END(\s+IF|\s+LOOP|\s+WHILE|\s+FOR|\s+CASE)?\b", r"IF\s+(NOT\s+)?EXISTS\b", r"NOT\s+NULL\b",
    r"(ASC|DESC)(\s+NULLS\s+(FIRST|LAST))?\b", r"(ASC|DESC)\b", r"NULLS\s+(FIRST|LAST)\b", r"UNION\s+ALL\b",
    r"CREATE(\s+OR\s+REPLACE)?\b", r"DOUBLE\s+PRECISION\b", r"GROUP\s+BY\b", r"ORDER\s+BY\b", r"PRIMARY\s+KEY\b",
    r"HANDLER\s+FOR\b", r"GO(\s\d+)\b", r"(LATERAL\s+VIEW\s+)(EXPLODE|INLINE|PARSE_URL_TUPLE|POSEXPLODE|STACK)\b",
    r"(AT|WITH')\s+TIME\s+ZONE\s+'[^']+'", r"(NOT\s+)?(LIKE|ILIKE|RLIKE)\b", r"(NOT\s+)?(REGEXP)(\s+(BINARY))?\b",
    r"\w[$#\w]*", r"[;:()\[\],\.]", r"(\->>?|#>>?|@>|<@|\?\|?|\?&|\-|#\-)", r"[<>=~!]+", r"[+/@#%^&|^-]+",
)]
_DOLLAR = re.compile(r"(?=(\$(?:[_" + _L + r"]\w*)?\$))", _I)
_DOLLAR_OPENS = re.compile(r'(?<![\w"$])', re.UNICODE)


def _spans(text: str) -> tuple[dict, dict]:
    """Dollar-quoted literals and /* */ comments: where each may open, and each closer's
    positions (sqlparse pairs them when the lexer reaches an opener)."""
    openers: dict[int, tuple[int, str]] = {}
    closers: dict[str, list[int]] = {}
    if "$" in text:
        for m in _DOLLAR.finditer(text):
            tag = m.group(1)
            closers.setdefault(tag, []).append(m.start())
            if _DOLLAR_OPENS.match(text, m.start()):
                openers[m.start()] = (m.start() + len(tag), tag)
    if "/*" in text:
        for m in re.finditer(r"/\*", text):
            openers[m.start()] = (m.end(), "*/")
        closers["*/"] = [m.start() for m in re.finditer(r"\*/", text)]
    return openers, closers


def _token_ends(text: str):
    """Each token's (start, end), as sqlparse's lexer cuts ``text``."""
    from bisect import bisect_left

    openers, closers = _spans(text)
    pos, n = 0, len(text)
    while pos < n:
        if pos in openers:
            after, tag = openers[pos]
            starts = closers.get(tag, [])
            i = bisect_left(starts, after)
            if i < len(starts):
                end = starts[i] + len(tag)
                yield pos, end
                pos = end
                continue
        for rule in _RULES:
            m = rule.match(text, pos)
            if m:
                yield pos, m.end()
                pos = m.end()
                break
        else:
            yield pos, pos + 1
            pos += 1


def postprocess(query: str) -> str:
    return query.replace("> =", ">=").replace("< =", "<=").replace("! =", "!=")


def remove_distinct(query: str) -> str:
    """test-suite-sql-eval's ``remove_distinct``: every sqlparse token whose text is
    ``distinct`` (any case) dropped; strings, quoted names and comments are tokens whole."""
    out, last = [], 0
    for start, end in _token_ends(query):
        if end - start == 8 and query[start:end].lower() == "distinct":
            out.append(query[last:start])
            last = end
    out.append(query[last:])
    return "".join(out)


def replace_cur_year(query: str) -> str:
    return _CUR_YEAR.sub("2020", query)


# -- result comparison ---------------------------------------------------------------------
def _unorder_row(row: tuple) -> tuple:
    return tuple(sorted(row, key=lambda x: str(x) + str(type(x))))


def _quick_rej(result1: list, result2: list, order_matters: bool) -> bool:
    s1 = [_unorder_row(row) for row in result1]
    s2 = [_unorder_row(row) for row in result2]
    return s1 == s2 if order_matters else set(s1) == set(s2)


def _permutations(tab1_sets_by_columns: list[set], result2: list) -> Any:
    """The column permutations that can map result2 onto result1. test-suite-sql-eval
    prunes with 20 random rows when there are more than 3 columns; a pruned permutation
    fails on some row, so pruning with every row leaves the same answer, without chance."""
    num_cols = len(result2[0])
    allowed = [set(range(num_cols)) for _ in range(num_cols)]
    if num_cols > 3:
        for row in result2:
            for c1 in range(num_cols):
                allowed[c1] = {c2 for c2 in allowed[c1] if row[c2] in tab1_sets_by_columns[c1]}
    return product(*allowed)


def spider_result_eq(result1: list, result2: list, order_matters: bool) -> bool:
    """test-suite-sql-eval's ``result_eq``: equal up to a column permutation, as ordered
    lists of rows when ``order_matters``, else as multisets."""
    if len(result1) == 0 and len(result2) == 0:
        return True
    if len(result1) != len(result2):
        return False
    num_cols = len(result1[0])
    if len(result2[0]) != num_cols:
        return False
    if not _quick_rej(result1, result2, order_matters):
        return False
    tab1_sets_by_columns = [{row[i] for row in result1} for i in range(num_cols)]
    counts1 = None
    for perm in _permutations(tab1_sets_by_columns, result2):
        if len(perm) != len(set(perm)):
            continue
        result2_perm = result2 if num_cols == 1 else [tuple(row[i] for i in perm) for row in result2]
        if order_matters:
            if result1 == result2_perm:
                return True
        elif set(result1) == set(result2_perm):
            counts1 = Counter(result1) if counts1 is None else counts1
            if counts1 == Counter(result2_perm):
                return True
    return False


def bird_result_eq(predicted: list, gold: list) -> bool:
    return set(predicted) == set(gold)


# -- one example ---------------------------------------------------------------------------
class QueryResult(NamedTuple):
    """One example: ``correct``; ``prediction``: ``ok`` or why it gave no result
    (``denied: ATTACH``, ``limit: instruction budget ...``, ``error: no such table: x``);
    ``gold`` likewise."""

    correct: bool
    prediction: str
    gold: str

    @property
    def status(self) -> str:
        return self.prediction.partition(":")[0]


def _test_suite(db: str) -> list[str]:
    """The databases test-suite-sql-eval runs on: the files of the database's folder whose
    name contains ``.sqlite`` (only the given file when there is none), less SQLite's own
    files beside a database (``x.sqlite-wal``, ``-shm``, ``-journal``: never databases; the
    reference would fail on them, and a pending log is refused by the sandbox instead)."""
    from .sql_sandbox import database_uri

    database_uri(db)  # an existing file, or a typed error
    folder = os.path.dirname(db)
    names = set(os.listdir(folder or "."))
    sidecar = lambda name: any(name.endswith(s) and name[: -len(s)] in names for s in _SQLITE_SIDE_FILES)  # noqa: E731
    return sorted(os.path.join(folder, name) for name in names if ".sqlite" in name and not sidecar(name)) or [db]


_SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def score_spider(sandbox: Sandbox, db: str, pred: str, gold: str, *, keep_distinct: bool = False, where: str = "query") -> QueryResult:
    pred, gold = postprocess(pred), postprocess(gold)
    if not keep_distinct:
        pred, gold = remove_distinct(pred), remove_distinct(gold)
    order_matters = "order by" in gold.lower()
    pred, gold = replace_cur_year(pred), replace_cur_year(gold)
    databases = _test_suite(db)
    for path in databases:
        g = sandbox.run(path, gold, text="ignore")
        if not g.ok:
            raise InvalidInputError(f"execution_accuracy: {where}: the gold query fails on {path}: {g.describe()}")
        p = sandbox.run(path, pred, text="ignore")
        if not p.ok:
            return QueryResult(False, p.describe(), "ok")
        if not spider_result_eq(g.rows, p.rows, order_matters):  # type: ignore[arg-type]
            return QueryResult(False, "ok", "ok")
    return QueryResult(True, "ok", "ok")


def score_bird(sandbox: Sandbox, db: str, pred: str, gold: str) -> QueryResult:
    p = sandbox.run(db, pred)
    if not p.ok:
        return QueryResult(False, p.describe(), "not run")
    g = sandbox.run(db, gold)
    if not g.ok:
        return QueryResult(False, "ok", g.describe())
    return QueryResult(bird_result_eq(p.rows, g.rows), "ok", "ok")  # type: ignore[arg-type]


# -- the registry metric -------------------------------------------------------------------
from ..base import Metric, Score  # noqa: E402

_STATUS_FIELDS = {"ok": "executed", "error": "pred_error", "denied": "pred_denied", "limit": "pred_limit",
                  "timeout": "pred_limit", "crash": "pred_limit"}


_DEFAULT = Limits()


class ExecutionAccuracy(Metric):
    """Execution accuracy of predicted SQL against gold SQL (``execution_accuracy``).

    ``update(predictions, golds, db_paths)``: one query string each, and per example the
    database's path (or pass ``databases={db_id: path}`` and give the db_id). Flavours
    ``spider-test-suite`` (default) and ``bird``; ``keep_distinct`` (spider only);
    ``max_instructions`` and the other :class:`~nlgmetrics.metrics.programs.sql_sandbox.Limits`
    bound each query. :meth:`details` gives each example's :class:`QueryResult`.
    """

    name = "execution_accuracy"
    flavours = FLAVOURS
    count_fields = ("queries", "correct", "executed", "pred_error", "pred_denied", "pred_limit", "gold_error")
    sum_fields = ()

    def __init__(self, flavour: str | None = None, *, keep_distinct: bool = False, databases: dict | None = None,
                 max_instructions: int = _DEFAULT.max_instructions, max_rows: int = _DEFAULT.max_rows,
                 memory_bytes: int = _DEFAULT.memory_bytes, wall_seconds: float = _DEFAULT.wall_seconds, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        flavour = "spider-test-suite" if flavour is None else flavour
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown execution_accuracy flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        if not isinstance(keep_distinct, bool):
            raise InvalidOptionError(f"execution_accuracy: keep_distinct must be True or False, got {keep_distinct!r}")
        if keep_distinct and flavour != "spider-test-suite":
            raise InvalidOptionError("execution_accuracy: keep_distinct is an option of the spider-test-suite flavour")
        if databases is not None and not isinstance(databases, dict):
            raise InvalidOptionError(f"execution_accuracy: databases must map db_id to a path, got {type(databases).__name__}")
        self.flavour, self.keep_distinct, self.databases = flavour, keep_distinct, databases
        self.limits = Limits(max_instructions=max_instructions, max_rows=max_rows, memory_bytes=memory_bytes,
                             wall_seconds=wall_seconds).checked()

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": self.flavour, "distinct": None if self.flavour == "bird" else "keep" if self.keep_distinct else "remove",
                "budget": self.limits.max_instructions, "rows": self.limits.max_rows, "ref": REFERENCES[self.flavour]}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "distinct": "d", "budget": "vm", "rows": "rows", "ref": "ref"}

    # -- inputs ---------------------------------------------------------------------------
    def _inputs(self, predictions: Any, golds: Any, db_paths: Any) -> tuple[list, list, list]:
        from ..._inputs import as_sequence

        if golds is None or db_paths is None:
            raise InputTypeError("execution_accuracy needs predictions, golds and db_paths (a database per example)")
        seqs = []
        for what, values in (("predictions", predictions), ("golds", golds), ("db_paths", db_paths)):
            if isinstance(values, (str, bytes, os.PathLike)) or isinstance(values, dict):
                raise InputTypeError(f"execution_accuracy: {what} must be a sequence with one entry per example")
            seqs.append(list(as_sequence(values, what)))
        preds, gs, dbs = seqs
        for what, seq in (("golds", gs), ("db_paths", dbs)):
            if len(seq) != len(preds):
                raise LengthMismatchError(f"execution_accuracy: {len(preds)} predictions but {len(seq)} {what}")
        for i, (p, g) in enumerate(zip(preds, gs)):
            for what, q in (("prediction", p), ("gold", g)):
                if not isinstance(q, str):
                    raise InputTypeError(f"execution_accuracy: example {i}: the {what} must be a SQL string, got {type(q).__name__}")
        paths = []
        for i, d in enumerate(dbs):
            if self.databases is not None and isinstance(d, str) and d in self.databases:
                d = self.databases[d]
            if not isinstance(d, (str, os.PathLike)):
                raise InputTypeError(f"execution_accuracy: example {i}: the database must be a path, got {type(d).__name__}")
            paths.append(os.fspath(d))
        return preds, gs, paths

    def details(self, predictions: Any, golds: Any = None, db_paths: Any = None, *, where: Any = None) -> list[QueryResult]:
        """Each example's :class:`QueryResult` (correct, and why a query gave no result).
        ``where``: each example's name in error messages (a gold file and line), else its index."""
        preds, gs, paths = self._inputs(predictions, golds, db_paths)
        if where is not None and (isinstance(where, (str, bytes)) or len(where) != len(preds)):
            raise InvalidOptionError("execution_accuracy: where must name each example (a sequence as long as the predictions)")
        out = []
        with Sandbox(self.limits) as sandbox:
            for i, (p, g, db) in enumerate(zip(preds, gs, paths)):
                if self.flavour == "bird":
                    out.append(score_bird(sandbox, db, p, g))
                else:
                    name = f"example {i}" if where is None else str(where[i])
                    out.append(score_spider(sandbox, db, p, g, keep_distinct=self.keep_distinct, where=name))
        return out

    def stats(self, predictions: Any, golds: Any = None, db_paths: Any = None):  # type: ignore[override]
        """Per example: ``queries`` (1), ``correct``, ``executed`` (the prediction gave a
        result), ``pred_error`` / ``pred_denied`` / ``pred_limit`` (why it gave none) and
        ``gold_error`` (bird: the gold failed)."""
        from ...stats import SegmentStats

        results = self.details(predictions, golds, db_paths)
        counts = np.zeros((len(results), len(self.count_fields)), dtype=np.uint64)
        for i, r in enumerate(results):
            counts[i, 0] = 1
            counts[i, 1] = r.correct
            counts[i, self.count_fields.index(_STATUS_FIELDS.get(r.status, "pred_error"))] = 1
            counts[i, 6] = r.prediction == "ok" and r.gold != "ok"
        return SegmentStats(self.key, self.count_fields, counts, (), np.zeros((len(results), 0)))

    def _score(self, stats) -> Score:
        c = dict(zip(self.count_fields, (int(x) for x in stats.counts)))
        if c["queries"] == 0:
            raise InvalidInputError("execution_accuracy: no queries")
        return Score(self.name, c["correct"] / c["queries"], self.signature(stats), stats, **c)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.counts[:, 1].astype(np.float64)

    # -- faces ------------------------------------------------------------------------------
    def corpus_score(self, predictions: Any, golds: Any = None, db_paths: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(predictions, golds, db_paths).total())

    def sentence_scores(self, predictions: Any, golds: Any = None, db_paths: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(predictions, golds, db_paths))

    def sentence_parts(self, predictions: Any, golds: Any = None, db_paths: Any = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(predictions, golds, db_paths)
        return {"score": self._sentence_scores(seg), "executed": seg.counts[:, 2].astype(np.float64)}

    def update(self, predictions: Any, golds: Any = None, db_paths: Any = None) -> "ExecutionAccuracy":  # type: ignore[override]
        return self._accumulate(self.stats(predictions, golds, db_paths).total())

    def add_batch(self, *, predictions: Any = None, golds: Any = None, db_paths: Any = None,  # type: ignore[override]
                  references: Any = None) -> "ExecutionAccuracy":
        return self.update(predictions, references if golds is None else golds, db_paths)

    def add(self, *, prediction: Any = None, gold: Any = None, db_path: Any = None, reference: Any = None) -> "ExecutionAccuracy":  # type: ignore[override]
        return self.update([prediction], [reference if gold is None else gold], [db_path])

    def compute(self, *, predictions: Any = None, golds: Any = None, db_paths: Any = None,  # type: ignore[override]
                references: Any = None) -> Score:
        golds = references if golds is None else golds
        if predictions is not None or golds is not None:
            self.update(predictions, golds, db_paths)
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("execution_accuracy has no pairwise form")
