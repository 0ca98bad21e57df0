"""math_equiv flavour ``math-verify``: math-verify 0.9.0's parse/verify as lm-eval's
leaderboard_math_hard calls them, under a fixed work budget (goldens from the reference itself,
scripts/goldens/math_verify_goldens.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nlgmetrics.metrics.llm.math_equiv import MathEquiv

from test_math_equiv import CHILD, HOSTILE

GOLDENS = Path(__file__).parent / "goldens" / "math_equiv"


def has_verify() -> bool:
    """The [math] extra's packages are installed. Only their absence skips: a flavour that
    fails to build with them present fails the tests."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("math_verify", "latex2sympy2_extended", "sympy"))


pytestmark = pytest.mark.skipif(not has_verify(), reason="the [math] extra (math-verify 0.9.0)")


def rows(name: str) -> list[dict]:
    """The goldens made with the installed antlr4 runtime: latex2sympy2_extended's parser for
    4.11 (lm-eval's [math] extra) and for 4.13.2 give different verdicts."""
    from importlib.metadata import version

    path = GOLDENS / name.replace(".jsonl", f".antlr{version('antlr4-python3-runtime')}.jsonl")
    if not path.exists():
        pytest.skip(f"no goldens for this antlr4 runtime: {path.name}")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("name, prediction, reference", [
    ("math_verify_answers.jsonl", "answer", "answer"),
    ("math_verify_generations.jsonl", "generation", "solution"),
])
def test_equals_the_reference_on_every_golden_pair_it_decided(name, prediction, reference):
    m = MathEquiv("math-verify", prediction=prediction, reference=reference)
    golden = rows(name)
    decided = [r for r in golden if not r.get("timeout")]
    assert len(decided) > 700 and len(golden) - len(decided) <= 8  # the reference's alarm fired there
    got = [m.equivalent(r["prediction"], r["reference"]) for r in decided]
    want = [r["equivalent"] for r in decided]
    assert [(r["prediction"], r["reference"]) for r, g, w in zip(decided, got, want) if g != w] == []
    assert 200 < sum(want) < len(want)


def test_where_the_reference_timed_out_the_budget_decides_the_same_way_every_time():
    m = MathEquiv("math-verify", prediction="answer", reference="answer")
    timed_out = [r for r in rows("math_verify_answers.jsonl") if r.get("timeout")]
    assert 6 <= len(timed_out) <= 8  # 7 with antlr4 4.13.2, 8 with 4.11 (on the goldens' machine)
    assert all(r["equivalent"] is False for r in timed_out)  # the alarm's verdict
    got = {r["prediction"][:8]: m.equivalent(r["prediction"], r["reference"]) for r in timed_out}
    # 401 ones added up: inside the budget here, SymPy finds it equal (the reference's parse timed
    # out with antlr4 4.11; with 4.13.2 the reference ran out of time on "y = 2x - 1" instead)
    assert got.pop("1+1+1+1+", True) is True
    assert got.pop("y = 2x -", False) is False
    assert set(got.values()) == {False}  # hostile answers outside the budget


def test_known_values_and_extraction():
    m = MathEquiv("math-verify", prediction="answer", reference="answer")
    pairs = [("0.5", "\\frac12", True), ("x = 5", "5", True), ("\\{1,2\\}", "\\{2,1\\}", True),
             ("[2,5)", "(2,5]", False), ("1,000", "1000", True), ("−5", "-5", True), ("\\pi", "3.14", False)]
    assert [m.equivalent(a, b) for a, b, _ in pairs] == [want for _, _, want in pairs]
    g = MathEquiv("math-verify")
    # several boxes: the last one counts; a solution's gold is parsed with LaTeX extraction only
    assert g.equivalent("It is $\\boxed{3}$, no, $\\boxed{4}$.", "So $\\boxed{4}$.")
    assert not g.equivalent("It is $\\boxed{4}$, no, $\\boxed{3}$.", "So $\\boxed{4}$.")
    assert g.corpus_score(["The answer is 4", "no idea"], ["$\\boxed{4}$", "$\\boxed{4}$"]).score == 0.5


def test_signature_names_the_reference_versions_and_budget():
    from nlgmetrics.metrics.llm._math_verify import BUDGET_LABEL

    m = MathEquiv("math-verify")
    fields = m.signature().fields if hasattr(m.signature(), "fields") else None
    sig = str(m.signature())
    assert "math-verify-0.9.0" in sig and BUDGET_LABEL in sig and "1.11.0" in sig
    assert fields is None or fields.get("flavour") == "math-verify"


def test_budget_limits():
    from nlgmetrics.metrics.llm._math_verify import BUDGET, parse

    assert parse("$" + "1+" * 300 + "1$", "target") != []
    assert parse("$" + "1+" * 600 + "1$", "target") == []  # a candidate over 1024 characters
    assert parse("$" + "(" * 16 + "1" + ")" * 16 + "$", "target") != []
    assert parse("$" + "(" * 17 + "1" + ")" * 17 + "$", "target") == []
    assert parse(" " * BUDGET["text"] + "$1$", "target") == [] and parse(" " * 1000 + "$1$", "target") != []

    from nlgmetrics.metrics.llm._math_verify import value_in_budget, verify

    big, small = parse("$2^{100000}$", "target"), parse("$2^{1000}$", "target")
    assert not value_in_budget(big[0]) and value_in_budget(small[0])
    assert verify(big, big) and not verify(big, parse("$2^{100000}+0$", "target"))  # structural == only
    assert verify(small, parse("$2^{1000}+0$", "target"))  # inside the budget SymPy decides


def run_child(text: str) -> list[bool]:
    proc = subprocess.run([sys.executable, "-c", CHILD, "math-verify"], input=text, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_inputs_end_quickly_within_memory(case):
    got = run_child(HOSTILE[case])
    assert all(isinstance(g, bool) for g in got)
    if case not in ("sum", "long_sum"):  # (their last term times 1: "n1", "x1")
        assert got[1] is False  # the answer is never equal to itself plus a digit


def test_cli_flag(tmp_path):
    (tmp_path / "hyp.txt").write_text("The answer is $\\frac{1}{2}$\nx = 6\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("$\\boxed{0.5}$\n$\\boxed{5}$\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "nlgmetrics", "score", "-m", "math_equiv", "--math-flavour", "math-verify",
           "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)[0]
    assert (out["score"], out["correct"], out["n"]) == (0.5, 1, 2)
    assert out["signature_fields"]["flavour"] == "math-verify"
