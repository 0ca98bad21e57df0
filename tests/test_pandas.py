"""pandas face and table-shaped inputs: Series and numpy arrays of strings wherever a
sequence of texts is expected; ``score_frame`` / ``corpus_frame`` against sacrebleu and
rouge-score on WMT22 zh-en."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from rouge_score import rouge_scorer
from sklearn import metrics as skm

import nlgmetrics as nm
from nlgmetrics.errors import InputTypeError, InvalidOptionError, LengthMismatchError, MissingReferenceError
from nlgmetrics.integrations.pandas import corpus_frame, score_frame

from conftest import read_lines
from registry_cases import ONE_REF as ONE_REF_METRICS

N = 60
REFERENCED = [e.name for e in nm.available() if e.text and e.name not in ("distinct", "self_bleu")]
# jiwer and Moses take one reference: score against the closest of the two
SINGLE_REFERENCE = ONE_REF_METRICS


@pytest.fixture(scope="module")
def wmt(corpora):
    """The first N segments of two zh-en systems with both references, as a long frame
    whose index is not 0..n-1 (a Series must be read by position, not by label)."""
    d = corpora / "wmt22" / "zh-en"
    ref_a = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:N]
    ref_b = read_lines(d / "generaltest2022.zh-en.ref.B.en")[:N]
    rows = []
    for system in ("DLUT", "HuaweiTSC"):
        hyps = read_lines(d / "system-outputs" / f"generaltest2022.zh-en.hyp.{system}.en")[:N]
        rows += [{"system": system, "hyp": h, "ref_a": a, "ref_b": b} for h, a, b in zip(hyps, ref_a, ref_b)]
    df = pd.DataFrame(rows)
    df.index = np.arange(len(df))[::-1] * 7 + 3
    df["refs"] = [[a, b] for a, b in zip(df.ref_a, df.ref_b)]
    return df


def _as_lists(df):
    return list(df.hyp), [[a, b] for a, b in zip(df.ref_a, df.ref_b)]


@pytest.mark.parametrize("name", REFERENCED)
def test_series_and_arrays_score_like_lists(wmt, name):
    hyps, refs = _as_lists(wmt)
    metric = nm.load(name, **({"multi_ref": "best"} if name in SINGLE_REFERENCE else {}))
    want = metric.corpus_score(hyps, refs).score
    want_sent = metric.sentence_scores(hyps, refs)
    for preds, references in [
        (wmt.hyp, wmt.refs),
        (wmt.hyp.to_numpy(), np.array(refs)),
        (np.array(hyps, dtype=str), wmt[["ref_a", "ref_b"]]),
        (wmt.hyp.astype("string"), wmt.refs.to_numpy()),
    ]:
        assert metric.corpus_score(preds, references).score == want
        np.testing.assert_array_equal(metric.sentence_scores(preds, references), want_sent)
    # streaming with Series batches (NIST's weights are corpus-wide: fixed first)
    if name == "nist":
        metric = nm.NIST().fit(wmt.refs)
        want = metric.corpus_score(hyps, refs).score
    metric.reset()
    metric.add_batch(predictions=wmt.hyp.iloc[:N], references=wmt.refs.iloc[:N])
    metric.add_batch(predictions=wmt.hyp.iloc[N:], references=wmt.refs.iloc[N:])
    assert metric.compute().score == want


def test_reference_free_metrics_take_series(wmt):
    hyps = list(wmt.hyp)
    for metric in (nm.Distinct(n=2), nm.SelfBLEU(n=2, sample_size=None)):
        assert metric.corpus_score(wmt.hyp).score == metric.corpus_score(hyps).score
        assert metric.corpus_score(np.array(hyps)).score == metric.corpus_score(hyps).score


def test_score_frame_matches_sacrebleu_and_rouge_score(wmt):
    out = score_frame(wmt, prediction="hyp", references=["ref_a", "ref_b"], metrics=["chrf", "bleu", "rouge"])
    assert list(out.columns) == ["chrf", "bleu", "rouge"]
    assert out.index.equals(wmt.index)
    want_chrf = [sacrebleu.sentence_chrf(h, [a, b]).score for h, a, b in zip(wmt.hyp, wmt.ref_a, wmt.ref_b)]
    np.testing.assert_allclose(out.chrf.to_numpy(), want_chrf, rtol=1e-12, atol=1e-12)
    want_bleu = [sacrebleu.sentence_bleu(h, [a, b]).score for h, a, b in zip(wmt.hyp, wmt.ref_a, wmt.ref_b)]
    np.testing.assert_allclose(out.bleu.to_numpy(), want_bleu, rtol=1e-12, atol=1e-12)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    want_rouge = [scorer.score_multi([a, b], h)["rouge1"].fmeasure for h, a, b in zip(wmt.hyp, wmt.ref_a, wmt.ref_b)]
    np.testing.assert_allclose(out.rouge.to_numpy(), want_rouge, rtol=1e-12, atol=1e-12)
    # a list column is the same as separate columns
    same = score_frame(wmt, prediction="hyp", references="refs", metrics=["chrf", "bleu", "rouge"])
    pd.testing.assert_frame_equal(out, same)


def test_score_frame_metric_objects_and_mapping(wmt):
    out = score_frame(wmt, "hyp", "ref_a", metrics={"ter_cs": nm.TER(case_sensitive=True), "chrF++": "chrf++"})
    want = [sacrebleu.sentence_ter(h, [a], case_sensitive=True).score for h, a in zip(wmt.hyp, wmt.ref_a)]
    np.testing.assert_allclose(out.ter_cs.to_numpy(), want, rtol=1e-12)
    want = [sacrebleu.sentence_chrf(h, [a], word_order=2).score for h, a in zip(wmt.hyp, wmt.ref_a)]
    np.testing.assert_allclose(out["chrF++"].to_numpy(), want, rtol=1e-12)
    named = score_frame(wmt, "hyp", "ref_a", metrics=[nm.CHRF()])
    assert list(named.columns) == ["chrF"]


def test_missing_reference_cells_give_variable_references(wmt):
    df = wmt.copy()
    df.loc[df.index[::3], "ref_b"] = np.nan
    out = score_frame(df, "hyp", ["ref_a", "ref_b"], metrics=["chrf"])
    refs = [[a] if isinstance(b, float) else [a, b] for a, b in zip(df.ref_a, df.ref_b)]
    want = [sacrebleu.sentence_chrf(h, r).score for h, r in zip(df.hyp, refs)]
    np.testing.assert_allclose(out.chrf.to_numpy(), want, rtol=1e-12)
    assert nm.bleu(df.hyp, df[["ref_a", "ref_b"]]).signature.as_dict()["nrefs"] == "var"


def test_corpus_frame_by_system(wmt):
    out = corpus_frame(wmt, "hyp", ["ref_a", "ref_b"], metrics=["bleu", "chrf"], by="system")
    assert list(out.index) == ["DLUT", "HuaweiTSC"]
    for system, part in wmt.groupby("system"):
        streams = [list(part.ref_a), list(part.ref_b)]
        assert out.loc[system, "bleu"] == pytest.approx(sacrebleu.corpus_bleu(list(part.hyp), streams).score, rel=1e-12)
        assert out.loc[system, "chrf"] == pytest.approx(sacrebleu.corpus_chrf(list(part.hyp), streams).score, rel=1e-12)
    whole = corpus_frame(wmt, "hyp", "refs", metrics="chrf")
    assert whole.shape == (1, 1)


def test_classification_accepts_series(corpora):
    df = pd.read_csv(corpora / "classification_sklearn" / "iris_oof.csv")
    df.index = df.index + 100
    y_pred = df[["p_0", "p_1", "p_2"]].to_numpy().argmax(axis=1)
    pred = pd.Series(y_pred, index=df.index[::-1])  # labels read by position, like scikit-learn
    assert nm.classification.accuracy_score(df.y_true, pred) == skm.accuracy_score(df.y_true, pred)
    assert nm.classification.f1_score(df.y_true, pred, average="macro") == skm.f1_score(df.y_true, pred, average="macro")


def test_errors_on_tables_and_missing_values(wmt):
    with pytest.raises(InputTypeError, match="not a table"):
        nm.bleu(wmt[["hyp"]], wmt.refs)
    bad = wmt.hyp.copy()
    bad.iloc[4] = np.nan
    with pytest.raises(InputTypeError, match=r"predictions\[4\].*missing value"):
        nm.chrf(bad, wmt.refs)
    refs = wmt.ref_a.copy()
    refs.iloc[2] = None
    with pytest.raises(MissingReferenceError, match=r"references\[2\] is missing"):
        nm.chrf(wmt.hyp, refs)
    with pytest.raises(LengthMismatchError):
        nm.chrf(wmt.hyp, wmt.refs.iloc[:-1])
    with pytest.raises(InvalidOptionError, match="no column 'nope'"):
        score_frame(wmt, "nope", "refs", metrics=["chrf"])
    with pytest.raises(InvalidOptionError, match="unknown metric"):
        score_frame(wmt, "hyp", "refs", metrics=["no-such-metric"])
    with pytest.raises(InvalidOptionError, match="both write column"):
        score_frame(wmt, "hyp", "refs", metrics=["chrf", "chrf"])


@pytest.mark.parametrize(
    "make",
    [
        lambda: nm.BLEU(flavour="nltk", smoothing="method1"),
        lambda: nm.BLEU(flavour="coco"),
        lambda: nm.ROUGE("rouge155"),
        lambda: nm.ROUGE("coco"),
        lambda: nm.ROUGE(tokenizer="unicode"),
        lambda: nm.CIDEr(flavour="cider"),
        lambda: nm.NIST(flavour="nltk", zero_division="zero"),
        lambda: nm.WER(transform="standardize", multi_ref="best"),
    ],
    ids=["bleu-nltk", "bleu-coco", "rouge155", "rouge-coco", "rouge-unicode", "cider", "nist-nltk", "wer-standardize"],
)
def test_other_flavours_take_series(wmt, make):
    hyps, refs = _as_lists(wmt)
    metric = make()
    assert metric.corpus_score(wmt.hyp, wmt[["ref_a", "ref_b"]]).score == metric.corpus_score(hyps, refs).score
    np.testing.assert_array_equal(metric.sentence_scores(wmt.hyp.to_numpy(), wmt.refs), metric.sentence_scores(hyps, refs))


def test_token_lists_coverage_and_perplexity_take_series():
    tokens = pd.Series([["the", "cat", "sat"], ["a", "cat", "ran"]], index=[4, 0])
    refs = pd.Series([[["the", "cat", "sat", "down"]], [["the", "cat", "ran"]]], index=[1, 9])
    nltk = nm.BLEU(flavour="nltk", smoothing="method1")
    assert nltk.corpus_score(tokens, refs).score == nltk.corpus_score(list(tokens), list(refs)).score
    assert nm.SelfBLEU(n=2).corpus_score(tokens).score == nm.SelfBLEU(n=2).corpus_score(list(tokens)).score
    mrs = pd.Series(["name[Blue Spice], eatType[coffee shop]", "name[Aromi], area[riverside]"])
    texts = pd.Series(["Blue Spice is a pub.", "Aromi is by the riverside."])
    assert nm.coverage(texts, mrs).score == nm.coverage(list(texts), list(mrs)).score == 0.75
    logprobs = pd.Series([np.log([0.5, 0.25]), np.log([0.5])])
    assert nm.perplexity(logprobs).score == nm.perplexity(list(logprobs)).score
