"""Dask: scores of a Bag or DataFrame on a real multi-process LocalCluster equal the local
corpus scores bit for bit, for every metric; the Poisson bootstrap equals the local one."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")

import dask.bag as db  # noqa: E402

from conftest import REPO  # noqa: E402
from wmt import by_segment, load_pair  # noqa: E402

import nlgmetrics.integrations.dask as nd  # noqa: E402
from nlgmetrics import CIDEr, InputTypeError, METEOR, available, load  # noqa: E402
from nlgmetrics.engines.significance import bootstrap_ci  # noqa: E402
from registry_cases import ONE_REF as ONE_REF_METRICS

ONE_REF = ONE_REF_METRICS
NOT_PAIRS = {"self_bleu"}
TEXT_METRICS = sorted(e.name for e in available() if e.text and e.name not in NOT_PAIRS)
N_SEG = 300


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def corpus():
    pair = load_pair("zh-en")
    hyps = next(iter(pair.systems.values()))[:N_SEG]
    return hyps, by_segment([s[:N_SEG] for s in pair.refs])


def make_metric(name: str):
    # METEOR without paraphrases: the same code path, but each worker loads its
    # resources in under a second instead of half a minute
    return METEOR(modules=["exact", "stem", "synonym"]) if name == "meteor" else load(name)


@pytest.mark.parametrize("name", TEXT_METRICS)
def test_bag_equals_local(client, corpus, name):
    hyps, refs = corpus
    if name in ONE_REF:
        refs = [r[:1] for r in refs]
    bag = db.from_sequence([{"prediction": h, "references": r} for h, r in zip(hyps, refs)], npartitions=5)
    local = make_metric(name).corpus_score(hyps, refs)
    remote = nd.score(bag, make_metric(name), split_every=2)
    assert remote.score == local.score
    if hasattr(local, "types"):  # ROUGE: P/R/F of every type, numpy's pairwise means
        assert remote.types == local.types
    assert remote.signature.format() == local.signature.format()


def test_several_metrics_partitionings_and_pairs(client, corpus):
    hyps, refs = corpus
    metrics = [load("bleu"), load("chrf"), CIDEr()]
    local = [m.corpus_score(hyps, refs).score for m in metrics]
    for npart in (1, 3, 7):
        bag = db.from_sequence(list(zip(hyps, refs)), npartitions=npart)
        assert [s.score for s in nd.score(bag, metrics)] == local


def test_dataframe(client, corpus):
    import pandas as pd
    import dask.dataframe as dd

    hyps, refs = corpus
    # dask would turn list cells into their string repr; keep them as objects
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(pd.DataFrame({"hyp": hyps, "refs": refs}), npartitions=4)
        got = nd.score(frame, [load("chrf"), CIDEr()], prediction="hyp", references="refs")
    assert [s.score for s in got] == [load("chrf").corpus_score(hyps, refs).score, CIDEr().corpus_score(hyps, refs).score]


@pytest.mark.parametrize("name", ["bleu", "ter", "cider"])
def test_poisson_bootstrap_equals_local(client, corpus, name):
    hyps, refs = corpus
    bag = db.from_sequence(list(zip(hyps, refs)), npartitions=4)
    m = load(name)
    remote = nd.score(bag, m, n_resamples=200, seed=7)
    local = bootstrap_ci(m, m.stats(hyps, refs), n_resamples=200, seed=7, resampling="poisson")
    assert remote.score.score == local.score.score
    assert (remote.scores == local.scores).all()
    assert (remote.mean, remote.lower, remote.upper) == (local.mean, local.lower, local.upper)
    assert remote.signature.format() == local.signature.format()


def test_bad_records(client):
    with pytest.raises(InputTypeError, match="bag records"):
        nd.score(db.from_sequence(["just a string"], npartitions=1), load("bleu"))
    with pytest.raises(InputTypeError, match="Bag or DataFrame"):
        nd.score([("a", ["b"])], load("bleu"))


def test_cli_scheduler_equals_local(client, corpus, tmp_path):
    hyps, refs = corpus
    (tmp_path / "hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "ref").write_text("\n".join(r[0] for r in refs) + "\n", encoding="utf-8")
    base = [sys.executable, "-m", "nlgmetrics.cli", "score", "-i", str(tmp_path / "hyp"), "-r", str(tmp_path / "ref"), "-m", "bleu", "ter", "cider", "--format", "json"]
    local = subprocess.run(base, capture_output=True, cwd=REPO, timeout=300)
    remote = subprocess.run([*base, "--scheduler", client.scheduler.address, "--chunk-size", "64"], capture_output=True, cwd=REPO, timeout=300)
    assert local.returncode == 0 and remote.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_importing_the_module_does_not_import_dask():
    code = "import sys, nlgmetrics.integrations.dask, nlgmetrics.engines.streaming, nlgmetrics.tasks.mbr; assert 'dask' not in sys.modules and 'distributed' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=60).returncode == 0
