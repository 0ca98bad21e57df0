"""BLEU, sacrebleu flavour: statistics and scores identical to sacrebleu 2.6.0 on every
WMT22 pair and system, with every tokenizer, both casings, 1 and 2 references, and
every smoothing method at corpus and sentence level."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU as RefBLEU

import nlgmetrics
from wmt import PAIRS, by_segment, load_pair

TOKENIZERS = ("13a", "intl", "zh", "char", "none")
SMOOTHING = (("exp", None), ("floor", None), ("floor", 0.01), ("add-k", None), ("add-k", 0.5), ("none", None))


def rel_close(a: float, b: float, rel: float = 1e-9) -> bool:
    return a == b or abs(a - b) <= rel * max(abs(a), abs(b))


@pytest.fixture(scope="module", params=PAIRS)
def pair(request):
    return load_pair(request.param)


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_segment_statistics_identical(pair, tokenize):
    """Every system with all references; lowercasing and single references on two systems."""
    systems = list(pair.systems.items())
    combos = [(name, hyps, False, len(pair.refs)) for name, hyps in systems]
    for name, hyps in systems[:2]:
        combos += [(name, hyps, True, len(pair.refs)), (name, hyps, False, 1)]
    for name, hyps, lowercase, nref in combos:
        streams = pair.refs[:nref]
        ref = RefBLEU(tokenize=tokenize, lowercase=lowercase)
        ours = nlgmetrics.BLEU(tokenize=tokenize, lowercase=lowercase)
        want = np.array(ref._extract_corpus_statistics(hyps, streams), dtype=np.uint64)
        got = ours.stats(hyps, by_segment(streams)).counts
        assert got.shape == want.shape
        bad = np.nonzero((got != want).any(axis=1))[0]
        assert bad.size == 0, (
            f"{pair.name}/{name} tok={tokenize} lc={lowercase} nref={nref}: "
            f"{bad.size} segments differ, first {bad[0]}: {got[bad[0]]} vs {want[bad[0]]}"
        )


def test_scores_every_smoothing(pair):
    streams = pair.refs
    refs = by_segment(streams)
    for name, hyps in list(pair.systems.items()):
        seg = nlgmetrics.BLEU().stats(hyps, refs)
        sums = [int(x) for x in seg.counts.sum(axis=0)]
        for method, value in SMOOTHING:
            for eff in (False, True):
                metric = nlgmetrics.BLEU(smooth_method=method, smooth_value=value, effective_order=eff)
                got = metric.score_stats(seg)
                want = RefBLEU.compute_bleu(
                    correct=sums[2:6], total=sums[6:], sys_len=sums[0], ref_len=sums[1],
                    smooth_method=method, smooth_value=value, effective_order=eff,
                )
                assert rel_close(got.score, want.score), (pair.name, name, method, value, eff, got.score, want.score)
                assert got.bp == want.bp
                assert np.allclose(got.precisions, want.precisions, rtol=1e-12, atol=0)


def test_sentence_scores_every_smoothing(pair):
    streams = pair.refs[:1]
    refs = by_segment(streams)
    name, hyps = next(iter(pair.systems.items()))
    hyps, refs = hyps[:400], refs[:400]
    for method, value in SMOOTHING:
        for eff in (False, True):
            ref = RefBLEU(smooth_method=method, smooth_value=value, effective_order=eff)
            want = [ref.sentence_score(h, r).score for h, r in zip(hyps, refs)]
            got = nlgmetrics.BLEU(smooth_method=method, smooth_value=value, effective_order=eff).sentence_scores(hyps, refs)
            for i, (g, w) in enumerate(zip(got, want)):
                assert rel_close(g, w), (pair.name, method, value, eff, i, g, w)


def test_corpus_score_end_to_end(pair):
    tok = {"en-zh": "zh", "en-ja": "char"}.get(pair.name, "13a")
    for name, hyps in list(pair.systems.items())[:3]:
        want = sacrebleu.corpus_bleu(hyps, pair.refs, tokenize=tok)
        got = nlgmetrics.bleu(hyps, by_segment(pair.refs), tokenize=tok)
        assert rel_close(got.score, want.score)
        assert got.format() == want.format()
        bleu_ref = RefBLEU(tokenize=tok)
        bleu_ref.corpus_score(hyps, pair.refs)
        assert got.signature.format().rsplit("|", 1)[0] == bleu_ref.get_signature().format().rsplit("|", 1)[0]
        assert got.signature.format(short=True).rsplit("|", 1)[0] == bleu_ref.get_signature().format(short=True).rsplit("|", 1)[0]


def test_sentence_bleu_compat_defaults():
    # sacrebleu.sentence_bleu turns effective order on; nlgmetrics.sentence_bleu does too.
    h, r = "The cat sat on the mat.", ["The cat is sitting on the mat."]
    assert nlgmetrics.sentence_bleu([h], [r])[0] == sacrebleu.sentence_bleu(h, r).score
    assert math.isclose(sacrebleu.sentence_bleu(h, r).score, 42.383656282787796, rel_tol=1e-12)
