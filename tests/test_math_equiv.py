"""math_equiv against lm-evaluation-harness 0.4.13's hendrycks_math and minerva_math checkers
(goldens from scripts/goldens/math_equiv_goldens.py, which runs the reference's own
functions), and its bounds on hostile LaTeX."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nlgmetrics import load
from nlgmetrics.errors import InvalidInputError, InvalidOptionError
from nlgmetrics.metrics.llm import _math_strings as strings
from nlgmetrics.metrics.llm.math_equiv import MathEquiv

GOLDENS = Path(__file__).parent / "goldens" / "math_equiv"


def rows(name: str) -> list[dict]:
    with open(GOLDENS / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def has_math_extra() -> bool:
    """The [math] extra's packages are installed (only their absence skips)."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("sympy", "antlr4"))


needs_math = pytest.mark.skipif(not has_math_extra(), reason="the [math] extra (sympy, antlr4-python3-runtime 4.11)")


@pytest.mark.parametrize("name, prediction, reference", [
    ("hendrycks_answers.jsonl", "answer", "answer"),
    ("hendrycks_fuzz.jsonl", "answer", "answer"),
    ("hendrycks_generations.jsonl", "generation", "solution"),
])
def test_hendrycks_equals_the_reference_on_every_golden_pair(name, prediction, reference):
    m = MathEquiv("hendrycks", prediction=prediction, reference=reference)
    golden = rows(name)
    assert len(golden) > 900
    got = []
    for row in golden:
        if isinstance(row["equivalent"], str):  # the reference raised on this solution
            with pytest.raises(InvalidInputError):
                m.equivalent(row["prediction"], row["reference"])
            got.append(row["equivalent"])
        else:
            got.append(m.equivalent(row["prediction"], row["reference"]))
    assert got == [r["equivalent"] for r in golden]
    both = [r for r in golden if r["equivalent"] is True]
    assert 0 < len(both) < len(golden)  # the goldens hold both verdicts


@needs_math
@pytest.mark.parametrize("name, prediction, reference", [
    ("minerva_answers.jsonl", "answer", "answer"),
    ("minerva_generations.jsonl", "generation", "solution"),
])
def test_minerva_equals_the_reference_on_every_golden_pair(name, prediction, reference):
    m = MathEquiv("minerva", prediction=prediction, reference=reference)
    golden = [r for r in rows(name) if not r.get("slow")]
    got = []
    for row in golden:
        if isinstance(row["equivalent"], str):
            with pytest.raises(InvalidInputError):
                m.equivalent(row["prediction"], row["reference"])
            got.append(row["equivalent"])
        else:
            got.append(m.equivalent(row["prediction"], row["reference"]))
    assert got == [r["equivalent"] for r in golden]
    assert sum(r["equivalent"] is True for r in golden) > 20


def test_string_steps_equal_the_reference_on_random_latex():
    """Each string step (the reference's strip_string, last_boxed_only_string + remove_boxed,
    normalize_final_answer, get_unnormalized_answer) on random strings of LaTeX pieces."""
    golden = rows("string_steps.jsonl")
    assert len(golden) >= 4000

    def ours(f, text):
        try:
            return f(text)
        except (strings._Unnormalisable, strings.NoBoxedAnswer):
            return "error"

    def theirs(value):
        return "error" if isinstance(value, str) and value.startswith("error: ") else value

    for key, f in (("strip_string", strings.strip_string), ("last_boxed", strings.last_boxed_only_string),
                   ("boxed_answer", strings.boxed_answer), ("normalize_final_answer", strings.normalize_final_answer),
                   ("get_unnormalized_answer", strings.final_answer_text)):
        got = [ours(f, r["text"]) for r in golden]
        want = [theirs(r[key]) for r in golden]
        assert got == want, key
    assert sum(r["strip_string"].startswith("error") for r in golden) > 50  # the raising branches are reached
    assert sum(r["get_unnormalized_answer"] != strings.INVALID_ANSWER for r in golden) > 50


def test_hendrycks_known_values():
    m = MathEquiv(prediction="answer", reference="answer")
    assert m.equivalent("\\dfrac{1}{2}", "\\frac12")
    assert m.equivalent("0.5", "\\frac{1}{2}")
    assert m.equivalent("1/2", "\\frac{1}{2}")
    assert m.equivalent("x = 5", "5")
    assert m.equivalent("45^\\circ", "45")
    assert not m.equivalent("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}")
    # int("a") raises inside strip_string: the raw strings are compared
    assert m.equivalent("a/b", "a/b") and not m.equivalent("a/b", "a/ b")
    assert m.equivalent("\\sqrt", "\\sqrt") and not m.equivalent("\\sqrt", "\\sqrt ")


def test_corpus_score_counts_and_signature():
    m = load("math_equiv")
    s = m.corpus_score(["So $\\frac{3}{4}$.", "It is $2$.", "7"], ["$\\boxed{3/4}$", "$\\boxed{3}$", "\\boxed{7}"])
    assert (s.score, s.correct, s.n) == (2 / 3, 2, 3)
    assert "flavour:hendrycks|prediction:generation|reference:auto" in str(s.signature) and "ref:lm-eval-0.4.13" in str(s.signature)
    assert list(m.sentence_scores(["$1$", "$2$"], ["\\boxed{1}", "\\boxed{3}"])) == [1.0, 0.0]
    # several references: any of them
    assert MathEquiv(prediction="answer", reference="answer").corpus_score(["4"], [["3", "4"]]).score == 1.0


def test_solution_without_a_box_is_a_data_error_naming_the_example():
    with pytest.raises(InvalidInputError, match="example 1"):
        MathEquiv(reference="solution").corpus_score(["1", "2"], ["\\boxed{1}", "no box here"])
    with pytest.raises(InvalidInputError):
        MathEquiv().corpus_score(["1"], ["\\boxed{1"])  # never closed
    # auto (the default): a reference without a box is the answer itself
    assert MathEquiv().corpus_score(["It is $2$.", "$3$"], ["\\boxed{2}", "3"]).score == 1.0


def test_bad_options():
    with pytest.raises(InvalidOptionError):
        MathEquiv("nope")
    with pytest.raises(InvalidOptionError):
        MathEquiv(prediction="boxed")
    with pytest.raises(InvalidOptionError):
        MathEquiv(reference="text")


def test_minerva_extraction_and_normalisation_values():
    assert strings.final_answer_text("Final Answer: The final answer is $5$. I hope it is correct.") == "$5$"
    assert strings.final_answer_text("no final answer") == strings.INVALID_ANSWER
    assert strings.normalize_final_answer("$\\boxed{10}$ cm") == "10"
    assert strings.normalize_final_answer("100,000") == "100000"
    assert strings.normalize_final_answer("0,1") == "0,1"
    assert strings.normalize_final_answer("\\sqrt[3]8") == "\\sqrt[3]{8}"
    assert strings.normalize_final_answer("\\text{Tuesday}") == "Tuesday"


@needs_math
def test_minerva_signature_names_the_budget_and_versions():
    sig = str(MathEquiv("minerva").signature())
    assert "flavour:minerva" in sig and "budget:c256.b12.n300.d40.i65536.t1000.intpoly" in sig
    assert "antlr:4.11" in sig and "sympy:" in sig


@needs_math
def test_minerva_known_values():
    m = MathEquiv("minerva", prediction="answer", reference="answer")
    assert m.equivalent("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}")  # SymPy proves it
    assert m.equivalent("0.5", "\\frac{1}{2}")
    assert m.equivalent("2^{10}", "1024")
    assert not m.equivalent("2^{10}", "1023")
    assert m.equivalent("[2,5)", "[2,5)")  # identical strings, which parse_latex cannot read
    assert not m.equivalent("", "")


# -- hostile input: each in a child process under a wall-clock and a memory cap -----------------

HOSTILE = {
    "tower": "10^{10^{10}}",
    "tower_vs_tower": "10^{10^{10}} + 1",
    "factorial": "1000000!",
    "deep_frac": "\\frac{" * 1000 + "1" + "}{2}" * 1000,
    "moderate_frac": "\\frac{" * 30 + "1" + "}{2}" * 30,
    "deep_parens": "(" * 5000 + "1" + ")" * 5000,
    "long_sum": "+".join(["x"] * 100),
    "matrix": "\\begin{pmatrix}" + "\\\\".join(["&".join(["1"] * 300)] * 300) + "\\end{pmatrix}",
    "sum": "\\sum_{n=1}^{10^{9}} n",
    # small, yet SymPy's integrators search without end on it (every SymPy flavour hung)
    "integral": "\\int_0^{1} \\frac{\\ln(1+x^{7})}{1+x^{3}} dx",
    "ten_mb": "1" * 10_000_000,
    "many_boxes": "\\boxed{" * 1_000_000,
    "many_dollars_free": "\\text{" * 1_000_000,
    "many_finals": "Final Answer: The final answer is" * 300_000,
    "many_roots": "sqrt[" * 1_000_000,
    "units_and_commands": "\\pi ft cm " * 200_000,
}

CHILD = textwrap.dedent("""
    import resource, sys, json
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    from nlgmetrics.metrics.llm.math_equiv import MathEquiv
    flavour, text = sys.argv[1], sys.stdin.read()
    out = []
    for pred, ref in ((text, text + "1"), (text, "1")):
        m = MathEquiv(flavour, prediction="generation", reference="answer")
        out.append(m.equivalent(pred, ref))
        m = MathEquiv(flavour, prediction="answer", reference="answer")
        out.append(m.equivalent(pred, ref))
    print(json.dumps(out))
""")


def run_child(flavour: str, text: str) -> list[bool]:
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", CHILD, flavour], input=text, capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hendrycks_hostile_inputs_end_quickly_within_memory(case):
    assert run_child("hendrycks", HOSTILE[case]) == [False, False, False, False]


@needs_math
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_minerva_hostile_inputs_end_quickly_within_memory(case):
    got = run_child("minerva", HOSTILE[case])
    assert got[0] is False and got[2] is False  # never equal to itself plus a digit
    if case != "sum":  # (normalize_final_answer keeps what follows the last "=": "1}^{10^{9}}n", which parses as 1)
        assert got[1] is False and got[3] is False


@needs_math
def test_minerva_budget_stops_what_the_reference_times_out_on():
    from nlgmetrics.metrics.llm._math_sympy import minerva_is_equiv, text_in_budget

    assert not minerva_is_equiv("10^{10^{10}}", "10^{10^{10}}+0")
    assert not minerva_is_equiv("1000000!", "1000000!+0")
    assert not minerva_is_equiv("\\sum_{n}^{10^{9}} n", "0")
    assert not minerva_is_equiv("2^{100000}", "2^{100000}+0")  # past the 65536 bits
    assert minerva_is_equiv("2^{1000}", "2^{1000}+0")  # inside them: SymPy decides
    assert minerva_is_equiv("1000!", "1000!+0")
    assert minerva_is_equiv("\\int_0^{1} x dx", "\\frac{1}{2}")  # a polynomial's integral: SymPy decides
    assert not minerva_is_equiv("\\int_0^{1} \\frac{\\ln(1+x^{7})}{1+x^{3}} dx", "0")  # any other: outside the budget
    assert not text_in_budget("\\frac{" * 13 + "1" + "}{2}" * 13) and text_in_budget("\\frac{" * 12 + "1" + "}{2}" * 12)
    assert not text_in_budget("1" * 257) and text_in_budget("1" * 256)


def test_cli_flags_choose_the_checker_and_the_sides(tmp_path):
    (tmp_path / "hyp.txt").write_text("0.5\nx = 5\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\\frac12\n6\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "nlgmetrics", "score", "-m", "math_equiv", "--math-prediction", "answer",
           "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)[0]
    assert (out["score"], out["correct"], out["n"]) == (0.5, 1, 2)
    assert out["signature_fields"]["prediction"] == "answer" and out["signature_fields"]["flavour"] == "hendrycks"
    bad = subprocess.run(cmd[:6] + ["--math-flavour", "nope"] + cmd[6:], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--math-flavour" in bad.stderr
