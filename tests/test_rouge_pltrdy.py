"""ROUGE flavours ``pltrdy`` (PyPI ``rouge`` 1.0.1) and ``rouge-chinese`` (1.0.3) against
the packages themselves: per-pair P/R/F and ``get_scores(avg=True)`` equal (``==``) on
CNN/DM summaries, WMT22 en-zh system outputs (jieba words) and generated adversarial
text; empty-input rules, merging, CLI and errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

rouge_pkg = pytest.importorskip("rouge")
rouge_chinese = pytest.importorskip("rouge_chinese")
jieba = pytest.importorskip("jieba")

from nlgmetrics import ROUGE  # noqa: E402
from nlgmetrics.errors import InvalidInputError, InvalidOptionError  # noqa: E402

ALL = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"]
PACKAGES = {"pltrdy": rouge_pkg, "rouge-chinese": rouge_chinese}


def reference_rows(flavour, hyps, refs, metrics=ALL, exclusive=True):
    """The package's get_scores(avg=False) as rows of [P, R, F] per metric; None where it raises."""
    r = PACKAGES[flavour].Rouge(metrics=metrics, exclusive=exclusive)
    rows = []
    for h, g in zip(hyps, refs):
        try:
            s = r.get_scores(h, g)[0]
        except ValueError:
            rows.append(None)
            continue
        rows.append([s[m][k] for m in metrics for k in "prf"])
    return rows


def ours_rows(flavour, hyps, refs, metrics=ALL, exclusive=True):
    prf = ROUGE(flavour, rouge_types=metrics, exclusive=exclusive).sentence_prf(hyps, refs)
    return np.stack([np.stack(prf[m], axis=1) for m in metrics], axis=1).reshape(len(hyps), -1)


def assert_rows_equal(flavour, hyps, refs, exclusive=True):
    expected = reference_rows(flavour, hyps, refs, exclusive=exclusive)
    keep = [i for i, row in enumerate(expected) if row is not None]
    raised = [i for i, row in enumerate(expected) if row is None]
    got = ours_rows(flavour, [hyps[i] for i in keep], [refs[i] for i in keep], exclusive=exclusive) if keep else []
    for j, i in enumerate(keep):
        assert got[j].tolist() == expected[i], (flavour, i, hyps[i], refs[i])
    for i in raised[:20]:  # where the package raises ValueError, so do we (typed)
        with pytest.raises(InvalidInputError):
            ROUGE(flavour).stats([hyps[i]], [refs[i]])


@pytest.fixture(scope="module")
def cnndm(corpora):
    lines = (corpora / "cnndm_pointer_generator" / "summaries.jsonl").read_text(encoding="utf-8").splitlines()[:120]
    rows = [json.loads(line) for line in lines]
    systems = [k for k in rows[0] if k not in ("id", "reference")]
    return [" ".join(r[systems[0]]) for r in rows], [" ".join(r["reference"]) for r in rows]


@pytest.fixture(scope="module")
def wmt_en_zh(corpora):
    d = corpora / "wmt22" / "en-zh"
    ref = (d / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()[:300]
    hyp_file = sorted((d / "system-outputs").glob("*.hyp.*"))[0]
    hyp = hyp_file.read_text(encoding="utf-8").splitlines()[:300]
    return hyp, ref


@pytest.mark.parametrize("flavour", ["pltrdy", "rouge-chinese"])
@pytest.mark.parametrize("exclusive", [True, False])
def test_per_pair_equal_on_cnndm(cnndm, flavour, exclusive):
    hyps, refs = cnndm
    assert_rows_equal(flavour, hyps, refs, exclusive)


@pytest.mark.parametrize("flavour", ["pltrdy", "rouge-chinese"])
def test_corpus_mean_equal_on_cnndm(cnndm, flavour):
    hyps, refs = cnndm
    expected = PACKAGES[flavour].Rouge().get_scores(hyps, refs, avg=True)
    s = ROUGE(flavour).corpus_score(hyps, refs)
    for m in ("rouge-1", "rouge-2", "rouge-l"):
        t = s.types[m]
        assert (t.precision, t.recall, t.fmeasure) == (expected[m]["p"], expected[m]["r"], expected[m]["f"])


@pytest.mark.parametrize("flavour", ["pltrdy", "rouge-chinese"])
def test_jieba_words_equal_on_wmt22_en_zh(wmt_en_zh, flavour):
    hyp, ref = wmt_en_zh
    hj = [" ".join(jieba.cut(t)) for t in hyp]
    rj = [" ".join(jieba.cut(t)) for t in ref]
    assert_rows_equal(flavour, hj, rj)
    keep = [i for i in range(len(hj)) if hj[i].strip() and rj[i].strip()]
    hk, rk = [hyp[i] for i in keep], [ref[i] for i in keep]
    expected = PACKAGES[flavour].Rouge().get_scores([hj[i] for i in keep], [rj[i] for i in keep], avg=True)
    s = ROUGE(flavour, tokenizer="jieba").corpus_score(hk, rk)  # jieba applied inside
    assert s.types["rouge-l"].fmeasure == expected["rouge-l"]["f"]
    assert s.types["rouge-2"].recall == expected["rouge-2"]["r"]


PIECES = ["a", "b", "the", "cat", "A", ".", "..", "......", "。", "？", "?", "！", "”", "’", "，", "…", "……",
          " ", "  ", "\t", "\n", "\r\n", "\u3000", "\x1c", "\u00a0", "你", "好", "世界", "猫", "😀", "ｆｕｌｌ", "１２", "é", "e\u0301"]


def adversarial(rng: random.Random, k: int = 20) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, k)))


@pytest.mark.parametrize("flavour", ["pltrdy", "rouge-chinese"])
@pytest.mark.parametrize("exclusive", [True, False])
def test_per_pair_equal_on_adversarial_text(flavour, exclusive):
    rng = random.Random(7)
    hyps = [adversarial(rng) for _ in range(1500)]
    refs = [adversarial(rng) for _ in range(1500)]
    refs[::17] = hyps[::17]  # duplicates: identical pairs
    assert_rows_equal(flavour, hyps, refs, exclusive)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25), st.lists(st.sampled_from(PIECES), max_size=25))
def test_per_pair_equal_hypothesis(hp, rp):
    h, r = "".join(hp), "".join(rp)
    for flavour in PACKAGES:
        assert_rows_equal(flavour, [h], [r])


def test_repeated_ngrams_count_once():
    s = ROUGE("pltrdy").corpus_score(["the cat the cat sat"], ["the cat sat"])
    assert s.types["rouge-1"].precision == 1.0  # {the, cat, sat} ⊆ reference: repeats do not count
    s2 = ROUGE("pltrdy", exclusive=False).corpus_score(["the cat the cat sat"], ["the cat sat"])
    assert s2.types["rouge-1"].precision == 3 / 5
    assert s.types["rouge-1"].fmeasure == 2.0 * ((1.0 * 1.0) / (1.0 + 1.0 + 1e-8))


def test_rouge_l_pltrdy_union_differs_from_chinese():
    # pltrdy: sentences split on '.', union of LCS words; rouge-chinese: LCS of the whole lists
    h, r = "b a . c", "a b c"
    p = ROUGE("pltrdy").corpus_score([h], [r]).types["rouge-l"]
    c = ROUGE("rouge-chinese").corpus_score([h], [r]).types["rouge-l"]
    ep = rouge_pkg.Rouge().get_scores(h, r)[0]["rouge-l"]
    ec = rouge_chinese.Rouge().get_scores(h, r)[0]["rouge-l"]
    assert (p.precision, c.precision) == (ep["p"], ec["p"])
    assert p.precision != c.precision


def test_on_empty_rules():
    hyps, refs = ["", "a b", "   ", "a"], ["a", "a b", "a", ""]
    with pytest.raises(InvalidInputError, match="segment 0 has no sentence in its prediction"):
        ROUGE("rouge-chinese").corpus_score(hyps, refs)
    with pytest.raises(InvalidInputError, match="on_empty"):
        ROUGE("pltrdy").corpus_score(["a"], ["..."])
    # ignore_empty=True drops pairs with an empty text; for rouge, "   " stays (one sentence,
    # the empty word); rouge-chinese strips it to no sentence and raises, as we do
    with pytest.raises(ValueError):
        rouge_chinese.Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True)
    with pytest.raises(InvalidInputError, match="segment 2"):
        ROUGE("rouge-chinese", on_empty="ignore").corpus_score(hyps, refs)
    expected = rouge_pkg.Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True)
    s = ROUGE("pltrdy", on_empty="ignore").corpus_score(hyps, refs)
    assert s.types["rouge-1"].fmeasure == expected["rouge-1"]["f"]
    assert s.types["rouge-l"].recall == expected["rouge-l"]["r"]
    # LLaMA-Factory's rule: no word on a side -> 0, and the pair counts
    z = ROUGE("rouge-chinese", on_empty="zero").sentence_scores(hyps, refs)
    assert z.tolist() == [0.0, 2.0 * ((1.0 * 1.0) / (1.0 + 1.0 + 1e-8)), 0.0, 0.0]


def test_merge_and_streaming_keep_the_bits(cnndm):
    hyps, refs = cnndm
    m = ROUGE("pltrdy")
    whole = m.corpus_score(hyps, refs)
    total = m.stats(hyps[:50], refs[:50]).total() + m.stats(hyps[50:], refs[50:]).total()
    assert m.score_stats(total).types == whole.types
    acc = ROUGE("pltrdy")
    for i in range(0, len(hyps), 40):
        acc.update(hyps[i : i + 40], refs[i : i + 40])
    assert acc.compute().types == whole.types


def test_jieba_tokenizer_matches_manual_join(wmt_en_zh):
    hyp, ref = wmt_en_zh
    a = ROUGE("rouge-chinese", tokenizer="jieba").sentence_prf(hyp[:50], ref[:50])
    b = ROUGE("rouge-chinese").sentence_prf([" ".join(jieba.cut(t)) for t in hyp[:50]], [" ".join(jieba.cut(t)) for t in ref[:50]])
    assert all((a[k].fmeasure == b[k].fmeasure).all() for k in a)
    assert "tok:jieba-0.42" in str(ROUGE("rouge-chinese", tokenizer="jieba").signature())


def test_missing_jieba_is_a_typed_error(monkeypatch):
    from nlgmetrics.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "jieba", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[zh\]"):
        ROUGE("rouge-chinese", tokenizer="jieba")


def test_option_and_input_errors():
    with pytest.raises(InvalidOptionError):
        ROUGE("pltrdy", rouge_types=["rougeL"])
    with pytest.raises(InvalidOptionError):
        ROUGE("rouge-chinese", tokenizer="unicode")
    with pytest.raises(InvalidOptionError):
        ROUGE("rouge-chinese", on_empty="skip")
    with pytest.raises(InvalidInputError, match="one reference"):
        ROUGE("pltrdy").corpus_score(["a"], [["a", "b"]])


def test_cli_rouge_chinese(tmp_path):
    hyps = ["我 喜欢 猫", "今天 天气 很 好 。"]
    refs = ["我 喜欢 狗", "今天 天气 不错 。"]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "nlgmetrics", "score", "-m", "rouge", "--rouge-flavour", "rouge-chinese", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "h.txt"), "--format", "json"],
        capture_output=True, text=True, check=True,
    )
    got = json.loads(out.stdout)
    expected = rouge_chinese.Rouge().get_scores(hyps, refs, avg=True)
    text = json.dumps(got)
    assert repr(expected["rouge-l"]["f"]) in text or str(expected["rouge-l"]["f"]) in text
