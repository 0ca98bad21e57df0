"""ROUGE, rouge-score flavour: parity with rouge-score 0.1.2 (and NLTK's Porter stemmer)."""

from __future__ import annotations

import json
import math
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.stem import porter
from rouge_score import rouge_scorer, scoring

import nlgmetrics
from differential.bitexact import numpy_mean_bound_ulps
from nlgmetrics import ROUGE, RougeTokenizerWarning, _core

ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge9", "rougeL", "rougeLsum"]


def reference_matrix(types, preds, refs, use_stemmer):
    """rouge-score's per-pair [P, R, F] per type (score_multi for several targets)."""
    sc = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    rows = []
    for p, rs in zip(preds, refs):
        d = sc.score(rs[0], p) if len(rs) == 1 else sc.score_multi(rs, p)
        rows.append([getattr(d[t], f) for t in types for f in ("precision", "recall", "fmeasure")])
    return np.array(rows, dtype=np.float64).reshape(len(preds), 3 * len(types))


@pytest.fixture(scope="module")
def cnndm(corpora):
    """A deterministic subsample (every 15th document: 766 of 11,490)."""
    preds, refs, base = [], [], []
    with open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i % 15 == 0:
                d = json.loads(line)
                preds.append("\n".join(d["pointer-gen-cov"]))
                refs.append(["\n".join(d["reference"])])
                base.append("\n".join(d["baseline"]))
    return preds, refs, base


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_cnndm_parity_all_types(cnndm, use_stemmer):
    preds, refs, _ = cnndm
    m = ROUGE(rouge_types=ALL_TYPES, use_stemmer=use_stemmer)
    got = m.stats(preds, refs).sums
    want = reference_matrix(ALL_TYPES, preds, refs, use_stemmer)
    np.testing.assert_array_equal(got, want)
    # the corpus score is the mean over pairs, as np.mean of the per-pair values computes it
    score = m.corpus_score(preds, refs)
    for k, t in enumerate(ALL_TYPES):
        assert score.types[t].fmeasure == np.mean(want[:, 3 * k + 2].tolist())
    assert score.score == score.types["rouge1"].fmeasure


def test_corpus_mean_is_numpy_mean_bit_for_bit(cnndm):
    """The corpus P/R/F of every type is ``np.mean`` of rouge-score's per-pair values (one
    list each, numpy's pairwise sum), ``==``, in one pass, streamed and merged in order;
    totals without the ordered values take the exactly rounded mean, within numpy's bound."""
    preds, refs, _ = cnndm
    n = len(preds)
    want = reference_matrix(ALL_TYPES, preds, refs, False)
    expected = [np.mean(want[:, j].tolist()) for j in range(want.shape[1])]
    exact = [math.fsum(want[:, j]) / n for j in range(want.shape[1])]
    assert exact != expected  # this corpus tells numpy's order from the exact mean

    def values(score):
        return [v for t in ALL_TYPES for v in score.types[t]]

    m = ROUGE(rouge_types=ALL_TYPES)
    assert values(m.corpus_score(preds, refs)) == expected
    streamed = ROUGE(rouge_types=ALL_TYPES)
    for a in range(0, n, 97):
        streamed.update(preds[a : a + 97], refs[a : a + 97])
    assert values(streamed.compute()) == expected
    first, second = ROUGE(rouge_types=ALL_TYPES), ROUGE(rouge_types=ALL_TYPES)
    first.update(preds[:300], refs[:300])
    second.update(preds[300:], refs[300:])
    assert values(first.merge(second).compute()) == expected
    assert values(m.score_stats(m.stats(preds[:300], refs[:300]) + m.stats(preds[300:], refs[300:]))) == expected
    total = m.stats(preds, refs).total()
    assert total.sequence.shape == (n, 3 * len(ALL_TYPES))
    assert values(m.score_stats(pickle.loads(pickle.dumps(total)))) == expected
    unordered = values(m.score_stats(total.replace(sequence=None)))
    assert unordered == exact
    bound = numpy_mean_bound_ulps(n)
    assert all(abs(a - b) <= bound * math.ulp(b) for a, b in zip(unordered, expected))


def test_cnndm_multi_reference_takes_max_f_per_type(cnndm):
    preds, refs, base = cnndm
    multi = [[r[0], b] for r, b in zip(refs[:300], base[:300])]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    got = ROUGE(rouge_types=types).stats(preds[:300], multi).sums
    np.testing.assert_array_equal(got, reference_matrix(types, preds[:300], multi, False))


def test_porter_stemmer_matches_nltk_on_corpus_words(cnndm):
    preds, refs, _ = cnndm
    words = sorted({w for text in preds + [r[0] for r in refs] for w in _core.rouge_tokenize(text)})
    stemmer = porter.PorterStemmer()
    assert _core.porter_stem(words, "nltk") == [stemmer.stem(w) for w in words]


WORDS = ["the", "cat", "sat", "on", "mat", "dog", "running", "runs", "ran", "Flies", "flying", "skies", "dying", "generalization",
         "relational", "happy", "happily", "CAT", "3.5", "well-known", "I", "a", "naïve", "café", "İstanbul", "\u212aelvin"]
text_strategy = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(alphabet="abcdeé你好 .,-\t", max_size=6)),
    max_size=14,
).map(lambda ws: " ".join(ws))
doc_strategy = st.lists(text_strategy, max_size=3).map("\n".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pred=doc_strategy, refs=st.lists(doc_strategy, min_size=1, max_size=3), stem=st.booleans())
def test_hypothesis_parity(pred, refs, stem):
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RougeTokenizerWarning)
        got = ROUGE(rouge_types=types, use_stemmer=stem).stats([pred], [refs]).sums
    np.testing.assert_array_equal(got, reference_matrix(types, [pred], [refs], stem))


@pytest.mark.parametrize(
    "pred,ref",
    [
        ("", ""),
        ("", "the cat"),
        ("the cat", ""),
        ("   ", " \t "),
        ("cat", "cat"),
        ("a", "a b"),
        ("The Cat SAT", "the cat sat"),
        ("one two three", "one two three"),
        ("\n\nthe cat\n\n", "the\ncat"),
        ("a b\n\nc", "c\na b"),
    ],
)
def test_edge_cases(pred, ref):
    got = ROUGE(rouge_types=ALL_TYPES).stats([pred], [ref]).sums
    np.testing.assert_array_equal(got, reference_matrix(ALL_TYPES, [pred], [[ref]], False))


def test_spec_worked_examples():
    r = ROUGE(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    s = r.corpus_score(["The quick brown dog jumps on the log.\nIt is sunny today."], ["The quick brown fox jumps over the lazy dog.\nIt was sunny."])
    assert round(s.types["rouge2"].fmeasure, 6) == 0.181818
    assert round(s.types["rougeLsum"].fmeasure, 6) == 0.583333
    s = ROUGE(rouge_types=["rouge1"], use_stemmer=True).corpus_score(["the runner ran quick"], ["The runners were running quickly"])
    assert (s.types["rouge1"].precision, s.types["rouge1"].recall) == (0.5, 0.4)


def test_bootstrap_equals_rouge_score_aggregator_with_the_same_seed(cnndm):
    preds, refs, _ = cnndm
    preds, refs = preds[:120], refs[:120]
    types = ["rouge1", "rougeL"]
    ours = ROUGE(rouge_types=types).bootstrap(preds, refs, n_samples=200, seed=1234)
    sc = rouge_scorer.RougeScorer(types)
    agg = scoring.BootstrapAggregator(n_samples=200)
    for p, r in zip(preds, refs):
        agg.add_scores(sc.score(r[0], p))
    np.random.seed(1234)
    want = agg.aggregate()
    for t in types:
        for bound in ("low", "mid", "high"):
            np.testing.assert_allclose(tuple(getattr(ours[t], bound)), tuple(getattr(want[t], bound)), rtol=1e-12)
    # deterministic, and the seed matters
    again = ROUGE(rouge_types=types).bootstrap(preds, refs, n_samples=200, seed=1234)
    assert again == ours
    assert ROUGE(rouge_types=types).bootstrap(preds, refs, n_samples=200, seed=7) != ours
    sig = ours.signature.as_dict()
    assert (sig["seed"], sig["bs"], sig["ci"]) == (1234, 200, 0.95)
    assert "rs:1234" in ours.signature.format(short=True)


class TestNonLatinText:
    """rouge-score scores CJK/Thai as 0; the unicode tokenizer does not."""

    def test_rouge_score_flavour_keeps_the_zeros_and_warns(self):
        for text in ["我爱北京天安门", "東京は日本の首都です", "สวัสดีครับ"]:
            with pytest.warns(RougeTokenizerWarning):
                s = nlgmetrics.rouge([text], [text], rouge_types=["rouge1", "rougeL"])
            assert s.score == 0.0
            want = rouge_scorer.RougeScorer(["rouge1"]).score(text, text)["rouge1"].fmeasure
            assert want == 0.0

    def test_unicode_tokenizer_chinese(self):
        r = ROUGE(rouge_types=["rouge1", "rouge2", "rougeL"], tokenizer="unicode")
        assert r.corpus_score(["我爱北京天安门"], ["我爱北京天安门"]).score == 1.0
        s = r.corpus_score(["我爱北京"], ["我爱上海"])
        assert s.types["rouge1"] == (0.5, 0.5, 0.5)  # 我 爱 match, 北京/上海 do not
        assert s.types["rouge2"].fmeasure == pytest.approx(1 / 3)

    def test_unicode_tokenizer_japanese_and_thai(self):
        r = ROUGE(rouge_types=["rouge1"], tokenizer="unicode")
        s = r.corpus_score(["東京は日本の首都です"], ["東京は日本の首都"])
        assert s.types["rouge1"].recall == 1.0 and s.types["rouge1"].precision == pytest.approx(8 / 10)
        assert _core.rouge_tokenize("สวัสดี ครับ", "unicode")  # Thai is not deleted
        assert r.corpus_score(["สวัสดีครับ"], ["สวัสดีครับ"]).score == 1.0
        assert r.corpus_score(["สวัสดีครับ"], ["ขอบคุณ"]).score < 1.0

    def test_unicode_tokenizer_matches_ascii_text_like_rouge_score_up_to_punctuation(self):
        r = ROUGE(rouge_types=["rouge1"], tokenizer="unicode")
        assert r.corpus_score(["The cat, sat."], ["the cat sat"]).score == 1.0
        assert r.signature().as_dict()["tok"] == "unicode"


class TestJieba:
    """tokenizer="jieba": Chinese words, not characters (pip install jieba)."""

    def test_word_level_scores(self):
        pytest.importorskip("jieba")
        r = ROUGE(rouge_types=["rouge1", "rouge2", "rougeLsum"], tokenizer="jieba")
        s = r.corpus_score(["我爱北京"], ["我爱北京天安门"])  # 我/爱/北京 vs 我/爱/北京/天安门
        assert s.types["rouge1"] == (1.0, 0.75, pytest.approx(6 / 7))
        assert r.corpus_score(["我爱北京天安门"], ["我爱北京天安门"]).score == 1.0
        assert r.signature().as_dict()["tok"].startswith("jieba-")
        m = r.pairwise(["我爱北京", "天安门"], ["我爱北京天安门", "北京"])
        for i, c in enumerate(["我爱北京", "天安门"]):
            for j, t in enumerate(["我爱北京天安门", "北京"]):
                assert m[i, j] == r.sentence_scores([c], [t])[0]

    def test_mixed_english_uses_rouge_score_tokens_and_stemmer(self):
        pytest.importorskip("jieba")
        r = ROUGE(rouge_types=["rouge1"], tokenizer="jieba", use_stemmer=True)
        s = r.corpus_score(["the runners 跑步"], ["The runner 跑步"])
        assert s.score == 1.0
