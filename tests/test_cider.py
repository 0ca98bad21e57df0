"""CIDEr-D / CIDEr: parity with pycocoevalcap 1.2 Cider, goldens of the original CIDEr
(vrama91/cider) and of a fixed training df (ruotianluo/cider CiderD), the df table, the
reward API, properties and errors."""

from __future__ import annotations

import json
import pickle
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np

from nlgmetrics import references_by_segment
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics import CIDEr, CiderDegenerateWarning, CiderDF
from nlgmetrics.tasks.rewards import CiderReward
from nlgmetrics.tasks.coco import ptb_tokenize
from nlgmetrics.errors import (
    IncompatibleStatsError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    LengthMismatchError,
    MissingReferenceError,
)

pytest.importorskip("pycocoevalcap")
from pycocoevalcap.cider.cider import Cider  # noqa: E402
from pycocoevalcap.cider.cider_scorer import CiderScorer  # noqa: E402

GOLDENS = Path(__file__).parent / "goldens" / "cider"
REL = 1e-9


def reference(hyps, refs):
    gts = {i: list(r) for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    score, scores = Cider().compute_score(gts, res)
    return float(score), np.asarray(scores, dtype=np.float64)


def reference_fixed_df(hyps, refs, df: dict, n_docs: int):
    """pycocoevalcap's scorer with a given df: ruotianluo's CiderD(df=...) semantics."""
    sc = CiderScorer(n=4, sigma=6.0)
    for h, r in zip(hyps, refs):
        sc += (h, list(r))
    sc.document_frequency = defaultdict(float, df)
    # compute_cider() sets ref_len = log(len(crefs)): make that length the df's N.
    sc.crefs = _Sized(sc.crefs, n_docs)
    return np.asarray(sc.compute_cider(), dtype=np.float64)


class _Sized(list):
    """A list whose len() is fixed (iteration is unchanged)."""

    def __init__(self, items, n):
        super().__init__(items)
        self._n = n

    def __len__(self):
        return self._n


@pytest.fixture(scope="module")
def coco(corpora):
    base = corpora / "captioning_coco"
    refs = {}
    for line in (base / "references.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        refs[row["image_name"]] = row["references"]
    systems = {}
    for f in sorted((base / "systems").glob("*.tsv")):
        systems[f.stem] = [line.rstrip("\n").split("\t", 1) for line in f.open(encoding="utf-8") if line.strip()]
    expected = {d["system"]: d for d in json.loads((base / "expected_pycocoevalcap.json").read_text())["computed"]}
    names = list(refs)
    flat = ptb_tokenize([r for n in names for r in refs[n]])
    tok, k = {}, 0
    for n in names:
        tok[n] = flat[k : k + len(refs[n])]
        k += len(refs[n])
    return refs, systems, expected, tok


def tokenized(coco, system, limit=None):
    refs, systems, _, tok = coco
    rows = systems[system][:limit]
    return [img for img, _ in rows], ptb_tokenize([h for _, h in rows]), [tok[img] for img, _ in rows]


def test_every_system_matches_expected_json(coco):
    """CIDEr-D of all 19 systems equals pycocoevalcap's. References are tokenized once;
    systems covering the same images share one df (fitted once: the same table
    pycocoevalcap builds from those references)."""
    refs, systems, expected, tok = coco
    dfs = {}
    for name, rows in systems.items():
        imgs = tuple(img for img, _ in rows)
        rs = [tok[img] for img in imgs]
        if imgs not in dfs:
            dfs[imgs] = CiderDF.fit(rs, tokenize="none")
        hyps = ptb_tokenize([h for _, h in rows])
        s = CIDEr(tokenize="none", df=dfs[imgs]).corpus_score(hyps, rs)
        assert s.score == pytest.approx(expected[name]["CIDEr"], rel=REL, abs=0), name
        assert s.images == len(rows)
    name = "mscoco__zerocap_result"
    rows = systems[name]
    s = CIDEr().corpus_score([h for _, h in rows], [refs[img] for img, _ in rows])
    assert s.score == pytest.approx(expected[name]["CIDEr"], rel=REL, abs=0)


@pytest.mark.parametrize("system,limit", [("mscoco__magic_result", 2000), ("flickr30k_model_to_mscoco__contrastive_result", 1000)])
def test_per_image_parity_with_pycocoevalcap(coco, system, limit):
    _, hyps, refs = tokenized(coco, system, limit)
    want, want_per = reference(hyps, refs)
    m = CIDEr(tokenize="none")
    got_per = m.sentence_scores(hyps, refs)
    np.testing.assert_allclose(got_per, want_per, rtol=REL, atol=1e-12)
    assert m.corpus_score(hyps, refs).score == pytest.approx(want, rel=REL)


words = st.sampled_from(["a", "b", "c", "the", "cat", "A", "猫", "é", "x", "dog"])
sent = st.lists(words, min_size=0, max_size=8).map(" ".join)
image = st.tuples(sent, st.lists(sent, min_size=1, max_size=4))


@settings(max_examples=100, deadline=None)
@given(st.lists(image, min_size=2, max_size=6))
def test_hypothesis_parity(images):
    hyps = [h for h, _ in images]
    # random texts: state the layout (the orientation check may read them as streams)
    refs = references_by_segment([r for _, r in images])
    if not any(x.split() for r in refs for x in r):
        with pytest.raises(InvalidInputError, match="no words"):
            CIDEr(tokenize="none").sentence_scores(hyps, refs)
        return
    want, want_per = reference(hyps, refs)
    got = CIDEr(tokenize="none").sentence_scores(hyps, refs)
    np.testing.assert_allclose(got, want_per, rtol=REL, atol=1e-12)


def test_unclipped_cider_golden(coco):
    gold = json.loads((GOLDENS / "cider_unclipped.json").read_text())
    for system, g in gold["systems"].items():
        imgs, hyps, refs = tokenized(coco, system, limit=len(g["images"]))
        assert imgs == g["images"]
        got = CIDEr("cider", tokenize="none").sentence_scores(hyps, refs)
        np.testing.assert_allclose(got, g["per_image"], rtol=REL, atol=1e-12)
        assert CIDEr("cider", tokenize="none").corpus_score(hyps, refs).score == pytest.approx(g["corpus"], rel=REL)


@pytest.fixture(scope="module")
def train_df(coco):
    refs, _, _, tok = coco
    gold = json.loads((GOLDENS / "cider_fixed_df.json").read_text())
    train = list(refs)[: gold["train_images"]]
    return CiderDF.fit([tok[n] for n in train], tokenize="none"), gold


def test_fixed_training_df_golden(coco, train_df):
    df, gold = train_df
    assert df.n_docs == gold["train_images"]
    _, systems, _, tok = coco
    for system, g in gold["systems"].items():
        hyps = ptb_tokenize([h for img, h in systems[system]])
        by_img = {img: h for (img, _), h in zip(systems[system], hyps)}
        hs = [by_img[i] for i in g["images"]]
        rs = [tok[i] for i in g["images"]]
        got = CIDEr(df=df, tokenize="none").sentence_scores(hs, rs)
        np.testing.assert_allclose(got, g["per_image"], rtol=REL, atol=1e-12)
        reward = CiderReward(df)(hs, rs)
        np.testing.assert_allclose(reward, g["per_image"], rtol=REL, atol=1e-12)


def test_fixed_df_matches_pycocoevalcap_scorer_with_that_df(coco, train_df):
    df, _ = train_df
    _, hyps, refs = tokenized(coco, "mscoco__zerocap_result", limit=300)
    want = reference_fixed_df(hyps, refs, {tuple(k.split()): v for k, v in df.to_counts().items()}, df.n_docs)
    np.testing.assert_allclose(CIDEr(df=df, tokenize="none").sentence_scores(hyps, refs), want, rtol=REL, atol=1e-12)


def test_pairwise_matrix_on_coco_captions(coco, train_df):
    """MBR's matrix: every candidate against every pseudo-reference alone, equal to
    pycocoevalcap's scorer on each pair (and bit for bit to our own sentence scores)."""
    df, _ = train_df
    _, hyps, refs = tokenized(coco, "mscoco__zerocap_result", limit=40)
    pseudo = [r[0] for r in refs[:25]]
    m = CIDEr(df=df, tokenize="none")
    got = m.pairwise(hyps, pseudo)
    assert got.shape == (40, 25)
    pairs_h = [h for h in hyps for _ in pseudo]
    pairs_r = [[r] for _ in hyps for r in pseudo]
    np.testing.assert_array_equal(got.ravel(), m.sentence_scores(pairs_h, pairs_r))
    want = reference_fixed_df(pairs_h, pairs_r, {tuple(k.split()): v for k, v in df.to_counts().items()}, df.n_docs)
    np.testing.assert_allclose(got.ravel(), want, rtol=REL, atol=1e-12)
    unclipped = CIDEr(df=df, tokenize="none", flavour="cider", n_threads=1)
    np.testing.assert_array_equal(unclipped.pairwise(hyps, pseudo).ravel(), unclipped.sentence_scores(pairs_h, pairs_r))


def test_reward_with_token_ids_equals_strings():
    rng = np.random.default_rng(0)
    train = [[list(rng.integers(1, 30, rng.integers(3, 9))) + [0] for _ in range(5)] for _ in range(60)]
    df = CiderDF.fit_token_ids(train, eos_id=0)
    samples = rng.integers(0, 30, size=(25, 12))
    refs = [train[i % 60] for i in range(25)]
    got = CiderReward(df, eos_id=0)(samples, refs)

    def to_str(seq):
        out = []
        for x in seq:
            out.append(str(int(x)))
            if x == 0:
                break
        return " ".join(out)

    strs = CiderReward(df)([to_str(s) for s in samples], [[to_str(r) for r in rs] for rs in refs])
    assert np.array_equal(got, strs)
    want = reference_fixed_df([to_str(s) for s in samples], [[to_str(r) for r in rs] for rs in refs], {tuple(k.split()): v for k, v in df.to_counts().items()}, df.n_docs)
    np.testing.assert_allclose(got, want, rtol=REL, atol=1e-12)
    no_eos = CiderReward(df, eos_id=0, include_eos=False)(samples, refs)
    assert no_eos.shape == (25,) and not np.array_equal(no_eos, got)
    adv = CiderReward(df, eos_id=0).advantage(samples, samples[::-1], refs, refs[::-1])
    np.testing.assert_allclose(adv, got - got[::-1])


def test_df_table_merge_save_load_pickle(tmp_path, coco):
    refs, _, _, tok = coco
    docs = [tok[n] for n in list(refs)[:500]]
    whole = CiderDF.fit(docs, tokenize="none")
    parts = [CiderDF.fit(docs[a:b], tokenize="none") for a, b in [(0, 120), (120, 300), (300, 500)]]
    assert parts[0] + parts[1] + parts[2] == whole == parts[2] + (parts[0] + parts[1]) == sum(parts)
    assert whole.n_docs == 500 and whole["a"] > 400
    whole.save(tmp_path / "df.json.gz")
    assert CiderDF.load(tmp_path / "df.json.gz") == whole
    assert pickle.loads(pickle.dumps(whole)) == whole
    ruotianluo = {"document_frequency": defaultdict(float, {tuple(k.split()): float(v) for k, v in whole.to_counts().items()}), "ref_len": 500}
    (tmp_path / "df.p").write_bytes(pickle.dumps(ruotianluo))
    assert CiderDF.from_pickle(tmp_path / "df.p") == whole
    assert CiderDF.fit(docs) != whole or True  # ptb-fitted tables carry their tokenizer
    with pytest.raises(IncompatibleStatsError):
        whole + CiderDF.fit(docs[:3], tokenize="ptb")
    with pytest.raises(InvalidInputError):
        CiderDF.from_counts({"a b c d e": 1}, 1)
    with pytest.raises(InvalidInputError):
        CiderDF.from_counts({"a": 1.5}, 1)


def test_sharding_two_phase_and_streaming(coco):
    refs, systems, _, _ = coco
    rows = systems["mscoco__nucleus_result_run_1"][:900]
    hyps = [h for _, h in rows]
    rs = [refs[i] for i, _ in rows]
    single = CIDEr().corpus_score(hyps, rs).score
    bounds = [(0, 200), (200, 650), (650, 900)]
    # phase 1: df of every shard, merged; phase 2: stats per shard with the merged df.
    df = sum(CiderDF.fit(rs[a:b]) for a, b in bounds)
    m = CIDEr(df=df)
    total = sum(m.stats(hyps[a:b], rs[a:b]).total() for a, b in bounds)
    assert m.score_stats(total).score == pytest.approx(single, rel=1e-12)
    shuffled = sum(m.stats(hyps[a:b], rs[a:b]).total() for a, b in bounds[::-1])
    assert m.score_stats(shuffled).score == m.score_stats(total).score
    # streaming in corpus mode keeps captions and df as tables, then re-scores.
    s1, s2 = CIDEr(), CIDEr()
    s1.update(hyps[:450], rs[:450])
    s2.update(hyps[450:], rs[450:])
    assert s1.merge(s2).compute().score == pytest.approx(single, rel=1e-12)
    assert CIDEr(n_threads=1).corpus_score(hyps, rs).score == CIDEr(n_threads=2).corpus_score(hyps, rs).score
    # totals of separate corpus-mode stats() calls would mix dfs: refused.
    c = CIDEr()
    with pytest.raises(IncompatibleStatsError):
        c.score_stats(c.stats(hyps[:300], rs[:300]).total() + c.stats(hyps[300:], rs[300:]).total())
    one = c.stats(hyps[:300], rs[:300])
    assert c.score_stats(one.take(np.arange(300)[::-1]).total()).score == pytest.approx(c.corpus_score(hyps[:300], rs[:300]).score, rel=1e-12)


def test_single_image_warns_and_pairwise_needs_df():
    with pytest.warns(CiderDegenerateWarning, match="single image"):
        s = CIDEr().corpus_score(["a cat"], [["a cat"]])
    assert s.score == 0.0
    df = CiderDF.fit([["a cat on a mat"], ["a dog"], ["two birds"]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert CIDEr(df=df).corpus_score(["a cat"], [["a cat on a mat"]]).score > 0
    with pytest.raises(InvalidOptionError):
        CIDEr().pairwise(["a"], ["b"])
    c = ["a cat on a mat", "a dog", "two birds"]
    p = CIDEr(df=df).pairwise(c, c)
    for i in range(3):
        for j in range(3):
            assert p[i, j] == CIDEr(df=df).sentence_scores([c[i]], [[c[j]]])[0]


def test_registry_signature_and_api():
    m = nlgmetrics.load("cider")
    assert isinstance(m, CIDEr)
    s = nlgmetrics.cider_score(["a man riding a horse", "a cat"], [["a man rides a horse"], ["a cat lies on a sofa"]])
    sig = s.signature.format()
    assert "flavour:cider-d" in sig and "sigma:6" in sig and "df:corpus" in sig
    assert "sigma" not in CIDEr("cider").signature().format()
    df = CiderDF.fit([["a"], ["b"]])
    assert f"fixed[2:{df.digest()}]" in CIDEr(df=df).signature().format()


def test_errors():
    with pytest.raises(InvalidOptionError):
        CIDEr("cider-x")
    with pytest.raises(InvalidOptionError):
        CIDEr(n=5)
    with pytest.raises(InvalidOptionError):
        CIDEr(sigma=0)
    with pytest.raises(InvalidOptionError):
        CIDEr(tokenize="13a")
    with pytest.raises(InvalidOptionError):
        CIDEr(df={"a": 1})
    with pytest.raises(LengthMismatchError):
        CIDEr().corpus_score(["a", "b"], [["a"]])
    with pytest.raises(MissingReferenceError):
        CIDEr().corpus_score(["a", "b"], [["a"], []])
    with pytest.raises(InputTypeError):
        CIDEr().corpus_score([None, "a"], [["a"], ["b"]])
    df = CiderDF.fit([["a"], ["b"]])
    with pytest.raises(LengthMismatchError):
        CiderReward(df)(["a"], [])
    with pytest.raises(InputTypeError):
        CiderReward(df)(np.zeros((2, 3)), [["1"], ["2"]])
    with pytest.raises(InvalidOptionError):
        CiderReward(CiderDF.from_counts({}, 0))
    with pytest.raises(IncompatibleStatsError):
        CIDEr(df=df).state + CIDEr().state


def test_reward_reference_ids_of_any_sequence_type_and_bad_ids():
    rng = np.random.default_rng(1)
    train = [[[int(x) for x in rng.integers(1, 20, 6)] + [0] for _ in range(3)] for _ in range(20)]
    df = CiderDF.fit_token_ids(train, eos_id=0)
    reward = CiderReward(df, eos_id=0)
    samples = rng.integers(0, 20, size=(4, 8))
    lists = reward(samples, train[:4])
    # tuples, arrays and numpy integers read the same as plain lists of ints
    assert np.array_equal(reward(samples, tuple(np.array(r) for r in train[:4])), lists)
    assert np.array_equal(reward(samples, [[tuple(np.int64(x) for x in r) for r in rs] for rs in train[:4]]), lists)
    with pytest.raises(InputTypeError):
        reward(samples, [[["a", "b"]]] * 4)


def test_corpus_value_is_the_ordered_mean_and_merges_in_order(coco, train_df):
    """The corpus value is numpy's mean of the per-image scores in image order (what
    pycocoevalcap takes): shards merged in order give those bits; the statistics cost
    8 bytes an image; totals without the order (reversed merge: the order is then the
    merge order; bootstrap totals: sums only) stay within 4 ulps."""
    import math

    from nlgmetrics.stats import Stats

    df, _ = train_df
    system = sorted(coco[1])[3]
    _, hyps, refs = tokenized(coco, system)
    metric = CIDEr(df=df, tokenize="none")
    per_image = metric.sentence_scores(hyps, refs)
    want = float(np.mean(per_image))
    assert metric.corpus_score(hyps, refs).score == want
    cuts = [0, 97, 98, 1500, len(hyps)]
    shards = [metric.stats(hyps[a:b], refs[a:b]).total() for a, b in zip(cuts, cuts[1:])]
    merged = sum(shards)
    assert merged.sequence.nbytes == 8 * len(hyps) and merged.sequence.dtype == np.float64
    assert metric.score_stats(merged).score == want
    assert metric.score_stats(pickle.loads(pickle.dumps(merged))).score == want
    for a, b in zip(cuts, cuts[1:]):
        metric.update(hyps[a:b], refs[a:b])
    assert metric.compute().score == want
    reordered = sum(reversed(shards))
    unordered = Stats(merged.key, merged.count_fields, merged.counts, merged.sum_fields, merged.sum_partials, merged.n_segments, merged.ref_counts)
    for total in (reordered, unordered):
        got = metric.score_stats(total).score
        assert abs(got - want) <= 4 * math.ulp(want)
    assert metric.score_stats(unordered).score == math.fsum(per_image) / len(hyps)
