"""xCOMET against unbabel-comet 2.2.7's own predict on tiny XCOMET checkpoints.

tests/goldens/xcomet/ holds two checkpoints built with unbabel-comet's ``XCOMETMetric``
(XLM-R XL encoder of 2 layers, random weights, the word-level tagger scaled so that every
severity occurs, heads shifted so that scores fall on both sides of the clamp at 1) and
``predict(..., gpus=0)``'s scores, system scores and metadata (error spans, MQM, per-input
scores) with references and without (QE), on WMT22 zh-en (3 systems x 100 segments), edge
cases and special-token text; scripts/goldens/xcomet_goldens.py rebuilds them.

Rows are batched as unbabel-comet batches them, so on the CPU that made the goldens the
numbers are bit-identical; other CPUs' float32 kernels round differently, so the asserted
bounds are tests/neural_goldens.py's (COMET's few ulps, more for sparsemax, whose support
moves with a last bit; ``NLGMETRICS_EXACT_GOLDENS=1`` demands ``==``), the spans' text,
offsets and severities exact.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
import torch

from conftest import REPO
from neural_goldens import COMET_FLOAT32, XCOMET_SPARSEMAX, assert_golden

from nlgmetrics import COMET, XCOMET, load
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, MissingReferenceError

torch.set_num_threads(1)
GOLD = REPO / "tests" / "goldens" / "xcomet"
GOLDENS = json.loads((GOLD / "goldens.json").read_text(encoding="utf-8"))
ENCODER = GOLD / "xlmr-xl-tiny"
MODELS = list(GOLDENS["models"])
SETS = GOLDENS["sets"]


def metric(name: str, **options) -> XCOMET:
    return XCOMET(GOLD / name, encoder=ENCODER, **options)


def columns(set_name: str, mode: str):
    rows = SETS[set_name]
    return [r["mt"] for r in rows], (None if mode == "qe" else [r["ref"] for r in rows]), [r["src"] for r in rows]


def tolerance(name: str) -> float:
    return XCOMET_SPARSEMAX if "sparsemax" in name else COMET_FLOAT32


def assert_close(got, want, name: str = "xcomet-softmax-norm") -> None:
    assert_golden(got, want, tolerance(name), what="unbabel-comet")


def assert_spans(got, want, name: str) -> None:
    assert len(got) == len(want)
    for g_row, w_row in zip(got, want):
        assert [(s["text"], s["start"], s["end"], s["severity"]) for s in g_row] == [(s["text"], s["start"], s["end"], s["severity"]) for s in w_row]
        assert_close([s["confidence"] for s in g_row], [s["confidence"] for s in w_row], name)


@pytest.mark.parametrize("mode", ["ref", "qe"])
@pytest.mark.parametrize("name", MODELS)
def test_parity_with_unbabel_comet(name, mode):
    m = metric(name)
    for set_name in SETS:
        want = GOLDENS["models"][name][mode][set_name]
        mts, refs, srcs = columns(set_name, mode)
        p = m.predict(mts, refs, sources=srcs)
        assert_close(p.scores, want["scores"], name)
        assert_close(p.system_score, want["system_score"], name)
        assert_spans(p.error_spans, want["metadata"]["error_spans"], name)
        assert set(p.metadata) == set(want["metadata"])
        for key in want["metadata"]:
            if key != "error_spans":
                assert_close(p.metadata[key], want["metadata"][key], name)
        assert_close(m.corpus_score(mts, refs, sources=srcs).score, want["system_score"], name)


def test_goldens_exercise_every_branch():
    """Spans of every severity, spans starting at <s>, scores clamped at 1, MQM below 1 and at 0."""
    severities, at_bos, clamped, mqm = set(), 0, 0, []
    for name in MODELS:
        for mode in ("ref", "qe"):
            for data in GOLDENS["models"][name][mode].values():
                md = data["metadata"]
                severities |= {s["severity"] for row in md["error_spans"] for s in row}
                at_bos += sum(s["start"] == 0 and s["text"].startswith("<s>") for row in md["error_spans"] for s in row)
                clamped += sum(x > 1 for x in md.get("ref_scores", []))
                mqm += md["mqm_scores"]
    assert severities == {"minor", "major", "critical"} and at_bos > 0 and clamped > 0
    assert min(mqm) == 0.0 and max(mqm) == 1.0 and len(set(mqm)) > 5


def test_faces_and_statistics():
    mts, refs, srcs = columns("Online-B", "ref")
    m = metric("xcomet-sparsemax")
    want = GOLDENS["models"]["xcomet-sparsemax"]["ref"]["Online-B"]
    assert_close(m.sentence_scores(mts, refs, sources=srcs), want["scores"], "xcomet-sparsemax")
    bound = metric("xcomet-sparsemax", sources=srcs)
    a = bound.stats(mts[:40], refs[:40], sources=srcs[:40]).total()
    b = bound.stats(mts[40:], refs[40:], sources=srcs[40:]).total()
    whole = bound.corpus_score(mts, refs).score
    assert abs(bound.score_stats(a + b).score - whole) <= 1e-4  # other batches: float32 noise, magnified by the x40 heads
    sig = bound.corpus_score(mts, refs).signature.format()
    assert sig.startswith("nrefs:1|model:xcomet-sparsemax@") and "batch:16" in sig
    assert load("xcomet", model=str(GOLD / "xcomet-sparsemax"), encoder=str(ENCODER)).name == "xcomet"
    matrix = m.pairwise(mts[:3], refs[:3], sources=srcs[0])
    assert matrix.shape == (3, 3)
    # other batches (other padding): the heads of these checkpoints (weights x40) magnify float32 noise
    np.testing.assert_allclose(matrix[1], m.sentence_scores([mts[1]] * 3, refs[:3], sources=[srcs[0]] * 3), atol=1e-4)
    # the same inputs give the same bits whatever the object scored before
    first = m.sentence_scores(mts[:20], refs[:20], sources=srcs[:20])
    m.sentence_scores(mts[10:50], refs[10:50], sources=srcs[10:50])
    assert m.sentence_scores(mts[:20], refs[:20], sources=srcs[:20]).tobytes() == first.tobytes()
    # streaming state
    m.update(mts[:30], refs[:30], sources=srcs[:30]).update(mts[30:], refs[30:], sources=srcs[30:])
    assert m.state.n_segments == len(mts)


def test_float64_is_not_rounded():
    mts, refs, srcs = columns("HuaweiTSC", "ref")
    got = metric("xcomet-softmax-norm", dtype="float64").sentence_scores(mts[:20], refs[:20], sources=srcs[:20])
    assert got.dtype == np.float64 and (got.astype(np.float32).astype(np.float64) != got).sum() >= 15
    np.testing.assert_allclose(got, GOLDENS["models"]["xcomet-softmax-norm"]["ref"]["HuaweiTSC"]["scores"][:20], atol=1e-4)


def test_errors(tmp_path):
    with pytest.raises(InvalidOptionError, match="not a local directory"):
        XCOMET(tmp_path / "absent")
    with pytest.raises(InvalidOptionError, match="xcomet_metric.*not supported.*use nlgmetrics.XCOMET"):
        COMET(GOLD / "xcomet-sparsemax", encoder=ENCODER)
    with pytest.raises(InvalidOptionError, match="regression_metric.*not supported.*use nlgmetrics.COMET"):
        XCOMET(REPO / "tests" / "goldens" / "comet" / "da-sparsemax-avg", encoder=REPO / "tests" / "goldens" / "comet" / "xlmr-tiny")
    with pytest.raises(InvalidOptionError, match="cannot find the config.json and tokenizer.*xlmr-xl-tiny"):
        XCOMET(GOLD / "xcomet-sparsemax")
    no_head = tmp_path / "no-head"
    shutil.copytree(GOLD / "xcomet-sparsemax", no_head)
    data = torch.load(no_head / "checkpoints" / "model.ckpt", weights_only=False)
    del data["state_dict"]["hidden2tag.weight"]
    torch.save(data, no_head / "checkpoints" / "model.ckpt")
    with pytest.raises(InvalidOptionError, match="hidden2tag"):
        XCOMET(no_head, encoder=ENCODER).corpus_score(["a"], ["b"], sources=["c"])
    m = metric("xcomet-sparsemax")
    with pytest.raises(InvalidInputError, match="needs the sources"):
        m.corpus_score(["a"], None)
    with pytest.raises(MissingReferenceError):
        metric("xcomet-sparsemax").corpus_score(["a"], [[]], sources=["b"])


def test_cli_scores_and_spans(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    mts, refs, srcs = columns("NiuTrans", "ref")
    files = {}
    for name, lines in (("src", srcs), ("ref", refs), ("hyp", mts)):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    want = GOLDENS["models"]["xcomet-softmax-norm"]["ref"]["NiuTrans"]
    argv = ["score", "-m", "xcomet", "--xcomet-model", str(GOLD / "xcomet-softmax-norm"), "--comet-encoder", str(ENCODER),
            "--comet-device", "cpu", "--source", str(files["src"]), "-r", str(files["ref"]), "-i", str(files["hyp"]), "-f", "json"]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)
    assert_close(rows[0]["score"], want["system_score"]) and rows[0]["signature"].startswith("nrefs:1|model:xcomet-softmax-norm@")
    assert main(argv + ["-sl"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(mts)
    assert_close([x["score"] for x in lines], want["scores"])
    assert_spans([x["error_spans"] for x in lines], want["metadata"]["error_spans"], "xcomet-softmax-norm")
    assert_close([x["mqm_score"] for x in lines], want["metadata"]["mqm_scores"])
    assert main([a for a in argv if a not in ("--xcomet-model", str(GOLD / "xcomet-softmax-norm"))]) == 2  # a usage error
    assert "--xcomet-model" in capsys.readouterr().err


def test_half_precision_runs_within_the_documented_bound():
    """docs/metrics/xcomet.md, "Half precision": float16 on xcomet-softmax-norm moved scores by
    at most 0.045 over 100 segments (bounded here at twice that on 30) and kept most spans."""
    mts, refs, srcs = columns("Online-B", "ref")
    base = metric("xcomet-softmax-norm").predict(mts[:30], refs[:30], sources=srcs[:30])
    half = metric("xcomet-softmax-norm", dtype="float16").predict(mts[:30], refs[:30], sources=srcs[:30])
    assert 0 < np.abs(half.scores - base.scores).max() <= 0.09
    key = lambda spans: [[(s["start"], s["end"], s["severity"]) for s in row] for row in spans]
    assert sum(a == b for a, b in zip(key(half.error_spans), key(base.error_spans))) >= 25


def test_report_segment_table_shows_the_spans(tmp_path):
    from nlgmetrics.report import data as report_data

    mts, refs, srcs = columns("Online-B", "ref")
    m = metric("xcomet-sparsemax", sources=srcs[:12])
    runs = []
    original = XCOMET._run
    XCOMET._run = lambda self, *a: runs.append(1) or original(self, *a)
    try:
        result = report_data._corpus_only("xcomet", m, ["sys"], {"sys": mts[:12]}, [[r] for r in refs[:12]])
    finally:
        XCOMET._run = original
    want = GOLDENS["models"]["xcomet-sparsemax"]["ref"]["Online-B"]["metadata"]["error_spans"][:12]
    row = result.rows[0]
    assert_spans(row.spans, want, "xcomet-sparsemax")  # 12 of the 100 rows, in other batches: the same spans here
    assert len(runs) == 1  # corpus score, segment scores and spans: one computation (the last prediction is kept)
    from nlgmetrics.report.text import _segment_table

    class Report:
        systems, hypotheses, references, metrics, names = ["sys"], {"sys": mts[:12]}, [[r] for r in refs[:12]], [result], {}

    html = _segment_table(Report())
    first = next(s for rowspans in row.spans for s in rowspans)
    assert "errors" in html and f"{first['severity']}: " in html and f"[{first['start']}:{first['end']}]" in html


@pytest.mark.parametrize("name", MODELS)
def test_float64_layer_mix_is_computed_in_float64(name):
    """unbabel-comet's model.double() holds the layer-mix parameters in float64 and runs the
    softmax / sparsemax there; the mix weights are not float32 results widened."""
    from nlgmetrics.neural._comet_checkpoint import read_checkpoint
    from nlgmetrics.neural._comet_model import sparsemax

    net = metric(name, dtype="float64").network
    state = read_checkpoint(GOLD / name / "checkpoints" / "model.ckpt")["state_dict"]
    params = torch.cat([state[f"layerwise_attention.scalar_parameters.{i}"].reshape(-1) for i in range(net.num_layers)]).double()
    want = sparsemax(params) if "sparsemax" in name else torch.softmax(params, dim=0)
    assert net._mix_weights.dtype == torch.float64
    assert torch.equal(net._mix_weights, want)
    assert not torch.equal(net._mix_weights, (sparsemax(params.float()) if "sparsemax" in name else torch.softmax(params.float(), dim=0)).double())
