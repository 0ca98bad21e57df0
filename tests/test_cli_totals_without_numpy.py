"""The CLI's plain runs of ``squad``, ``cmrc2018`` and ``retrieval`` total the per-question
(per-query) values in plain Python, without numpy: every number they print must equal
what the numpy path (segment statistics and their total) gives, bit for bit, on generated
inputs (empty answers, Unicode, CJK, ties, many questions, every option that moves a number)."""

from __future__ import annotations

import json
import random

import pytest

from nlgmetrics import _core
from nlgmetrics.metrics.programs.retrieval import Retrieval
from nlgmetrics.metrics.qa import cmrc2018 as cmrc
from nlgmetrics.metrics.qa import squad
from nlgmetrics.metrics.qa.squad_totals import best_threshold, official_from_lists

WORDS = ["the", "a", "an", "cat", "Cat", "sat", "on", "mat", "1889", "Eiffel", "tower", "ß", "İ", "é", "e\u0301", "猫", "坐",
         "2008年", ",", ".", "!", "'s", "-", "—", "😀", "\u3000", "Ǆ"]
SEEDS = range(60)


def _text(rng: random.Random, most: int = 6) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, most)))


def _probability(rng: random.Random) -> float | int:
    # ties (the search's stable order), ints (kept as ints in best_*_thresh), values around the threshold
    return rng.choice([0, 1, 0.5, 0.25, 1.0, rng.random(), rng.choice([0.1, 0.9]), rng.randrange(0, 3)])


def _squad_files(rng: random.Random, tmp_path, version: str) -> tuple[str, str, str | None, float]:
    n = rng.choice([1, 2, 5, rng.randrange(1, 400)])
    qas, preds, probs = [], {}, {}
    for i in range(n):
        answers = [] if version == "2.0" and rng.random() < 0.3 else [{"text": _text(rng), "answer_start": 0} for _ in range(rng.randrange(1, 4))]
        qas.append({"id": f"q{i}", "question": "?", "answers": answers})
        preds[f"q{i}"] = rng.choice(["", _text(rng), answers[0]["text"] if answers else ""])
        probs[f"q{i}"] = _probability(rng)
    if rng.random() < 0.3:  # the probabilities file in another key order than the dataset
        probs = dict(rng.sample(list(probs.items()), len(probs)))
    dataset = {"version": rng.choice([version, "v" + version, "1.0"]) if version == "1.1" else "v2.0",
               "data": [{"title": "t", "paragraphs": [{"context": "c", "qas": qas}]}]}
    paths = {}
    for name, doc in (("data", dataset), ("pred", preds), ("na", probs)):
        paths[name] = str(tmp_path / f"{name}.json")
        with open(paths[name], "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=rng.random() < 0.5)
    with_na = version == "2.0" and rng.random() < 0.7
    thresh = rng.choice([1.0, 0.5, 0.0, -1.0, 0.25])
    return paths["data"], paths["pred"], paths["na"] if with_na else None, thresh


@pytest.mark.parametrize("version", ["1.1", "2.0"])
@pytest.mark.parametrize("seed", SEEDS)
def test_squad_totals_equal_the_numpy_path(tmp_path, seed, version):
    rng = random.Random(f"squad {version} {seed}")
    data, pred, na, thresh = _squad_files(rng, tmp_path, version)
    raw = squad._read_files(data, pred, na)
    old_warnings, new_warnings = [], []
    old = squad._official_from_stats(_core.squad_files(*raw, "auto", 0), thresh, 0, old_warnings.append)
    new = official_from_lists(_core.squad_files_lists(*raw, "auto", 0), thresh, new_warnings.append)
    assert new == old and new_warnings == old_warnings
    assert list(new) == list(old) and [type(v) for v in new.values()] == [type(v) for v in old.values()]
    assert json.dumps(new, indent=2) == json.dumps(old, indent=2)  # what the CLI prints
    if na is not None:
        assert "best_f1_thresh" in new


def test_squad_lists_are_the_arrays():
    raw = (json.dumps({"version": "v2.0", "data": [{"paragraphs": [{"qas": [
        {"id": "a", "answers": [{"text": "the Cat"}]}, {"id": "b", "answers": []}]}]}]}).encode(), b'{"a": "cat", "b": ""}', b'{"a": 1, "b": 0.5}')
    arrays, lists = _core.squad_files(*raw, "auto", 0), _core.squad_files_lists(*raw, "auto", 0)
    assert lists[:2] == arrays[:2] == ("2.0", "v2.0")
    assert lists[2][0] == arrays[2][0].reshape(-1).tolist() and lists[2][1:] == tuple(a.tolist() for a in arrays[2][1:])
    assert lists[3] == tuple(a.tolist() for a in arrays[3]) == ([1.0, 0.5], [True, False], [1, 0])
    got = official_from_lists(lists, 1.0, print)
    assert got == {
        "exact": 100.0, "f1": 100.0, "total": 2, "HasAns_exact": 100.0, "HasAns_f1": 100.0, "HasAns_total": 1,
        "NoAns_exact": 100.0, "NoAns_f1": 100.0, "NoAns_total": 1, "best_exact": 100.0, "best_exact_thresh": 1, "best_f1": 100.0, "best_f1_thresh": 1}
    assert type(got["best_f1_thresh"]) is int  # the file's 1, as the script prints it


@pytest.mark.parametrize("seed", range(200))
def test_best_threshold_is_the_cores(seed):
    import numpy as np

    rng = random.Random(seed)
    n = rng.randrange(0, 30)
    scores = [rng.choice([0.0, 1.0, rng.random(), 1 / 3]) for _ in range(n)]
    has = [rng.random() < 0.6 for _ in range(n)]
    nonempty = [rng.random() < 0.5 for _ in range(n)]
    order = rng.sample(range(n), n)
    want = _core.squad_best_threshold(np.array(scores), np.array(has, dtype=bool), np.array(nonempty, dtype=bool), np.array(order, dtype=np.int64))
    assert best_threshold(scores, has, nonempty, order) == want


def test_squad_of_no_questions_is_the_typed_error():
    from nlgmetrics.errors import InvalidInputError
    from nlgmetrics.metrics.qa.squad_totals import v1_official, v2_official

    with pytest.raises(InvalidInputError, match="squad of no questions"):
        v1_official([], [])
    with pytest.raises(InvalidInputError, match="squad_v2 of no questions"):
        v2_official([], [], [], 1.0, None)


# -- CMRC 2018 -------------------------------------------------------------------------------------
CMRC_WORDS = ["猫", "坐", "在", "垫子", "上", "2008", "年", "天安门", "广场", "ab", "Cat", "，", "。", "“", "”", "《", "》", "-", " ", "3.5", "é", "😀"]


def _cmrc_text(rng: random.Random) -> str:
    return "".join(rng.choice(CMRC_WORDS) for _ in range(rng.randrange(0, 8)))


@pytest.mark.parametrize("seed", SEEDS)
def test_cmrc2018_totals_equal_the_numpy_path(seed):
    rng = random.Random(f"cmrc {seed}")
    n = rng.choice([1, 3, rng.randrange(1, 200)])
    qas, preds = [], {}
    for i in range(n):
        qas.append({"id": f" q{i} ", "answers": [{"text": _cmrc_text(rng)} for _ in range(rng.randrange(1, 4))]})
        if rng.random() < 0.9:  # some unanswered: scored 0, counted in SKIP
            preds[f"q{i}"] = rng.choice([_cmrc_text(rng), "", qas[-1]["answers"][0]["text"], 2008])
    dataset = {"data": [{"paragraphs": [{"qas": qas}]}]}
    warnings: list[str] = []
    new = cmrc.evaluate_official(dataset, preds, warn=warnings.append)
    golds = [[a["text"] for a in qa["answers"]] for qa in qas]
    old_preds = [(p if isinstance(p, str) else str(p)) if (p := preds.get(qa["id"].strip())) is not None else None for qa in qas]
    old = dict(cmrc.CMRC2018().corpus_score(old_preds, golds).official)
    assert new == old and list(new) == list(old)
    assert json.dumps(new) == json.dumps(old)
    assert len(warnings) == old["SKIP"]


def test_cmrc2018_known_value_without_numpy():
    got = cmrc.evaluate_official({"data": [{"paragraphs": [{"qas": [{"id": "a", "answers": [{"text": "天安门广场"}, {"text": "天安门"}]},
                                                                     {"id": "b", "answers": [{"text": "1949年10月1日"}]}]}]}]},
                                 {"a": "天安门广场", "b": "1949年"})
    # the script: F1 1 and 2/6-recall 0.5 (1949 and 年 of 1949 年 10 月 1 日), EM 1 and 0
    assert got == {"AVERAGE": "62.500", "F1": "75.000", "EM": "50.000", "TOTAL": 2, "SKIP": 0}


def test_cmrc2018_docstring_examples():
    import doctest

    assert doctest.testmod(cmrc).failed == 0


# -- retrieval -------------------------------------------------------------------------------------
MEASURE_SETS = [["map", "ndcg_cut.10", "P.10", "recall.100", "recip_rank"], ["map", "P", "num_q", "num_rel_ret", "num_ret", "num_rel"],
                ["ndcg", "Rprec", "success.1,5", "map_cut.3"], ["num_rel"], ["recall.5", "ndcg_cut.1,2,3"]]


def _trec(rng: random.Random) -> tuple[dict, dict]:
    nq = rng.choice([1, 2, rng.randrange(1, 60)])
    docs = [f"d{j}" for j in range(rng.randrange(1, 30))] + ["dé", "d猫"]
    run, qrels = {}, {}
    for q in range(nq):
        qid = rng.choice([f"q{q}", f"Q{q:03d}", f"查询{q}"])
        if rng.random() < 0.9:
            ranked = rng.sample(docs, rng.randrange(0, len(docs)))
            # ties in single precision (1.0 and 1.0 + 1e-9), negative and integer scores
            run[qid] = {d: rng.choice([1.0, 1.0 + 1e-9, rng.random(), -rng.random(), rng.randrange(-3, 4)]) for d in ranked}
        if rng.random() < 0.9:
            qrels[qid] = {d: rng.choice([0, 1, 2, 3, -1]) for d in rng.sample(docs, rng.randrange(0, len(docs)))}
    return run, qrels


@pytest.mark.parametrize("seed", SEEDS)
def test_retrieval_totals_equal_the_numpy_path(seed):
    rng = random.Random(f"retrieval {seed}")
    run, qrels = _trec(rng)
    metric = Retrieval(measures=rng.choice(MEASURE_SETS), relevance_level=rng.choice([1, 1, 2]), judged_docs_only=rng.random() < 0.3,
                       complete=rng.random() < 0.3, score_precision=rng.choice(["float32", "float64"]))
    try:
        qids, seg = metric._query_stats(run, qrels)
        score = metric.score_stats(seg.total())
    except Exception as e:  # the same typed error from both
        with pytest.raises(type(e), match="no query of the run has judgments"):
            metric.official_totals(run, qrels)
        return
    new_qids, rows, summary = metric.official_totals(run, qrels)
    old_summary = {key: score[key] for key in metric.sum_fields} | {name: score[name] for name in metric.counts_asked}
    assert new_qids == qids
    assert summary == old_summary and list(summary) == list(old_summary)
    assert [type(v) for v in summary.values()] == [type(v) for v in old_summary.values()]
    assert dict(zip(qids, rows)) == {q: {k: (v if k in metric.sum_fields else int(v)) for k, v in r.items()} for q, r in metric.per_query(run, qrels).items()}
    assert metric.signature().format() == score.signature.format()
    assert metric.official_totals(run, qrels, per_query=False) == (qids, [], summary)


def test_retrieval_known_values_without_numpy():
    qids, rows, summary = Retrieval(measures=["map", "P.2", "num_rel_ret"]).official_totals({"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d1": 1.0}}, {"q1": {"d2": 1}, "q2": {"d1": 1}})
    assert qids == ["q1", "q2"]
    assert rows == [{"map": 0.5, "P_2": 0.5, "num_rel_ret": 1}, {"map": 1.0, "P_2": 0.5, "num_rel_ret": 1}]
    assert summary == {"map": 0.75, "P_2": 0.5, "num_rel_ret": 2}
