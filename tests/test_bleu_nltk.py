"""BLEU, nltk flavour: parity with nltk 3.10.4 ``corpus_bleu`` / ``sentence_bleu``."""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

import nlgmetrics
from nlgmetrics import BLEU, NltkBLEU, _core
from nlgmetrics.errors import (
    IncompatibleStatsError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
)

from conftest import read_lines

WEIGHTS = [
    (0.25, 0.25, 0.25, 0.25),
    (0.5, 0.5),
    (1 / 3, 1 / 3, 1 / 3),
    (0.1, 0.2, 0.3, 0.2, 0.2),
    [(0.25, 0.25, 0.25, 0.25), (1.0,), (0.5, 0.5)],
]


def close(a, b, rel=1e-9):
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.atleast_1d(np.asarray(b, dtype=float))
    return a.shape == b.shape and bool(np.all((a == b) | (np.abs(a - b) <= rel * np.maximum(np.abs(a), np.abs(b)))))


def nltk_call(fn, *args, method=0, **kw):
    """The reference, with its method0 warnings silenced and its exceptions captured."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, smoothing_function=getattr(SmoothingFunction(), f"method{method}"), **kw)
        except (AssertionError, IndexError, ZeroDivisionError) as e:
            return e


def ours(hyps, refs, method, weights, auto_reweigh=False, sentence=False):
    try:
        m = BLEU(flavour="nltk", weights=weights, smoothing=f"method{method}", auto_reweigh=auto_reweigh, n_threads=2)
        if sentence:
            return m.sentence_scores(hyps, refs)
        return m.corpus_score(hyps, refs).scores
    except (InvalidInputError, InvalidOptionError) as e:
        return e


def agree(expected, got) -> bool:
    if isinstance(got, InvalidOptionError):
        # method6 with fewer than 3 orders is rejected up front; nltk raises IndexError
        # unless the corpus has no unigram match (then it returns 0 before smoothing).
        return "method6" in str(got)
    if isinstance(expected, Exception):
        return isinstance(got, InvalidInputError)
    if isinstance(got, Exception):
        return False
    return close(expected, got)


@pytest.fixture(scope="module")
def wmt(corpora):
    """WMT22 zh-en, 13a-tokenized then whitespace-split (a deterministic 400-line slice)."""
    d = corpora / "wmt22" / "zh-en"
    refs_a = read_lines(d / "generaltest2022.zh-en.ref.A.en")
    refs_b = read_lines(d / "generaltest2022.zh-en.ref.B.en")
    systems = sorted((d / "system-outputs").iterdir())
    idx = list(range(0, len(refs_a), max(1, len(refs_a) // 400)))[:400]

    def tok(lines):
        return [s.split() for s in _core.tokenize("13a", [lines[i] for i in idx])]

    refs = [list(r) for r in zip(tok(refs_a), tok(refs_b))]
    return {p.name.split(".hyp.")[1][:-3]: tok(read_lines(p)) for p in systems[:3]}, refs


@pytest.mark.parametrize("method", range(8))
@pytest.mark.parametrize("weights", WEIGHTS, ids=lambda w: str(w)[:20])
def test_corpus_parity_wmt22(wmt, method, weights):
    systems, refs = wmt
    for name, hyps in systems.items():
        expected = nltk_call(corpus_bleu, refs, hyps, weights, method=method)
        got = ours(hyps, refs, method, weights)
        assert agree(expected, got), (name, expected, got)


@pytest.mark.parametrize("method", range(8))
def test_sentence_parity_wmt22(wmt, method):
    systems, refs = wmt
    hyps = next(iter(systems.values()))[:150]
    rr = refs[:150]
    for weights in ((0.25, 0.25, 0.25, 0.25), (0.5, 0.5)):
        if method == 6 and len(weights) < 3:
            continue  # rejected up front (test_errors)
        expected = [nltk_call(sentence_bleu, r, h, weights, method=method) for r, h in zip(rr, hyps)]
        if any(isinstance(e, Exception) for e in expected):
            # nltk raises for one of the segments: so do we.
            assert isinstance(ours(hyps, rr, method, weights, sentence=True), InvalidInputError)
            ok = [i for i, e in enumerate(expected) if not isinstance(e, Exception)]
            got = ours([hyps[i] for i in ok], [rr[i] for i in ok], method, weights, sentence=True)
            expected = [expected[i] for i in ok]
        else:
            got = ours(hyps, rr, method, weights, sentence=True)
        assert close(expected, got), method


def test_auto_reweigh_and_spec_examples():
    h, r = ["hello", "world"], [["hello", "world"]]
    assert ours([h], [r], 0, (0.25,) * 4, auto_reweigh=True)[0] == 1.0
    assert close(ours([h], [r], 0, (0.25,) * 4)[0], nltk_call(corpus_bleu, [r], [h]))
    # A *list* of 0.25s is not reweighed by nltk (tuple comparison): same here.
    assert close(ours([h], [r], 0, [0.25] * 4, auto_reweigh=True), nltk_call(corpus_bleu, [r], [h], [0.25] * 4, auto_reweigh=True))
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands".split(),
        "It is the guiding principle which guarantees the military forces always being under the command of the Party".split(),
        "It is the practical guide for the army always to heed the directions of the party".split(),
    ]
    assert close(BLEU(flavour="nltk").corpus_score([hyp], [refs]).score, sentence_bleu(refs, hyp))
    assert round(BLEU(flavour="nltk").corpus_score([hyp], [refs]).score, 4) == 0.5046
    assert nlgmetrics.nltk_sentence_bleu(refs, hyp, smoothing="method4") == sentence_bleu(refs, hyp, smoothing_function=SmoothingFunction().method4)


words = st.sampled_from(["a", "b", "c", "d", "the", "cat", "猫", "Cat", "e"])
sentences = st.lists(words, min_size=0, max_size=9)


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(st.tuples(sentences, st.lists(sentences, min_size=1, max_size=3)), min_size=1, max_size=5),
    method=st.integers(0, 7),
    weights=st.sampled_from(WEIGHTS),
    reweigh=st.booleans(),
)
def test_hypothesis_parity(data, method, weights, reweigh):
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    expected = nltk_call(corpus_bleu, refs, hyps, weights, method=method, auto_reweigh=reweigh)
    got = ours(hyps, refs, method, weights, auto_reweigh=reweigh)
    if isinstance(expected, (int, float)) and not isinstance(expected, Exception):
        expected = [expected] * (len(weights) if isinstance(weights, list) else 1) if expected == 0 else expected
    assert agree(expected, got), (data, method, expected, got)
    sent = [nltk_call(sentence_bleu, r, h, weights, method=method, auto_reweigh=reweigh) for h, r in data]
    if not any(isinstance(e, Exception) for e in sent):
        got_s = ours(hyps, refs, method, weights, auto_reweigh=reweigh, sentence=True)
        if isinstance(got_s, InvalidOptionError):
            # method6 with fewer than 3 orders is rejected up front (see agree()), even
            # where every sentence has no unigram match and nltk returns 0 early.
            assert method == 6 and "method6" in str(got_s), got_s
            return
        several = isinstance(weights, list)
        exp_s = np.array([[x] * len(weights) if several and x == 0 else x for x in sent], dtype=float)
        assert close(exp_s.reshape(np.shape(got_s)), got_s)


@pytest.mark.parametrize("hyp", [[], ["a"], ["a", "b"], ["a", "b", "c"], ["x"]])
@pytest.mark.parametrize("method", range(8))
def test_short_hypotheses(hyp, method):
    refs = [["a", "b", "c", "d", "e"], ["a", "b"]]
    for w in ((0.25,) * 4, (0.5, 0.5)):
        expected = nltk_call(sentence_bleu, refs, hyp, w, method=method)
        got = ours([hyp], [refs], method, w)
        assert agree(expected, got if isinstance(got, Exception) else got[0]), (hyp, method, expected, got)


def test_strings_equal_token_lists():
    hyps = ["the cat  sat\ton the mat", "a b"]
    refs = [["the cat is on the mat", "there is a cat on the mat"], ["a b c"]]
    m = BLEU(flavour="nltk", smoothing="method3")
    toks = m.corpus_score([h.split() for h in hyps], [[r.split() for r in rs] for rs in refs]).score
    assert m.corpus_score(hyps, refs).score == toks


def test_order_dependence_of_tail_and_merge():
    hyps = [s.split() for s in ["the cat sat on the mat today", "a b c d e f g", "hello world"]]
    refs = [[s.split()] for s in ["the cat sat on the mat", "a b c d e f", "hello there world"]]
    for method in (5, 6, 7, 3):
        m = BLEU(flavour="nltk", smoothing=f"method{method}")
        expected = nltk_call(corpus_bleu, refs, hyps, method=method)
        if isinstance(expected, Exception):
            continue
        seg = m.stats(hyps, refs)
        # Any contiguous sharding merged in order gives nltk's number.
        for cut in range(len(hyps) + 1):
            total = seg.take(range(cut)).total() + seg.take(range(cut, len(hyps))).total()
            assert close(m.score_stats(total).score, expected)
        # Streaming in order equals the corpus call.
        s = BLEU(flavour="nltk", smoothing=f"method{method}")
        for i in range(len(hyps)):
            s.update(hyps[i:i + 1], refs[i:i + 1])
        assert close(s.compute().score, expected)
        # Counts merge associatively/commutatively; the tail is the later shard's.
        a, b, c = (seg.row(i) for i in range(3))
        assert ((a + b) + c) == (a + (b + c))
        assert np.array_equal((a + b).counts, (b + a).counts)
        assert (a + 0) == a and pickle.loads(pickle.dumps(a + b)) == a + b


def test_threads_and_pairwise(wmt):
    systems, refs = wmt
    hyps = next(iter(systems.values()))[:60]
    r = refs[:60]
    a = BLEU(flavour="nltk", smoothing="method7", n_threads=1).sentence_scores(hyps, r)
    b = BLEU(flavour="nltk", smoothing="method7", n_threads=2).sentence_scores(hyps, r)
    assert np.array_equal(a, b)
    texts = [" ".join(h) for h in hyps[:8]]
    m = BLEU(flavour="nltk", smoothing="method1")
    pw = m.pairwise(texts, texts)
    for i in range(8):
        for j in range(8):
            assert pw[i, j] == m.sentence_scores([texts[i]], [texts[j]])[0]


def test_several_weights_and_signature():
    m = BLEU(flavour="nltk", weights=[(0.5, 0.5), (1.0,)], smoothing="method1")
    s = m.corpus_score(["a b c"], [["a b d"]])
    assert len(s.scores) == 2 and s.score == s.scores[0]
    assert m.sentence_scores(["a b c", "x"], ["a b d", "x"]).shape == (2, 2)
    sig = str(s.signature)
    assert "flavour:nltk" in sig and "smooth:method1[eps=0.1]" in sig and "weights:0.5,0.5;1" in sig
    assert isinstance(m, NltkBLEU) and "nltk" in BLEU.flavours
    assert nlgmetrics.load("bleu", flavour="nltk").flavour == "nltk"
    with pytest.raises(InvalidOptionError):
        m.pairwise(["a"], ["a"])


def test_errors():
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="nltk", smoothing="method8")
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="nltk", weights=(0.5, math.nan))
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="nltk", weights=(0.5, 0.5), smoothing="method6")
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="nltk", smoothing="method6", alpha=0)
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="nltk", k=-1)
    m = BLEU(flavour="nltk")
    with pytest.raises(LengthMismatchError):
        m.corpus_score([["a"]], [])
    with pytest.raises(InputTypeError):
        m.corpus_score([["a"]], [["a", "b"]])  # flat strings where token lists are needed
    with pytest.raises(InputTypeError):
        m.corpus_score([["a", 1]], [[["a"]]])
    with pytest.raises(InvalidTextError):
        m.corpus_score([["a\ud800"]], [[["a"]]])
    with pytest.raises(InvalidTextError):
        m.corpus_score(["a\ud800"], ["a"])
    with pytest.raises(MissingReferenceError):
        m.corpus_score([["a"]], [[]])
    with pytest.raises(MissingReferenceError):
        m.corpus_score(["a"], [[]])
    with pytest.raises(InvalidInputError):
        BLEU(flavour="nltk", smoothing="method6").corpus_score(["a b"], ["a b"])
    with pytest.raises(IncompatibleStatsError):
        BLEU(flavour="nltk").state + BLEU(flavour="nltk", smoothing="method1").state


@pytest.mark.parametrize("epsilon,alpha,k", [(0.5, 5.0, 3), (0.01, 2, 2.5), (1, 7.5, 10)])
def test_smoothing_parameters_and_types(wmt, epsilon, alpha, k):
    """A float alpha makes nltk's method6 float arithmetic, an int keeps it exact: both copied."""
    systems, refs = wmt
    hyps, refs = next(iter(systems.values()))[:200], refs[:200]
    for method in (1, 4, 6, 7):
        for weights in ((0.25,) * 4, (0.2,) * 5):
            fn = getattr(SmoothingFunction(epsilon=epsilon, alpha=alpha, k=k), f"method{method}")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = corpus_bleu(refs, hyps, weights, smoothing_function=fn)
                sent = [sentence_bleu(r, h, weights, smoothing_function=fn) for r, h in zip(refs[:40], hyps[:40])] if method != 6 else None
            m = BLEU(flavour="nltk", weights=weights, smoothing=method, epsilon=epsilon, alpha=alpha, k=k)
            assert close(expected, m.corpus_score(hyps, refs).score), (method, weights)
            if sent is not None:
                assert close(sent, m.sentence_scores(hyps[:40], refs[:40]))
