"""The one-call functions take the reference programs' keyword names, refuse an ambiguous
mix, and warn when both texts are positional where the reference program puts the
references first (jiwer, rouge-score, nltk, pycocoevalcap): a call ported with the
anchor's argument order never changes a number silently."""

from __future__ import annotations

import inspect
import warnings

import jiwer
import pytest
from conftest import read_lines
from rouge_score import rouge_scorer

import nlgmetrics as nm
from nlgmetrics._orientation import PREDICTION_NAMES, REFERENCE_NAMES, ArgumentOrderWarning
from nlgmetrics.errors import UnknownOptionError


@pytest.fixture(scope="module")
def zh_en(corpora):
    d = corpora / "wmt22" / "zh-en"
    refs = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:300]
    hyps = read_lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.Online-B.en")[:300]
    return hyps, refs


@pytest.mark.parametrize("name", ["wer", "cer", "mer", "wil", "wip"])
def test_jiwer_keywords_give_jiwers_number(name, zh_en):
    hyps, refs = zh_en
    want = getattr(jiwer, name)(reference=refs, hypothesis=hyps)
    ours = getattr(nm, name)
    assert ours(reference=refs, hypothesis=hyps).score == pytest.approx(want, rel=1e-12)
    assert ours(hypothesis=hyps, reference=refs).score == pytest.approx(want, rel=1e-12)
    assert ours(references=refs, hypotheses=hyps).score == pytest.approx(want, rel=1e-12)
    assert ours(truth=refs, hypothesis=hyps).score == pytest.approx(want, rel=1e-12)  # jiwer 2's name
    assert ours(predictions=hyps, references=refs).score == pytest.approx(want, rel=1e-12)
    # the jiwer habit, positional: warned, and read as (predictions, references)
    with pytest.warns(ArgumentOrderWarning, match="jiwer takes the references first"):
        swapped = ours(refs, hyps).score
    assert swapped == pytest.approx(getattr(jiwer, name)(reference=hyps, hypothesis=refs), rel=1e-12)
    if name == "wer":
        assert swapped != pytest.approx(want)  # the number the warning is about


def test_ambiguous_calls_are_refused():
    refs, hyps = ["a b c"], ["a b d"]
    with pytest.raises(UnknownOptionError):
        nm.wer(refs, hypothesis=hyps)  # jiwer's wer(reference, hypothesis=...) habit
    with pytest.raises(UnknownOptionError):
        nm.wer(hyps, refs, references=refs)
    with pytest.raises(UnknownOptionError):
        nm.wer(reference=refs, references=refs, hypothesis=hyps)
    with pytest.raises(UnknownOptionError):
        nm.wer(hypothesis=hyps)
    with pytest.raises(TypeError):
        nm.wer(hyps, refs, "x")
    # one positional (the predictions) plus the references by keyword is nlgmetrics' order
    assert nm.wer(hyps, reference=refs).score == jiwer.wer(reference=refs, hypothesis=hyps)


def test_rouge_score_keywords(zh_en):
    hyps, refs = zh_en
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    want = [scorer.score(target=r, prediction=h)["rouge1"].fmeasure for r, h in zip(refs[:50], hyps[:50])]
    s = nm.rouge(target=[[r] for r in refs[:50]], prediction=hyps[:50], rouge_types=["rouge1"])
    assert s.score == pytest.approx(sum(want) / len(want), rel=1e-12)
    with pytest.warns(ArgumentOrderWarning, match="rouge-score"):
        nm.rouge(hyps[:5], [[r] for r in refs[:5]])


def test_warnings_only_where_the_anchor_orders_differently():
    hyps, refs = ["the cat sat on the mat"], [["the cat is on the mat"]]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ArgumentOrderWarning)
        nm.bleu(hyps, refs)  # sacrebleu: corpus_bleu(hypotheses, references)
        nm.chrf(hyps, refs)
        nm.ter(hyps, refs)
        nm.sentence_bleu(hyps, refs)
    with pytest.warns(ArgumentOrderWarning, match="nltk"):
        nm.bleu(hyps, refs, flavour="nltk")
    with pytest.warns(ArgumentOrderWarning, match="pycocoevalcap"):
        nm.cider_score(hyps * 2, refs * 2)
    # keywords silence it
    with warnings.catch_warnings():
        warnings.simplefilter("error", ArgumentOrderWarning)
        nm.bleu(predictions=hyps, references=refs, flavour="nltk")
        nm.wer(predictions=["a b"], references=["a c"])


def test_every_top_level_pair_function_is_oriented():
    # introspection: each exported function of (predictions, references, **options) takes
    # the anchors' names, so a new one cannot be added without them
    found = []
    for name in dir(nm):
        fn = getattr(nm, name, None)
        if not inspect.isfunction(fn):
            continue
        params = list(inspect.signature(fn).parameters)
        # (the neural functions take bert_score's / BLEURT's own order, predictions first)
        if params[:2] == ["predictions", "references"] and params[2:] in ([], ["options"]) and ".neural." not in fn.__module__:
            found.append(name)
            assert hasattr(fn, "__wrapped_orientation__"), name
    assert {"wer", "cer", "rouge", "bleu", "cider_score", "meteor", "nist", "chrf", "ter", "per"} <= set(found)
    assert not set(PREDICTION_NAMES) & set(REFERENCE_NAMES)
