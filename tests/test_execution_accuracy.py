"""execution_accuracy against the reference programs' own answers (goldens made by
scripts/goldens/execution_accuracy_goldens.py with test-suite-sql-eval's eval_exec_match and
BIRD's evaluation.py on generated databases: ties, NULLs, 1.0 vs 1, duplicates, ordering,
column permutations, empty results, text that is not UTF-8, a two-database test suite)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.errors import IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.programs.execution_accuracy import remove_distinct, spider_result_eq

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "execution_accuracy" / "goldens.json").read_text())
CASES = GOLDENS["cases"]
LIMITS = {"max_instructions": 10**7, "wall_seconds": 60}


def _build(root: Path) -> dict[str, str]:
    paths = {}
    for name, spec in GOLDENS["databases"].items():
        folder = root / spec["folder"]
        folder.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(folder / f"{name}.sqlite")
        for table, cols, rows in spec["tables"]:
            conn.execute(f"CREATE TABLE {table} ({', '.join(cols)})")
            for row in rows:
                marks = ", ".join("CAST(? AS TEXT)" if isinstance(v, dict) else "?" for v in row)
                conn.execute(f"INSERT INTO {table} VALUES ({marks})", [bytes.fromhex(v["text_hex"]) if isinstance(v, dict) else v for v in row])
        conn.commit()
        conn.close()
        paths[name] = str(folder / f"{name}.sqlite")
    return paths


@pytest.fixture(scope="module")
def databases(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("ex_dbs"))


def _expected(case, key):
    # the reference crashes on an empty prediction (sqlparse.parse("")[0]); here it is wrong
    return 0 if case[key] == "reference_crash" else case[key]


@pytest.mark.parametrize("flavour,key,options", [
    ("spider-test-suite", "spider", {}),
    ("spider-test-suite", "spider_keep_distinct", {"keep_distinct": True}),
    ("bird", "bird", {}),
])
def test_every_case_equals_the_reference(databases, flavour, key, options):
    metric = nlgmetrics.load("execution_accuracy", flavour=flavour, **options, **LIMITS)
    preds = [c["prediction"] for c in CASES]
    golds = [c["gold"] for c in CASES]
    dbs = [c["database"] for c in CASES]
    metric.databases = databases
    details = metric.details(preds, golds, dbs)
    got = [int(r.correct) for r in details]
    want = [_expected(c, key) for c in CASES]
    wrong = [(c["prediction"], c["gold"], c["database"], w, g) for c, w, g in zip(CASES, want, got) if w != g]
    assert not wrong, wrong[:5]
    score = metric.corpus_score(preds, golds, dbs)
    assert score.score == sum(want) / len(want)
    assert score["correct"] == sum(want) and score["queries"] == len(CASES)


def test_remove_distinct_equals_sqlparse():
    wrong = [(q, want, remove_distinct(q)) for q, want in GOLDENS["remove_distinct"] if remove_distinct(q) != want]
    assert not wrong, wrong[:5]


def test_the_goldens_cover_the_comparison_rules():
    by_pred: dict = {}
    for c in CASES:
        if c["database"] in ("gamma", "suite"):  # the hand-made cases
            by_pred.setdefault((c["prediction"], c["gold"]), c)
    one = by_pred[("SELECT c FROM t WHERE c IS NOT NULL", "SELECT a FROM t WHERE a < 3")]
    assert (one["spider"], one["bird"]) == (1, 1)  # 1.0 == 1
    assert by_pred[("SELECT a, b FROM t ORDER BY a DESC", "SELECT a, b FROM t ORDER BY a")]["spider"] == 0  # order
    assert by_pred[("SELECT a FROM t WHERE a > 9", "SELECT b FROM t WHERE a > 99")]["spider"] == 1  # both empty
    assert by_pred[("SELECT b, a FROM t", "SELECT a, b FROM t")]["spider"] == 1  # columns permuted
    assert by_pred[("SELECT b, a FROM t", "SELECT a, b FROM t")]["bird"] == 0  # bird compares tuples as they are
    assert by_pred[("SELECT DISTINCT a FROM t", "SELECT a FROM t")]["spider"] == 1  # distinct removed
    assert by_pred[("SELECT DISTINCT a FROM t", "SELECT a FROM t")]["spider_keep_distinct"] == 0
    assert by_pred[("SELECT DISTINCT a FROM t", "SELECT a FROM t")]["bird"] == 1  # sets
    assert by_pred[("SELECT b FROM u", "SELECT b FROM u")]["bird"] == 0  # not UTF-8: an error in BIRD
    assert by_pred[("SELECT b FROM u", "SELECT b FROM u")]["spider"] == 1
    assert by_pred[("SELECT a FROM t WHERE c = 1", "SELECT a FROM t WHERE a = 1")]["spider"] == 0  # the second database
    assert by_pred[("SELECT a FROM t WHERE c = 1", "SELECT a FROM t WHERE a = 1")]["bird"] == 1  # one database


def test_result_eq_orders_and_multisets():
    assert spider_result_eq([(1, "a"), (2, "b")], [("b", 2), ("a", 1)], order_matters=False)
    assert not spider_result_eq([(1, "a"), (2, "b")], [("b", 2), ("a", 1)], order_matters=True)
    assert spider_result_eq([(1, "a"), (2, "b")], [("a", 1), ("b", 2)], order_matters=True)
    assert not spider_result_eq([(1,), (1,), (2,)], [(1,), (2,), (2,)], order_matters=False)
    assert spider_result_eq([], [], order_matters=True)
    assert not spider_result_eq([(None,)], [], order_matters=False)
    five = [(1, 2, 3, 4, 5), (1, 2, 3, 4, 6)]
    assert spider_result_eq(five, [(5, 4, 3, 2, 1), (6, 4, 3, 2, 1)], order_matters=True)


def test_details_counts_and_merging(databases):
    gamma = databases["gamma"]
    metric = nlgmetrics.load("execution_accuracy", **LIMITS)
    preds = ["SELECT a FROM t", "SELECT nope FROM t", "ATTACH 'x' AS y", "SELECT a FROM t; DROP TABLE t"]
    golds = ["SELECT a FROM t"] * 4
    details = metric.details(preds, golds, [gamma] * 4)
    assert [r.correct for r in details] == [True, False, False, False]
    assert details[1].prediction == "error: no such column: nope"
    assert details[2].prediction.startswith("denied: ATTACH")
    assert details[3].prediction == "denied: multiple statements"
    s = metric.corpus_score(preds, golds, [gamma] * 4)
    assert (s.score, s["executed"], s["pred_error"], s["pred_denied"]) == (0.25, 1, 1, 2)
    merged = nlgmetrics.load("execution_accuracy", **LIMITS).update(preds[:2], golds[:2], [gamma] * 2)
    merged.update(preds[2:], golds[2:], [gamma] * 2)
    assert merged.compute().score == 0.25
    assert list(metric.sentence_scores(preds, golds, [gamma] * 4)) == [1.0, 0.0, 0.0, 0.0]
    assert str(s.signature).startswith("flavour:spider-test-suite|distinct:remove|budget:10000000|rows:1000000|ref:test-suite-sql-eval@e97acc5")
    other = nlgmetrics.load("execution_accuracy", max_instructions=10**6).update(preds[:1], golds[:1], [gamma])
    with pytest.raises(IncompatibleStatsError):  # a different budget is a different number
        metric.merge(other)
    bird = nlgmetrics.load("execution_accuracy", flavour="bird", **LIMITS)
    assert str(bird.signature()).startswith("flavour:bird|budget:10000000|rows:1000000|ref:bird-evaluation@dec31ae")


def test_bird_gold_failure_scores_zero_and_spider_gold_failure_is_an_error(databases):
    gamma = databases["gamma"]
    bird = nlgmetrics.load("execution_accuracy", flavour="bird", **LIMITS)
    s = bird.corpus_score(["SELECT 1"], ["SELECT nope FROM t"], [gamma])
    assert (s.score, s["gold_error"]) == (0.0, 1)
    with pytest.raises(InvalidInputError, match="gold query fails"):
        nlgmetrics.load("execution_accuracy", **LIMITS).corpus_score(["SELECT 1"], ["SELECT nope FROM t"], [gamma])


def test_bad_inputs_are_typed_errors(databases, tmp_path):
    m = nlgmetrics.load("execution_accuracy", **LIMITS)
    gamma = databases["gamma"]
    with pytest.raises(InputTypeError):
        m.corpus_score(["SELECT 1"], ["SELECT 1"])
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["SELECT 1"], ["SELECT 1", "SELECT 2"], [gamma])
    with pytest.raises(InputTypeError):
        m.corpus_score([1], ["SELECT 1"], [gamma])
    with pytest.raises(InvalidInputError, match="no database file"):
        m.corpus_score(["SELECT 1"], ["SELECT 1"], [str(tmp_path / "missing.sqlite")])
    with pytest.raises(InvalidInputError):
        m.corpus_score(["SELECT 1"], ["SELECT 1"], ["a\x00b"])
    not_a_db = tmp_path / "junk" / "junk.sqlite"
    not_a_db.parent.mkdir()
    not_a_db.write_bytes(b"not a database" * 100)
    with pytest.raises(InvalidInputError, match="not a database"):
        m.corpus_score(["SELECT 1"], ["SELECT * FROM sqlite_master"], [str(not_a_db)])
    with pytest.raises(InvalidOptionError):
        nlgmetrics.load("execution_accuracy", flavour="spider")
    with pytest.raises(InvalidOptionError):
        nlgmetrics.load("execution_accuracy", max_instructions=0)
    with pytest.raises(InvalidOptionError):
        nlgmetrics.load("execution_accuracy", flavour="bird", keep_distinct=True)
