"""Distinct-n: golden values of the reference script, the corpus conventions of the
specification, merging (exact and HyperLogLog), edge cases and errors."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nlgmetrics
from nlgmetrics import Distinct, _core, distinct
from nlgmetrics.errors import IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError

from conftest import read_lines

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "distinct" / "distinct_n.json").read_text())


def responses(corpora, name):
    return read_lines(corpora / "dialogue_grade" / "eval_data" / name / "human_hyp.txt")


def direct(texts, n):
    """The specification's formulas (§9.1), written out."""
    toks = [t.split() for t in texts]
    grams = [[tuple(s[i:i + n]) for i in range(len(s) - n + 1)] for s in toks]
    union = set(g for gs in grams for g in gs)
    total = sum(len(g) for g in grams)
    tokens = sum(len(s) for s in toks)
    return len(union) / total if total else 0.0, len(union) / tokens if tokens else 0.0


@pytest.mark.parametrize("name", sorted(GOLDENS["sets"]))
def test_reference_goldens(corpora, name):
    texts = responses(corpora, name)
    for n in range(1, 5):
        gold = GOLDENS["sets"][name][str(n)]
        per = Distinct(n, mode="mean").sentence_scores(texts)
        ok = [i for i, g in enumerate(gold["sentence_level"]) if g is not None]
        assert np.array_equal(per[ok], np.array([gold["sentence_level"][i] for i in ok]))
        s = Distinct(n, mode="mean").corpus_score(texts)
        if gold["corpus_level"] is not None:
            # The reference sums left to right; we sum exactly: equal to 1e-12.
            assert s.score == pytest.approx(gold["corpus_level"], rel=1e-12, abs=0)
        assert s.corpus is None  # mode "mean" skips the corpus union
        corpus, paper = direct(texts, n)
        c = Distinct(n).corpus_score(texts)
        assert c.corpus == corpus and c.paper == paper and c.mean == s.mean


def test_specification_worked_example():
    hyps = ["i do not know", "i do not know", "i like cats a lot"]
    d1, d2 = Distinct(1).corpus_score(hyps), Distinct(2).corpus_score(hyps)
    assert (round(d1.paper, 4), round(d1.corpus, 4), round(d1.mean, 4)) == (0.6154, 0.6154, 1.0)
    assert (round(d2.paper, 4), round(d2.corpus, 4), round(d2.mean, 4)) == (0.5385, 0.7, 0.7667)
    assert d2.unique == 7 and d2.ngrams == 10 and d2.tokens == 13


texts_st = st.lists(st.text(alphabet=st.sampled_from("ab c猫\t"), max_size=12), max_size=12)


@settings(max_examples=80, deadline=None)
@given(texts=texts_st, n=st.integers(1, 4), cut=st.integers(0, 12))
def test_formulas_and_sharding(texts, n, cut):
    m = Distinct(n)
    corpus, paper = direct(texts, n)
    if texts:
        s = m.corpus_score(texts)
        assert s.corpus == corpus and s.paper == paper
    seg = m.stats(texts)
    cut = min(cut, len(texts))
    a, b = seg.take(range(cut)).total(), seg.take(range(cut, len(texts))).total()
    assert a + b == b + a == seg.total()
    assert (a + b) + m.zero() == a + b


def test_merge_associative_and_streaming(corpora):
    texts = responses(corpora, "convai2/dialogGPT")
    m = Distinct(2)
    a, b, c = (m.stats(texts[i:i + 50]).total() for i in (0, 50, 100))
    assert (a + b) + c == a + (b + c) == m.stats(texts).total()
    s = Distinct(2)
    for i in range(0, 150, 37):
        s.update(texts[i:i + 37])
    assert s.compute().score == m.corpus_score(texts).score
    assert pickle.loads(pickle.dumps(a + b)) == a + b
    union = (a + b).tables["ngrams_2"]["union"]
    assert len(union) == len({tuple(t.split()[i:i + 2]) for t in texts[:100] for i in range(len(t.split()) - 1)})
    seg = m.stats(texts)
    assert (seg.take(range(40)) + seg.take(range(40, 150))).total() == seg.total()


def test_hll_sketch(corpora):
    texts = []
    for name in GOLDENS["sets"]:
        texts += responses(corpora, name)
    exact = Distinct(2).corpus_score(texts)
    for p in (10, 14):
        m = Distinct(2, sketch="hll", hll_precision=p)
        est = m.corpus_score(texts)
        assert est.estimated and abs(est.unique - exact.unique) / exact.unique < 4 * 1.04 / np.sqrt(2**p)
        # Sharded sketches merge to the same registers (hence estimate) as one pass.
        parts = [m.stats(texts[i:i + 300]).total() for i in range(0, len(texts), 300)]
        assert m.score_stats(sum(parts[1:], parts[0])).unique == est.unique
        assert "union:hll-p" in str(est.signature)
    assert Distinct(2, n_threads=1, sketch="hll").corpus_score(texts).score == Distinct(2, n_threads=2, sketch="hll").corpus_score(texts).score


def test_threads_tokenizer_case(corpora):
    texts = responses(corpora, "empatheticdialogues/transformer_ranker")
    assert Distinct(3, n_threads=1).corpus_score(texts).score == Distinct(3, n_threads=2).corpus_score(texts).score
    assert Distinct(1, lowercase=True).corpus_score(["A a", "a"]).unique == 1
    assert Distinct(1).corpus_score(["A a", "a"]).unique == 2
    assert Distinct(1, tokenize="char").corpus_score(["猫猫犬"]).score == 2 / 3
    assert Distinct(1, tokenize="13a").corpus_score(["hi, hi."]).unique == 3


def test_edge_cases_and_errors():
    s = Distinct(2).corpus_score(["", " ", "a"])
    assert s.score == 0.0 and s.mean == 0.0 and s.ngrams == 0
    assert list(Distinct(2).sentence_scores(["a a", "", "a b a b"])) == [1.0, 0.0, 2 / 3]
    assert nlgmetrics.load("distinct", n=1).corpus_score(["a b"], ["ignored"]).score == 1.0
    assert distinct(["a b", "a c"], n=1).score == 3 / 4
    for bad in (dict(n=0), dict(mode="avg"), dict(tokenize="x"), dict(sketch="bloom"), dict(hll_precision=3)):
        with pytest.raises(InvalidOptionError):
            Distinct(**bad)
    with pytest.raises(InputTypeError):
        Distinct().corpus_score("a b")
    with pytest.raises(InputTypeError):
        Distinct().corpus_score(["a", 3])
    with pytest.raises(InvalidInputError):
        Distinct().compute()
    with pytest.raises(IncompatibleStatsError):
        Distinct(1).state + Distinct(2).state


def test_cli(tmp_path, capsys):
    from nlgmetrics.cli import main

    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\na b c d\na b c e\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\na b c d\nx y z\n", encoding="utf-8")
    argv = ["score", "-i", str(hyp), "-r", str(ref), "-f", "json", "-m", "distinct", "self_bleu", "bleu",
            "--distinct-n", "1", "--self-bleu-n", "2", "--bleu-flavour", "nltk", "--nltk-smoothing", "method1"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    by = {r["name"]: r for r in out}
    assert by["distinct-1"]["score"] == Distinct(1).corpus_score(hyp.read_text().splitlines()).score
    assert "n:1" in by["distinct-1"]["signature"]
    hyps, refs = hyp.read_text().splitlines(), ref.read_text().splitlines()
    assert by["BLEU"]["score"] == nlgmetrics.BLEU(flavour="nltk", smoothing="method1").corpus_score(hyps, refs).score
    assert by["self-BLEU"]["score"] == nlgmetrics.SelfBLEU(2).corpus_score(hyps).score


def test_one_pass_union_size_and_deferred_keys_agree_with_the_spelled_union():
    import pickle

    from nlgmetrics.metrics.distinct import NgramUnion

    texts = [f"w{i % 7} w{i % 5} w{i % 3} w{i % 11}" for i in range(500)] + ["", "solo"]
    for n in (1, 2, 3):
        m = Distinct(n)
        total = m.stats(texts).total()
        union = total.tables[m._table]["union"]
        spelled = NgramUnion(*_core.distinct_key_list(texts, "none", False, n))
        assert len(union) == len(spelled)
        assert union == spelled and hash(union) == hash(spelled)
        assert pickle.loads(pickle.dumps(m.stats(texts).total())) == total
        halves = m.stats(texts[:250]).total() + m.stats(texts[250:]).total()
        assert m.score_stats(halves).score == m.corpus_score(texts).score
        rows = _core.distinct_stats(texts, "none", False, n)
        assert (m.stats(texts).counts == rows).all()


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3), n_threads=st.sampled_from([0, 1, 2]), vocab=st.sampled_from([3, 40, 5000]))
def test_large_batches_equal_the_set_loop(seed, n, n_threads, vocab):
    """Batches of several pieces (the in-place parallel path splits them by 8,192
    texts): every convention and per-response row equals the set loop, with Python's
    whitespace (\\x1c, U+3000, U+00A0 split; U+200B does not) and tokens shared across pieces."""
    rng = np.random.default_rng(seed)
    seps = [" ", "  ", "\t", "\x1c", "\u3000", "\u00a0", " \n "]
    words = [f"w{i}" for i in range(vocab)] + ["猫", "a\u200bb", "é"]
    texts = []
    for _ in range(int(rng.integers(8_000, 20_000))):
        k = int(rng.integers(0, 12))
        toks = [words[int(j)] for j in rng.integers(0, len(words), k)]
        sep = seps[int(rng.integers(0, len(seps)))]
        texts.append((" " if rng.random() < 0.1 else "") + sep.join(toks))
    s = Distinct(n, n_threads=n_threads).corpus_score(texts)
    corpus, paper = direct(texts, n)
    assert s.corpus == corpus and s.paper == paper
    rows = Distinct(n, n_threads=n_threads).stats(texts).counts
    own = [len({tuple(t.split()[i:i + n]) for i in range(len(t.split()) - n + 1)}) for t in texts]
    assert rows[:, 2].tolist() == own
    assert rows[:, 0].tolist() == [len(t.split()) for t in texts]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abcdefgh ", max_size=30), min_size=1, max_size=12), st.integers(1, 3), st.sampled_from([4, 6, 14]))
def test_hll_estimates_clamp_to_the_metric_range(texts, n, p):
    # small corpora are where HyperLogLog's estimate overshoots the distinct count most
    # (1.0059, 1.047 for corpora of all-distinct n-grams): every estimate stays in [0, 1],
    # and it never exceeds the n-grams it estimates
    for mode in ("corpus", "paper"):
        out = Distinct(n, mode=mode, sketch="hll", hll_precision=p).corpus_score(texts)
        exact = Distinct(n, mode=mode).corpus_score(texts)
        assert 0.0 <= out.score <= 1.0, out.score
        assert out.unique <= out.ngrams
        if exact.unique:
            assert out.unique >= 1.0
        else:
            assert out.unique == 0.0 and out.score == 0.0


def test_hll_all_distinct_corpus_is_exactly_one_at_most():
    # all-distinct corpora whose raw estimate overshoots: 10 words -> 10.05 at p=10,
    # 500 -> 524.7 at p=4, 3,000 -> 4,516 at p=4; the score is then exactly 1
    for words, p in ((10, 10), (100, 14), (500, 4), (3000, 10)):
        texts = [" ".join(f"w{i}_{j}" for j in range(10)) for i in range(words // 10)]
        m = Distinct(1, sketch="hll", hll_precision=p)
        stats = m.stats(texts).total()
        assert m._unique(stats) > words  # the raw estimate overshoots ...
        out = m.corpus_score(texts)
        assert out.unique == words and out.score == 1.0  # ... and is clamped
        assert Distinct(1, mode="paper", sketch="hll", hll_precision=p).corpus_score(texts).score == 1.0
