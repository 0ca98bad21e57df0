"""Repeated-sampling aggregates (avg@k, maj@k, pass^k, G-Pass@k) against goldens made by
running lighteval 0.13.0, lm-eval 0.4.13, tau-bench and NeMo-Skills themselves
(scripts/goldens/sampling_goldens.py): bit equality, then merging, streaming and bad input."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics import AvgAtKMetric, GPassAtKMetric, MajAtKMetric, PassHatKMetric
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, MissingExtraError
from nlgmetrics.metrics.llm.sampling import avg_at_k, g_pass_at_k, maj_at_k, majority_answer, pass_hat_k

GOLD = json.loads((Path(__file__).parent / "goldens" / "sampling" / "sampling.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLD["avg_at_k"], ids=lambda c: f"k{c['k']}")
def test_avg_at_k_equals_lighteval(case):
    assert AvgAtKMetric(k=case["k"]).corpus_score(case["correct"]).score == case["mean"]
    assert avg_at_k(case["correct"], case["k"]).mean == case["mean"]


@pytest.mark.parametrize("case", GOLD["maj_at_k"], ids=lambda c: f"k{c['k']}")
def test_maj_at_k_equals_each_framework(case):
    n = min(len(r) for r in case["answers"])
    for flavour in ("lm-eval", "lighteval", "nemo-skills"):
        if flavour in case:
            score = MajAtKMetric(k=case["k"], flavour=flavour).corpus_score(case["answers"], case["golds"]).score
            assert score == case[flavour] == maj_at_k(case["answers"], case["golds"], case["k"], flavour)[1]
        elif case["k"] > n:  # lm-eval's take_first_k and nemo-skills do not report k > n
            with pytest.raises(InvalidOptionError, match="samples < k"):
                MajAtKMetric(k=case["k"], flavour=flavour).corpus_score(case["answers"], case["golds"])


@pytest.mark.parametrize("case", GOLD["pass_hat_k"], ids=lambda c: f"n{c['n']}")
def test_pass_hat_k_equals_tau_bench(case):
    ks = [int(k) for k in case["pass_hat"]]
    s = PassHatKMetric(k=ks).corpus_score(case["n"], case["c"])
    for k, v in case["pass_hat"].items():
        assert s[f"pass^{k}"] == v == pass_hat_k(case["n"], case["c"], int(k))[1]
    assert s.score == case["pass_hat"]["1"]


@pytest.mark.parametrize("case", GOLD["g_pass_at_k"], ids=lambda c: f"k{c['k']}")
def test_g_pass_at_k_equals_lighteval(case):
    thresholds = case.get("thresholds", [0.0, 0.25, 0.5, 0.75, 1.0])
    s = GPassAtKMetric(k=case["k"], thresholds=thresholds).corpus_score(case["n"], case["c"])
    assert {f: s[f] for f in case["values"]} == case["values"]
    assert s.score == case["values"][f"mg-pass@{case['k'][0]}"]
    assert g_pass_at_k(case["n"], case["c"], case["k"], thresholds) == case["values"]


def test_goldens_cover_the_edges():
    assert any(all(all(r) for r in c["correct"]) for c in GOLD["avg_at_k"])
    assert any(not any(any(r) for r in c["correct"]) for c in GOLD["avg_at_k"])
    assert any(max(c["k"]) > c["n"] for c in GOLD["g_pass_at_k"] if isinstance(c["n"], int))
    assert any(c["k"] > min(map(len, c["answers"])) for c in GOLD["maj_at_k"])
    assert len({c["lm-eval"] != c["lighteval"] for c in GOLD["maj_at_k"] if "lm-eval" in c}) == 2  # flavours differ


def test_tie_rules_and_missing_answers():
    # every flavour gives a tie to the answer seen first; they differ on missing answers
    assert {f: majority_answer(["b", "a", "a", "b"], f) for f in ("lm-eval", "lighteval", "nemo-skills")} == dict.fromkeys(("lm-eval", "lighteval", "nemo-skills"), "b")
    assert majority_answer([None, None, "1"], "lm-eval") is None
    assert majority_answer([None, None, "1"], "lighteval") == ""
    assert majority_answer([None, None, "1"], "nemo-skills") == "1"
    assert majority_answer([None, None], "nemo-skills") is None
    answers, golds = [[None, None, "1"]], ["1"]
    assert [maj_at_k(answers, golds, 3, f)[1] for f in ("lm-eval", "lighteval", "nemo-skills")] == [0.0, 0.0, 1.0]


def test_avg_at_k_runs_and_their_std():
    rows = [[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 1, 0]]
    s = AvgAtKMetric(k=3).corpus_score(rows)
    runs = [2 / 3, 1 / 3, 1.0]
    assert [s[f"run@{j}"] for j in (1, 2, 3)] == runs
    assert s["runs_std"] == float(np.std(runs)) and s["runs_mean"] == float(np.mean(runs))
    assert AvgAtKMetric(k=3, ddof=1).corpus_score(rows)["runs_std"] == float(np.std(runs, ddof=1))
    assert "ddof:1" in str(AvgAtKMetric(k=3, ddof=1).corpus_score(rows).signature)
    assert np.isnan(AvgAtKMetric(k=1, ddof=1).corpus_score(rows)["runs_std"])
    assert s.score == float(np.mean([np.mean(r[:3]) for r in rows]))


@pytest.mark.parametrize("make,first,second", [
    (lambda: AvgAtKMetric(k=3), [[1, 0, 1], [0, 0, 0], [1, 1, 1], [0.5, 1, 0]] * 10, None),
    (lambda: MajAtKMetric(k=3, flavour="nemo-skills"), [["1", "2", "2"], [None, "3", "3"], ["4", "5", "6"]] * 10, ["2", "3", "6"] * 10),
    (lambda: PassHatKMetric(k=(1, 2, 3)), [3, 5, 4] * 10, [1, 5, 2] * 10),
    (lambda: GPassAtKMetric(k=(2, 3)), [3, 5, 4] * 10, [1, 5, 2] * 10),
])
def test_merge_and_stream_equal_one_pass(make, first, second):
    whole = make().corpus_score(first, second)
    merged = make()
    for i in range(0, len(first), 7):
        part = make().update(first[i : i + 7], None if second is None else second[i : i + 7])
        merged.merge(part)
    assert dict(merged.compute()) == dict(whole)
    streamed = make()
    for i in range(len(first)):
        streamed.update(first[i : i + 1], None if second is None else second[i : i + 1])
    assert streamed.compute().score == whole.score
    assert len(make().sentence_scores(first, second)) == len(first)


def test_bootstrap_runs_on_the_statistics():
    from nlgmetrics.engines.significance import bootstrap_ci

    m = PassHatKMetric(k=2)
    ci = bootstrap_ci(m, m.stats([4] * 30, list(range(5)) * 6), n_resamples=100)
    assert ci.lower <= ci.score.score <= ci.upper


def test_signatures_name_the_reference():
    assert "ref:lighteval-0.13.0" in str(AvgAtKMetric(k=2).corpus_score([[1, 0]]).signature)
    assert "ref:lm-eval-0.4.13" in str(MajAtKMetric(k=1).corpus_score([["a"]], ["a"]).signature)
    assert "f:nemo-skills" in str(MajAtKMetric(k=1, flavour="nemo-skills").corpus_score([["a"]], ["a"]).signature)
    assert "ref:tau-bench@01ed5e3" in str(PassHatKMetric(k=1).corpus_score([2], [1]).signature)
    sig = str(GPassAtKMetric(k=1).corpus_score([2], [1]).signature)
    assert "ref:lighteval-0.13.0" in sig and "scipy:" in sig
    assert {"avg_at_k", "maj_at_k", "pass_hat_k", "g_pass_at_k"} <= {e.name for e in nlgmetrics.available()}


def test_bad_input_is_a_typed_error():
    with pytest.raises(InvalidOptionError, match="samples < k"):
        AvgAtKMetric(k=3).corpus_score([[1, 0]])
    with pytest.raises(InvalidOptionError, match="samples < k"):
        PassHatKMetric(k=3).corpus_score([2], [1])
    with pytest.raises(InputTypeError):
        AvgAtKMetric(k=1).corpus_score([["yes"]])
    with pytest.raises(InputTypeError):
        AvgAtKMetric(k=1).corpus_score([[float("nan")]])
    with pytest.raises(InputTypeError):
        AvgAtKMetric(k=1).corpus_score("1010")
    with pytest.raises(InputTypeError):
        MajAtKMetric(k=1).corpus_score([[4]], ["4"])
    with pytest.raises(LengthMismatchError):
        MajAtKMetric(k=1).corpus_score([["4"]], ["4", "5"])
    with pytest.raises(InvalidOptionError):
        MajAtKMetric(k=1, flavour="vote")
    with pytest.raises(InvalidInputError):
        PassHatKMetric(k=1).corpus_score([2], [3])
    with pytest.raises(InvalidInputError):
        AvgAtKMetric(k=1).corpus_score([])
    with pytest.raises(InvalidOptionError):
        GPassAtKMetric(k=2, thresholds=[0.5, float("nan")])
    with pytest.raises(InvalidOptionError):
        AvgAtKMetric(k=0)
    with pytest.raises(InvalidOptionError):
        AvgAtKMetric(k=1, ddof=-1)
    with pytest.raises(InputTypeError):
        PassHatKMetric(k=1).corpus_score([2])


def test_g_pass_without_scipy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[sampling\]"):
        GPassAtKMetric(k=2)
    assert PassHatKMetric(k=1).corpus_score([2], [1]).score == 0.5  # the others need no scipy


@pytest.mark.parametrize("name", ["avg_at_k", "maj_at_k", "pass_hat_k", "g_pass_at_k"])
def test_cli_sends_them_to_python_with_a_usage_error(name, tmp_path, capsys):
    from nlgmetrics.cli import main

    f = tmp_path / "h.txt"
    f.write_text("a\n", encoding="utf-8")
    assert main(["score", "-m", name, "-i", str(f), "-r", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"nlgmetrics.load('{name}')" in err[0]


def test_huge_counts_are_fast_or_typed_errors():
    import time

    t = time.perf_counter()
    # c < k and c == n need no binomials: tau-bench's exact 0 / comb and comb / comb
    assert pass_hat_k([10**12, 10**12], [3, 10**12], 5)[1] == 0.5
    with pytest.raises(InvalidInputError, match="bits"):
        PassHatKMetric(k=10**5).corpus_score([10**6], [10**6 - 1])
    # mG-Pass@k with a large k: the k/2 survival-function terms in one scipy call
    big = GPassAtKMetric(k=20000).corpus_score([40000, 40000], [30000, 0])
    assert time.perf_counter() - t < 20
    from scipy.stats import hypergeom

    mg = 0.0  # lighteval's loop, one scalar call per i
    for i in range(10001, 20001):
        mg += 0.0 if i > 20000 else hypergeom.sf(i - 1, 40000, 30000, 20000)
    assert big["mg-pass@20000"] == float(np.mean([2 * mg / 20000, 0.0])) == 0.25
    assert big["g-pass@20000_0.0"] == 0.5


def test_avg_at_k_bounds_its_runs():
    """avg@k keeps a statistics column per run: a k beyond MAX_K is refused at once, not
    allocated (a hostile k of 10**20 once grew the process without bound)."""
    from nlgmetrics.errors import InvalidOptionError
    from nlgmetrics.metrics.llm._sampling_metrics import AvgAtKMetric

    for k in (AvgAtKMetric.MAX_K + 1, 10**20):
        with pytest.raises(InvalidOptionError, match="runs"):
            AvgAtKMetric(k=k)
    assert len(AvgAtKMetric(k=AvgAtKMetric.MAX_K).sum_fields) == AvgAtKMetric.MAX_K + 1
