"""Algebra of BLEU statistics: merging, sharding, pairwise, threads, pickling; and
sacrebleu parity on random inputs with the documented edge cases."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU as RefBLEU

import nlgmetrics
from nlgmetrics import BLEU, references_by_segment

WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "The", "a", ".", ",", "dog", "我", "爱", "猫", "İstanbul", ""])
SENT = st.lists(WORDS, max_size=12).map(" ".join)
SEGMENT = st.tuples(SENT, st.lists(SENT, min_size=1, max_size=3))
CORPUS = st.lists(SEGMENT, min_size=1, max_size=12)
SMOOTH = st.sampled_from([("exp", None), ("floor", None), ("add-k", None), ("none", None), ("floor", 0.3), ("add-k", 2)])


def rel_close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


@settings(max_examples=300, deadline=None)
@given(CORPUS, SMOOTH, st.booleans(), st.booleans(), st.sampled_from(["13a", "zh", "intl", "char", "none"]))
def test_random_corpora_match_sacrebleu(corpus, smooth, eff, lc, tok):
    hyps = [h for h, _ in corpus]
    refs = references_by_segment([r for _, r in corpus])  # generated lists: per segment by construction
    method, value = smooth
    ours = BLEU(tokenize=tok, lowercase=lc, smooth_method=method, smooth_value=value, effective_order=eff)
    ref = RefBLEU(tokenize=tok, lowercase=lc, smooth_method=method, smooth_value=value, effective_order=eff)
    # sacrebleu's stream layout; pad variable reference counts with None as it expects.
    width = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
    want = ref.corpus_score(hyps, streams)
    got = ours.corpus_score(hyps, refs)
    assert rel_close(got.score, want.score)
    assert got.counts == want.counts and got.totals == want.totals
    assert got.signature.format().rsplit("|", 1)[0] == ref.get_signature().format().rsplit("|", 1)[0]
    sent = ours.sentence_scores(hyps, refs)
    for h, r, s in zip(hyps, refs, sent):
        assert rel_close(s, ref.sentence_score(h, r).score)


@settings(max_examples=100, deadline=None)
@given(CORPUS, st.data())
def test_any_sharding_gives_the_same_score(corpus, data):
    hyps = [h for h, _ in corpus]
    refs = references_by_segment([r for _, r in corpus])  # generated lists: per segment by construction
    bleu = BLEU()
    whole = bleu.corpus_score(hyps, refs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(hyps)), max_size=4)))
    bounds = [0, *cuts, len(hyps)]
    shards = [bleu.stats(hyps[a:b], references_by_segment(refs[a:b])).total() for a, b in zip(bounds, bounds[1:])]
    merged = sum(shards)
    assert bleu.score_stats(merged).score == whole.score
    assert merged == whole.stats
    # Order of merging does not matter, and zero is the identity.
    assert sum(reversed(shards)) == merged
    assert merged + bleu.zero() == merged
    if len(shards) >= 3:
        a, b, c = shards[:3]
        assert (a + b) + c == a + (b + c)


@settings(max_examples=60, deadline=None)
@given(st.lists(SENT, min_size=1, max_size=6), st.lists(SENT, min_size=1, max_size=6), SMOOTH, st.booleans())
def test_pairwise_equals_sentence_scores(cands, refs, smooth, eff):
    bleu = BLEU(smooth_method=smooth[0], smooth_value=smooth[1], effective_order=eff)
    m = bleu.pairwise(cands, refs)
    assert m.shape == (len(cands), len(refs))
    for i, c in enumerate(cands):
        row = bleu.sentence_scores([c] * len(refs), [[r] for r in refs])
        assert np.array_equal(m[i], row)


def test_threads_do_not_change_results():
    hyps = [f"the cat {i} sat on the mat {i % 7} ." for i in range(3000)]
    refs = [[f"the cat sat on {i % 5} mats .", f"a cat {i} sat"] for i in range(3000)]
    base = BLEU(n_threads=1).stats(hyps, refs).counts
    for n in (2, 3, 8):
        assert np.array_equal(BLEU(n_threads=n).stats(hyps, refs).counts, base)
    assert np.array_equal(BLEU(n_threads=3).pairwise(hyps[:300], hyps[:200]), BLEU(n_threads=1).pairwise(hyps[:300], hyps[:200]))


def test_streaming_and_pickle():
    hyps = ["the cat sat on the mat", "a dog ran", "hello world"]
    refs = [["the cat is on the mat"], ["the dog ran away"], ["hello there world"]]
    bleu = BLEU()
    bleu.update(hyps[:2], refs[:2])
    other = pickle.loads(pickle.dumps(BLEU().update(hyps[2:], refs[2:])))
    bleu.merge(other)
    assert bleu.compute().score == nlgmetrics.bleu(hyps, refs).score
    state = pickle.loads(pickle.dumps(bleu.state))
    assert state == bleu.state
    assert bleu.compute(predictions=hyps, references=refs).score == nlgmetrics.bleu(hyps * 2, refs * 2).score
    assert bleu.reset().state == bleu.zero()


def test_rescoring_statistics_with_other_smoothing():
    hyps, refs = ["the cat sat down quickly"], [["the cat ran down the road quickly"]]
    stats = BLEU().stats(hyps, refs)
    expected = {"none": 0.0, "floor": 9.057365, "add-k": 27.087841, "exp": 17.030578}
    for method, want in expected.items():
        got = BLEU(smooth_method=method, effective_order=True).score_stats(stats).score
        assert got == pytest.approx(want, abs=1e-6)


def test_documented_edge_cases():
    assert nlgmetrics.bleu([""], [["a b c"]]).bp == 0.0
    assert nlgmetrics.bleu([""], [[""]]).score == 0.0
    assert nlgmetrics.sentence_bleu(["cat"], [["cat"]])[0] == pytest.approx(100.0)
    assert BLEU().sentence_scores(["cat"], [["cat"]])[0] == 0.0
    multi = nlgmetrics.bleu(["the cat is on the mat"], [["the cat sat on the mat", "there is a cat on the mat"]])
    assert round(multi.score, 2) == 39.76
    # Ties in reference length go to the shorter reference.
    s = BLEU().stats(["a b c"], [["a b", "a b c d"]])
    assert int(s.counts[0, 1]) == 2
