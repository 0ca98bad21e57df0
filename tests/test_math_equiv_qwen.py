"""math_equiv flavour ``qwen``: Qwen2.5-Math's math_equal / strip_answer_string / extract_answer as
evalscope 0.17.1 vendors them, under a fixed work budget (goldens from the reference itself, run
as a program: scripts/goldens/math_qwen_goldens.py)."""
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


def has_qwen() -> bool:
    """The [math] extra is installed (a bug of the flavour itself fails the tests, never skips them)."""
    from importlib.util import find_spec

    return all(find_spec(name) is not None for name in ("sympy", "antlr4", "latex2sympy2_extended"))


pytestmark = pytest.mark.skipif(not has_qwen(), reason="the [math] extra (sympy, antlr4 4.11, latex2sympy2_extended)")


def rows(name: str) -> list[dict]:
    with open(GOLDENS / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def decided(name: str) -> list[dict]:
    return [r for r in rows(name) if not (r.get("timeout") or r.get("died"))]


def test_string_steps_equal_the_reference_on_every_text():
    from nlgmetrics.metrics.llm._math_qwen import extract_answer, strip_answer_string

    golden = rows("qwen_strings.jsonl")
    assert len(golden) == 4000
    for step, fn in (("strip_answer_string", strip_answer_string), ("extract_answer", extract_answer)):
        got = [fn(r["text"]) for r in golden]
        assert [(r["text"], g) for r, g in zip(golden, got) if g != r[step]] == []


@pytest.mark.parametrize("name", ["qwen_answers.jsonl", "qwen_generations.jsonl"])
def test_stripped_answers_equal_the_reference(name):
    m = MathEquiv("qwen", prediction="answer" if "answers" in name else "generation",
                  reference="answer" if "answers" in name else "solution")
    from nlgmetrics.metrics.llm._math_qwen import BUDGET

    golden = rows(name)
    differ = [r for r in golden
              if (m.answer_of_prediction(r["prediction"]), m.answer_of_reference(r["reference"])) != (r["pred_answer"], r["gold_answer"])]
    # only the answers over the budget's text limit, which are left unstripped (the 30x30 matrix)
    assert [r["prediction"][:15] for r in differ] == (["\\begin{pmatrix}"] if "answers" in name else [])
    assert all(len(r["prediction"]) > BUDGET["text"] for r in differ)


@pytest.mark.parametrize("name, prediction, reference", [
    ("qwen_answers.jsonl", "answer", "answer"),
    ("qwen_generations.jsonl", "generation", "solution"),
])
def test_equals_the_reference_on_every_golden_pair_it_decided(name, prediction, reference):
    from nlgmetrics.metrics.llm._math_qwen import BUDGET

    m = MathEquiv("qwen", prediction=prediction, reference=reference)
    # the pairs the budget leaves to the string step are checked in test_where_the_budget_decides
    inside = [r for r in decided(name) if not outside(r, BUDGET)]
    got = [m.equivalent(r["prediction"], r["reference"]) for r in inside]
    want = [r["equivalent"] for r in inside]
    assert [(r["prediction"], r["reference"]) for r, g, w in zip(inside, got, want) if g != w] == []
    assert 100 < sum(want) < len(want) and len(inside) > 300


def outside(row: dict, budget: dict) -> bool:
    from nlgmetrics.metrics.llm._math_sympy import _bracket_depth

    return any(len(s) > budget["chars"] or _bracket_depth(s) > budget["brackets"] for s in (row["pred_answer"], row["gold_answer"]))


def test_where_the_budget_decides():
    """Where the reference timed out (3 s) or its SymPy work lies outside the budget: the pairs are
    named and counted; the budget decides them the same way on every machine."""
    from nlgmetrics.metrics.llm._math_qwen import BUDGET

    m = MathEquiv("qwen", prediction="answer", reference="answer")
    golden = rows("qwen_answers.jsonl")
    timed_out = [r["prediction"][:10] for r in golden if r.get("timeout")]
    assert timed_out == ["2<<10**10", "10^{10^{10", "2^{2^{2^{2", "\\frac{\\fra", "xxxxxxxxxx"]
    assert all(m.equivalent(r["prediction"], r["reference"]) is False for r in golden if r.get("timeout"))
    # the reference decides these within its 3 s; they lie outside the budget (nesting, length, nodes)
    beyond = [r for r in decided("qwen_answers.jsonl") if outside(r, BUDGET)]
    differ = [r["prediction"][:5] for r in beyond if m.equivalent(r["prediction"], r["reference"]) != r["equivalent"]]
    assert differ == ["(((((", "{{{{{", "1+1+1"]
    g = MathEquiv("qwen", prediction="generation", reference="solution")
    beyond = [r for r in decided("qwen_generations.jsonl") if outside(r, BUDGET)]
    differ = [r["prediction"][:13] for r in beyond if g.equivalent(r["prediction"], r["reference"]) != r["equivalent"]]
    assert differ == ["$\\boxed{(((((", "The answer is"]


def test_known_values_and_extraction():
    m = MathEquiv("qwen", prediction="answer", reference="answer")
    # values from the reference (several are its quirks: the ends of an interval are not compared,
    # "y = ..." loses its "y =" only on the left of the equals sign, "1,000" is the sorted list "0,1")
    pairs = [("0.5", "\\frac12", True), ("x = 5", "5", True), ("50\\%", "0.5", True), ("50", "0.5", True),
             ("[1,2]", "(1,2)", True), ("(1,2]", "[1,2)", True), ("1,000", "1000", False), ("\\pi", "3.14", False),
             ("\\pi", "3.14159", False), ("five", "5", True), ("45^\\circ", "45", True), ("2\\sqrt{3}", "\\sqrt{12}", True),
             ("1.5e3", "1500", True), ("y = 3x + 2", "3x + 2 = y", False), ("(A)", "A", True), ("−5", "-5", True)]
    assert [m.equivalent(a, b) for a, b, _ in pairs] == [want for _, _, want in pairs]
    g = MathEquiv("qwen")
    # several boxes: the last one; without a box "the answer is", else the last number
    assert g.equivalent("It is \\boxed{3}, no, \\boxed{4}.", "So $\\boxed{4}$.")
    assert not g.equivalent("It is \\boxed{4}, no, \\boxed{3}.", "So $\\boxed{4}$.")
    assert g.equivalent("3 apples and 4 pears, total 7", "\\boxed{7}")
    assert g.corpus_score(["The answer is 4", "no idea"], ["$\\boxed{4}$", "$\\boxed{4}$"]).score == 0.5


def test_parse_expr_never_runs_code_or_unbounded_work():
    from nlgmetrics.metrics.llm._math_qwen import _parse_expr_allowed, symbolic_equal

    for text in ("input()", "exit()", "open(1)", "x.__class__", "factorint(2**200+1)", "ones(10**5, 10**5)",
                 "2<<10**10", "'a'*10**9", "lambda: 1", "N(pi, 10**9)"):
        assert not _parse_expr_allowed(text), text
    for text in ("x**2+1", "sqrt(2)/2", "sin(x)**2 + cos(x)**2", "(1, 2)", "[1, 2]", "3.5e-3"):
        assert _parse_expr_allowed(text), text
    assert symbolic_equal("input()", "input()")  # the same text: str(a) == str(b), nothing is run
    assert symbolic_equal("9**9**9", "9**9**9+1")  # parse_latex reads both as 9, as in the reference
    assert not symbolic_equal("10^{10^{10}}", "10^{10^{10}}+1")  # outside the budget


def test_signature_names_the_reference_versions_and_budget():
    from nlgmetrics.metrics.llm._math_qwen import BUDGET_LABEL

    sig = str(MathEquiv("qwen").signature())
    assert "flavour:qwen" in sig and "ref:evalscope-0.17.1" in sig and f"budget:{BUDGET_LABEL}" in sig
    assert "latex2sympy:1.11.0" in sig


def run_child(text: str) -> list[bool]:
    proc = subprocess.run([sys.executable, "-c", CHILD, "qwen"], input=text, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_inputs_end_quickly_within_memory(case):
    got = run_child(HOSTILE[case])
    assert all(isinstance(g, bool) for g in got)
    assert got[1] is False  # the answer is never equal to itself plus a digit


def test_cli_flag(tmp_path):
    (tmp_path / "hyp.txt").write_text("The answer is $\\frac{1}{2}$\nx = 6\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("$\\boxed{0.5}$\n$\\boxed{5}$\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "nlgmetrics", "score", "-m", "math_equiv", "--math-flavour", "qwen",
           "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)[0]
    assert (out["score"], out["correct"], out["n"]) == (0.5, 1, 2)
    assert out["signature_fields"]["flavour"] == "qwen"


QWEN_CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
from nlgmetrics.metrics.llm.math_equiv import MathEquiv
m = MathEquiv("qwen", prediction="answer", reference="answer")
print(json.dumps([m.equivalent(p, r) for p, r in json.loads(sys.stdin.read())]))
"""


def test_inputs_hostile_to_this_reference_end_quickly_within_memory():
    """What would make the reference run code, hang or take minutes: parse_expr's eval (input(),
    exit(), factorint, a 10**9-element list), str_to_pmatrix's cubic regex, the quadratic
    \\text{ regexes."""
    pairs = [("\\begin{pmatrix}1\\end{pmatrix}", "{,)" * 600), ("input()", "1"), ("exit()", "exit()+1"),
             ("factorint(2**200+1)", "1"), ("[0]*10**9", "1"), ("9**9**9**9", "1"), ("\\text{" * 290, "1"),
             ("(" * 32 + "1" + ")" * 32, "(" * 32 + "2" + ")" * 32), ("1e999999", "1e999998")]
    proc = subprocess.run([sys.executable, "-c", QWEN_CHILD], input=json.dumps(pairs), capture_output=True,
                          text=True, timeout=120, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-2000:]
    # as the reference: parse_latex reads "exit()" and "exit()+1" both as e*x*i*t (it stops at "(");
    # 1e999999 and 1e999998 are both float inf
    assert json.loads(proc.stdout) == [False, False, True, False, False, False, False, False, True]


def test_equals_the_reference_on_generated_garbage_latex():
    """600 generated pairs of LaTeX fragments (hendrycks_fuzz.jsonl): the parsers' error paths."""
    m = MathEquiv("qwen", prediction="answer", reference="answer")
    golden = rows("qwen_fuzz.jsonl")
    assert len(golden) == 600 and not any(r.get("timeout") or r.get("died") for r in golden)
    got = [(m.answer_of_prediction(r["prediction"]), m.answer_of_reference(r["reference"]),
            m.equivalent(r["prediction"], r["reference"])) for r in golden]
    want = [(r["pred_answer"], r["gold_answer"], r["equivalent"]) for r in golden]
    assert [r["prediction"] for r, g, w in zip(golden, got, want) if g != w] == []
    assert sum(r["equivalent"] for r in golden) == 8
