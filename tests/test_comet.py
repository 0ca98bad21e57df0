"""COMET against unbabel-comet's own predict on tiny checkpoints of its architectures.

tests/goldens/comet/ holds checkpoints built with unbabel-comet's classes (random weights,
a SentencePiece XLM-R tokenizer trained on WMT22 text, 64 positions so long WMT sentences
are truncated) and unbabel-comet 2.2.7's ``predict(..., gpus=0)`` scores on WMT22 zh-en
(3 systems x 200 segments) and on edge cases; scripts/goldens/comet_goldens.py rebuilds
them in an isolated environment. Float32 torch on both sides, batches grouped differently:
the bound is tests/neural_goldens.py's COMET_FLOAT32 x max(1, |score|), a few float32 ulps
(measured: 1.07e-6 at a score of 1.18 on one CPU other than the goldens', 1.3e-6 on an
AMD EPYC; torch's kernels differ per CPU).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from conftest import CORPORA, REPO, read_lines
from neural_goldens import COMET_FLOAT32
from neural_goldens import assert_golden as assert_within

import nlgmetrics
from nlgmetrics import COMET, load
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, MissingReferenceError
from nlgmetrics.neural import comet as comet_module

torch.set_num_threads(1)  # the suite shares few cores
TOL = COMET_FLOAT32
GOLD = REPO / "tests" / "goldens" / "comet"
GOLDENS = json.loads((GOLD / "goldens.json").read_text(encoding="utf-8"))
ENCODER = GOLD / "xlmr-tiny"
MODELS = list(GOLDENS["models"])
REFERENCE_FREE = {"kiwi-mt-src", "qe-patch-default"}


def wmt():
    d = CORPORA / "wmt22" / GOLDENS["pair"]
    n = GOLDENS["segments"]
    src = read_lines(d / "generaltest2022.zh-en.src.zh")[:n]
    ref = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:n]
    systems = {s: read_lines(d / "system-outputs" / f"generaltest2022.zh-en.hyp.{s}.en")[:n] for s in GOLDENS["systems"]}
    return src, ref, systems


def metric(name: str, **options) -> COMET:
    return COMET(GOLD / name, encoder=ENCODER, **options)


def assert_golden(got, want) -> None:
    """Within COMET_FLOAT32 x max(1, |score|) of unbabel-comet (== with NLGMETRICS_EXACT_GOLDENS=1)."""
    assert_within(got, want, COMET_FLOAT32, what="unbabel-comet")


def refs_for(name: str, refs):
    return None if name in REFERENCE_FREE else refs


@pytest.mark.parametrize("name", MODELS)
def test_parity_with_unbabel_comet(name):
    src, ref, systems = wmt()
    m = metric(name)
    gold = GOLDENS["models"][name]
    for system, hyps in systems.items():
        scores = m.sentence_scores(hyps, refs_for(name, ref), sources=src)
        assert_golden(scores, gold[system]["scores"])
        assert_golden(m.corpus_score(hyps, refs_for(name, ref), sources=src).score, gold[system]["system_score"])
    edge = GOLDENS["edge"]
    scores = m.sentence_scores([e["mt"] for e in edge], refs_for(name, [e["ref"] for e in edge]), sources=[e["src"] for e in edge])
    assert_golden(scores, gold["edge"]["scores"])
    # every system at once, each distinct text encoded once: the same numbers
    together = metric(name, cache_size=0).score_systems(src, refs_for(name, ref), systems)
    for system in systems:
        assert_golden(together[system].score, gold[system]["system_score"])


@pytest.mark.parametrize("name", MODELS)
def test_special_token_strings_in_every_slot(name):
    """``<s>``, ``</s>``, ``<pad>``, ``<unk>`` as text in the source, the translation and the
    reference, against unbabel-comet (its concat_sequences drops pad ids of every piece)."""
    rows = GOLDENS["special"]
    assert {slot for slot in ("src", "mt", "ref") for r in rows if "<pad>" in r[slot]} == {"src", "mt", "ref"}
    m = metric(name)
    got = m.sentence_scores([r["mt"] for r in rows], refs_for(name, [r["ref"] for r in rows]), sources=[r["src"] for r in rows])
    assert_golden(got, GOLDENS["models"][name]["special"]["scores"])
    # one row at a time: the same numbers
    for i in (2, 8, 20):
        one = m.sentence_scores([rows[i]["mt"]], refs_for(name, [rows[i]["ref"]]), sources=[rows[i]["src"]])
        assert_golden(one, GOLDENS["models"][name]["special"]["scores"][i : i + 1])


def test_token_outside_the_embeddings_is_a_typed_error():
    """xlmr-tiny's tokenizer puts ``<mask>`` past the embedding table (unbabel-comet: IndexError)."""
    for name in ("da-sparsemax-avg", "kiwi-mt-src"):
        with pytest.raises(InvalidInputError, match="<mask>.*outside the encoder's"):
            metric(name).sentence_scores(["a <mask> b"], refs_for(name, ["a b"]), sources=["x"])


def test_goldens_exercise_truncation():
    """Long WMT segments and the edge cases are cut as unbabel-comet cuts them."""
    src, ref, systems = wmt()
    net = metric("da-sparsemax-avg").network
    limit = net.max_positions - 2
    lengths = [len(ids) for ids in net.tokenize(src + ref)]
    assert max(lengths) == limit and sum(n == limit for n in lengths) >= 5
    long_edge = GOLDENS["edge"][2]
    mt, s = net.tokenize([long_edge["mt"], long_edge["src"]])
    assert len(mt) == len(s) == limit and mt[0] == net.tokenizer.cls_token_id and mt[-1] == net.tokenizer.sep_token_id
    joint = net.concat([mt, s])
    assert len(joint) == net.max_positions and joint[-1] != net.tokenizer.sep_token_id  # cut without a closing </s>
    short = net.concat(net.tokenize(["a b", "c"]))
    assert short[0] == net.tokenizer.cls_token_id and short.count(net.tokenizer.sep_token_id) == 3


@pytest.mark.parametrize("name", ["da-sparsemax-avg", "kiwi-mt-src", "unified-mt-src-ref"])
def test_batching_order_and_cache_invariance(name):
    src, ref, systems = wmt()
    hyps = systems["Online-B"][:60]
    src, ref = src[:60], ref[:60]
    base = metric(name, batch_size=16).sentence_scores(hyps, refs_for(name, ref), sources=src)
    for options in ({"batch_size": 1}, {"batch_size": 64}, {"cache_size": 0}):
        got = metric(name, **options).sentence_scores(hyps, refs_for(name, ref), sources=src)
        np.testing.assert_allclose(got, base, rtol=0, atol=TOL)
    order = np.random.default_rng(0).permutation(60)
    shuffled = metric(name).sentence_scores([hyps[i] for i in order], refs_for(name, [ref[i] for i in order]), sources=[src[i] for i in order])
    np.testing.assert_allclose(shuffled, base[order], rtol=0, atol=TOL)
    # statistics merge: two halves add up to the whole
    m = metric(name)
    a = m.stats(hyps[:25], refs_for(name, ref[:25]), sources=src[:25]).total()
    b = m.stats(hyps[25:], refs_for(name, ref[25:]), sources=src[25:]).total()
    assert abs(m.score_stats(a + b).score - base.mean()) <= TOL


def test_sources_and_references_are_encoded_once_across_systems(monkeypatch):
    src, ref, systems = wmt()
    m = metric("da-sparsemax-avg")
    net = m.network
    encoded: list[str] = []
    original = net.tokenize

    def counting(texts):
        encoded.extend(texts)
        return original(texts)

    monkeypatch.setattr(net, "tokenize", counting)
    m.score_systems(src, ref, systems)
    distinct = set(src) | set(ref) | {h for hyps in systems.values() for h in hyps}
    assert len(encoded) == len(set(encoded)) == len(distinct)
    # one system at a time (the CLI, paired tests): the cache keeps sources and references
    encoded.clear()
    m2 = metric("da-sparsemax-avg")
    monkeypatch.setattr(m2.network, "tokenize", counting)
    for hyps in systems.values():
        m2.corpus_score(hyps, ref, sources=src)
    assert len(encoded) == len(distinct)


def test_pairwise_for_mbr():
    src, ref, systems = wmt()
    cands = [systems[s][3] for s in systems] + [ref[3]]
    for name in ("da-sparsemax-avg", "unified-mt-src-ref"):
        m = metric(name)
        matrix = m.pairwise(cands, cands, sources=src[3])
        assert matrix.shape == (4, 4)
        for i, c in enumerate(cands):
            row = m.sentence_scores([c] * 4, cands, sources=[src[3]] * 4)
            np.testing.assert_allclose(matrix[i], row, rtol=0, atol=TOL)
    bound = metric("da-sparsemax-avg", sources=src[3])
    np.testing.assert_allclose(bound.pairwise(cands, cands), metric("da-sparsemax-avg").pairwise(cands, cands, sources=src[3]), atol=TOL)
    from nlgmetrics.tasks.mbr import select

    chosen = select(cands, metric=bound)
    assert 0 <= chosen.index < 4


def test_significance_compare_and_signature_with_bound_sources():
    src, ref, systems = wmt()
    m = metric("da-sparsemax-avg", sources=src)
    base, *others = list(systems)
    result = nlgmetrics.paired_test(m, ref, (base, systems[base]), {o: systems[o] for o in others}, n_samples=200)
    gold = GOLDENS["models"]["da-sparsemax-avg"]
    assert abs(result.baseline.score - gold[base]["system_score"]) <= TOL
    ci = nlgmetrics.bootstrap_ci(m, m.stats(systems[base], ref), n_resamples=200)
    assert ci.lower < ci.score.score < ci.upper and abs(ci.score.score - gold[base]["system_score"]) <= TOL
    sig = m.corpus_score(systems[base], ref).signature.format()
    assert sig.startswith("nrefs:1|model:da-sparsemax-avg@") and "batch:16" in sig and "dtype:float32" in sig
    # a subset of the bound test set finds its sources through its references
    aligned = metric("da-sparsemax-avg", sources=src, source_references=ref)
    np.testing.assert_allclose(aligned.sentence_scores(systems[base][5:9], ref[5:9]), gold[base]["scores"][5:9], atol=TOL)
    assert load("comet", model=str(GOLD / "da-sparsemax-avg"), encoder=str(ENCODER)).name == "comet"


def _hf_cache(root: Path, repo: str, files: dict[str, Path]) -> None:
    snap = root / ("models--" + repo.replace("/", "--")) / "snapshots" / "0123456789abcdef"
    for rel, source in files.items():
        (snap / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, snap / rel)
    (root / ("models--" + repo.replace("/", "--")) / "refs").mkdir(parents=True, exist_ok=True)
    (root / ("models--" + repo.replace("/", "--")) / "refs" / "main").write_text("0123456789abcdef")


def test_checkpoint_layouts_load_offline(tmp_path, monkeypatch):
    """A Hugging Face cache laid out as comet.download_model leaves it, with sockets blocked."""
    import huggingface_hub.constants

    def refuse(*args, **kwargs):
        raise OSError("network access in a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    model = GOLD / "kiwi-mt-src"
    _hf_cache(tmp_path / "hub", "Unbabel/tiny-cometkiwi", {"hparams.yaml": model / "hparams.yaml", "checkpoints/model.ckpt": model / "checkpoints" / "model.ckpt"})
    _hf_cache(tmp_path / "hub", "xlmr-tiny", {f.name: f for f in ENCODER.iterdir()})
    src, _, systems = wmt()
    hyps = systems["NiuTrans"][:20]
    want = GOLDENS["models"]["kiwi-mt-src"]["NiuTrans"]["scores"][:20]
    comet_module._load.cache_clear()
    by_name = COMET("Unbabel/tiny-cometkiwi")  # encoder found by pretrained_model in the cache
    np.testing.assert_allclose(by_name.sentence_scores(hyps, sources=src[:20]), want, atol=TOL)
    # the checkpoint file itself, and a directory that also holds the encoder files
    by_file = COMET(model / "checkpoints" / "model.ckpt", encoder=ENCODER)
    np.testing.assert_allclose(by_file.sentence_scores(hyps, sources=src[:20]), want, atol=TOL)
    together = tmp_path / "together"
    shutil.copytree(model, together)
    for f in ENCODER.iterdir():
        shutil.copy(f, together / f.name)
    np.testing.assert_allclose(COMET(together).sentence_scores(hyps, sources=src[:20]), want, atol=TOL)
    comet_module._load.cache_clear()


def test_errors(tmp_path):
    src, ref, systems = wmt()
    hyps = systems["Online-B"][:3]
    with pytest.raises(InvalidOptionError, match="not a local directory"):
        COMET(tmp_path / "absent").corpus_score(hyps, ref[:3], sources=src[:3])
    no_ckpt = tmp_path / "no-ckpt"
    no_ckpt.mkdir()
    shutil.copy(GOLD / "da-sparsemax-avg" / "hparams.yaml", no_ckpt)
    with pytest.raises(InvalidOptionError, match="no checkpoint: .*model.ckpt' is missing"):
        COMET(no_ckpt, encoder=ENCODER).corpus_score(hyps, ref[:3], sources=src[:3])
    no_hparams = tmp_path / "no-hparams"
    shutil.copytree(GOLD / "da-sparsemax-avg" / "checkpoints", no_hparams / "checkpoints")
    with pytest.raises(InvalidOptionError, match="hparams.yaml"):
        COMET(no_hparams, encoder=ENCODER).corpus_score(hyps, ref[:3], sources=src[:3])
    no_tokenizer = tmp_path / "no-tokenizer"
    no_tokenizer.mkdir()
    shutil.copy(ENCODER / "config.json", no_tokenizer)
    with pytest.raises(InvalidOptionError, match="tokenizer"):
        COMET(GOLD / "da-sparsemax-avg", encoder=no_tokenizer).corpus_score(hyps, ref[:3], sources=src[:3])
    with pytest.raises(InvalidOptionError, match="cannot find the config.json and tokenizer.*xlmr-tiny"):
        COMET(GOLD / "da-sparsemax-avg").corpus_score(hyps, ref[:3], sources=src[:3])
    unknown = tmp_path / "xcomet"
    shutil.copytree(GOLD / "da-sparsemax-avg", unknown)
    text = (unknown / "hparams.yaml").read_text().replace("class_identifier: regression_metric", "class_identifier: xcomet_metric")
    (unknown / "hparams.yaml").write_text(text)
    with pytest.raises(InvalidOptionError, match="xcomet_metric.*not supported"):
        COMET(unknown, encoder=ENCODER).corpus_score(hyps, ref[:3], sources=src[:3])
    garbage = tmp_path / "garbage"
    shutil.copytree(GOLD / "da-sparsemax-avg", garbage)
    (garbage / "checkpoints" / "model.ckpt").write_bytes(b"not a checkpoint")
    with pytest.raises(InvalidOptionError, match="cannot read the COMET checkpoint"):
        COMET(garbage, encoder=ENCODER).corpus_score(hyps, ref[:3], sources=src[:3])
    m = metric("da-sparsemax-avg")
    with pytest.raises(InvalidInputError, match="needs the sources"):
        m.corpus_score(hyps, ref[:3])
    with pytest.raises(MissingReferenceError):
        m.corpus_score(hyps, None, sources=src[:3])
    with pytest.raises(LengthMismatchError):
        m.corpus_score(hyps, ref[:3], sources=src[:2])
    with pytest.raises(InvalidInputError, match="one reference per segment"):
        m.corpus_score(hyps, [[r, r] for r in ref[:3]], sources=src[:3])
    with pytest.raises(InputTypeError):
        m.corpus_score([1, 2, 3], ref[:3], sources=src[:3])
    with pytest.raises(InvalidOptionError):
        COMET(GOLD / "da-sparsemax-avg", batch_size=0)
    with pytest.raises(LengthMismatchError):
        metric("da-sparsemax-avg", sources=src[:10]).corpus_score(hyps, ref[:3])


def test_cli_json(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    src, ref, systems = wmt()
    files = {}
    for name, lines in (("src", src), ("ref", ref), *systems.items()):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    sys_names = list(systems)[:2]
    argv = ["score", "-m", "comet", "--comet-model", str(GOLD / "da-sparsemax-avg"), "--comet-encoder", str(ENCODER),
            "--source", str(files["src"]), "-r", str(files["ref"]), "-i", *[str(files[s]) for s in sys_names], "-f", "json"]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)
    for row, name in zip(rows, sys_names):
        assert abs(row["score"] - GOLDENS["models"]["da-sparsemax-avg"][name]["system_score"]) <= TOL
        assert row["signature"].startswith("nrefs:1|model:da-sparsemax-avg@") and row["system"] == str(files[name])
    # sentence level: the signature probe scores a one-segment subset, aligned through -r
    assert main(argv[:-2] + ["-sl", "-f", "json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert abs(lines[7]["score"] - GOLDENS["models"]["da-sparsemax-avg"][sys_names[0]]["scores"][7]) <= TOL
    # compare: paired bootstrap over the bound sources, no COMET-specific code in it
    compare = ["compare", *argv[1:-2], "--paired-bs", "--paired-bs-n", "100", "-f", "json"]
    assert main(compare) == 0
    rows = json.loads(capsys.readouterr().out)
    for row, name in zip(rows, sys_names):
        assert abs(row["comet"]["score"] - GOLDENS["models"]["da-sparsemax-avg"][name]["system_score"]) <= TOL
    assert rows[0]["comet"]["p_value"] is None and 0 < rows[1]["comet"]["p_value"] <= 1
    assert main(argv[:3] + argv[5:]) == 2
    assert "--comet-model" in capsys.readouterr().err
    assert main([a for a in argv if a not in ("--source", str(files["src"]))]) == 1
    err = capsys.readouterr().err
    assert "needs the sources" in err and err.count("\n") == 1


def test_import_stays_cheap():
    code = "import sys, nlgmetrics; nlgmetrics.COMET; import nlgmetrics.cli.main; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


class AttributeDict(dict):
    """Stands for PyTorch Lightning 1.x's AttributeDict, which older checkpoints pickle."""


class _RunsCode:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


@pytest.mark.parametrize("module", ["pytorch_lightning.utilities.parsing", "lightning_fabric.utilities.data"])
def test_checkpoint_pickles_build_only_tensors_containers_and_lightning_classes(tmp_path, monkeypatch, module):
    """Lightning's AttributeDict (not installed here) is read as a dict; any other global
    (a payload among the callbacks) is refused, naming the file and the global."""
    import types

    src, ref, systems = wmt()
    parts = module.split(".")
    for i in range(1, len(parts) + 1):
        monkeypatch.setitem(sys.modules, ".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
    monkeypatch.setattr(AttributeDict, "__module__", module)
    sys.modules[module].AttributeDict = AttributeDict
    model = tmp_path / "old-lightning"
    shutil.copytree(GOLD / "da-softmax-norm-max", model)
    data = torch.load(model / "checkpoints" / "model.ckpt", weights_only=False)
    data["hyper_parameters"] = AttributeDict(data["hyper_parameters"])
    torch.save(data, model / "checkpoints" / "model.ckpt")
    hyps = systems["HuaweiTSC"][:10]
    got = COMET(model, encoder=ENCODER).sentence_scores(hyps, ref[:10], sources=src[:10])
    np.testing.assert_allclose(got, GOLDENS["models"]["da-softmax-norm-max"]["HuaweiTSC"]["scores"][:10], atol=TOL)
    marker = tmp_path / "code-ran"
    data["callbacks"] = {"x": _RunsCode(marker)}
    torch.save(data, model / "checkpoints" / "model.ckpt")
    with pytest.raises(InvalidOptionError, match=r"model\.ckpt.*(getattr|touch), which is not allowed"):
        COMET(model, encoder=ENCODER).sentence_scores(hyps, ref[:10], sources=src[:10])
    assert not marker.exists()


def test_dask_partitions_find_their_sources_through_the_references():
    db = pytest.importorskip("dask.bag")
    from nlgmetrics.integrations.dask import score as dask_score

    src, ref, systems = wmt()
    hyps = systems["Online-B"]
    m = metric("da-sparsemax-avg", sources=src, source_references=ref)
    bag = db.from_sequence([{"prediction": h, "references": [r]} for h, r in zip(hyps, ref)], npartitions=4)
    got = dask_score(bag, m, scheduler="synchronous")
    assert abs(got.score - GOLDENS["models"]["da-sparsemax-avg"]["Online-B"]["system_score"]) <= TOL
    assert got.segments == len(hyps)


def test_cache_keeps_what_every_system_shares(monkeypatch):
    """A cache smaller than all the texts still keeps the sources and references."""
    src, ref, systems = wmt()
    m = metric("da-sparsemax-avg", cache_size=3 * len(src) + 50)  # one system more than the test set, less than all
    net = m.network
    encoded: list[str] = []
    original = net.tokenize
    monkeypatch.setattr(net, "tokenize", lambda texts: encoded.extend(texts) or original(texts))
    shared = set(src) | set(ref)
    for i, hyps in enumerate([*systems.values(), *systems.values()]):
        encoded.clear()
        m.corpus_score(hyps, ref, sources=src)
        if i:
            assert not set(encoded) & shared  # only this system's new translations


def test_reference_free_model_aligns_bound_sources_through_given_references():
    src, ref, systems = wmt()
    kiwi = metric("kiwi-mt-src", sources=src, source_references=ref)
    hyps = systems["NiuTrans"]
    got = kiwi.sentence_scores(hyps[10:14], ref[10:14])
    np.testing.assert_allclose(got, GOLDENS["models"]["kiwi-mt-src"]["NiuTrans"]["scores"][10:14], atol=TOL)
    with pytest.raises(LengthMismatchError):
        kiwi.sentence_scores(hyps[10:14])


@pytest.mark.parametrize("name", ["da-softmax-norm-max", "kiwi-mt-src"])
def test_other_dtypes_run(name):
    """float64 runs the same network (parity is float32's; here agreement to float32's noise)."""
    src, ref, systems = wmt()
    hyps = systems["HuaweiTSC"][:30]
    got = metric(name, dtype="float64").sentence_scores(hyps, refs_for(name, ref[:30]), sources=src[:30])
    np.testing.assert_allclose(got, GOLDENS["models"][name]["HuaweiTSC"]["scores"][:30], atol=1e-5)
    assert "dtype:float64" in metric(name, dtype="float64").signature().format()


def test_update_from_many_threads_keeps_every_batch():
    """update goes through the shared state path (the object's lock): 8 threads x 50 updates."""
    import threading

    src, ref, systems = wmt()
    hyps = systems["Online-B"]
    m = metric("da-sparsemax-avg")
    barrier = threading.Barrier(8)

    def work(k):
        barrier.wait()
        for j in range(50):
            i = (k * 50 + j) % 40
            m.update([hyps[i]], [ref[i]], sources=[src[i]])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert m.state.n_segments == 400
    want = np.mean([GOLDENS["models"]["da-sparsemax-avg"]["Online-B"]["scores"][(k * 50 + j) % 40] for k in range(8) for j in range(50)])
    assert abs(m.compute().score - want) <= TOL


def test_no_metric_writes_its_state_outside_the_shared_path():
    """Only Metric._accumulate (metrics/base.py) grows a metric's state."""
    import re

    root = REPO / "python" / "nlgmetrics"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py") if p.name != "base.py" or p.parent.name != "metrics"
                 if re.search(r"self\._state\s*(\+)?=(?!=)", p.read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.parametrize("name", ["da-sparsemax-avg", "qe-patch-default", "kiwi-mt-src"])
def test_scores_do_not_depend_on_what_the_object_scored_before(name):
    src, ref, systems = wmt()
    hyps = systems["HuaweiTSC"]
    fresh = metric(name).sentence_scores(hyps[:20], refs_for(name, ref[:20]), sources=src[:20])
    m = metric(name)
    m.sentence_scores(hyps[7:70], refs_for(name, ref[7:70]), sources=src[7:70])  # the same texts in other batches
    m.sentence_scores(systems["NiuTrans"][:20], refs_for(name, ref[:20]), sources=src[:20])
    again = m.sentence_scores(hyps[:20], refs_for(name, ref[:20]), sources=src[:20])
    assert fresh.tobytes() == again.tobytes()
    # the order of the rows does not change the bits either
    order = np.random.default_rng(1).permutation(20)
    shuffled = m.sentence_scores([hyps[i] for i in order], refs_for(name, [ref[i] for i in order]), sources=[src[i] for i in order])
    if name != "kiwi-mt-src":  # joint sequences: batches follow the order of the rows
        assert shuffled.tobytes() == fresh[order].tobytes()
    # several systems at once: each system's bits as scored alone
    together = metric(name).score_systems(src[:20], refs_for(name, ref[:20]), {"a": systems["NiuTrans"][:20], "b": hyps[:20]})
    assert together["b"].score == metric(name).corpus_score(hyps[:20], refs_for(name, ref[:20]), sources=src[:20]).score


@pytest.mark.parametrize("name", ["da-softmax-norm-max", "kiwi-mt-src"])
def test_float64_scores_are_not_rounded_to_float32(name):
    src, ref, systems = wmt()
    hyps = systems["HuaweiTSC"][:30]
    got = metric(name, dtype="float64").sentence_scores(hyps, refs_for(name, ref[:30]), sources=src[:30])
    assert got.dtype == np.float64
    assert (got.astype(np.float32).astype(np.float64) != got).sum() >= 25
    np.testing.assert_allclose(got, GOLDENS["models"][name]["HuaweiTSC"]["scores"][:30], atol=1e-5)


def test_model_files_are_checked_at_construction(tmp_path):
    with pytest.raises(InvalidOptionError, match="'/nonexistent'.*not a local directory"):
        COMET("/nonexistent")
    only_yaml = tmp_path / "only-yaml"
    only_yaml.mkdir()
    shutil.copy(GOLD / "da-sparsemax-avg" / "hparams.yaml", only_yaml)
    with pytest.raises(InvalidOptionError, match="no checkpoint: .*model.ckpt' is missing"):
        COMET(only_yaml, encoder=ENCODER)
    with pytest.raises(InvalidOptionError, match="cannot find the config.json and tokenizer.*xlmr-tiny"):
        COMET(GOLD / "da-sparsemax-avg")
    with pytest.raises(InvalidOptionError, match="tokenizer"):
        COMET(GOLD / "da-sparsemax-avg", encoder=tmp_path)


def test_device_option_is_parsed_once_for_every_neural_metric():
    from nlgmetrics.errors import InvalidOptionError as E
    from nlgmetrics.neural import _models

    assert _models.parse_device(0) == "cuda:0" and _models.parse_device(2) == "cuda:2"
    assert _models.parse_device("cpu") == "cpu" and _models.parse_device(torch.device("cpu")) == "cpu"
    assert _models.parse_device("cuda:1") == "cuda:1" and _models.parse_device(None) is None
    for bad in (-1, True, 1.5, "cuda:", "cu da", "cuda:x", [0]):
        with pytest.raises(E):
            _models.parse_device(bad)
    assert metric("da-sparsemax-avg", device=0).device == "cuda:0"
    cpu = metric("da-sparsemax-avg", device=torch.device("cpu"))
    src, ref, systems = wmt()
    assert_golden(cpu.sentence_scores(systems["NiuTrans"][:5], ref[:5], sources=src[:5]), GOLDENS["models"]["da-sparsemax-avg"]["NiuTrans"]["scores"][:5])
    if not torch.cuda.is_available():
        with pytest.raises(E, match="CUDA, which is not available"):
            metric("da-sparsemax-avg", device=0).corpus_score(systems["NiuTrans"][:2], ref[:2], sources=src[:2])
        with pytest.raises(E, match="CUDA, which is not available"):
            _models.pick_device("cuda")
    # the command line: --comet-device 0 is the CUDA index, as device=0
    import argparse

    from nlgmetrics.cli.opts_comet import _collect_comet

    ns = argparse.Namespace(comet_model=str(GOLD / "da-sparsemax-avg"), xcomet_model=None, comet_encoder=str(ENCODER), comet_batch_size=16, comet_device="0", source=None)
    assert _collect_comet(ns)["device"] == 0
    # every neural metric takes its device through the one parser
    for module in ("bertscore", "bleurt", "comet", "hf_perplexity"):
        path = REPO / "python" / "nlgmetrics" / "neural" / f"{module}.py"
        assert "self.device = parse_device(device)" in path.read_text(encoding="utf-8"), module
    assert issubclass(nlgmetrics.XCOMET, COMET) and nlgmetrics.XCOMET(GOLD.parent / "xcomet" / "xcomet-sparsemax", encoder=GOLD.parent / "xcomet" / "xlmr-xl-tiny", device=1).device == "cuda:1"


def test_cli_source_line_count_mismatch_names_both_files(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    src, ref, systems = wmt()
    files = {}
    for name, lines in (("src", src[:10]), ("ref", ref[:11]), ("hyp", systems["Online-B"][:11])):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = ["score", "-m", "comet", "--comet-model", str(GOLD / "da-sparsemax-avg"), "--comet-encoder", str(ENCODER), "--source", str(files["src"])]
    assert main(base + ["-r", str(files["ref"]), "-i", str(files["hyp"])]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(files["src"]) in err and str(files["ref"]) in err and "10" in err and "11" in err
    kiwi = ["score", "-m", "comet", "--comet-model", str(GOLD / "kiwi-mt-src"), "--comet-encoder", str(ENCODER), "--source", str(files["src"])]
    assert main(kiwi + ["-i", str(files["hyp"])]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(files["src"]) in err and str(files["hyp"]) in err and "10 lines" in err and "11" in err


@pytest.mark.parametrize("name", ["da-sparsemax-avg", "kiwi-mt-src"])
def test_half_precision_stays_within_the_documented_bound(name):
    """float16 / bfloat16 (docs/metrics/comet.md, "Half precision"): measured max abs
    deviation from float32 over 200 segments, bounded here at twice that on 40 segments."""
    src, ref, systems = wmt()
    hyps = systems["Online-B"][:40]
    base = metric(name).sentence_scores(hyps, refs_for(name, ref[:40]), sources=src[:40])
    bounds = {"da-sparsemax-avg": {"float16": 8.6e-3, "bfloat16": 8.2e-2}, "kiwi-mt-src": {"float16": 5.8e-4, "bfloat16": 4.2e-3}}[name]
    for dtype, bound in bounds.items():
        m = metric(name, dtype=dtype)
        got = m.sentence_scores(hyps, refs_for(name, ref[:40]), sources=src[:40])
        assert got.dtype == np.float64 and 0 < np.abs(got - base).max() <= bound
        assert f"dtype:{dtype}" in m.signature().format()

def test_unpaired_surrogates_are_typed_errors():
    from nlgmetrics.errors import InvalidTextError

    m = metric("kiwi-mt-src")
    with pytest.raises(InvalidTextError, match="sources"):
        m.corpus_score(["a b"], None, sources=["\ud800"])
    with pytest.raises(InvalidTextError, match="predictions"):
        m.corpus_score(["\udfff"], None, sources=["a"])
    with pytest.raises(InvalidTextError, match="references"):
        metric("da-sparsemax-avg").corpus_score(["a"], ["\ud800"], sources=["b"])
