"""``nlgmetrics.compat.evaluate``: the result dicts of evaluate's metric scripts.

evaluate itself is not installed (its scripts come from the Hub at run time), so each
name is checked against what its script computes with the library it wraps: scikit-learn
for accuracy/f1/precision/recall, rouge-score (with numpy's global generator) for rouge,
sacrebleu and jiwer for the others.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, scoring

from nlgmetrics.compat import evaluate
from nlgmetrics.errors import InvalidOptionError

labels = st.lists(st.integers(0, 2), min_size=1, max_size=30)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), y_true=labels)
def test_classification_dicts(data, y_true):
    y_pred = data.draw(st.lists(st.integers(0, 2), min_size=len(y_true), max_size=len(y_true)))
    assert evaluate.load("accuracy").compute(predictions=y_pred, references=y_true) == {"accuracy": float(skm.accuracy_score(y_true, y_pred))}
    for name, fn in (("f1", skm.f1_score), ("precision", skm.precision_score), ("recall", skm.recall_score)):
        for average in ("macro", "micro", "weighted", None):
            kw = {} if name == "f1" else {"zero_division": 0}
            got = evaluate.load(name).compute(predictions=y_pred, references=y_true, average=average, **kw)
            want = fn(y_true, y_pred, average=average, **kw)
            if np.size(want) == 1:
                assert got == {name: float(np.ravel(want)[0])}
            else:
                np.testing.assert_array_equal(got[name], want)


def test_binary_defaults_and_accumulation():
    m = evaluate.load("f1")
    m.add_batch(predictions=[0, 1], references=[0, 1])
    m.add(prediction=1, reference=0)
    assert m.compute() == {"f1": float(skm.f1_score([0, 1, 0], [0, 1, 1]))}
    assert evaluate.load("accuracy").compute(predictions=[1, 0], references=[1, 1], normalize=False) == {"accuracy": 1.0}


def test_rouge_as_evaluates_script():
    preds = ["the cat sat on the mat", "a dog barked loudly", "hello there"]
    refs = ["the cat is on the mat", "the dog barked", "general kenobi"]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types)
    agg = scoring.BootstrapAggregator()
    for r, p in zip(refs, preds):
        agg.add_scores(scorer.score(r, p))
    np.random.seed(11)
    want = {k: v.mid.fmeasure for k, v in agg.aggregate().items()}
    np.random.seed(11)
    got = evaluate.load("rouge").compute(predictions=preds, references=refs)
    assert repr(got) == repr(want)
    per = evaluate.load("rouge").compute(predictions=preds, references=[[r, "x"] for r in refs], use_aggregator=False, use_stemmer=True)
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=True)
    assert per == {k: [scorer.score_multi([r, "x"], p)[k].fmeasure for r, p in zip(refs, preds)] for k in types}
    tok = evaluate.load("rouge").compute(predictions=preds, references=refs, tokenizer=str.split, use_aggregator=False, rouge_types=["rouge1"])
    assert tok["rouge1"][0] == 2 * (5 / 6) * (5 / 6) / (5 / 6 + 5 / 6)


def test_sacrebleu_chrf_ter_wer_cer():
    preds = ["The cat sat on the mat.", "It is raining"]
    refs = [["The cat is on the mat.", "A cat sat on a mat."], ["It rains.", "Rain is falling"]]
    streams = [list(x) for x in zip(*refs)]
    got = evaluate.load("sacrebleu").compute(predictions=preds, references=refs)
    want = sacrebleu.corpus_bleu(preds, streams)
    assert got["score"] == want.score and got["counts"] == want.counts and got["bp"] == want.bp
    assert evaluate.load("chrf").compute(predictions=preds, references=refs, word_order=2)["score"] == sacrebleu.corpus_chrf(preds, streams, word_order=2).score
    assert evaluate.load("ter").compute(predictions=preds, references=refs)["score"] == sacrebleu.corpus_ter(preds, streams).score
    import jiwer

    assert evaluate.load("wer").compute(predictions=preds, references=[r[0] for r in refs]) == jiwer.wer([r[0] for r in refs], preds)
    assert evaluate.load("cer").compute(predictions=preds, references=[r[0] for r in refs]) == jiwer.cer([r[0] for r in refs], preds)
    with pytest.raises(ValueError, match="same number of references"):
        evaluate.load("sacrebleu").compute(predictions=preds, references=[refs[0], refs[1][:1]])


def test_names_not_covered_say_so():
    for name in ("bleu", "google_bleu", "meteor", "exact_match", "bertscore", "evaluate-metric/bleu"):
        with pytest.raises(InvalidOptionError, match="not covered"):
            evaluate.load(name)
    with pytest.raises(InvalidOptionError, match="covered: accuracy"):
        evaluate.load("perplexityx")
    assert repr(evaluate.load("evaluate-metric/rouge")) == 'EvaluationModule(name: "rouge")'
