"""The evaluate-style face. The ``evaluate`` package fetches its metric scripts from the
Hub, so the references here are the packages those scripts call (sacrebleu, jiwer,
rouge-score), called the way the scripts call them, on WMT22 zh-en, CNN/DM and
Earnings-21."""

from __future__ import annotations

import json
import socket

import jiwer
import numpy as np
import pytest
import sacrebleu
from rouge_score import rouge_scorer, scoring

import nlgmetrics as nm
from nlgmetrics.integrations import evaluate
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, MissingReferenceError

from conftest import read_lines
from registry_cases import ONE_REF as ONE_REF_METRICS

N = 80


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Any attempt to open a socket fails the test: the face must work offline."""

    def refuse(*args, **kwargs):
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture(scope="module")
def wmt(corpora):
    d = corpora / "wmt22" / "zh-en"
    hyps = read_lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.DLUT.en")[:N]
    a = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:N]
    b = read_lines(d / "generaltest2022.zh-en.ref.B.en")[:N]
    return hyps, [[x, y] for x, y in zip(a, b)], [a, b]


def _in_batches(module, hyps, refs, size=17):
    for i in range(0, len(hyps), size):
        module.add_batch(predictions=hyps[i : i + size], references=refs[i : i + size])


@pytest.mark.parametrize(
    "options",
    [{}, {"lowercase": True, "use_effective_order": True}, {"tokenize": "intl", "smooth_method": "floor", "smooth_value": 0.05}],
)
def test_sacrebleu(wmt, options):
    hyps, refs, streams = wmt
    m = evaluate.load("sacrebleu")
    _in_batches(m, hyps, refs)
    got = m.compute(**options)
    want = sacrebleu.corpus_bleu(
        hyps,
        streams,
        smooth_method=options.get("smooth_method", "exp"),
        smooth_value=options.get("smooth_value"),
        lowercase=options.get("lowercase", False),
        tokenize=options.get("tokenize", "13a"),
        use_effective_order=options.get("use_effective_order", False),
    )
    assert got["score"] == pytest.approx(want.score, rel=1e-12)
    assert got["counts"] == want.counts and got["totals"] == want.totals
    np.testing.assert_allclose(got["precisions"], want.precisions, rtol=1e-12)
    assert (got["bp"], got["sys_len"], got["ref_len"]) == pytest.approx((want.bp, want.sys_len, want.ref_len))
    assert set(got) == {"score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"}


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"beta": 3, "lowercase": True, "eps_smoothing": True}])
def test_chrf(wmt, options):
    hyps, refs, streams = wmt
    got = evaluate.load("chrf").compute(predictions=hyps, references=refs, **options)
    want = sacrebleu.CHRF(**options).corpus_score(hyps, streams)
    assert got["score"] == pytest.approx(want.score, rel=1e-12)
    assert (got["char_order"], got["word_order"], got["beta"]) == (6, options.get("word_order", 0), options.get("beta", 2))


@pytest.mark.parametrize("options", [{}, {"normalized": True, "ignore_punct": True, "case_sensitive": True}])
def test_ter(wmt, options):
    hyps, refs, streams = wmt
    got = evaluate.load("ter").compute(predictions=hyps[:40], references=refs[:40], **options)
    want = sacrebleu.TER(
        normalized=options.get("normalized", False),
        no_punct=options.get("ignore_punct", False),
        case_sensitive=options.get("case_sensitive", False),
    ).corpus_score(hyps[:40], [s[:40] for s in streams])
    assert got["score"] == pytest.approx(want.score, rel=1e-12)
    assert got["num_edits"] == want.num_edits and got["ref_length"] == pytest.approx(want.ref_length)


@pytest.mark.parametrize("concatenate_texts", [False, True])
def test_wer_cer_earnings21(corpora, concatenate_texts):
    d = corpora / "earnings21_asr"
    refs = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "references.jsonl", encoding="utf-8")}
    hyps = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "hyp_google.jsonl", encoding="utf-8")}
    ids = sorted(refs)[:6]
    P, R = [hyps[i] for i in ids], [refs[i] for i in ids]
    wer = evaluate.load("wer")
    for p, r in zip(P, R):
        wer.add(prediction=p, reference=r)
    assert wer.compute(concatenate_texts=concatenate_texts) == pytest.approx(jiwer.wer(R, P), rel=1e-12)
    P, R = [p[:800] for p in P], [r[:800] for r in R]
    got = evaluate.load("cer").compute(predictions=P, references=R, concatenate_texts=concatenate_texts)
    assert got == pytest.approx(jiwer.cer(R, P), rel=1e-12)


@pytest.fixture(scope="module")
def cnndm(corpora):
    preds, refs = [], []
    with open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i % 97 == 0:
                d = json.loads(line)
                preds.append("\n".join(d["pointer-gen-cov"]))
                refs.append(["\n".join(d["reference"]), "\n".join(d["baseline"])] if i % 2 else "\n".join(d["reference"]))
    return preds, refs


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_rouge_aggregated_and_per_example(cnndm, use_stemmer):
    preds, refs = cnndm
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    per_example = []
    for ref, pred in zip(refs, preds):
        per_example.append(scorer.score_multi(ref, pred) if isinstance(ref, list) else scorer.score(ref, pred))
    # evaluate's aggregate: BootstrapAggregator over numpy's global generator
    np.random.seed(7)
    aggregator = scoring.BootstrapAggregator()
    for s in per_example:
        aggregator.add_scores(s)
    want = {t: v.mid.fmeasure for t, v in aggregator.aggregate().items()}
    m = evaluate.load("rouge", use_stemmer=use_stemmer)
    got = m.compute(predictions=preds, references=refs, seed=7)
    assert got.keys() == want.keys()
    for t in types:
        assert got[t] == pytest.approx(want[t], rel=1e-12)
    lists = m.compute(predictions=preds, references=refs, use_aggregator=False, rouge_types=["rouge2", "rougeL"])
    assert list(lists) == ["rouge2", "rougeL"]
    for t in lists:
        np.testing.assert_allclose(lists[t], [s[t].fmeasure for s in per_example], rtol=1e-12)


def test_generic_names_and_reference_free(wmt):
    hyps, refs, _ = wmt
    got = evaluate.load("chrf++").compute(predictions=hyps, references=refs)
    assert got["score"] == nm.load("chrf++").corpus_score(hyps, refs).score
    assert got["signature"].startswith("nrefs:2|")
    d = evaluate.load("distinct", n=1).compute(predictions=hyps)
    assert d["score"] == nm.Distinct(n=1).corpus_score(hyps).score


def test_compute_consumes_the_examples(wmt):
    hyps, refs, _ = wmt
    m = evaluate.load("chrf")
    m.add_batch(predictions=hyps[:5], references=refs[:5])
    first = m.compute()
    with pytest.raises(InvalidInputError, match="nothing to compute"):
        m.compute()
    assert m.compute(predictions=hyps[:5], references=refs[:5]) == first


def test_refusals_and_errors(wmt):
    hyps, refs, _ = wmt
    with pytest.raises(InvalidOptionError, match="TensorFlow-NMT"):
        evaluate.load("bleu")
    with pytest.raises(InvalidOptionError, match="word_tokenize"):
        evaluate.load("meteor")
    with pytest.raises(InvalidOptionError, match="unknown metric"):
        evaluate.load("no-such-metric")
    m = evaluate.load("sacrebleu")
    m.add(prediction=hyps[0], reference=None)
    with pytest.raises(MissingReferenceError):
        m.compute()
    with pytest.raises(TypeError):
        m.add_batch(hyps, refs)  # keyword-only, as in evaluate


# -- the metric objects themselves, through nlgmetrics.load ------------------------------
SINGLE_REFERENCE = ONE_REF_METRICS


@pytest.mark.parametrize("name", [e.name for e in nm.available() if e.text and e.name not in ("self_bleu",)])
def test_loaded_metric_add_add_batch_compute(wmt, name):
    hyps, refs, _ = wmt
    hyps, refs = hyps[:30], refs[:30]
    options = {"multi_ref": "best"} if name in SINGLE_REFERENCE else {}
    metric = nm.load(name, **options)
    if name == "nist":  # corpus-wide information weights: fixed before streaming
        metric.fit(refs)
    want = metric.corpus_score(hyps, refs)
    metric.add(prediction=hyps[0], reference=refs[0])
    metric.add_batch(predictions=hyps[1:20], references=refs[1:20])
    got = metric.compute(predictions=hyps[20:], references=refs[20:])
    assert got.score == want.score
    assert got.signature.format() == want.signature.format()
    # the state stays (mergeable statistics): computing again gives the same score
    assert metric.compute().score == want.score
    metric.reset()
    with pytest.raises(InvalidInputError):
        metric.compute()


def test_self_bleu_keyword_call_and_no_streaming(wmt):
    hyps, _, _ = wmt
    metric = nm.load("self_bleu")
    assert metric.compute(predictions=hyps).score == nm.self_bleu(hyps).score
    assert evaluate.load("self_bleu").compute(predictions=hyps)["score"] == nm.self_bleu(hyps).score
    with pytest.raises(InvalidInputError, match="does not stream"):
        metric.add_batch(predictions=hyps[:5])
    with pytest.raises(InvalidInputError, match="needs predictions="):
        metric.compute()


def test_nothing_is_written(wmt, tmp_path, monkeypatch):
    """No cache files, no lock files: the working directory and HOME stay empty."""
    hyps, refs, _ = wmt
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.chdir(work)
    for name in ("sacrebleu", "chrf", "wer", "rouge"):
        m = evaluate.load(name)
        m.add_batch(predictions=hyps[:10], references=[r[0] for r in refs[:10]])
        m.compute()
    assert list(home.iterdir()) == [] and list(work.iterdir()) == []


def test_native_face_keeps_examples_after_a_bad_option():
    from nlgmetrics.integrations import evaluate as native
    from nlgmetrics.errors import InvalidInputError as _Invalid

    module = native.load("sacrebleu")
    module.add_batch(predictions=["the cat sat on the mat"], references=[["the cat is on the mat"]])
    for bad in ({"lowercse": True}, {"smooth_method": "nope"}, {"tokenize": "nope"}):
        with pytest.raises(ValueError):
            module.compute(**bad)
    assert round(module.compute()["score"], 4) == 37.9918
    with pytest.raises(_Invalid):
        module.compute()
