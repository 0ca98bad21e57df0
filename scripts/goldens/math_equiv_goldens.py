"""Regenerate tests/goldens/math_equiv/*.jsonl from lm-evaluation-harness 0.4.13's own checkers.

Runs in an isolated environment, never in the project's::

    python3 -m venv /tmp/math_venv
    /tmp/math_venv/bin/pip install sympy==1.14.0 antlr4-python3-runtime==4.11 'math-verify==0.9.*'
    pip download lm_eval==0.4.13 --no-deps -d /tmp/math_ref && (cd /tmp/math_ref && unzip -q lm_eval-0.4.13-py3-none-any.whl)
    /tmp/math_venv/bin/python scripts/goldens/math_equiv_goldens.py /tmp/math_ref/lm_eval/tasks tests/goldens/math_equiv

The reference modules are loaded from the unpacked wheel (``hendrycks_math/utils.py``,
``minerva_math/utils.py``; the latter imports sympy, antlr4 and math_verify). Each pair is
scored with the task's own ``process_results`` steps: for ``generation`` pairs the answer is
extracted from a generation and the gold from a ``\\boxed`` solution; for ``answer`` pairs
both are answers. A minerva pair whose SymPy check takes over 2 seconds here is marked
``slow`` (its verdict under the reference's 5-second alarm depends on the machine).
"""
from __future__ import annotations

import importlib.util
import itertools
import json
import random
import sys
import time
import types
from pathlib import Path

SEED = 20261207

BASES = [
    "5", "-3", "0", "12", "1000000", "100,000", "\\frac{1}{2}", "\\frac{3}{4}", "-\\frac{2}{3}", "\\frac{\\sqrt{3}}{2}",
    "2\\sqrt{2}", "\\sqrt{5}", "3\\pi", "\\frac{\\pi}{4}", "0.25", "1.5", "x^2+1", "2x+3", "(1,2)", "[2,5)",
    "(-\\infty, 3]", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\text{(A)}", "12\\%", "45^\\circ", "\\$18.90",
    "5\\text{ cm}", "10 \\text{ inches}", "\\{1,2,3\\}", "x=4", "y = 2x - 1", "2, 3", "\\frac{9}{2}", "4.5",
    "\\tfrac{1}{3}", "\\dfrac{5}{6}", "\\sqrt[3]{2}", "e", "\\infty", "1/3", "6/8", "a/b", "\\frac14",
    "\\left( 3, \\frac{\\pi}{2} \\right)", "\\textbf{(C)}", "\\mbox{Tuesday}", "\\text{Devon}", "0.\\overline{3}",
    "3 \\cdot 10^5", "2^{10}", "1024", "\\binom{5}{2}", "10", "\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}", "-1",
    "\\pm 2", "x \\in [0, 1]", "7 \\text{ ways}", "23 students", "16 \\text{ feet}", "3 hours", "\\frac{7}{25}", ".5",
    "5.", "\\$5", "5 \\text{ dollars}", "0.28", "3!", "6", "\\sqrt{8}", "\\sqrt8", "\\frac{a}{b}", "x", "x^{2}",
    "\\text{even}", "1,\\!000", "1{,}000", "1000", "2\\pi", "\\frac{2\\pi}{1}", "", " ", "\\boxed{4}", "\\sqrt",
    "\\frac", "2\\text{ m}^2", "3 \\text{ and } 4", "9^{\\circ}", "\\$", "−5", "１２", "٣/4", "+3/4", "3/04",
]
VARIANTS = [
    lambda s: s,
    lambda s: s.replace("\\frac", "\\dfrac"),
    lambda s: s.replace("\\frac", "\\tfrac"),
    lambda s: " " + s + " ",
    lambda s: s + ".",
    lambda s: "x = " + s,
    lambda s: "k=" + s,
    lambda s: s + " \\text{ units}",
    lambda s: s + "^\\circ",
    lambda s: s + "\\%",
    lambda s: "\\$" + s,
    lambda s: "\\left(" + s + "\\right)",
    lambda s: s.replace("{", "{ ").replace("}", " }"),
    lambda s: "\\boxed{" + s + "}",
    lambda s: "$" + s + "$",
    lambda s: "\\text{" + s + "}",
    lambda s: s.replace(" ", ""),
    lambda s: s + " cm",
    lambda s: "The answer is " + s,
    lambda s: s + "\n",
    lambda s: s.replace("\\sqrt{", "\\sqrt").replace("}", "", 1) if "\\sqrt{" in s else s,
]
GENERATIONS = [
    lambda a: f"Final Answer: The final answer is ${a}$. I hope it is correct.",
    lambda a: f"We compute.\nFinal Answer: The final answer is {a}. I hope it is correct.",
    lambda a: f"So the answer is ${a}$.",
    lambda a: f"The value is $x = {a}$ and that is $\\boxed{{{a}}}$",
    lambda a: f"{a}",
    lambda a: f"Final Answer: The final answer is ${a}$. I hope",
    lambda a: f"Final Answer: The final answer is ${a}$.I hope it is correct.",
    lambda a: f"Final Answer: The final answer is ${a}$. I hope it is correct. Final Answer: The final answer is $0$. I hope it is correct.",
]
SOLUTIONS = [
    lambda a: f"Thus the answer is $\\boxed{{{a}}}$.",
    lambda a: f"First $\\boxed{{0}}$ then $\\boxed{{{a}}}$.",
    lambda a: f"We get $\\fbox{{{a}}}$ hmm $\\boxed{{{a}}}$",
    lambda a: f"The answer is $\\boxed {a}$.",
]


# pieces of LaTeX, units and the phrases the steps look for: random strings of them reach every
# branch of the string steps (and the places where the reference raises)
FUZZ_PIECES = ["\\frac", "\\dfrac", "\\tfrac", "\\sqrt", "sqrt[", "]", "{", "}", "/", "=", " ", ".", "\\text{ ", "\\text{",
               "\\textbf{", "\\overline{", "\\boxed{", "\\boxed ", "\\fbox{", "\\%", "%", "$", "\\$", "1", "2", "12", "0.5",
               "a", "x", "\\left", "\\right", "\\!", "\\\\", "^\\circ", "^{\\circ}", "\n", "ft", "cm", "units", "\\pi", ",",
               ",\\!", "{,}", "100", ",000", "-", "\\ ", "an ", "a ", "mbox", "\\text{and}", "\\ldots", "\\mathrm{th}",
               "Final Answer: The final answer is", ". I hope it is correct.", " I hope it is correct", "−", "٣", "é", "_"]


def fuzz_strings(rng: random.Random, n: int) -> list[str]:
    return [''.join(rng.choice(FUZZ_PIECES) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def outcome(f, *args):
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001 - where the reference raises
        return f"error: {type(e).__name__}"


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def answer_pairs(rng: random.Random, n_same: int, n_cross: int) -> list[tuple[str, str]]:
    pairs = []
    for _ in range(n_same):
        base = rng.choice(BASES)
        pairs.append((rng.choice(VARIANTS)(base), rng.choice(VARIANTS)(base)))
    for _ in range(n_cross):
        pairs.append((rng.choice(VARIANTS)(rng.choice(BASES)), rng.choice(VARIANTS)(rng.choice(BASES))))
    known = [("0.5", "\\frac12"), ("0.5", "\\frac{1}{2}"), ("\\frac{1}{2}", "1/2"), ("\\dfrac{3}{4}", "3/4"),
             ("x = 5", "5"), ("10\\%", "10"), ("45^\\circ", "45"), ("5\\text{ cm}", "5"), ("\\sqrt2", "\\sqrt{2}"),
             ("2.", "2"), ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}"), ("1,000", "1000"), ("0,1", "01"),
             ("\\$1.50", "1.50"), ("(1,2)", "(1, 2)"), ("\\left(1,2\\right)", "(1,2)")]
    return known + pairs


def generation_pairs(rng: random.Random, n: int) -> list[tuple[str, str]]:
    out = []
    for _ in range(n):
        gold = rng.choice(BASES)
        guess = gold if rng.random() < 0.6 else rng.choice(BASES)
        out.append((rng.choice(GENERATIONS)(rng.choice(VARIANTS)(guess)), rng.choice(SOLUTIONS)(gold)))
    return out


def main(tasks: Path, out: Path) -> None:
    # hendrycks_math/utils.py imports datasets for its process_docs only (not called here)
    stub = types.ModuleType("datasets")
    stub.Dataset = object
    sys.modules.setdefault("datasets", stub)
    hendrycks = load(tasks / "hendrycks_math" / "utils.py", "ref_hendrycks")
    minerva = load(tasks / "minerva_math" / "utils.py", "ref_minerva")
    out.mkdir(parents=True, exist_ok=True)
    minerva.is_equiv("1", "2")  # SymPy's first parse loads the grammar: not a slow pair's time
    rng = random.Random(SEED)

    def hendrycks_generation(gen: str, sol: str) -> bool:  # process_results, exact_match
        return bool(hendrycks.process_results({"solution": sol}, [gen])["exact_match"])

    def minerva_answer(a: str, b: str) -> bool:
        return bool(minerva.is_equiv(minerva.normalize_final_answer(a), minerva.normalize_final_answer(b)))

    def minerva_generation(gen: str, sol: str) -> bool:  # process_docs' answer, process_results' exact_match
        gold = minerva.normalize_final_answer(minerva.remove_boxed(minerva.last_boxed_only_string(sol)))
        return bool(minerva.is_equiv(minerva.normalize_final_answer(minerva.get_unnormalized_answer(gen)), gold))

    plans = [
        ("hendrycks_answers.jsonl", answer_pairs(rng, 1500, 1500), hendrycks.is_equiv),
        ("hendrycks_generations.jsonl", generation_pairs(rng, 1000), hendrycks_generation),
        ("minerva_answers.jsonl", answer_pairs(rng, 120, 60), minerva_answer),
        ("minerva_generations.jsonl", generation_pairs(rng, 120), minerva_generation),
    ]
    with open(out / "string_steps.jsonl", "w", encoding="utf-8") as f:
        for text in fuzz_strings(rng, 4000):
            row = {"text": text, "strip_string": outcome(hendrycks.strip_string, text),
                   "last_boxed": outcome(hendrycks.last_boxed_only_string, text),
                   "boxed_answer": outcome(lambda t: hendrycks.remove_boxed(hendrycks.last_boxed_only_string(t)), text),
                   "normalize_final_answer": outcome(minerva.normalize_final_answer, text),
                   "get_unnormalized_answer": outcome(minerva.get_unnormalized_answer, text)}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    fuzz = fuzz_strings(rng, 3000)
    plans.append(("hendrycks_fuzz.jsonl", list(zip(fuzz[::2], fuzz[1::2])) + [(t, t.replace(" ", "")) for t in fuzz[:500]],
                  hendrycks.is_equiv))
    for name, pairs, check in plans:
        rows, seen = [], set()
        for a, b in pairs:
            if (a, b) in seen:
                continue
            seen.add((a, b))
            start = time.perf_counter()
            try:
                verdict = check(a, b)
            except Exception as e:  # noqa: BLE001 - the reference raises: recorded as such
                verdict = f"error: {type(e).__name__}"
            row = {"prediction": a, "reference": b, "equivalent": verdict}
            if time.perf_counter() - start > 2.0:
                row["slow"] = True
            rows.append(row)
        with open(out / name, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(name, len(rows), sum(r["equivalent"] is True for r in rows), "equivalent", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
