"""Perplexity from token log-probabilities: against a numpy reference."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nlgmetrics import Perplexity, perplexity
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError


def numpy_reference(rows, base=math.e):
    """Per text b**(-mean log p); corpus b**(-Σ log p / Σ T)."""
    per = np.array([base ** (-np.sum(r) / len(r)) for r in rows])
    corpus = base ** (-np.sum(np.concatenate(rows)) / sum(len(r) for r in rows))
    return per, corpus


@pytest.fixture(scope="module")
def logprobs():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 60, size=300)
    # Log-softmax of random logits: realistic log-probabilities.
    rows = []
    for n in lengths:
        logits = rng.normal(0, 3, size=(n, 50))
        lsm = logits - np.log(np.exp(logits - logits.max(1, keepdims=True)).sum(1, keepdims=True)) - logits.max(1, keepdims=True)
        rows.append(lsm[np.arange(n), rng.integers(0, 50, size=n)])
    return rows


@pytest.mark.parametrize("base", ["e", "2", "10"])
def test_numpy_parity(logprobs, base):
    b = {"e": math.e, "2": 2.0, "10": 10.0}[base]
    rows = [r / math.log(b) for r in logprobs]
    per, corpus = numpy_reference(rows, b)
    m = Perplexity(base=base)
    s = m.corpus_score(rows)
    assert s.score == pytest.approx(corpus, rel=1e-12)
    assert np.allclose(m.sentence_scores(rows), per, rtol=1e-12, atol=0)
    assert s.tokens == sum(len(r) for r in rows) and s.base == base
    assert s.mean_text_perplexity == pytest.approx(per.mean(), rel=1e-12)
    # The number does not depend on the base once inputs are in that base.
    assert s.score == pytest.approx(Perplexity().corpus_score(logprobs).score, rel=1e-12)


def test_padded_matrix_and_mask(logprobs):
    rows = logprobs[:20]
    width = max(len(r) for r in rows)
    mat = np.full((len(rows), width), -99.0)
    mask = np.zeros_like(mat, dtype=bool)
    for i, r in enumerate(rows):
        mat[i, :len(r)] = r
        mask[i, :len(r)] = True
    m = Perplexity()
    assert m.corpus_score(mat, mask).score == m.corpus_score(rows).score
    assert np.array_equal(m.sentence_scores(mat, mask), m.sentence_scores(rows))
    with pytest.raises(LengthMismatchError):
        m.corpus_score(mat, mask[:, :-1])
    with pytest.raises(InputTypeError):
        m.corpus_score(mat, mask.astype(int))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.floats(-30, 0), min_size=1, max_size=8), min_size=1, max_size=8), st.integers(0, 8))
def test_sharding_is_exact(rows, cut):
    m = Perplexity()
    seg = m.stats(rows)
    cut = min(cut, len(rows))
    a, b = seg.take(range(cut)).total(), seg.take(range(cut, len(rows))).total()
    assert m.score_stats(a + b).score == m.score_stats(b + a).score == m.corpus_score(rows).score
    s = Perplexity()
    s.update(rows[:cut]) if cut else None
    s.update(rows[cut:]) if cut < len(rows) else None
    assert s.compute().score == m.corpus_score(rows).score
    assert pickle.loads(pickle.dumps(a + b)) == a + b


def test_stability_and_edges():
    # exp of a mean NLL > 709 is beyond float range: inf, without OverflowError.
    s = perplexity([[-800.0, -900.0]])
    assert s.score == math.inf and s.mean_nll == 850.0
    # Huge token counts of moderate NLL: no overflow from summing probabilities.
    assert perplexity([np.full(1_000_000, -2.0)]).score == pytest.approx(math.exp(2.0), rel=1e-12)
    assert perplexity([[-math.inf, -1.0]]).score == math.inf
    per = Perplexity().sentence_scores([[], [-1.0]])
    assert math.isnan(per[0]) and per[1] == pytest.approx(math.e)
    assert perplexity([[0.0, 0.0]]).score == 1.0


def test_errors():
    with pytest.raises(InvalidInputError):
        perplexity([[-1.0, math.nan]])
    with pytest.raises(InvalidInputError):
        perplexity([[-1.0, 0.5]])
    with pytest.raises(InvalidInputError):
        perplexity([[]])
    with pytest.raises(InvalidOptionError):
        Perplexity(base=3)
    with pytest.raises(InputTypeError):
        perplexity("abc")
    with pytest.raises(InputTypeError):
        perplexity([[[-1.0]]])
    with pytest.raises(InvalidInputError):
        Perplexity().compute()
