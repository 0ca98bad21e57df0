"""One bad-input table through every face and every entry point: the local calls, pandas,
Dask, Ray, Spark and torchmetrics answer a null, a wrong type, a missing column and an
empty input with the local path's class, naming the row of the whole dataset (not of the
block) and the column; an empty input follows the one rule (EmptyInputError for a corpus
number, an empty result for segment scores).

The dataset has 40 rows in 4 blocks of 10, the bad row is row 27 (row 7 of the third
block). The engines run a few representative metrics per family in one call each (one
Spark session, one Ray instance per module: they are slow to start)."""

from __future__ import annotations

import warnings

import pytest

from nlgmetrics import available, load
from nlgmetrics.errors import (
    EmptyInputError, InputTypeError, MissingColumnError, MissingReferenceError, NlgMetricsError,
)

warnings.filterwarnings("ignore", message=".*rougeLsum.*")

N, BLOCKS, ROW = 40, 4, 27
# one per family: n-gram precision, characters, a corpus table (two-phase), LCS, edits
METRICS = ["bleu", "chrf", "cider", "rouge", "ter"]
PAIRED = "chrf"  # paired tests refuse two-phase metrics


def good_rows() -> list[dict]:
    words = "the a cat dog sat ran on under mat tree big small".split()
    rows = []
    for i in range(N):
        hyp = " ".join(words[(i + k) % len(words)] for k in range(5 + i % 4))
        ref = " ".join(words[(i + 2 * k) % len(words)] for k in range(6))
        rows.append({"prediction": hyp, "system_b": hyp[::-1], "references": [ref, ref.upper()]})
    return rows


def _set(column, value, every=False):
    def bad(rows):
        for i, r in enumerate(rows):
            if every or i == ROW:
                r[column] = value
        return rows

    return bad


# case -> (rows, the column that is bad, the first bad row, the entry points' column option)
CASES = {
    "null prediction": (_set("prediction", None), "prediction", ROW),
    "null reference": (_set("references", None), "references", ROW),
    "null system": (_set("system_b", None), "system_b", ROW),
    "int column": (_set("prediction", 7, every=True), "prediction", 0),
}


def case_rows(case):
    return CASES[case][0](good_rows())


def local_error(case, metric_name):
    """The class the local call raises for the case's rows (system columns as predictions)."""
    rows = case_rows(case)
    column = CASES[case][1]
    preds = [r[column if column != "references" else "prediction"] for r in rows]
    try:
        load(metric_name).corpus_score(preds, [r["references"] for r in rows])
    except NlgMetricsError as e:
        return type(e), str(e)
    raise AssertionError(f"{case}: the local call scored")


def check_located(error, case, metric_names=METRICS):
    """The face's error is the local class and names the global row and the column."""
    want = {local_error(case, m)[0] for m in metric_names}
    assert len(want) == 1, want
    assert type(error) is want.pop(), (case, type(error), error)
    column, row = CASES[case][1], CASES[case][2]
    message = str(error)
    assert message.startswith(f"row {row}, column {column!r}: "), message
    assert f"[{row % 10}]" not in message or row % 10 == row, message  # never the row within its block


# -- the rule for empty input and the local table, registry-wide ----------------------------
TEXT = [e.name for e in available() if e.text]


@pytest.mark.parametrize("name", TEXT)
def test_every_metric_refuses_a_corpus_number_of_nothing(name):
    m = load(name)
    if name == "self_bleu":  # reference-free and not streaming: one corpus call
        with pytest.raises(EmptyInputError, match="nothing to score"):
            m.corpus_score([])
        return
    with pytest.raises(EmptyInputError):  # in the metric's own words where it has them ("no questions")
        m.corpus_score([], [])
    with pytest.raises(EmptyInputError):
        m.compute()
    assert list(m.sentence_scores([], [])) == []  # per segment: nothing is an empty result


@pytest.mark.parametrize("name", [n for n in TEXT if n != "self_bleu"])
@pytest.mark.parametrize("case", ["null prediction", "null reference", "int column"])
def test_every_metric_names_the_bad_row_locally(name, case):
    rows = case_rows(case)
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]
    if name in ("squad", "squad_v2", "cmrc2018") and case == "null prediction":
        pytest.skip("a null prediction is an unanswered question, as the official scripts read it")
    if name == "distinct" and case == "null reference":
        pytest.skip("reference-free: the references are not read")
    with pytest.raises(NlgMetricsError) as got:
        load(name).corpus_score(preds, refs)
    assert isinstance(got.value, (InputTypeError, MissingReferenceError)), got.value
    assert f"[{CASES[case][2]}]" in str(got.value)


# -- pandas --------------------------------------------------------------------------------
def _frame(rows):
    import pandas as pd

    return pd.DataFrame(rows, columns=["prediction", "system_b", "references"])


@pytest.mark.parametrize("case", ["null prediction", "null reference", "int column"])
def test_pandas(case):
    from nlgmetrics.integrations.pandas import corpus_frame, score_frame

    df = _frame(case_rows(case))
    for call in (score_frame, corpus_frame):
        with pytest.raises(NlgMetricsError) as got:
            call(df, metrics=METRICS)
        check_located(got.value, case)
    with pytest.raises(MissingColumnError, match="'hyp'"):
        score_frame(df, prediction="hyp", metrics=METRICS)
    empty = _frame([])
    assert len(score_frame(empty, metrics=METRICS)) == 0
    with pytest.raises(EmptyInputError):
        corpus_frame(empty, metrics=METRICS)


# -- Dask ----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["null prediction", "null reference", "int column"])
def test_dask(case):
    db = pytest.importorskip("dask.bag")
    import nlgmetrics.integrations.dask as nd

    bag = db.from_sequence(case_rows(case), npartitions=BLOCKS)
    for options in ({}, {"n_resamples": 20}):
        with pytest.raises(NlgMetricsError) as got:
            nd.score(bag, [load(m) for m in METRICS], scheduler="sync", **options)
        check_located(got.value, case)
    with pytest.raises(MissingColumnError):
        nd.score(bag, load("bleu"), prediction="hyp", scheduler="sync")
    with pytest.raises(EmptyInputError):
        nd.score(db.from_sequence([], npartitions=1), load("bleu"), scheduler="sync")


# -- torchmetrics --------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["null prediction", "null reference", "int column"])
def test_torchmetrics(case):
    pytest.importorskip("torchmetrics")
    from nlgmetrics.integrations.torchmetrics import TorchMetric

    rows = case_rows(case)
    for name in ("bleu", "chrf", "ter"):
        m = TorchMetric(name)
        with pytest.raises(local_error(case, name)[0]):
            m.update([r["prediction"] for r in rows], [r["references"] for r in rows])
        with pytest.raises(EmptyInputError):
            m.compute()


# -- Ray and Spark: every entry point --------------------------------------------------------
def _engine_calls(face, data, case):
    """(entry point, call) pairs for one engine face over one dataset."""
    metrics = [load(m) for m in METRICS]
    if case == "null system":
        return [("paired_test", lambda: face.paired_test(data, load(PAIRED), ["prediction", "system_b"], n_samples=20))]
    return [
        ("score", lambda: face.score(data, metrics)),
        ("segment_scores", lambda: face.segment_scores(data, metrics)),
        ("bootstrap", lambda: face.score(data, metrics, n_resamples=20)),
        ("paired_test", lambda: face.paired_test(data, load(PAIRED), ["prediction", "system_b"], n_samples=20)),
    ]


def _run_table(face, make):
    for case in CASES:
        data = make(case_rows(case))
        for entry, call in _engine_calls(face, data, case):
            with pytest.raises(NlgMetricsError) as got:
                call()
            check_located(got.value, case, [PAIRED] if entry == "paired_test" else METRICS)
    good = make(good_rows())
    for entry, call in (("score", lambda: face.score(good, load("bleu"), prediction="hyp")),
                        ("segment_scores", lambda: face.segment_scores(good, load("bleu"), references="refs")),
                        ("paired_test", lambda: face.paired_test(good, load("chrf"), ["prediction", "nope"], n_samples=20))):
        with pytest.raises(MissingColumnError):
            call()


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    import logging

    import ray.data

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    yield ray
    ray.shutdown()


def test_ray(ray_instance):
    import ray.data

    import nlgmetrics.integrations.ray as nr

    _run_table(nr, lambda rows: ray.data.from_items(rows, override_num_blocks=BLOCKS))
    empty = ray.data.from_items([{"prediction": "a", "system_b": "b", "references": ["a"]}]).filter(lambda r: False)
    for call in (lambda: nr.score(empty, load("bleu")), lambda: nr.score(empty, load("cider")), lambda: nr.score(empty, load("bleu"), n_resamples=5)):
        with pytest.raises(EmptyInputError):
            call()
    assert nr.segment_scores(empty, load("bleu")).count() == 0


SPARK_SCHEMA = "prediction {}, system_b string, references array<string>"


def test_spark(spark):
    import nlgmetrics.integrations.spark as ns

    def make(rows):
        kind = "long" if rows and isinstance(rows[0]["prediction"], int) else "string"
        data = [(r["prediction"], r["system_b"], r["references"]) for r in rows]
        return spark.createDataFrame(spark.sparkContext.parallelize(data, BLOCKS), SPARK_SCHEMA.format(kind))

    _run_table(ns, make)
    empty = make([])
    for call in (lambda: ns.score(empty, load("bleu")), lambda: ns.score(empty, load("cider")), lambda: ns.score(empty, load("bleu"), n_resamples=5),
                 lambda: ns.paired_test(empty, load("chrf"), ["prediction", "system_b"], n_samples=5)):
        with pytest.raises(EmptyInputError):
            call()
    assert ns.segment_scores(empty, [load("bleu"), load("cider")]).count() == 0


def test_located_messages_name_the_global_row_and_column():
    from nlgmetrics.integrations._failures import located

    got = located("references[7][0] must be a string, got int", lambda i: 20 + i, {"references": "refs"})
    assert got == "row 27, column 'refs': refs[27][0] must be a string, got int"
    assert located("the dataset is empty", lambda i: i, {}) == "the dataset is empty"


def test_merges_keep_the_first_failure_in_dataset_order():
    from nlgmetrics.integrations import _blocks
    from nlgmetrics.integrations._failures import BlockFailure

    first = BlockFailure(InputTypeError("predictions[3] must be a string, got int"), part=1, start=10, columns={"predictions": "hyp"})
    later = BlockFailure(MissingReferenceError("references[0] is missing (None)"), part=2, start=0, columns={"references": "refs"})
    ok = [(None, None)]
    assert _blocks.merge(ok, first, later) is first
    assert _blocks.merge(None, later) is later
    error = first.error(100)  # part 1 begins at row 100 of the dataset; the block at row 10 of its part
    assert type(error) is InputTypeError and str(error) == "row 113, column 'hyp': hyp[113] must be a string, got int"
