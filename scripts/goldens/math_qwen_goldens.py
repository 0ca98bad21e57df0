"""Regenerate tests/goldens/math_equiv/qwen_*.jsonl from Qwen2.5-Math's grader as evalscope 0.17.1
vendors it (``evalscope/metrics/math_parser.py``: ``strip_answer_string``, ``extract_answer``,
``math_equal``), run as a program in an isolated environment, never in the project's::

    python3 -m venv /tmp/qwen_venv
    /tmp/qwen_venv/bin/pip install sympy==1.14.0 antlr4-python3-runtime==4.11.0 \\
        latex2sympy2_extended==1.11.0 word2number==1.1 regex
    pip download evalscope==0.17.1 --no-deps -d /tmp/evalscope017
    unzip -o /tmp/evalscope017/evalscope-0.17.1-py3-none-any.whl 'evalscope/metrics/math_parser.py' -d /tmp/qwen_ref
    /tmp/qwen_venv/bin/python scripts/goldens/math_qwen_goldens.py \\
        /tmp/qwen_ref/evalscope/metrics/math_parser.py tests/goldens/math_equiv [qwen_fuzz.jsonl]

Pairs: the existing hendrycks / minerva goldens and the math-verify script's adversarial ones
(several boxes, units, percentages, intervals, matrices, unicode minus, thousands separators,
``x=5``, ``\\text{}``, degrees, pi, sqrt, scientific notation, hostile LaTeX) plus a few more, and
600 of the generated garbage pairs of ``hendrycks_fuzz.jsonl`` (``qwen_fuzz.jsonl``). An
``answer`` pair is scored as evalscope's math_500 adapter does: ``math_equal(strip(pred),
strip(gold))``; a ``generation`` pair as its competition_math adapter:
``math_equal(strip(extract_answer(gen)), strip(extract_answer(solution)))``.

Each ``math_equal`` runs in a forked child with stdin closed and 4 GiB of address space, stopped
after 3 seconds of wall clock, as Qwen2.5-Math's ``evaluate.py`` stops each pair (pebble,
``timeout=3``): such a row is marked ``timeout`` (its verdict depends on the machine) and so is
one whose child died (``died``). The string steps are recorded too (``pred_answer``,
``gold_answer``), and ``qwen_strings.jsonl`` holds ``strip_answer_string`` / ``extract_answer``
of every text of ``string_steps.jsonl``.
"""
from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path



def _adversarial(name: str) -> list[tuple[str, str]]:
    """The math-verify goldens' adversarial pairs, read from that script (it imports math_verify)."""
    import ast

    tree = ast.parse((Path(__file__).resolve().parent / "math_verify_goldens.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == name)
    return eval(compile(ast.Expression(node.value), name, "eval"))  # literals and string arithmetic only


ADVERSARIAL_ANSWERS = _adversarial("ADVERSARIAL_ANSWERS")
ADVERSARIAL_GENERATIONS = _adversarial("ADVERSARIAL_GENERATIONS")

MORE_ANSWERS = [
    ("1.5e3", "1500"), ("1.5\\times10^3", "1500"), ("2E-3", "0.002"), ("3\\cdot 10^{-2}", "0.03"),
    ("\\pi", "\\pi"), ("2\\pi", "6.2832"), ("\\frac{\\pi}{2}", "1.5708"), ("\\sqrt{12}", "2\\sqrt{3}"),
    ("\\sqrt3", "\\sqrt{3}"), ("50%", "0.5"), ("50", "0.5"), ("0.5", "50\\%"), ("12,345", "12345"),
    ("five", "5"), ("\\text{five}", "5"), ("twenty-one", "21"), ("A", "A"), ("(A)", "A"), ("The answer is C", "C"),
    ("x=5", "x=5"), ("y = 3x + 2", "3x + 2 = y"), ("k=7", "7"), ("[1,2]", "(1,2)"), ("(1,2]", "(1,2]"),
    ("\\left(1, 2\\right)", "(1,2)"), ("\\emptyset", "\\{\\}"), ("(-\\infty,\\infty)", "\\mathbb{R}"),
    ("3,1,2", "1,2,3"), ("j", "i"), ("5.000", "5"), (".5", "0.5"), ("\\$1,000", "1000"),
    ("\\begin{array}{c} 1 \\\\ 2 \\end{array}", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"),
    ("\\begin{pmatrix}0.3333&1\\end{pmatrix}", "\\begin{pmatrix}\\frac13&1\\end{pmatrix}"),
    ("\\{1,2\\}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"), ("\\infty", "inf"), ("12\\text{th grade}", "12"),
    ("1e999", "1e999"), ("nan", "NaN"), ("1_000", "1000"), ("input()", "1"), ("exit()", "1"),
    ("factorint(2**200+1)", "1"), ("__import__", "1"), ("[0]*10**9", "1"), ("2<<10**10", "1"),
    ("9**9**9", "9**9**9+1"), ("x.y", "x"),
]
MORE_GENERATIONS = [
    ("So the answer is \\boxed{\\dfrac{1}{2}}.", "Hence $\\boxed{0.5}$."),
    ("The final answer is $\\frac34$. I hope it is correct.", "It is \\boxed{3/4}."),
    ("Final answer: 42", "We find \\boxed{42}"), ("答案是 7\n\nmore", "\\boxed{7}"),
    ("The answer is five.", "\\boxed{5}"), ("boxed", "\\boxed{1}"), ("\\boxed 5$ and more", "\\boxed{5}"),
]


def load_reference(path: str):
    spec = importlib.util.spec_from_file_location("qwen_math_parser", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_pairs(path: Path) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8") as f:
        return [(r["prediction"], r["reference"]) for r in map(json.loads, f)]


def _child(ref, pred: str, gold: str, conn) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    sys.stdin = open(os.devnull)
    os.dup2(sys.stdin.fileno(), 0)
    try:
        conn.send(bool(ref.math_equal(pred, gold)))
    except BaseException as e:  # noqa: BLE001 - the reference's outcome, recorded
        conn.send(f"error: {type(e).__name__}")


def run_pair(ref, pred: str, gold: str) -> dict:
    parent, child = multiprocessing.Pipe(duplex=False)
    proc = multiprocessing.get_context("fork").Process(target=_child, args=(ref, pred, gold, child))
    start = time.perf_counter()
    proc.start()
    row: dict = {}
    if parent.poll(3.0):
        row["equivalent"] = parent.recv()
    else:
        row["equivalent"] = False  # Qwen's evaluate.py: a timed-out pair is wrong
        row["timeout" if proc.is_alive() else "died"] = True
    proc.kill()
    proc.join()
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


def main(reference: str, out: Path, only: str | None = None) -> None:
    ref = load_reference(reference)
    ref.math_equal("1", "\\frac{2}{2}")  # the grammars' first load is not a pair's time
    answers = MORE_ANSWERS + ADVERSARIAL_ANSWERS + read_pairs(out / "minerva_answers.jsonl") + read_pairs(out / "hendrycks_answers.jsonl")[:700]
    generations = MORE_GENERATIONS + ADVERSARIAL_GENERATIONS + read_pairs(out / "minerva_generations.jsonl") + read_pairs(out / "hendrycks_generations.jsonl")[:250]
    fuzz = read_pairs(out / "hendrycks_fuzz.jsonl")[:600]  # generated garbage LaTeX: the parsers' error paths
    for name, pairs, kind in (("qwen_answers.jsonl", answers, "answer"), ("qwen_generations.jsonl", generations, "generation"),
                              ("qwen_fuzz.jsonl", fuzz, "answer")):
        if only is not None and name != only:
            continue
        rows, seen = [], set()
        for pred, gold in pairs:
            if (pred, gold) in seen:
                continue
            seen.add((pred, gold))
            if kind == "answer":
                a, b = ref.strip_answer_string(pred), ref.strip_answer_string(gold)
            else:
                a = ref.strip_answer_string(ref.extract_answer(pred))
                b = ref.strip_answer_string(ref.extract_answer(gold))
            row = {"prediction": pred, "reference": gold, "pred_answer": a, "gold_answer": b}
            row.update(run_pair(ref, a, b))
            rows.append(row)
        with open(out / name, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(name, len(rows), sum(r["equivalent"] is True for r in rows), "equivalent",
              sum("timeout" in r or "died" in r for r in rows), "timeouts", file=sys.stderr)
    if only is not None:
        return
    with open(out / "string_steps.jsonl", encoding="utf-8") as f, open(out / "qwen_strings.jsonl", "w", encoding="utf-8") as g:
        for text in (json.loads(line)["text"] for line in f):
            row = {"text": text}
            for step in ("strip_answer_string", "extract_answer"):
                try:
                    row[step] = getattr(ref, step)(text)
                except Exception as e:  # noqa: BLE001
                    row[step] = f"error: {type(e).__name__}"
            g.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), *sys.argv[3:4])  # a third argument: only that golden file
