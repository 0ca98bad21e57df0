"""retrieval: trec_eval measures equal (==) to pytrec_eval-terrier 0.5.11's per query, on
hand-checked cases and generated adversarial ones (ties, duplicate-free reorderings,
graded and negative judgments, empty runs, cutoffs past the run, queries missing on either
side, unicode ids, judged-only, relevance levels)."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError
from nlgmetrics.metrics.programs.retrieval import Retrieval, parse_measures
from nlgmetrics.metrics.programs.trec_files import read_qrels, read_run

MEASURES = ["map", "recip_rank", "ndcg", "Rprec", "P.1,2,3,5,10,1000", "recall.1,3,10", "success.1,2,5",
            "map_cut.1,3,10", "ndcg_cut.1,2,3,5,10,100", "num_ret", "num_rel", "num_rel_ret"]


def test_hand_checked_values():
    # d3 (score 3) first; d1 and d2 tie at 2: d2 ranks before d1 (descending ids); d4 last
    run = {"q": {"d1": 2.0, "d2": 2.0, "d3": 3.0, "d4": 1}}
    qrels = {"q": {"d1": 1, "d2": 0, "d4": 2, "d9": 1, "dx": -1}}
    v = Retrieval(measures=MEASURES).per_query(run, qrels)["q"]
    # ranked rels: d3 unjudged, d2 0, d1 1, d4 2 -> relevant at ranks 3 and 4, 3 relevant in all
    assert v["num_ret"] == 4.0 and v["num_rel"] == 3.0 and v["num_rel_ret"] == 2.0
    assert v["recip_rank"] == 1 / 3
    assert v["map"] == (1 / 3 + 2 / 4) / 3
    assert v["P_3"] == 1 / 3 and v["P_1000"] == 2 / 1000
    assert v["recall_3"] == 1 / 3 and v["success_2"] == 0.0 and v["success_5"] == 1.0
    dcg = 1 / math.log2(4) + 2 / math.log2(5)
    ideal = 2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert v["ndcg"] == dcg / ideal
    assert v["ndcg_cut_3"] == (1 / math.log2(4)) / (2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4))


def test_measure_names_as_pytrec_eval():
    cols, counts = parse_measures({"P_5", "P.5,10"})
    assert sorted(k for k, _, _ in cols) == ["P_10", "P_5"]
    cols, _ = parse_measures(["ndcg_cut"])
    assert [k for k, _, _ in cols][:2] == ["ndcg_cut_5", "ndcg_cut_10"] and len(cols) == 9
    assert [k for k, _, _ in parse_measures(["success"])[0]] == ["success_1", "success_5", "success_10"]
    assert parse_measures(["map", "num_q"])[1] == ["num_q"]
    for bad in (["bogus"], ["P.0"], ["P.x"], [3], [], b"map"):
        with pytest.raises(InvalidOptionError):
            Retrieval(measures=bad)
    for bad in (0, -1, 1.0, True, "1"):
        with pytest.raises(InvalidOptionError):
            Retrieval(relevance_level=bad)


def test_corpus_value_is_trec_evals_all_line():
    run = {"b": {"x": 1.0, "y": 0.5}, "a": {"x": 0.1, "z": 0.2}, "c": {"x": 1.0}, "nojudged": {"x": 1.0}}
    qrels = {"a": {"x": 1, "z": 0}, "b": {"y": 1, "w": 1}, "c": {"q": 1}, "onlyjudged": {"x": 1}}
    m = Retrieval(measures=["map", "P.1", "num_ret", "num_rel"])
    per = m.per_query(run, qrels)
    assert list(per) == ["a", "b", "c"]
    s = m.corpus_score(run, qrels)
    total = 0.0
    for q in sorted(per):
        total += per[q]["map"]
    assert s.score == total / 3 and s["num_q"] == 3
    assert s["num_ret"] == 5 and s["num_rel"] == 4
    # -c: every judged query counts, the missing one with zeros
    c = Retrieval(measures=["map", "num_rel"], complete=True).corpus_score(run, qrels)
    assert c.score == total / 4 and c["num_q"] == 4 and c["num_rel"] == 5


def test_scores_rank_in_single_precision_as_trec_eval_9():
    # 1 + 1e-9 rounds to the f32 1.0: a tie, and the larger id "b" ranks first
    run = {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    qrels = {"q": {"a": 1}}
    assert Retrieval(measures=["recip_rank"]).corpus_score(run, qrels).score == 0.5
    assert Retrieval(measures=["recip_rank"], score_precision="float64").corpus_score(run, qrels).score == 1.0
    with pytest.raises(InvalidOptionError):
        Retrieval(score_precision="double")


def test_judgments_all_negative_mean_nothing_relevant():
    # pytrec_eval's behaviour here is undefined (it sizes a table by the largest value)
    v = Retrieval(measures=["map", "ndcg", "P.1", "num_rel", "num_rel_ret"]).per_query({"q": {"a": 1.0}}, {"q": {"a": -2, "b": -5}})
    assert v == {"q": {"map": 0.0, "ndcg": 0.0, "P_1": 0.0, "num_rel": 0.0, "num_rel_ret": 0.0}}


def test_bad_input_is_a_typed_error():
    m = Retrieval(measures=["map"])
    q = {"q": {"a": 1}}
    with pytest.raises(InvalidInputError, match="NaN"):
        m.corpus_score({"q": {"a": float("nan")}}, q)
    with pytest.raises(InputTypeError):
        m.corpus_score({"q": {"a": "high"}}, q)
    with pytest.raises(InputTypeError):
        m.corpus_score({"q": {"a": 1.0}}, {"q": {"a": 1.5}})
    with pytest.raises(InputTypeError):
        m.corpus_score({"q": {3: 1.0}}, q)
    with pytest.raises(InputTypeError):
        m.corpus_score([("q", "a", 1.0)], q)
    with pytest.raises(InvalidInputError, match="NUL"):
        m.corpus_score({"q": {"a\0b": 1.0}}, q)
    with pytest.raises(InvalidInputError, match="no query"):
        m.corpus_score({"other": {"a": 1.0}}, q)
    with pytest.raises(InvalidInputError):
        m.corpus_score({"q": {"a": 10**400}}, q)


def test_trec_files(tmp_path):
    run_file = tmp_path / "run.txt"
    run_file.write_text("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 -1e3 tag\n\nq2 Q0 d1 1 inf tag\n", encoding="utf-8")
    qrels_file = tmp_path / "qrels.txt"
    qrels_file.write_text("q1 0 d1 1\nq1 0 d2 -1\nq2 0 d3 2\n", encoding="utf-8")
    assert read_run(run_file) == {"q1": {"d1": 2.5, "d2": -1000.0}, "q2": {"d1": math.inf}}
    assert read_qrels(str(qrels_file)) == {"q1": {"d1": 1, "d2": -1}, "q2": {"d3": 2}}
    s = Retrieval(measures=["map"]).corpus_score(run_file, qrels_file)
    assert s.score == 0.5
    bad = {
        "q1 Q0 d1 1 2.5\n": "6 fields",
        "q1 Q0 d1 1 nan t\n": "not a number",
        "q1 Q0 d1 1 1_0 t\n": "not a number",
        "q1 Q0 d1 1 1 t\nq1 Q0 d1 2 0 t\n": "line 2: document 'd1' is retrieved twice",
    }
    for text, msg in bad.items():
        run_file.write_text(text, encoding="utf-8")
        with pytest.raises(InvalidInputError, match=msg) as e:
            read_run(run_file)
        assert str(run_file) in str(e.value)
    qrels_file.write_text("q1 0 d1 1\nq1 0 d2 high\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="line 2: relevance 'high'"):
        read_qrels(qrels_file)
    with pytest.raises(InvalidInputError, match="cannot read"):
        read_qrels(tmp_path / "missing.txt")


def test_registry_and_streaming_agree():
    run = {"q1": {"a": 1.0, "b": 2.0}, "q2": {"c": 1.0}}
    qrels = {"q1": {"a": 1}, "q2": {"c": 2}}
    m = nlgmetrics.load("retrieval", measures=["ndcg_cut.10", "map"])
    whole = m.corpus_score(run, qrels)
    m.update({"q1": run["q1"]}, qrels).update({"q2": run["q2"]}, qrels)
    streamed = m.compute()
    assert streamed.score == whole.score and streamed["map"] == whole["map"]
    assert list(m.sentence_scores(run, qrels)) == [1 / math.log2(3), 1.0]


def test_paired_significance_between_runs():
    from nlgmetrics.engines.significance import paired_test_stats

    rng = random.Random(5)
    qrels = {f"q{i}": {f"d{j}": rng.choice([0, 1, 2]) for j in range(8)} for i in range(30)}
    good = {q: {f"d{j}": float(qrels[q][f"d{j}"] + rng.random()) for j in range(8)} for q in qrels}
    noisy = {q: {f"d{j}": rng.random() for j in range(8)} for q in qrels}
    m = Retrieval(measures=["ndcg_cut.5"])
    a, b = m.paired_stats(noisy, good, qrels)
    assert len(a) == len(b) == 30
    res = paired_test_stats(m, ("noisy", a), [("good", b)], test="ar", n_samples=500, seed=1)
    assert res.systems[1].score == m.corpus_score(good, qrels).score
    assert res.systems[1].p_value < 0.05


# -- differential tests against pytrec_eval --------------------------------------------------
pytrec_eval = pytest.importorskip("pytrec_eval")

IDS = ["a", "b", "B", "aa", "a b", "é", "文書", "d10", "d9", "d1", "\U0001f600", "z"]


def _case(rng: random.Random):
    """A run and qrels with the shapes trec_eval treats specially."""
    run, qrels = {}, {}
    for q in range(rng.randint(1, 6)):
        qid = rng.choice([f"q{q}", f"é{q}", f"{q}"])
        docs = rng.sample(IDS, rng.randint(0, len(IDS))) + [f"x{i}" for i in range(rng.choice([0, 0, 3, 40]))]
        score_pool = [rng.choice([0.0, -0.0, 1.0, 2.5, -3.0, math.inf, -math.inf, 1e-300]) for _ in range(3)]
        if rng.random() < 0.5:
            run[qid] = {d: rng.choice(score_pool) for d in docs}  # heavy ties
        else:
            run[qid] = {d: rng.choice([rng.random(), float(rng.randint(0, 3)), rng.randint(-2, 2)]) for d in docs}
        if rng.random() < 0.85:
            judged = rng.sample(IDS + [f"x{i}" for i in range(10)], rng.randint(0, 15))
            qrels[qid] = {d: rng.choice([-2, -1, 0, 0, 1, 1, 2, 3, 7]) for d in judged}
            if qrels[qid] and max(qrels[qid].values()) < 0:
                # pytrec_eval reads past its buffer when every judgment is below -1 (trec_eval
                # sizes a table by the largest value): one judged 0 keeps it defined
                qrels[qid]["x0"] = 0
    for q in range(rng.randint(0, 2)):  # judged queries the run lacks
        qrels[f"only{q}"] = {"a": 1}
    return run, qrels


def _pytrec(qrels, measures, run, **kw):
    return pytrec_eval.RelevanceEvaluator(qrels, set(measures), **kw).evaluate(run)


@pytest.mark.parametrize("seed", range(60))
def test_equals_pytrec_eval_on_generated_cases(seed):
    rng = random.Random(seed)
    run, qrels = _case(rng)
    level = rng.choice([1, 1, 2, 3])
    judged_only = rng.random() < 0.3
    expected = _pytrec(qrels, MEASURES, run, relevance_level=level, judged_docs_only_flag=judged_only)
    m = Retrieval(measures=MEASURES, relevance_level=level, judged_docs_only=judged_only)
    ours = m.per_query(run, qrels)
    assert ours == expected  # every value ==, the same queries
    if ours:
        s = m.corpus_score(run, qrels)
        for key in m.sum_fields:
            total = 0.0
            for q in sorted(ours):
                total += ours[q][key]
            assert s[key] == total / len(ours)
        for key in ("num_ret", "num_rel", "num_rel_ret"):
            assert s[key] == pytrec_eval.compute_aggregated_measure(key, [v[key] for v in expected.values()])


def test_equals_pytrec_eval_on_a_larger_run():
    rng = np.random.default_rng(0)
    run, qrels = {}, {}
    for q in range(50):
        scores = np.round(rng.normal(size=1000), 2)  # rounded: many ties
        run[f"q{q}"] = {f"doc{d}": float(s) for d, s in enumerate(scores)}
        qrels[f"q{q}"] = {f"doc{d}": int(rng.integers(-1, 4)) for d in rng.choice(1500, 80, replace=False)}
    measures = ["map", "ndcg", "recip_rank", "P", "recall", "ndcg_cut", "map_cut", "success", "Rprec"]
    expected = _pytrec(qrels, measures, run)
    assert Retrieval(measures=measures).per_query(run, qrels) == expected
    assert Retrieval(measures=measures, n_threads=1).per_query(run, qrels) == expected
