"""lm-eval 0.4.13's task-specific QA F1s: qasper_freeform's f1_abstractive (lm_eval_qasper) and
xquad / norquad's process_results (lm_eval_xquad), against goldens made by running lm-eval's
own task code (scripts/goldens/make_qa_aggregate_goldens.py --lm-eval-python), and against
transformers' squad_metrics (what xquad and norquad call) on generated text."""
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.llm.lm_eval_qa import LmEvalQasper, LmEvalXQuAD, f1_abstractive, xquad_scores

GOLDEN = json.loads((Path(__file__).parent / "goldens" / "qa_aggregates" / "lm_eval_qa.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("i", range(len(GOLDEN["qasper"])))
def test_qasper_equals_lm_eval(i):
    case = GOLDEN["qasper"][i]
    m = nlgmetrics.load("lm_eval_qasper")
    seg = m.stats(case["predictions"], case["golds"])  # one answer (a string) per document
    assert seg.sums[:, 0].tolist() == case["f1"]
    assert m.score_stats(seg).score == case["mean"]
    assert m.corpus_score(case["predictions"], [[g] for g in case["golds"]]).f1_abstractive == case["mean"]
    assert m.sentence_scores(case["predictions"], case["golds"]).tolist() == case["f1"]
    assert [f1_abstractive(p, g) for p, g in zip(case["predictions"], case["golds"])] == case["f1"]
    half = len(case["predictions"]) // 2
    merged = nlgmetrics.load("lm_eval_qasper").update(case["predictions"][:half], case["golds"][:half])
    merged.merge(nlgmetrics.load("lm_eval_qasper").update(case["predictions"][half:], case["golds"][half:]))
    assert merged.compute().score == case["mean"]


@pytest.mark.parametrize("flavour", ["xquad", "norquad"])
@pytest.mark.parametrize("i", range(len(GOLDEN["xquad"])))
def test_xquad_norquad_equal_lm_eval(i, flavour):
    case = GOLDEN["xquad"][i]
    want = case[flavour]
    m = nlgmetrics.load("lm_eval_xquad", flavour=flavour)
    seg = m.stats(case["predictions"], case["answers"])
    assert seg.sums[:, 0].tolist() == want["exact_match"]
    assert seg.sums[:, 1].tolist() == want["f1"]
    s = m.score_stats(seg)
    assert (s.score, s.f1, s.exact_match) == (want["mean_f1"], want["mean_f1"], want["mean_exact_match"])
    assert m.sentence_scores(case["predictions"], case["answers"]).tolist() == want["f1"]
    third = len(case["predictions"]) // 3
    merged = nlgmetrics.load("lm_eval_xquad", flavour=flavour).update(case["predictions"][:third], case["answers"][:third])
    merged.merge(nlgmetrics.load("lm_eval_xquad", flavour=flavour).update(case["predictions"][third:], case["answers"][third:]))
    assert (merged.compute().f1, merged.compute().exact_match) == (want["mean_f1"], want["mean_exact_match"])


def test_golden_covers_the_edges():
    edge = GOLDEN["xquad"][3]
    assert any(a[0] == "" and p == "" for p, a in zip(edge["predictions"], edge["answers"]))  # both empty: SQuAD v2.0 gives 1
    assert any(len(a) > 1 for a in edge["answers"])
    # the two tasks disagree where a side has no token: v1.1's 0 against v2.0's int(gold == pred)
    q, x = GOLDEN["qasper"][3], GOLDEN["xquad"][3]["xquad"]
    assert q["golds"] == [a[0] for a in GOLDEN["xquad"][3]["answers"]] and q["f1"] != x["f1"]


PIECES = ["the", "A", "an", "北京", "是", "中国的首都", "Beijing", "capital", "，", "。", "！", "ＡＢＣ", "１２３", "full－width",
          "（括号）", "—", "…", " ", "\t", "\n", "\u3000", "", "The Eiffel Tower", "埃菲尔铁塔", "1889", "e.g.", "don't", "“quoted”", "'s"]


def _text(rng):
    return "".join(rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(0, 7)))


@pytest.mark.parametrize("seed", range(8))
def test_xquad_equals_transformers_squad_metrics(seed):
    """Generated mixed-script, full-width, empty and whitespace-only text, several golds:
    process_results' compute_exact / compute_f1 against the first gold, lm-eval's mean."""
    squad_metrics = pytest.importorskip("transformers.data.metrics.squad_metrics")
    rng = random.Random(seed)
    n = rng.randint(1, 80)
    answers = [[_text(rng) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    preds = [rng.choice([_text(rng), a[0], a[-1], " " + a[0].upper() + ".", ""]) for a in answers]
    em = [squad_metrics.compute_exact(a[0], p) for p, a in zip(preds, answers)]
    f1 = [squad_metrics.compute_f1(a[0], p) for p, a in zip(preds, answers)]
    s = nlgmetrics.load("lm_eval_xquad").corpus_score(preds, answers)
    assert (s.exact_match, s.f1) == (sum(em) / len(em), sum(f1) / len(f1))
    assert nlgmetrics.load("lm_eval_xquad").sentence_scores(preds, answers).tolist() == [float(v) for v in f1]


@pytest.mark.parametrize("seed", range(8))
def test_qasper_is_squad_v1_f1_of_the_one_answer(seed):
    """f1_abstractive is SQuAD v1.1's f1_score: the per-document values of LongBench's
    qa_f1_score rows (== to LongBench's metrics.py, tests/test_longbench_qa.py) with that answer."""
    from test_longbench_qa import ref_qa_f1_score

    rng = random.Random(100 + seed)
    n = rng.randint(1, 80)
    golds = [_text(rng) for _ in range(n)]
    preds = [rng.choice([_text(rng), g, "The " + g, "", " "]) for g in golds]
    want = [ref_qa_f1_score(p, g) for p, g in zip(preds, golds)]
    m = nlgmetrics.load("lm_eval_qasper")
    assert m.sentence_scores(preds, golds).tolist() == [float(v) for v in want]
    assert m.corpus_score(preds, golds).score == sum(want) / len(want)


def test_edges_and_signatures():
    q, x = nlgmetrics.load("lm_eval_qasper"), nlgmetrics.load("lm_eval_xquad")
    assert q.sentence_scores(["", "the", "Paris"], ["", "a", "paris."]).tolist() == [0.0, 0.0, 1.0]
    assert x.sentence_scores(["", "the", "Paris"], [[""], ["a"], ["paris.", "x"]]).tolist() == [1.0, 1.0, 1.0]
    assert xquad_scores(["x", "Paris"], "Paris") == (0, 0)  # only the first gold answer counts
    assert q.signature().as_dict()["ref"] == "lm-eval-0.4.13-qasper_freeform"
    assert nlgmetrics.load("lm_eval_xquad", flavour="norquad").signature().as_dict()["ref"] == "lm-eval-0.4.13-norquad"
    s = x.corpus_score(["Paris", "x"], [["Paris"], ["y"]])
    assert s.format() == "lm_eval_xquad f1 = 0.50, exact_match = 0.50" and s.to_dict()["score"] == 0.5
    for m in (q, x):
        r = pickle.loads(pickle.dumps(m))
        assert r.corpus_score(["Paris"], ["Paris"]).score == 1.0


def test_errors():
    q, x = LmEvalQasper(), LmEvalXQuAD()
    with pytest.raises(InvalidInputError, match="one answer per prediction"):
        q.corpus_score(["a"], [["a", "b"]])
    with pytest.raises(LengthMismatchError):
        x.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(InputTypeError):
        x.corpus_score([None], [["a"]])
    with pytest.raises(InputTypeError):
        q.corpus_score([b"a"], ["a"])
    with pytest.raises(InvalidInputError):
        x.corpus_score([], [])
    with pytest.raises(InvalidInputError):
        q.score_stats(q.zero())
    with pytest.raises(InvalidInputError):
        xquad_scores([], "a")
    for bad in ("squad", 3, "XQUAD"):
        with pytest.raises(InvalidOptionError):
            LmEvalXQuAD(flavour=bad)
    with pytest.raises(InvalidOptionError):
        nlgmetrics.load("lm_eval_qasper", flavour="x")
    assert np.isfinite(x.sentence_scores(["\x00", "\ud7ff"], [["\x00"], ["\ud7ff"]])).all()


def _cli(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "nlgmetrics", "score", *args], capture_output=True, text=True)


def test_cli(tmp_path):
    case = GOLDEN["xquad"][2]
    f = tmp_path / "xquad.jsonl"
    with f.open("w", encoding="utf-8") as out:
        for p, a in zip(case["predictions"], case["answers"]):
            out.write(json.dumps({"prediction": p, "references": a}, ensure_ascii=False) + "\n")
    r = _cli("-m", "lm_eval_xquad", "--xquad-flavour", "norquad", "--jsonl", str(f), "-f", "json")
    assert r.returncode == 0, r.stderr
    (got,) = json.loads(r.stdout)
    assert (got["f1"], got["exact_match"]) == (case["norquad"]["mean_f1"], case["norquad"]["mean_exact_match"]) and "ref:lm-eval-0.4.13-norquad" in got["signature"]
    q = GOLDEN["qasper"][2]
    g = tmp_path / "qasper.jsonl"
    with g.open("w", encoding="utf-8") as out:
        for p, a in zip(q["predictions"], q["golds"]):
            out.write(json.dumps({"prediction": p, "references": [a]}, ensure_ascii=False) + "\n")
    r = _cli("-m", "lm_eval_qasper", "--jsonl", str(g), "-f", "json")
    assert r.returncode == 0 and json.loads(r.stdout)[0]["score"] == q["mean"], r.stderr
    r = _cli("-m", "lm_eval_qasper", "--jsonl", str(f))  # several answers per document: a data error
    assert r.returncode == 1 and "one answer per prediction" in r.stderr and r.stderr.count("\n") == 1
    r = _cli("-m", "lm_eval_xquad", "--xquad-flavour", "squad", "--jsonl", str(f))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


@pytest.mark.parametrize("seed", range(3))
def test_qasper_best_of_several_answers(seed):
    """multi_ref="best": per question the highest of the one-answer scores (each == lm-eval's
    f1_abstractive, above); the default refuses several answers with the way out named."""
    import random

    from nlgmetrics.errors import InvalidInputError

    rng = random.Random(seed)
    words = ["the", "BERT", "ELMo", "a", "model", "Transformer.", "北京", "", "yes", "no"]
    preds = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 4))) for _ in range(40)]
    golds = [[" ".join(rng.choice(words) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 4))] for _ in range(40)]
    one = LmEvalQasper()
    want = [max(one.sentence_scores([p] * len(g), g).tolist()) for p, g in zip(preds, golds)]
    best = LmEvalQasper(multi_ref="best")
    assert best.sentence_scores(preds, golds).tolist() == want
    assert best.corpus_score(preds, golds).score == sum(want) / len(want)
    assert best.signature().as_dict()["multiref"] == "best" and "multiref" not in one.signature().as_dict()
    if any(len(g) > 1 for g in golds):
        with pytest.raises(InvalidInputError, match="multi_ref='best'"):
            one.corpus_score(preds, golds)
    with pytest.raises(InvalidOptionError):
        LmEvalQasper(multi_ref="first")
