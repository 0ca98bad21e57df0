"""Ray Data: scores of a Dataset on a local Ray instance equal the local corpus scores bit
for bit, for every registered metric (two-phase ones included), with segment scores as
columns, Poisson bootstrap and paired tests from merged statistics, and model-based
metrics on an actor pool (tiny models, CPU)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")

from conftest import REPO  # noqa: E402
from distributed_cases import (  # noqa: E402
    MODEL_TOL, MULTI_REF, ONE_REF, corpus_rows, local_scores, local_segment_scores, make_metric, model_local, model_metrics,
    model_rows,
)

import nlgmetrics.integrations.ray as nr  # noqa: E402
from nlgmetrics import InputTypeError, InvalidOptionError, load  # noqa: E402
from nlgmetrics.engines.significance import bootstrap_ci, paired_test_stats  # noqa: E402


@pytest.fixture(scope="module")
def rt():
    import ray.data

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    ctx.execution_options.preserve_order = True  # to_pandas() in dataset order, to compare columns
    import logging

    logging.getLogger("ray.data").setLevel(logging.WARNING)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def rows():
    return corpus_rows()


def dataset(rows, blocks=5):
    import ray.data

    return ray.data.from_items(rows, override_num_blocks=blocks)


def test_every_text_metric_equals_local(rt, rows):
    ds = dataset(rows)
    for names, refs_column in ((MULTI_REF, "references"), (ONE_REF, "ref1")):
        got = nr.score(ds, [make_metric(n) for n in names], references=refs_column, split_every=2)
        want = local_scores(rows, names, refs_column)
        for name, g, w in zip(names, got, want):
            assert g.score == w.score, name
            if hasattr(w, "types"):  # ROUGE: every type's P/R/F
                assert g.types == w.types
            assert g.signature.format() == w.signature.format(), name


def test_blocking_does_not_change_the_bits(rt, rows):
    names = ["bleu", "cider", "nist", "meteor", "rouge"]
    want = [s.score for s in local_scores(rows, names, "references")]
    for blocks in (1, 11):
        assert [s.score for s in nr.score(dataset(rows, blocks), [make_metric(n) for n in names])] == want


def test_segment_scores_are_columns(rt, rows):
    names = MULTI_REF
    out = nr.segment_scores(dataset(rows, 4), {n: make_metric(n) for n in names}, batch_size=37).to_pandas()
    assert list(out["prediction"]) == [r["prediction"] for r in rows]  # order and the data kept
    for name in names:
        assert np.array_equal(out[name].to_numpy(), local_segment_scores(rows, name, "references")), name
    one = nr.segment_scores(dataset(rows, 3), {n: make_metric(n) for n in ONE_REF}, references="ref1").to_pandas()
    for name in ONE_REF:
        assert np.array_equal(one[name].to_numpy(), local_segment_scores(rows, name, "ref1")), name


def test_reference_free(rt, rows):
    got = nr.score(dataset(rows), load("distinct"), references=None)
    assert got.score == load("distinct").corpus_score([r["prediction"] for r in rows]).score


@pytest.mark.parametrize("name", ["bleu", "cider"])
def test_poisson_bootstrap_equals_local(rt, rows, name):
    hyps = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    m = make_metric(name)
    got = nr.score(dataset(rows, 4), m, n_resamples=200, seed=7)
    local = bootstrap_ci(m, m.stats(hyps, refs), n_resamples=200, seed=7, resampling="poisson")
    assert got.score.score == local.score.score
    assert np.array_equal(got.scores, local.scores)
    assert (got.mean, got.lower, got.upper) == (local.mean, local.lower, local.upper)
    assert got.signature.format() == local.signature.format()


def test_paired_test_equals_local(rt, rows):
    refs = [r["references"] for r in rows]
    m = load("chrf")
    got = nr.paired_test(dataset(rows, 4), m, ["prediction", "system_b", "system_c"], n_samples=300, seed=3)
    stats = {c: m.stats([r[c] for r in rows], refs) for c in ("prediction", "system_b", "system_c")}
    want = paired_test_stats(m, ("prediction", stats["prediction"]), {"system_b": stats["system_b"], "system_c": stats["system_c"]}, n_samples=300, seed=3, resampling="poisson")
    assert [(s.name, s.score, s.p_value, s.mean, s.ci) for s in got.systems] == [(s.name, s.score, s.p_value, s.mean, s.ci) for s in want.systems]
    assert got.signature.format() == want.signature.format()


def test_model_metrics_on_an_actor_pool(rt, tmp_path_factory):
    data = model_rows()
    metrics = model_metrics(tmp_path_factory)
    ds = dataset(data, 3)  # blocks of 8 rows
    got = nr.score(ds, list(metrics.values()), sources="source", concurrency=2, num_cpus=1)
    cols = nr.segment_scores(ds, metrics, sources="source", concurrency=2, num_cpus=1, batch_size=8).to_pandas()
    for (name, m), g in zip(metrics.items(), got):
        blocked_total, blocked_scores, whole = model_local(m, name, data, 8)
        # the actors (num_cpus=1: torch would pick one thread) run the metric's n_threads,
        # as the local calls do: the same blocks give the same bits
        assert g.score == m.score_stats(blocked_total).score, name
        assert np.array_equal(cols[name].to_numpy(), blocked_scores), name
        assert abs(g.score - whole.score) <= MODEL_TOL, name  # one call: other batch shapes
        assert g.signature.format() == whole.signature.format(), name


def test_errors(rt, rows):
    with pytest.raises(InputTypeError, match="ray.data.Dataset"):
        nr.score([1, 2], load("bleu"))
    with pytest.raises(InputTypeError, match="no column"):
        nr.score(dataset(rows), load("bleu"), prediction="hyp")
    with pytest.raises(InvalidOptionError, match="split_every"):
        nr.score(dataset(rows), load("bleu"), split_every=1)
    with pytest.raises(InputTypeError, match="per-segment statistics"):
        nr.score(dataset(rows), load("self_bleu"))
    with pytest.raises(InvalidOptionError, match="baseline"):
        nr.paired_test(dataset(rows), load("bleu"), ["prediction"])


def test_importing_the_module_does_not_import_ray():
    code = "import sys, nlgmetrics.integrations.ray, nlgmetrics.integrations.spark; assert 'ray' not in sys.modules and 'pyspark' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=60).returncode == 0
