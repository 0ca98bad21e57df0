"""Regenerate tests/goldens/math_equiv/math_verify_*.jsonl from math-verify 0.9.0's own ``parse`` and
``verify``, as lm-evaluation-harness's ``leaderboard_math_hard`` task calls them.

Runs in an isolated environment, never in the project's::

    python3 -m venv /tmp/mv_venv
    /tmp/mv_venv/bin/pip install 'math-verify==0.9.0' 'antlr4-python3-runtime==4.13.2'
    /tmp/mv_venv/bin/python scripts/goldens/math_verify_goldens.py tests/goldens/math_equiv
    python3 -m venv /tmp/mv_venv11
    /tmp/mv_venv11/bin/pip install 'math-verify==0.9.0' 'antlr4-python3-runtime==4.11.0'  # as lm-eval 0.4.13's [math] extra
    /tmp/mv_venv11/bin/python scripts/goldens/math_verify_goldens.py tests/goldens/math_equiv

latex2sympy2_extended ships one generated ANTLR parser per runtime, and the one for 4.11 (what
lm-eval's ``[math]`` extra installs) is older than the 4.13.2 one: the verdicts differ (on
percentages, for one), so each runtime has its own goldens, ``math_verify_*.antlr<version>.jsonl``.

The pairs are those of the existing hendrycks / minerva goldens plus hand-written adversarial
ones (several boxes, units, percentages, intervals, sets, matrices, unicode minus, thousands
separators, equations, ``\\text{}``, degrees, hostile LaTeX). A ``generation`` pair is scored as
the leaderboard task's ``process_results``: ``verify(parse(solution, [LatexExtractionConfig()]),
parse(generation))``; an ``answer`` pair wraps each answer in ``$...$`` first. The reference runs
with its own 5-second alarms; a pair where one fired (math-verify logs "Timeout") is marked
``timeout``: its verdict depends on the machine.
"""
from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path

from math_verify import LatexExtractionConfig, parse, verify

ADVERSARIAL_ANSWERS = [
    ("5", "5"), ("x=5", "5"), ("5", "x = 5"), ("y=2x+1", "2x+1"), ("x = 5, y = 3", "(5, 3)"),
    ("10\\%", "10"), ("10", "10\\%"), ("10\\%", "0.1"), ("0.1", "10\\%"), ("50\\%", "\\frac{1}{2}"),
    ("45^\\circ", "45"), ("45^{\\circ}", "\\frac{\\pi}{4}"), ("90^\\circ", "90"), ("30°", "30"),
    ("5\\text{ cm}", "5"), ("5 \\text{cm}^2", "5"), ("\\$18.90", "18.90"), ("18.9", "18.90"), ("\\text{5}", "5"),
    ("\\text{Tuesday}", "\\text{Tuesday}"), ("\\text{(A)}", "A"), ("\\textbf{(C)}", "C"),
    ("[2,5)", "[2, 5)"), ("[2,5)", "(2,5]"), ("(-\\infty, 3]", "(-\\infty,3]"), ("x \\in [0,1]", "[0,1]"),
    ("(0,1) \\cup (2,3)", "(2,3) \\cup (0,1)"), ("\\{1,2,3\\}", "\\{3,2,1\\}"), ("\\{1,2\\}", "(1,2)"),
    ("1,2,3", "\\{1,2,3\\}"), ("1, 2", "2, 1"), ("(1,2)", "(2,1)"),
    ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"),
    ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}"),
    ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(1, 2)"),
    ("−5", "-5"), ("\u22125", "-5"), ("1,000", "1000"), ("1{,}000", "1000"), ("1,\\!000", "1000"),
    ("1,000,000", "1000000"), ("100,000", "100000"), ("3,5", "3.5"),
    ("\\frac{1}{2}", "0.5"), ("\\dfrac12", "1/2"), ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}"),
    ("2\\sqrt{2}", "\\sqrt{8}"), ("\\pi", "3.14159"), ("\\pi", "3.14"), ("0.333333", "\\frac{1}{3}"),
    ("0.33", "\\frac{1}{3}"), ("e", "2.718281828"), ("\\infty", "\\infty"), ("-\\infty", "\\infty"),
    ("x^2+2x+1", "(x+1)^2"), ("a+b", "b+a"), ("\\sin^2 x + \\cos^2 x", "1"), ("\\ln e", "1"),
    ("i", "\\sqrt{-1}"), ("2+3i", "3i+2"), ("\\binom{5}{2}", "10"), ("5!", "120"),
    ("x > 2", "(2, \\infty)"), ("2 < x < 5", "(2,5)"), ("x \\leq 3", "(-\\infty, 3]"),
    ("\\boxed{4}", "4"), ("\\boxed{3}\\boxed{4}", "4"), ("\\boxed{3} \\text{ and } \\boxed{4}", "3, 4"),
    ("", ""), (" ", "5"), ("5", ""), ("\\frac", "\\frac"), ("\\sqrt", "2"),
    ("10^{10^{10}}", "5"), ("10^{10^{10}}", "10^{10^{10}}"), ("2^{2^{2^{2^{2^{2}}}}}", "2"), ("9^{9^{9}}", "9^{9^{9}}"),
    ("100000!", "5"), ("(" * 60 + "1" + ")" * 60, "1"), ("{" * 60 + "1" + "}" * 60, "1"),
    ("\\frac{" * 30 + "1" + "}{2}" * 30, "1"),
    ("\\begin{pmatrix}" + " \\\\ ".join(" & ".join(["1"] * 30) for _ in range(30)) + "\\end{pmatrix}", "1"),
    ("1+" * 400 + "1", "401"), ("x" * 2000, "x"),
]
ADVERSARIAL_GENERATIONS = [
    ("The answer is $\\boxed{3}$ or maybe $\\boxed{4}$.", "So $\\boxed{4}$."),
    ("The answer is $\\boxed{4}$ or maybe $\\boxed{3}$.", "So $\\boxed{4}$."),
    ("Final Answer: The final answer is $10\\%$. I hope it is correct.", "It is $\\boxed{10}$."),
    ("Final Answer: The final answer is $45^\\circ$. I hope it is correct.", "It is $\\boxed{45^\\circ}$."),
    ("Final Answer: The final answer is $x=5$. I hope it is correct.", "Thus $\\boxed{5}$."),
    ("The answer is 1,000.", "We get $\\boxed{1000}$."),
    ("The answer is −7.", "We get $\\boxed{-7}$."),
    ("The answer is $[2,5)$.", "The domain is $\\boxed{[2,5)}$."),
    ("The answer is $\\{1,2\\}$", "$\\boxed{\\{1,2\\}}$"),
    ("The answer is $\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}$", "$\\boxed{\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}}$"),
    ("So the total is \\$5.", "$\\boxed{\\$5}$"),
    ("The answer is $\\text{Devon}$.", "$\\boxed{\\text{Devon}}$"),
    ("The answer is 5 cm.", "$\\boxed{5\\text{ cm}}$"),
    ("I think 3. Actually the answer is 4.", "$\\boxed{4}$"),
    ("", "$\\boxed{4}$"),
    ("No idea.", "$\\boxed{4}$"),
    ("$\\boxed{" + "(" * 80 + "4" + ")" * 80 + "}$", "$\\boxed{4}$"),
    ("$\\boxed{10^{10^{10}}}$", "$\\boxed{10^{10^{10}}}$"),
    ("The answer is " + "1+" * 500 + "1", "$\\boxed{501}$"),
    ("x " * 5000 + "The answer is $\\boxed{4}$", "$\\boxed{4}$"),
]


class TimeoutSeen(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen = False

    def emit(self, record: logging.LogRecord) -> None:
        if "Timeout" in record.getMessage():
            self.seen = True


def read_pairs(path: Path) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8") as f:
        return [(r["prediction"], r["reference"]) for r in map(json.loads, f)]


def generation_verdict(gen: str, sol: str) -> bool:  # leaderboard/math/utils.py process_results
    return bool(verify(parse(sol, extraction_config=[LatexExtractionConfig()]), parse(gen)))


def answer_verdict(pred: str, gold: str) -> bool:
    return bool(verify(parse(f"${gold}$", extraction_config=[LatexExtractionConfig()]), parse(f"${pred}$")))


def main(out: Path) -> None:
    from importlib.metadata import version

    suffix = f".antlr{version('antlr4-python3-runtime')}.jsonl"
    handler = TimeoutSeen()
    for name in ("math_verify", "math_verify.parser", "math_verify.grader"):
        logging.getLogger(name).addHandler(handler)
    answer_verdict("1", "2")  # the grammar's first load is not a pair's time
    answers = ADVERSARIAL_ANSWERS + read_pairs(out / "minerva_answers.jsonl") + read_pairs(out / "hendrycks_answers.jsonl")[:1500]
    generations = ADVERSARIAL_GENERATIONS + read_pairs(out / "minerva_generations.jsonl") + read_pairs(out / "hendrycks_generations.jsonl")[:600]
    for name, pairs, check in (("math_verify_answers" + suffix, answers, answer_verdict),
                               ("math_verify_generations" + suffix, generations, generation_verdict)):
        rows, seen = [], set()
        for a, b in pairs:
            if (a, b) in seen:
                continue
            seen.add((a, b))
            handler.seen = False
            start = time.perf_counter()
            try:
                verdict = check(a, b)
            except Exception as e:  # noqa: BLE001 - recorded as the reference's outcome
                verdict = f"error: {type(e).__name__}"
            row = {"prediction": a, "reference": b, "equivalent": verdict}
            if handler.seen:
                row["timeout"] = True
            row["seconds"] = round(time.perf_counter() - start, 3)
            rows.append(row)
        with open(out / name, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(name, len(rows), sum(r["equivalent"] is True for r in rows), "equivalent",
              sum("timeout" in r for r in rows), "timeouts", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
