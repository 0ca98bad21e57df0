"""BLEU, coco flavour: parity with pycocoevalcap 1.2 Bleu(4), properties, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics import BLEU, CocoBLEU
from nlgmetrics.tasks.coco import ptb_tokenize
from nlgmetrics.errors import IncompatibleStatsError, InputTypeError, InvalidOptionError, LengthMismatchError, MissingReferenceError

pytest.importorskip("pycocoevalcap")
from pycocoevalcap.bleu.bleu import Bleu  # noqa: E402


def reference(hyps, refs):
    gts = {i: list(r) for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        score, scores = Bleu(4).compute_score(gts, res)
    return score, np.array(scores).T


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
    return refs, systems, expected


@pytest.fixture(scope="module")
def ref_tokens(coco):
    """PTB tokens of every image's references (one tokenizer run, as COCOEvalCap)."""
    refs, _, _ = coco
    names = list(refs)
    flat = ptb_tokenize([r for n in names for r in refs[n]])
    out, k = {}, 0
    for n in names:
        out[n] = flat[k : k + len(refs[n])]
        k += len(refs[n])
    return out


def test_registered_flavour():
    assert isinstance(BLEU(flavour="coco"), CocoBLEU)
    assert "coco" in BLEU.flavours
    assert isinstance(nlgmetrics.load("bleu", flavour="coco"), CocoBLEU)


def check_expected(s, e, name):
    assert (s.testlen, s.reflen, s.guess, s.correct) == (
        e["bleu_stats"]["testlen"], e["bleu_stats"]["reflen"], e["bleu_stats"]["guess"], e["bleu_stats"]["correct"]
    ), name
    assert [s.bleu_1, s.bleu_2, s.bleu_3, s.bleu_4] == [e["Bleu_1"], e["Bleu_2"], e["Bleu_3"], e["Bleu_4"]], name


def test_every_system_matches_expected_json(coco, ref_tokens):
    """PTB + coco BLEU reproduces pycocoevalcap's numbers exactly on all 19 systems
    (references tokenized once here: they do not change between systems)."""
    refs, systems, expected = coco
    for name, rows in systems.items():
        hyps = ptb_tokenize([h for _, h in rows])
        s = BLEU(flavour="coco", tokenize="none").corpus_score(hyps, [ref_tokens[img] for img, _ in rows])
        check_expected(s, expected[name], name)
    # and the raw captions through the default (tokenize="ptb") pipeline
    name = "mscoco__magic_result"
    rows = systems[name]
    s = BLEU(flavour="coco").corpus_score([h for _, h in rows], [refs[img] for img, _ in rows])
    check_expected(s, expected[name], name)


@pytest.mark.parametrize("system,limit", [("mscoco__magic_result", None), ("mscoco__zerocap_result", 1000), ("flickr30k_model_to_mscoco__nucleus_result_run_2", 1000)])
def test_per_image_parity_with_pycocoevalcap(coco, ref_tokens, system, limit):
    _, systems, _ = coco
    rows = systems[system][:limit]
    rtok = [ref_tokens[img] for img, _ in rows]
    htok = ptb_tokenize([h for _, h in rows])
    want_corpus, want_per = reference(htok, rtok)
    m = BLEU(flavour="coco", tokenize="none")
    got = m.corpus_score(htok, rtok)
    assert got.bleus == list(want_corpus)
    assert np.array_equal(m.sentence_scores_all(htok, rtok), want_per)
    assert np.array_equal(m.sentence_scores(htok, rtok), want_per[:, 3])


words = st.sampled_from(["a", "b", "c", "the", "cat", "A", "Cat", "猫", "é", "x"])
sent = st.lists(words, min_size=0, max_size=9).map(" ".join)
image = st.tuples(sent, st.lists(sent, min_size=1, max_size=4))


@settings(max_examples=100, deadline=None)
@given(st.lists(image, min_size=1, max_size=6))
def test_hypothesis_parity(images):
    hyps = [h for h, _ in images]
    refs = [r for _, r in images]
    want_corpus, want_per = reference(hyps, refs)
    m = BLEU(flavour="coco", tokenize="none")
    assert m.corpus_score(hyps, refs).bleus == list(want_corpus)
    assert np.array_equal(m.sentence_scores_all(hyps, refs), want_per)


def test_edge_values_from_the_spec():
    m = BLEU(flavour="coco", tokenize="none")
    s = m.corpus_score(["a b c d e"], [["a b c d e"]])
    assert s.bleu_1 == pytest.approx(0.9999999996, abs=1e-10)
    assert s.bleu_4 == pytest.approx(0.9999999994792, abs=1e-12)
    assert m.corpus_score(["a b c d e"], [["a b c e d"]]).bleu_4 == pytest.approx(9.554e-05, rel=1e-3)
    empty = m.corpus_score([""], [["a b c"]])
    assert 0.0 <= empty.score < 1e-100 and np.isfinite(empty.score)
    assert m.corpus_score([" \t "], [["a"]]).testlen == 0


def test_properties_merge_shard_threads_pairwise(coco):
    refs, systems, _ = coco
    rows = systems["mscoco__top_k_result_run_1"][:600]
    hyps = [h for _, h in rows]
    rs = [refs[img] for img, _ in rows]
    m = BLEU(flavour="coco")
    seg = m.stats(hyps, rs)
    whole = seg.total()
    shards = [m.stats(hyps[a:b], rs[a:b]).total() for a, b in [(0, 100), (100, 350), (350, 600)]]
    assert sum(shards) == whole and shards[2] + shards[0] + shards[1] == whole
    assert whole + m.zero() == whole
    assert m.score_stats(sum(shards)).bleus == m.corpus_score(hyps, rs).bleus
    assert np.array_equal(BLEU(flavour="coco", n_threads=1).stats(hyps, rs).counts, BLEU(flavour="coco", n_threads=2).stats(hyps, rs).counts)
    streaming = BLEU(flavour="coco")
    for a in range(0, 600, 128):
        streaming.update(hyps[a : a + 128], rs[a : a + 128])
    assert streaming.compute().bleus == m.corpus_score(hyps, rs).bleus
    mt = BLEU(flavour="coco", tokenize="none")
    c = ["a man riding a horse", "a cat", "two dogs in the snow"]
    p = mt.pairwise(c, c[::-1])
    for i in range(3):
        for j in range(3):
            assert p[i, j] == mt.sentence_scores([c[i]], [[c[::-1][j]]])[0]


def test_signature_and_breakdown():
    s = BLEU(flavour="coco").corpus_score(["A man."], [["A man!", "a person"]])
    sig = s.signature.format()
    assert "flavour:coco" in sig and "tok:ptb" in sig and sig.endswith(f"version:nlgmetrics-{nlgmetrics.__version__}")
    assert s.score == s.bleu_4 and len(s.bleus) == 4
    assert "B1=" in s.format()


def test_errors():
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="coco", tokenize="13a")
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="coco", n=0)
    with pytest.raises(InvalidOptionError):
        BLEU(flavour="kokko")
    m = BLEU(flavour="coco")
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(MissingReferenceError):
        m.corpus_score(["a"], [[]])
    with pytest.raises(InputTypeError):
        m.corpus_score([1], [["a"]])
    with pytest.raises(IncompatibleStatsError):
        m.state + BLEU(flavour="coco", tokenize="none").state
