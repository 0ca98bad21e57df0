"""Perplexity of a causal LM: against torchmetrics (same logits) and the strided-window
recipe of the transformers documentation, on a tiny GPT-2 built locally (random weights,
context 32 tokens) and English references from ../shared/corpora (WMT22 zh-en).

Tolerance 1e-6 on the log of perplexity (the mean NLL, about 5.4 nats here): both sides are
float32 torch (log_softmax here, softmax then log in torchmetrics, a float32 mean
cross-entropy in transformers), whose rounding is a few 1e-7 nats.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torchmetrics.text import Perplexity as TMPerplexity
from transformers import AutoModelForCausalLM

from conftest import CORPORA, read_lines
from neural_models import tiny_gpt2

from nlgmetrics import HFPerplexity, Perplexity, hf_perplexity
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError
from nlgmetrics.neural.hf_perplexity import windows

torch.set_num_threads(1)  # the suite shares few cores; thread barriers stall under load
RTOL = 1e-6
LOG_TOL = 1e-6


def assert_ppl_close(ours, theirs):
    np.testing.assert_allclose(np.log(ours), np.log(theirs), rtol=0, atol=LOG_TOL)
CONTEXT = 32


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory):
    return str(tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"), n_positions=CONTEXT))


@pytest.fixture(scope="module")
def texts():
    lines = read_lines(CORPORA / "wmt22" / "zh-en" / "generaltest2022.zh-en.ref.A.en")
    return [t for t in lines[:40] if t.strip()]


@pytest.fixture(scope="module")
def hf_model(gpt2):
    return AutoModelForCausalLM.from_pretrained(gpt2).eval()


def ids_of(metric, texts):
    return metric._ids(texts)


def documented_recipe(model, input_ids, max_length, stride):
    """The loop of "Perplexity of fixed-length models" (token-weighted version), verbatim
    in substance, for one text; returns (its ppl, per-window (loss, n_scored, trg_len))."""
    encodings = torch.tensor([input_ids])
    seq_len = encodings.size(1)
    nll_sum, n_tokens, prev_end_loc, parts = 0.0, 0, 0, []
    for begin_loc in range(0, seq_len, stride):
        end_loc = min(begin_loc + max_length, seq_len)
        trg_len = end_loc - prev_end_loc
        ids = encodings[:, begin_loc:end_loc]
        target_ids = ids.clone()
        target_ids[:, :-trg_len] = -100
        with torch.no_grad():
            loss = model(ids, labels=target_ids).loss
        num_valid_tokens = (target_ids != -100).sum().item()
        num_loss_tokens = num_valid_tokens - target_ids.size(0)
        scored = int((target_ids[:, 1:] != -100).sum().item())
        parts.append((float(loss), scored, num_loss_tokens))
        nll_sum += loss * num_loss_tokens
        n_tokens += num_loss_tokens
        prev_end_loc = end_loc
        if end_loc == seq_len:
            break
    return float(torch.exp(nll_sum / n_tokens)), parts


def test_torchmetrics_parity(gpt2, hf_model, texts):
    metric = HFPerplexity(gpt2, max_length=CONTEXT, device="cpu", batch_size=4)
    short = [t for t, ids in zip(texts, ids_of(metric, texts)) if len(ids) <= CONTEXT][:12]
    assert len(short) >= 5
    corpus = TMPerplexity()
    per_text = []
    for ids in ids_of(metric, short):
        x = torch.tensor([ids])
        with torch.no_grad():
            logits = hf_model(x).logits
        one = TMPerplexity()
        one.update(logits[:, :-1], x[:, 1:])
        corpus.update(logits[:, :-1], x[:, 1:])
        per_text.append(float(one.compute()))
    assert_ppl_close(metric.sentence_scores(short), per_text)
    assert_ppl_close(metric.corpus_score(short).score, float(corpus.compute()))


def test_recipe_parity_without_overlap(gpt2, hf_model, texts):
    metric = HFPerplexity(gpt2, max_length=CONTEXT, stride=CONTEXT, device="cpu", batch_size=1)
    ids = ids_of(metric, texts)
    assert max(len(x) for x in ids) > 2 * CONTEXT  # several windows
    expected = np.array([documented_recipe(hf_model, x, CONTEXT, CONTEXT)[0] for x in ids])
    ours = metric.sentence_scores(texts)
    # The recipe divides 0 by 0 when the last window holds a single token (nothing to
    # score in it): NaN there, while the tokens before it still have a perplexity here.
    single = np.array([len(x) % CONTEXT == 1 for x in ids])
    assert np.array_equal(np.isnan(expected), single) and single.any() and np.isfinite(ours).all()
    assert_ppl_close(ours[~single], expected[~single])


@pytest.mark.parametrize("stride", [8, 16, 31])
def test_recipe_windows_with_overlap(gpt2, hf_model, texts, stride):
    """Each window scores the recipe's tokens with the recipe's context: the summed NLL is
    Σ loss_w · n_w. The recipe's own number weights windows by trg_len − 1 instead (its
    bug); that number follows from the same windows."""
    metric = HFPerplexity(gpt2, max_length=CONTEXT, stride=stride, device="cpu", batch_size=1)
    ids = ids_of(metric, texts)
    seg = metric.stats(texts)
    for i, x in enumerate(ids):
        recipe_ppl, parts = documented_recipe(hf_model, x, CONTEXT, stride)
        assert int(seg.counts[i, 0]) == sum(n for _, n, _ in parts)
        n = int(seg.counts[i, 0])
        assert seg.sums[i, 0] / n == pytest.approx(math.fsum(loss * k for loss, k, _ in parts) / n, abs=LOG_TOL)
        weighted = math.fsum(loss * w for loss, _, w in parts) / sum(w for _, _, w in parts)
        assert math.log(recipe_ppl) == pytest.approx(weighted, abs=LOG_TOL)


def test_batching_does_not_matter(gpt2, texts):
    one = HFPerplexity(gpt2, max_length=CONTEXT, stride=16, device="cpu", batch_size=1).sentence_scores(texts)
    many = HFPerplexity(gpt2, max_length=CONTEXT, stride=16, device="cpu", batch_size=7).sentence_scores(texts)
    assert_ppl_close(many, one)


def test_shares_perplexity_statistics(gpt2, texts):
    metric = HFPerplexity(gpt2, stride=16, device="cpu")
    assert metric.max_length == CONTEXT  # from the config's n_positions
    rows = metric.token_logprobs(texts)
    plain = Perplexity().stats(rows)
    seg = metric.stats(texts)
    assert np.array_equal(seg.counts, plain.counts) and np.array_equal(seg.sums, plain.sums)
    s = metric.corpus_score(texts)
    assert s.score == Perplexity().corpus_score(rows).score
    assert s.tokens == sum(len(r) for r in rows)
    assert s.mean_text_perplexity == pytest.approx(float(np.mean(metric.sentence_scores(texts))))
    merged = metric.stats(texts[:9]).total() + metric.stats(texts[9:]).total()
    assert metric.score_stats(merged).score == pytest.approx(s.score, rel=RTOL)
    metric.reset().update(texts[:5]).update(texts[5:])
    assert metric.compute().score == pytest.approx(s.score, rel=RTOL)
    assert hf_perplexity(texts, gpt2, stride=16, device="cpu").score == pytest.approx(s.score, rel=RTOL)
    assert "model" in metric.signature().as_dict()


def test_windows():
    assert windows(10, 4, 4) == [(0, 4, 1), (4, 8, 5), (8, 10, 9)]
    assert windows(10, 4, 2) == [(0, 4, 1), (2, 6, 4), (4, 8, 6), (6, 10, 8)]
    assert windows(3, 8, 4) == [(0, 3, 1)]
    assert windows(1, 8, 4) == [(0, 1, 1)]
    assert windows(0, 8, 4) == []
    # with overlap every token after the first is scored exactly once ...
    for n, m, s in [(50, 8, 3), (33, 32, 16), (100, 7, 6)]:
        scored = [t for _, end, first in windows(n, m, s) for t in range(first, end)]
        assert scored == list(range(1, n))
    # ... without, each window's first token has no context and is not scored (as in the recipe)
    scored = [t for _, end, first in windows(20, 7, 7) for t in range(first, end)]
    assert scored == [t for t in range(20) if t % 7]


def test_errors(gpt2, tmp_path):
    with pytest.raises(InvalidOptionError, match="stride"):
        HFPerplexity(gpt2, stride=64, device="cpu").corpus_score(["a cat"])
    with pytest.raises(InvalidOptionError, match="positive"):
        HFPerplexity(gpt2, batch_size=0)
    with pytest.raises(InvalidOptionError, match="never downloads"):
        HFPerplexity("no-such-org/no-such-lm").corpus_score(["a"])
    with pytest.raises(InvalidOptionError, match="BOS"):
        HFPerplexity(gpt2, add_start_token=True, device="cpu").corpus_score(["a cat"])
    with pytest.raises(InputTypeError):
        HFPerplexity(gpt2, device="cpu").corpus_score("a cat")
    with pytest.raises(InvalidInputError):
        HFPerplexity(gpt2, device="cpu").compute()
