"""ROUGE, coco flavour: parity with pycocoevalcap 1.2's Rouge on the COCO captioning corpus."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pycocoevalcap.rouge.rouge import Rouge

from nlgmetrics import ROUGE
from nlgmetrics.errors import InvalidOptionError

SYSTEMS = ["mscoco__magic_result.tsv", "mscoco__zerocap_result.tsv", "flickr30k_model_to_mscoco__top_k_result_run_1.tsv"]


def simple_tokenize(s: str) -> str:
    """Lowercase and split punctuation off: the same pre-tokenized string goes to both."""
    return " ".join(re.findall(r"\w+|[^\w\s]", s.lower()))


@pytest.fixture(scope="module")
def references(corpora):
    refs = {}
    with open(corpora / "captioning_coco" / "references.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            refs[d["image_name"]] = d["references"]
    return refs


@pytest.mark.parametrize("system", SYSTEMS)
def test_corpus_parity(corpora, references, system):
    hyps, refs = [], []
    for line in (corpora / "captioning_coco" / "systems" / system).read_text(encoding="utf-8").splitlines():
        name, pred = line.split("\t", 1)
        hyps.append(simple_tokenize(pred))
        refs.append([simple_tokenize(r) for r in references[name]])
    gts = {i: r for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    want_avg, want = Rouge().compute_score(gts, res)
    metric = ROUGE("coco", tokenize="none")
    np.testing.assert_array_equal(metric.sentence_scores(hyps, refs), want)
    np.testing.assert_allclose(metric.corpus_score(hyps, refs).score, want_avg, rtol=1e-12)


tokens = st.sampled_from(["a", "man", "dog", "A", "", "riding", "horse", "the", "."])
caption = st.lists(tokens, max_size=10).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(hyp=caption, refs=st.lists(caption, min_size=1, max_size=4))
def test_hypothesis_parity(hyp, refs):
    want = Rouge().calc_score([hyp], refs)
    assert ROUGE("coco", tokenize="none").sentence_scores([hyp], [refs])[0] == want


def test_independent_maxima_and_beta():
    m = ROUGE("coco")
    s = m.corpus_score(["a man riding a horse"], [["a man rides a horse", "a horse"]])
    assert s.types["rougeL"].precision == 0.8 and s.types["rougeL"].recall == 1.0
    assert ROUGE("coco", beta=1.0).corpus_score(["a b"], ["a c"]).score == 0.5
    with pytest.raises(InvalidOptionError):
        ROUGE("coco", beta=-1)
