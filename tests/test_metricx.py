"""MetricX-24 / MetricX-23 against the google-research/metricx repository's own predict code.

tests/goldens/metricx/ holds tiny mT5 checkpoints built with the repository's
``MT5ForRegression`` (random weights, vocabulary 250112 so the head's token 250089 exists,
stored compactly: see tests/metricx_models.py), a T5 tokenizer trained on WMT22 text, and
``python -m metricx2X.predict --batch_size 1`` predictions (the repository at its pinned
transformers 4.30.2) on 3 WMT22 zh-en systems and on edge cases, reference-based and QE, at
the default and at a short ``max_input_length`` (48: most WMT rows are cut).
scripts/goldens/metricx_goldens.py rebuilds them in an isolated environment.

Parity is exact (``==`` on the float32 scores) at the default ``batch_size=1``, the shapes
of the repository's README run, on the CPU that made the goldens; on other CPUs torch's
kernels round differently and the tests assert the bounds of tests/neural_goldens.py
(``NLGMETRICS_EXACT_GOLDENS=1`` demands ``==``). Larger batches (rows of equal length, no
padding) are bounded by 2.5e-4 (1e-5 of the scale).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch

from conftest import CORPORA, REPO, read_lines
from metricx_models import expand
from neural_goldens import BF16_DIFFERING, METRICX_BF16, METRICX_FLOAT32, assert_golden, bound

from nlgmetrics import load
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, InvalidTextError, LengthMismatchError, MissingReferenceError
from nlgmetrics.tasks.mbr import higher_is_better
from nlgmetrics.neural.metricx import MetricX, format_input

torch.set_num_threads(1)  # the suite shares few cores
GOLD = REPO / "tests" / "goldens" / "metricx"
GOLDENS = json.loads((GOLD / "goldens.json").read_text(encoding="utf-8"))
TOKENIZER = GOLD / "tokenizer"
MODELS = list(GOLDENS["models"])


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("metricx")
    return {name: expand(GOLD / name, root / name) for name in MODELS}


def wmt():
    d = CORPORA / "wmt22" / GOLDENS["pair"]
    n = GOLDENS["segments"]
    src = read_lines(d / "generaltest2022.zh-en.src.zh")[:n]
    ref = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:n]
    systems = {s: read_lines(d / "system-outputs" / f"generaltest2022.zh-en.hyp.{s}.en")[:n] for s in GOLDENS["systems"]}
    return src, ref, systems


def metric(checkpoints, name, **options) -> MetricX:
    options.setdefault("device", "cpu")  # the goldens are CPU kernels' bits
    return MetricX(checkpoints[name], version=GOLDENS["models"][name]["version"], tokenizer=TOKENIZER, **options)


def tolerance(name: str) -> float:
    return METRICX_BF16 if "bf16" in name else METRICX_FLOAT32


def assert_exact(got, want, name: str = "metricx24-tiny") -> None:
    """``==`` on the goldens' machine; elsewhere within the model's documented bound."""
    assert_golden(got, want, tolerance(name), relative=False, differing=BF16_DIFFERING if "bf16" in name else 1.0,
                  what="the repository's predict")


def test_goldens_cover_clipping_and_truncation(checkpoints):
    """The goldens are not degenerate: scores spread, some clip at 0 and at 25, and the
    short max_input_length cuts most WMT rows."""
    for name in MODELS:
        every = []
        for key, sets in GOLDENS["models"][name].items():
            if key == "version":
                continue
            values = np.array([v for s in sets.values() for v in s])
            assert values.std() > 2.0 and ((values > 0) & (values < 25)).mean() > 0.3, (name, key)
            every.extend(values)
        assert 0.0 in every and 25.0 in every, name
    m = metric(checkpoints, "metricx24-tiny", max_input_length=48)
    src, ref, systems = wmt()
    texts = [format_input("24", h, r, s) for h, r, s in zip(systems["Online-B"], ref, src)]
    lengths = [len(ids) for ids in m.encode(texts)]
    assert sum(n == 47 for n in lengths) > len(lengths) // 2  # 48 with </s>, which is dropped


@pytest.mark.parametrize("name", MODELS)
def test_parity_with_metricx_predict(checkpoints, name):
    src, ref, systems = wmt()
    gold = GOLDENS["models"][name]
    edge = GOLDENS["edge"]
    for key, sets in gold.items():
        if key == "version":
            continue
        kind, length = key.split("-")
        qe = kind == "qe"
        m = metric(checkpoints, name, qe=qe, max_input_length=int(length))
        for system, hyps in systems.items():
            got = m.sentence_scores(hyps, None if qe else ref, sources=src)
            assert_exact(got, sets[system], name)
            assert m.corpus_score(hyps, None if qe else ref, sources=src).score == pytest.approx(np.mean(sets[system]), abs=bound(tolerance(name)) + 1e-12)
        got = m.sentence_scores([e["hypothesis"] for e in edge], None if qe else [e["reference"] for e in edge], sources=[e["source"] for e in edge])
        assert_exact(got, sets["edge"], name)


def test_batching_order_and_sharing_invariance(checkpoints):
    src, ref, systems = wmt()
    hyps = systems["HuaweiTSC"]
    base = metric(checkpoints, "metricx24-tiny").sentence_scores(hyps, ref, sources=src)
    assert_exact(base, GOLDENS["models"]["metricx24-tiny"]["ref-1536"]["HuaweiTSC"])
    for bs in (3, 64):  # rows of equal length batched: other kernels' summation order, a few ulps
        batched = metric(checkpoints, "metricx24-tiny", batch_size=bs).sentence_scores(hyps, ref, sources=src)
        np.testing.assert_allclose(batched, base, rtol=0, atol=2.5e-4)
    order = np.random.default_rng(0).permutation(len(hyps))
    shuffled = metric(checkpoints, "metricx24-tiny").sentence_scores([hyps[i] for i in order], [ref[i] for i in order], sources=[src[i] for i in order])
    np.testing.assert_array_equal(shuffled, base[order])  # our own bits: order never matters
    m = metric(checkpoints, "metricx24-tiny")
    a = m.stats(hyps[:25], ref[:25], sources=src[:25]).total()
    b = m.stats(hyps[25:], ref[25:], sources=src[25:]).total()
    assert m.score_stats(a + b).score == pytest.approx(base.mean(), abs=1e-12)
    together = m.score_systems(src, ref, systems)
    gold = GOLDENS["models"]["metricx24-tiny"]["ref-1536"]
    for system in systems:
        assert together[system].score == pytest.approx(np.mean(gold[system]), abs=bound(METRICX_FLOAT32) + 1e-12)


def test_duplicates_are_encoded_once(checkpoints, monkeypatch):
    m = metric(checkpoints, "metricx24-tiny")
    seen = []
    original = m.encode
    monkeypatch.setattr(m, "encode", lambda texts: seen.extend(texts) or original(texts))
    scores = m.sentence_scores(["a b", "a b", "c", "a b"], ["x", "x", "y", "x"], sources=["s", "s", "s", "s"])
    assert len(seen) == 2 and scores[0] == scores[1] == scores[3]


def test_input_format_and_eos_removal(checkpoints):
    assert format_input("24", "H", "R", "S") == "source: S candidate: H reference: R"
    assert format_input("24", "H", None, "S") == "source: S candidate: H"
    assert format_input("23", "H", "R", None) == "candidate: H reference: R"
    assert format_input("23", "H", None, "S") == "candidate: H source: S"
    m = metric(checkpoints, "metricx24-tiny", max_input_length=10)
    _, tok, _ = m._loaded()
    full = tok("candidate: hello world reference: hello")["input_ids"]
    assert full[-1] == tok.eos_token_id
    (ids,) = m.encode(["candidate: hello world reference: hello"])
    assert ids == full[:9] and tok.eos_token_id not in ids  # cut to 10 with </s>, then </s> dropped


def test_bound_sources_and_reference_free_24(checkpoints):
    src, ref, systems = wmt()
    hyps = systems["NiuTrans"]
    gold = GOLDENS["models"]["metricx24-tiny"]
    bound = metric(checkpoints, "metricx24-tiny", sources=src)
    assert_exact(bound.sentence_scores(hyps, ref), gold["ref-1536"]["NiuTrans"])
    qe = metric(checkpoints, "metricx24-tiny", qe=True, sources=src)
    assert_exact(qe.sentence_scores(hyps), gold["qe-1536"]["NiuTrans"])
    assert_exact(qe.sentence_scores(hyps, ref), gold["qe-1536"]["NiuTrans"])  # references are not read in QE
    # a subset finds its sources through the references
    sub = metric(checkpoints, "metricx24-tiny", sources=src, source_references=ref)
    assert_exact(sub.sentence_scores(hyps[5:9], ref[5:9]), gold["ref-1536"]["NiuTrans"][5:9])
    # MetricX-24 without sources: the README's empty source
    no_src = metric(checkpoints, "metricx24-tiny").sentence_scores(hyps[:5], ref[:5])
    np.testing.assert_array_equal(no_src, metric(checkpoints, "metricx24-tiny").sentence_scores(hyps[:5], ref[:5], sources=[""] * 5))


def test_lower_is_better_everywhere(checkpoints):
    m = metric(checkpoints, "metricx24-tiny")
    assert m.higher_is_better is False and higher_is_better(m) is False
    from nlgmetrics.tasks.mbr import select

    cands = ["Hello, world.", "Hello world!", "Goodbye.", "Hi there, world", "The weather is nice."]
    bound = metric(checkpoints, "metricx24-tiny", sources="你好，世界。")  # one source for every row
    matrix = bound.pairwise(cands, cands)
    assert matrix.shape == (5, 5)
    np.testing.assert_array_equal(matrix[1], m.sentence_scores([cands[1]] * 5, cands, sources=["你好，世界。"] * 5))
    picked = select(cands, metric=bound)
    expected = matrix.mean(axis=1)
    assert picked.higher_is_better is False and len(set(expected)) > 1
    assert expected[picked.index] == expected.min()  # the lowest expected error, not the highest


def test_signature_and_registry(checkpoints):
    m = metric(checkpoints, "metricx23-tiny", qe=True)
    sig = m.signature().format()
    assert "flavour:metricx-23" in sig and "qe:yes" in sig and "version:nlgmetrics-" in sig and "max_input_length:1024" in sig
    sig24 = metric(checkpoints, "metricx24-tiny-bf16").signature().format()
    assert "metricx-24" in sig24 and "dtype:bfloat16" in sig24 and "max_input_length:1536" in sig24
    via = load("metricx", model=str(checkpoints["metricx24-tiny"]), tokenizer=str(TOKENIZER))
    assert isinstance(via, MetricX)


def test_errors(checkpoints, tmp_path):
    src, ref, systems = wmt()
    hyps = systems["NiuTrans"][:3]
    with pytest.raises(MissingReferenceError):
        metric(checkpoints, "metricx24-tiny").sentence_scores(hyps, None, sources=src[:3])
    with pytest.raises(InvalidInputError, match="sources"):
        metric(checkpoints, "metricx24-tiny", qe=True).sentence_scores(hyps)
    with pytest.raises(LengthMismatchError):
        metric(checkpoints, "metricx24-tiny").sentence_scores(hyps, ref[:3], sources=src[:2])
    with pytest.raises(InvalidInputError, match="one reference"):
        metric(checkpoints, "metricx24-tiny").sentence_scores(hyps[:1], [["a", "b"]], sources=src[:1])
    for bad in ({"version": "metricx-25"}, {"batch_size": 0}, {"max_input_length": -1}, {"dtype": "int8"}, {"qe": "yes"}):
        with pytest.raises(InvalidOptionError):
            MetricX(checkpoints["metricx24-tiny"], tokenizer=TOKENIZER, **bad)
    with pytest.raises(InvalidOptionError, match="max_input_length"):
        metric(checkpoints, "metricx24-tiny", max_input_length=1).sentence_scores(hyps, ref[:3], sources=src[:3])
    with pytest.raises(InvalidOptionError, match="tokenizer"):
        MetricX(checkpoints["metricx24-tiny"]).sentence_scores(hyps, ref[:3], sources=src[:3])
    with pytest.raises(InvalidOptionError, match="not a local directory"):
        MetricX(tmp_path / "missing", tokenizer=TOKENIZER).sentence_scores(hyps, ref[:3], sources=src[:3])
    (tmp_path / "bert").mkdir()
    (tmp_path / "bert" / "config.json").write_text(json.dumps({"model_type": "bert", "vocab_size": 10}))
    with pytest.raises(InvalidOptionError, match="not an mT5"):
        MetricX(tmp_path / "bert", tokenizer=TOKENIZER).sentence_scores(hyps, ref[:3], sources=src[:3])
    assert metric(checkpoints, "metricx24-tiny").sentence_scores([], [], sources=[]).shape == (0,)
    with pytest.raises(InvalidTextError):
        metric(checkpoints, "metricx24-tiny").sentence_scores(["ok", "bad \ud800"], ["a", "b"], sources=["s", "s"])


def test_cli(checkpoints, tmp_path):
    src, ref, systems = wmt()
    n = 12
    (tmp_path / "src").write_text("\n".join(src[:n]) + "\n", encoding="utf-8")
    (tmp_path / "ref").write_text("\n".join(ref[:n]) + "\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("\n".join(systems["Online-B"][:n]) + "\n", encoding="utf-8")
    base = [sys.executable, "-m", "nlgmetrics", "score", "-m", "metricx", "--metricx-model", str(checkpoints["metricx24-tiny"]),
            "--metricx-tokenizer", str(TOKENIZER), "--metricx-device", "cpu", "--source", str(tmp_path / "src"), "-i", str(tmp_path / "hyp")]
    def score(extra):
        out = subprocess.run(base + extra + ["-f", "json"], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        row = json.loads(out.stdout)
        return (row[0] if isinstance(row, list) else row)

    row = score(["-r", str(tmp_path / "ref")])
    assert row["score"] == pytest.approx(np.mean(GOLDENS["models"]["metricx24-tiny"]["ref-1536"]["Online-B"][:n]), abs=bound(METRICX_FLOAT32) + 1e-12)
    assert "flavour:metricx-24" in row["signature"] and "qe:no" in row["signature"]
    row = score(["--metricx-qe", "-r", str(tmp_path / "ref")])  # -r aligns subsets; QE does not read it
    assert row["score"] == pytest.approx(np.mean(GOLDENS["models"]["metricx24-tiny"]["qe-1536"]["Online-B"][:n]), abs=bound(METRICX_FLOAT32) + 1e-12)
    out = subprocess.run([sys.executable, "-m", "nlgmetrics", "score", "-m", "metricx", "-i", str(tmp_path / "hyp"), "-r", str(tmp_path / "ref")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "--metricx-model" in out.stderr and "Traceback" not in out.stderr


def test_compare_and_sentence_level_cli(checkpoints, tmp_path, capsys):
    """compare runs its paired bootstrap over the bound sources with no MetricX-specific code;
    -sl's one-segment signature probe finds its source through -r."""
    from nlgmetrics.cli.main import main

    src, ref, systems = wmt()
    n = 16
    files = {}
    for name, lines in (("src", src[:n]), ("ref", ref[:n]), *((s, h[:n]) for s, h in systems.items())):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    names = list(systems)[:2]
    common = ["-m", "metricx", "--metricx-model", str(checkpoints["metricx24-tiny"]), "--metricx-tokenizer", str(TOKENIZER), "--metricx-device", "cpu",
              "--source", str(files["src"]), "-r", str(files["ref"]), "-i", *[str(files[s]) for s in names]]
    gold = GOLDENS["models"]["metricx24-tiny"]["ref-1536"]
    assert main(["compare", *common, "--paired-bs", "--paired-bs-n", "50", "-f", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    for row, name in zip(rows, names):
        assert row["metricx"]["score"] == pytest.approx(np.mean(gold[name][:n]), abs=bound(METRICX_FLOAT32) + 1e-12)
    assert rows[0]["metricx"]["p_value"] is None and 0 < rows[1]["metricx"]["p_value"] <= 1
    assert main(["score", *common[:-2], str(files[names[0]]), "-sl", "-f", "json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["score"] for x in lines[:n]] == pytest.approx(gold[names[0]][:n], abs=bound(METRICX_FLOAT32))


def test_import_stays_cheap():
    code = "import sys, nlgmetrics; nlgmetrics.MetricX; nlgmetrics.MAUVE; import nlgmetrics.cli.main; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", ["metricx23-tiny", "metricx23-tiny-tied", "metricx24-tiny-bf16"])
def test_every_weight_format_gives_the_same_bits(checkpoints, tmp_path, name):
    """model.safetensors (float32 or bf16), pytorch_model.bin and sharded safetensors of the
    same tensors are read by one path (the file's tensors handed to from_pretrained as a
    state dict) and score bit-identically at batch size 1."""
    from safetensors.torch import load_file, save_file

    src, ref, systems = wmt()
    hyps = systems[GOLDENS["systems"][0]][:12]
    state = load_file(checkpoints[name] / "model.safetensors")
    as_bin = tmp_path / "bin"
    as_bin.mkdir()
    shutil.copy(checkpoints[name] / "config.json", as_bin / "config.json")
    torch.save(state, as_bin / "pytorch_model.bin")
    sharded = tmp_path / "sharded"
    sharded.mkdir()
    shutil.copy(checkpoints[name] / "config.json", sharded / "config.json")
    names = sorted(state)
    halves = {"model-00001-of-00002.safetensors": names[::2], "model-00002-of-00002.safetensors": names[1::2]}
    for shard, keys in halves.items():
        save_file({k: state[k].clone().contiguous() for k in keys}, str(sharded / shard), metadata={"format": "pt"})
    (sharded / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {k: s for s, ks in halves.items() for k in ks}}))
    version = GOLDENS["models"][name]["version"]
    scores = [MetricX(d, version=version, tokenizer=TOKENIZER, device="cpu", batch_size=1).sentence_scores(hyps, ref[:12], sources=src[:12])
              for d in (checkpoints[name], as_bin, sharded)]
    assert scores[0].tobytes() == scores[1].tobytes() == scores[2].tobytes()
