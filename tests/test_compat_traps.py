"""The parity traps of the specification (``reference-semantics.md``, ⚠), through the drop-in
modules: each input that trips an anchor's quirk gives the anchor's number (and type)."""

from __future__ import annotations

import jiwer
import numpy as np
import pytest
import sacrebleu
from pycocoevalcap.bleu.bleu import Bleu as AnchorBleu
from pycocoevalcap.cider.cider import Cider as AnchorCider
from rouge_score import rouge_scorer as anchor_rouge_scorer
from rouge_score import scoring as anchor_scoring

from nlgmetrics.compat import jiwer as compat_jiwer
from nlgmetrics.compat import sacrebleu as compat_sacrebleu
from nlgmetrics.compat.pycocoevalcap.bleu.bleu import Bleu
from nlgmetrics.compat.pycocoevalcap.cider.cider import Cider
from nlgmetrics.compat.rouge_score import rouge_scorer, scoring


@pytest.mark.parametrize("hyp,refs,kw", [
    ("a b", ["a c"], {"smooth_method": "add-k"}),  # add-k: smoothed counts/totals returned, empty orders k/k
    ("cat", ["dog"], {"smooth_method": "add-k", "smooth_value": 2}),
    ("the cat", ["the dog"], {"smooth_method": "none", "effective_order": True}),  # effective order drops totals of 0 only
    ("the cat sat", ["the dog sat"], {"smooth_method": "floor", "smooth_value": 0.3}),
    ("", ["a b"], {}),
])
def test_sacrebleu_bleu_traps(hyp, refs, kw):
    theirs = sacrebleu.BLEU(**kw)
    ours = compat_sacrebleu.BLEU(**kw)
    for a, b in ((ours.sentence_score(hyp, refs), theirs.sentence_score(hyp, refs)),
                 (ours.corpus_score([hyp], [[r] for r in refs]), theirs.corpus_score([hyp], [[r] for r in refs]))):
        assert (a.score, a.counts, a.totals, a.precisions, a.bp, str(a)) == (b.score, b.counts, b.totals, b.precisions, b.bp, str(b))


def test_rouge_score_traps():
    types = ["rougeL", "rougeLsum"]
    # no newline: rougeLsum is rougeL
    for s in (anchor_rouge_scorer.RougeScorer(types), rouge_scorer.RougeScorer(types)):
        got = s.score("the cat sat on the mat. it was warm", "the cat was on the mat. it sat warm")
        assert got["rougeL"] == got["rougeLsum"]
    # mid is the median of the bootstrap means, P, R and F resampled as separate columns
    pairs = [("the cat sat", "the cat"), ("a dog", "a big dog barked"), ("x y z", "x"), ("hello world", "hello there world")]
    results = []
    for rs, sc in ((anchor_rouge_scorer, anchor_scoring), (rouge_scorer, scoring)):
        np.random.seed(7)
        scorer, agg = rs.RougeScorer(["rouge1"]), sc.BootstrapAggregator(n_samples=200)
        for t, p in pairs:
            agg.add_scores(scorer.score(t, p))
        results.append(repr(agg.aggregate()["rouge1"]))
    assert results[0] == results[1]


def test_pycocoevalcap_traps():
    gts = {1: ["a b c d e"], 2: ["x y"], 3: ["p q r s t u"]}
    res = {1: ["a b c d e"], 2: [""], 3: ["p q r s u t"]}  # equal lengths: BP just below 1; empty guess: 1e-6 precision
    assert Bleu(4).compute_score(gts, res, verbose=0) == AnchorBleu(4).compute_score(gts, res, verbose=0)
    one = ({7: ["a man rides a horse"]}, {7: ["a man rides a horse"]})  # one image: idf log(1) = 0, CIDEr 0
    ours, theirs = Cider().compute_score(*one), AnchorCider().compute_score(*one)
    assert ours[0] == theirs[0] == 0.0 and list(ours[1]) == list(theirs[1])


def test_jiwer_traps():
    # an empty reference: wer is the insertion count, not a rate
    for module in (jiwer, compat_jiwer):
        out = module.process_words([""], ["a b c"])
        assert (out.wer, out.mer, out.wip) == (3.0, 1.0, 0.0)
    assert compat_jiwer.wer(["", ""], ["a", "b c"]) == jiwer.wer(["", ""], ["a", "b c"])
    # RemoveMultipleSpaces leaves a single tab or newline alone
    text = ["a\tb  c\nd"]
    assert compat_jiwer.RemoveMultipleSpaces()(text) == jiwer.RemoveMultipleSpaces()(text) == ["a\tb c\nd"]
