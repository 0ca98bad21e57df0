"""Spark: scores of a DataFrame on ``local[2]`` equal the local corpus scores bit for bit,
for every registered metric (two-phase ones included), with segment scores as columns,
Poisson bootstrap and paired tests from merged statistics, and model-based metrics kept
once per Python worker (tiny models, CPU)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspark")

from distributed_cases import (  # noqa: E402
    MODEL_TOL, MULTI_REF, ONE_REF, corpus_rows, local_scores, local_segment_scores, make_metric, model_local, model_metrics,
    model_rows,
)

import nlgmetrics.integrations.spark as ns  # noqa: E402
from nlgmetrics import InputTypeError, InvalidOptionError, load  # noqa: E402
from nlgmetrics.engines.significance import bootstrap_ci, paired_test_stats  # noqa: E402

SCHEMA = "prediction string, system_b string, system_c string, references array<string>, ref1 string"


@pytest.fixture(scope="module")
def rows():
    return corpus_rows()


def _parted(spark, data, parts):
    # contiguous slices, in order: partition k holds rows [k*n/parts, (k+1)*n/parts)
    rdd = spark.sparkContext.parallelize(data, parts)
    return spark.createDataFrame(rdd, SCHEMA)


def test_every_text_metric_equals_local(spark, rows):
    df = _df(spark, rows, 5)
    for names, refs_column in ((MULTI_REF, "references"), (ONE_REF, "ref1")):
        got = ns.score(df, [make_metric(n) for n in names], references=refs_column, split_every=2)
        want = local_scores(rows, names, refs_column)
        for name, g, w in zip(names, got, want):
            assert g.score == w.score, name
            if hasattr(w, "types"):
                assert g.types == w.types
            assert g.signature.format() == w.signature.format(), name


def _df(spark, rows, parts):
    return _parted(spark, [tuple(r[c] for c in ("prediction", "system_b", "system_c", "references", "ref1")) for r in rows], parts)


def test_partitioning_does_not_change_the_bits(spark, rows):
    names = ["bleu", "cider", "nist", "meteor", "rouge"]
    want = [s.score for s in local_scores(rows, names, "references")]
    for parts in (1, 7):
        assert [s.score for s in ns.score(_df(spark, rows, parts), [make_metric(n) for n in names], split_every=2)] == want


def test_segment_scores_are_columns(spark, rows):
    out = ns.segment_scores(_df(spark, rows, 4), {n: make_metric(n) for n in MULTI_REF}).toPandas()
    assert list(out["prediction"]) == [r["prediction"] for r in rows]
    for name in MULTI_REF:
        assert np.array_equal(out[name].to_numpy(), local_segment_scores(rows, name, "references")), name
    one = ns.segment_scores(_df(spark, rows, 3), {n: make_metric(n) for n in ONE_REF}, references="ref1").toPandas()
    for name in ONE_REF:
        assert np.array_equal(one[name].to_numpy(), local_segment_scores(rows, name, "ref1")), name


def test_reference_free(spark, rows):
    got = ns.score(_df(spark, rows, 3), load("distinct"), references=None)
    assert got.score == load("distinct").corpus_score([r["prediction"] for r in rows]).score


@pytest.mark.parametrize("name", ["bleu", "cider"])
def test_poisson_bootstrap_equals_local(spark, rows, name):
    hyps = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    m = make_metric(name)
    got = ns.score(_df(spark, rows, 4), m, n_resamples=200, seed=7)
    local = bootstrap_ci(m, m.stats(hyps, refs), n_resamples=200, seed=7, resampling="poisson")
    assert got.score.score == local.score.score
    assert np.array_equal(got.scores, local.scores)
    assert (got.mean, got.lower, got.upper) == (local.mean, local.lower, local.upper)
    assert got.signature.format() == local.signature.format()


def test_paired_test_equals_local(spark, rows):
    refs = [r["references"] for r in rows]
    m = load("chrf")
    got = ns.paired_test(_df(spark, rows, 4), m, ["prediction", "system_b", "system_c"], n_samples=300, seed=3)
    stats = {c: m.stats([r[c] for r in rows], refs) for c in ("prediction", "system_b", "system_c")}
    want = paired_test_stats(m, ("prediction", stats["prediction"]), {"system_b": stats["system_b"], "system_c": stats["system_c"]}, n_samples=300, seed=3, resampling="poisson")
    assert [(s.name, s.score, s.p_value, s.mean, s.ci) for s in got.systems] == [(s.name, s.score, s.p_value, s.mean, s.ci) for s in want.systems]


def test_model_metrics_once_per_worker(spark, tmp_path_factory):
    data = model_rows()
    metrics = model_metrics(tmp_path_factory)
    df = spark.createDataFrame(spark.sparkContext.parallelize([(r["prediction"], r["references"], r["source"]) for r in data], 3), "prediction string, references string, source string")
    got = ns.score(df, list(metrics.values()), sources="source")
    cols = ns.segment_scores(df, metrics, sources="source").toPandas()
    for (name, m), g in zip(metrics.items(), got):
        blocked_total, blocked_scores, whole = model_local(m, name, data, 8)
        # each Python worker runs the metric's n_threads, as the local calls do: partitions
        # of 8 rows score to the bits of local calls on the same 8 rows
        assert g.score == m.score_stats(blocked_total).score, name
        assert np.array_equal(cols[name].to_numpy(), blocked_scores), name
        assert abs(g.score - whole.score) <= MODEL_TOL, name  # one call: other batch shapes
        assert g.signature.format() == whole.signature.format(), name


def test_metrics_load_once_per_python_worker(spark, rows):
    """Many partitions, few worker processes: each process unpickles a call's metrics (and
    so loads a model) once, however many partitions and batches it scores."""
    import os

    df = _df(spark, rows, 8).repartition(8)
    ns.score(df, [load("bleu"), make_metric("meteor")])
    ns.segment_scores(df, [load("chrf")]).count()

    def report(frames):
        import json

        import pandas as pd

        from nlgmetrics.integrations import spark as module

        for _ in frames:
            pass
        yield pd.DataFrame({"pid": [os.getpid()], "loads": [json.dumps(module._LOADS)]})

    import json

    seen = [(r["pid"], json.loads(r["loads"])) for r in df.mapInPandas(report, "pid long, loads string").collect()]
    assert len(seen) == 8
    assert len({pid for pid, _ in seen}) <= 2  # local[2]: the Python workers are reused
    for _, loads in seen:
        assert loads and set(loads.values()) == {1}


def test_errors(spark, rows):
    with pytest.raises(InputTypeError, match="pyspark.sql.DataFrame"):
        ns.score([1, 2], load("bleu"))
    with pytest.raises(InvalidOptionError, match="split_every"):
        ns.score(_df(spark, rows, 2), load("bleu"), split_every=1)
    with pytest.raises(InputTypeError, match="per-segment statistics"):
        ns.score(_df(spark, rows, 2), load("self_bleu"))
    with pytest.raises(InvalidOptionError, match="new and distinct"):
        ns.segment_scores(_df(spark, rows, 2), {"prediction": load("bleu")})


def _wide_rows(n, seed=5):
    """Rows of random words: CIDEr-D's and NIST's corpus tables grow with the vocabulary."""
    import random

    rng = random.Random(seed)

    def line():
        return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(12))

    return [(line(), [line()]) for _ in range(n)]


def test_corpus_tables_larger_than_the_direct_result_limit(spark):
    """CIDEr-D's and NIST's tables of 1,500 rows pickle to several MiB, over Spark's
    direct task-result limit (1 MiB): they merge on the executors and the merged one comes
    back through the block manager, to the local bits."""
    import pickle

    from nlgmetrics.integrations import _blocks

    data = _wide_rows(1500)
    hyps, refs = [h for h, _ in data], [r for _, r in data]
    frame = __import__("pandas").DataFrame({"prediction": hyps, "references": refs})
    tables = _blocks.block_tables(frame, [(load("cider"), "prediction"), (load("nist"), "prediction")], "references", None)
    assert len(pickle.dumps(tables, protocol=5)) > 2 * 1024 * 1024
    df = spark.createDataFrame(spark.sparkContext.parallelize(data, 2), "prediction string, references array<string>")
    got = ns.score(df, [load("cider"), load("nist")], split_every=2)
    assert [g.score for g in got] == [load("cider").corpus_score(hyps, refs).score, load("nist").corpus_score(hyps, refs).score]


def test_a_result_over_max_result_size_is_a_resource_limit_error():
    from nlgmetrics import ResourceLimitError

    class Refused:
        def collect(self):  # what py4j raises when the driver refuses a result
            raise RuntimeError("Job aborted: Total size of serialized results of 1 tasks (5.0 MiB) is bigger than spark.driver.maxResultSize (1024.0 KiB)")

    with pytest.raises(ResourceLimitError, match=r"spark\.driver\.maxResultSize"):
        ns._collect(Refused())


def test_workers_run_the_drivers_interpreter_on_a_local_master(spark, monkeypatch):
    import sys

    sc = spark.sparkContext
    before = sc.pythonExec
    try:
        monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
        sc.pythonExec = "python3"
        ns._worker_python(sc)
        assert sc.pythonExec == sys.executable
        monkeypatch.setenv("PYSPARK_PYTHON", "/opt/chosen/python")
        sc.pythonExec = "/opt/chosen/python"
        ns._worker_python(sc)
        assert sc.pythonExec == "/opt/chosen/python"  # the user's choice is kept
    finally:
        sc.pythonExec = before
