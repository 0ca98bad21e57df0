"""BLEURT against bleurt-pytorch's own code on tiny checkpoints of its architecture.

The checkpoints are built here with the port's classes (random weights, fixed seed, a
hand-written WordPiece vocabulary) and saved in its format; the port's model and tokenizer
then score the same pairs. Data: WMT22 zh-en (references A and B, one system).
Tolerance 1e-6: float32 torch on both sides.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from bleurt_pytorch import BleurtForSequenceClassification, BleurtTokenizer

from conftest import CORPORA, read_lines
from neural_models import tiny_bleurt

from nlgmetrics import BLEURT, bleurt, load
from nlgmetrics.errors import InputTypeError, InvalidOptionError, LengthMismatchError
from nlgmetrics.neural.bleurt import truncate_pair

torch.set_num_threads(1)  # the suite shares few cores; thread barriers stall under load
TOL = 1e-6
MAX_POS = 128


@pytest.fixture(scope="module", params=[16, None], ids=["projected-embeddings", "plain"])
def checkpoint(request, tmp_path_factory):
    return str(tiny_bleurt(tmp_path_factory.mktemp("bleurt"), embedding_size=request.param, max_positions=MAX_POS))


@pytest.fixture(scope="module")
def wmt():
    d = CORPORA / "wmt22" / "zh-en"
    refs_a = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:40]
    refs_b = read_lines(d / "generaltest2022.zh-en.ref.B.en")[:40]
    hyps = read_lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.Online-B.en")[:40]
    return hyps, refs_a, refs_b


def port_scores(path, refs, cands):
    """The port's README recipe: its tokenizer on (references, candidates), its model."""
    model = BleurtForSequenceClassification.from_pretrained(path).eval()
    tok = BleurtTokenizer.from_pretrained(path)
    with torch.no_grad():
        inputs = tok(refs, cands, padding="longest", return_tensors="pt")
        return model(**inputs).logits.flatten().numpy()


def port_scores_truncated(path, refs, cands, limit):
    """The port's model on pairs cut by BLEURT's rule (longer text first, candidate on ties)."""
    model = BleurtForSequenceClassification.from_pretrained(path).eval()
    tok = BleurtTokenizer.from_pretrained(path)
    out = []
    for r, c in zip(refs, cands):
        a, b = tok.encode(r, add_special_tokens=False), tok.encode(c, add_special_tokens=False)
        while len(a) + len(b) > limit - 3:
            (a if len(a) > len(b) else b).pop()
        ids = [tok.cls_token_id] + a + [tok.sep_token_id] + b + [tok.sep_token_id]
        types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
        with torch.no_grad():
            out.append(float(model(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([types])).logits[0, 0]))
    return np.array(out)


def fits(tok, r, c, limit):
    return len(tok.encode(r, c)) <= limit


def test_parity_with_the_port(checkpoint, wmt):
    hyps, refs, _ = wmt
    tok = BleurtTokenizer.from_pretrained(checkpoint)
    pairs = [(r, h) for r, h in zip(refs, hyps) if fits(tok, r, h, MAX_POS)]
    assert len(pairs) >= 10
    r, h = [p[0] for p in pairs], [p[1] for p in pairs]
    theirs = port_scores(checkpoint, r, h)
    ours = BLEURT(checkpoint, device="cpu").pair_scores(r, h)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOL)
    assert np.ptp(ours) > 1e-3  # pairs differ far beyond the tolerance
    assert BLEURT(checkpoint, device="cpu").sentence_scores(h, r) == pytest.approx(theirs.astype(np.float64), abs=TOL)


def test_truncation_as_bleurt(checkpoint, wmt):
    hyps, refs, _ = wmt
    tok = BleurtTokenizer.from_pretrained(checkpoint)
    long_pairs = [(r, h) for r, h in zip(refs, hyps) if not fits(tok, r, h, MAX_POS)]
    assert len(long_pairs) >= 5
    r, h = [p[0] for p in long_pairs], [p[1] for p in long_pairs]
    ours = BLEURT(checkpoint, device="cpu").pair_scores(r, h)
    np.testing.assert_allclose(ours, port_scores_truncated(checkpoint, r, h, MAX_POS), atol=TOL)
    shorter = BLEURT(checkpoint, device="cpu", max_length=40).pair_scores(r, h)
    np.testing.assert_allclose(shorter, port_scores_truncated(checkpoint, r, h, 40), atol=TOL)


def test_truncate_pair_rule():
    assert truncate_pair([1, 2, 3, 4], [5, 6], 4) == ([1, 2], [5, 6])
    assert truncate_pair([1, 2], [5, 6], 3) == ([1, 2], [5])  # tie: the candidate loses first
    assert truncate_pair([1], [5, 6, 7], 10) == ([1], [5, 6, 7])


def test_batching_multi_reference_and_merge(checkpoint, wmt):
    hyps, refs_a, refs_b = wmt
    m = BLEURT(checkpoint, device="cpu")
    a = m.pair_scores(refs_a, hyps)
    b = m.pair_scores(refs_b, hyps)
    np.testing.assert_allclose(BLEURT(checkpoint, device="cpu", batch_size=1).pair_scores(refs_a, hyps), a, atol=5e-7)
    multi = [[x, y] for x, y in zip(refs_a, refs_b)]
    seg = m.stats(hyps, multi)
    np.testing.assert_allclose(seg.sums[:, 0], np.maximum(a, b), atol=5e-7)
    s = m.score_stats(seg)
    assert s.score == pytest.approx(float(np.mean(seg.sums[:, 0])), abs=1e-12)
    merged = seg.take(range(11)).total() + seg.take(range(11, len(hyps))).total()
    assert m.score_stats(merged).score == s.score
    assert bleurt(hyps[:6], multi[:6], checkpoint, device="cpu").score == pytest.approx(float(np.mean(seg.sums[:6, 0])), abs=TOL)
    matrix = m.pairwise(hyps[:3], refs_a[:4])
    expected = m.pair_scores([r for _ in range(3) for r in refs_a[:4]], [h for h in hyps[:3] for _ in range(4)])
    np.testing.assert_allclose(matrix.ravel(), expected, atol=5e-7)


def test_pytorch_model_bin_checkpoint(tmp_path, wmt):
    hyps, refs, _ = wmt
    path = str(tiny_bleurt(tmp_path / "bin", safetensors=False, max_positions=MAX_POS))
    tok = BleurtTokenizer.from_pretrained(path)
    pairs = [(r, h) for r, h in zip(refs, hyps) if fits(tok, r, h, MAX_POS)][:8]
    r, h = [p[0] for p in pairs], [p[1] for p in pairs]
    np.testing.assert_allclose(BLEURT(path, device="cpu").pair_scores(r, h), port_scores(path, r, h), atol=TOL)


def test_errors(tmp_path, checkpoint):
    with pytest.raises(InvalidOptionError, match="never downloads"):
        BLEURT("no-such-org/BLEURT-nothing").corpus_score(["a"], ["a"])
    (tmp_path / "config.json").write_text('{"model_type": "bert"}')
    with pytest.raises(InvalidOptionError, match="not a BLEURT checkpoint"):
        BLEURT(str(tmp_path), device="cpu").corpus_score(["a"], ["a"])
    with pytest.raises(InvalidOptionError, match="batch_size"):
        BLEURT(checkpoint, batch_size=0)
    with pytest.raises(InvalidOptionError, match="max_length"):
        BLEURT(checkpoint, max_length=3)
    m = BLEURT(checkpoint, device="cpu")
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a", "b"], ["a"])
    with pytest.raises(InputTypeError):
        m.corpus_score([None], ["a"])
    assert load("bleurt", checkpoint=checkpoint).name == "bleurt"
