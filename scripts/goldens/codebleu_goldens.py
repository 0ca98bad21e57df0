"""Make tests/goldens/codebleu/cases.json: CodeBLEU of generated code pairs by both references.

Run with the interpreter of a separate environment holding the references and the grammar
wheels pinned in nlgmetrics' [code] extra (never nlgmetrics itself)::

    python -m venv /tmp/codebleu_venv
    /tmp/codebleu_venv/bin/pip install codebleu==0.7.0 tree-sitter==0.22.3 \
        tree-sitter-python==0.21.0 tree-sitter-java==0.21.0
    git clone https://github.com/microsoft/CodeXGLUE  # commit ac74a62 was used
    PYTHONHASHSEED=0 /tmp/codebleu_venv/bin/python scripts/goldens/codebleu_goldens.py \
        --codexglue CodeXGLUE/Code-Code/code-to-code-trans/evaluator/CodeBLEU

Flavour ``codebleu-0.7`` is ``codebleu.calc_codebleu``. Flavour ``codexglue`` runs CodeXGLUE's
modules (bleu, weighted_ngram_match, syntax_match, dataflow_match, parser/) with the steps of
its ``calc_code_bleu.py`` (which is an argparse script reading one snippet a line): only the
grammar loading is adapted, since ``Language('parser/my-languages.so', lang)`` needs a
tree-sitter older than 0.22: it is given the same pinned grammar wheels.

Both references merge data-flow sources through a ``set`` of strings, so a few values depend
on PYTHONHASHSEED: each case is run under seeds 0..3 in subprocesses; ``seed_dependent`` marks
those whose numbers differ, and the numbers kept are seed 0's.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "codebleu" / "cases.json"

PY_BASE = [
    "def add(a, b):\n    return a + b",
    "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s",
    "def fib(n):\n    a, b = 0, 1\n    while n > 0:\n        a, b = b, a + b\n        n -= 1\n    return a",
    "def find(items, key):\n    for i, item in enumerate(items):\n        if item == key:\n            return i\n    return -1",
    "def clamp(x, lo=0, hi=10):\n    if x < lo:\n        x = lo\n    elif x > hi:\n        x = hi\n    else:\n        x = x\n    return x",
    "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, v):\n        self.items.append(v)\n    def pop(self):\n        return self.items.pop()",
    "def squares(n):\n    return [i * i for i in range(n) if i % 2 == 0]",
    "def count_words(text):\n    counts = {}\n    for w in text.split():\n        counts[w] = counts.get(w, 0) + 1\n    return counts",
    "import os\ndef read(path):\n    with open(path) as f:\n        data = f.read()\n    return data",
    "def half(n):\n    q = n // 2\n    r = n % 2\n    return q, r",
    "def greet(name):\n    \"\"\"Say hello.\"\"\"\n    msg = 'hi ' + name  # greeting\n    return msg",
    "x = 1\ny = x + 2\nz = y * x\nprint(z)",
]
JAVA_BASE = [
    "public int add(int a, int b) { return a + b; }",
    "int sum(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) { s += xs[i]; } return s; }",
    "int total(List<Integer> xs) { int s = 0; for (int x : xs) { s = s + x; } return s; }",
    "int fib(int n) { int a = 0, b = 1; while (n > 0) { int t = a + b; a = b; b = t; n--; } return a; }",
    "int clamp(int x, int lo, int hi) { if (x < lo) { x = lo; } else if (x > hi) { x = hi; } else { x = x; } return x; }",
    "public static int Sign(double d) { return (int)((d == 0) ? 0 : (d < 0) ? -1 : 1); }",
    "private Map<String, ArrayList<Order>> getBuyOrders() { return buyOrders; }",
    "String greet(String name) { // say hi\n  String msg = \"hi // not a comment \" + name; /* block */ return msg; }",
    "void swap(int[] a, int i, int j) { int t = a[i]; a[i] = a[j]; a[j] = t; }",
    "boolean contains(String s, char c) { for (char x : s.toCharArray()) { if (x == c) return true; } return false; }",
    "public class P { private int v; public P(int v) { this.v = v; } public int get() { return v; } }",
    "int max(int a, int b) { int m; if (a > b) m = a; else m = b; return m; }",
]
RENAMES = {"python": [("a", "p"), ("x", "val"), ("s", "acc"), ("n", "k"), ("items", "elems")],
           "java": [("a", "p"), ("x", "val"), ("s", "acc"), ("n", "k"), ("name", "who")]}


def _rename(code: str, old: str, new: str) -> str:
    import re

    return re.sub(rf"\b{re.escape(old)}\b", new, code)


def mutations(code: str, language: str) -> list[tuple[str, str]]:
    lines = code.split("\n")
    out = [("same", code)]
    for old, new in RENAMES[language]:
        renamed = _rename(code, old, new)
        if renamed != code:
            out.append((f"rename {old}->{new}", renamed))
            break
    if len(lines) > 2:
        out.append(("drop line", "\n".join(lines[:1] + lines[2:])))
        out.append(("swap lines", "\n".join(lines[:1] + [lines[2], lines[1]] + lines[3:])))
    comment = "# note" if language == "python" else "// note"
    out.append(("comment added", code + "\n" + comment))
    out.append(("truncated", code[: len(code) // 2]))
    out.append(("one line", " ".join(code.split())))
    tokens = code.split()
    out.append(("tokens reversed", " ".join(reversed(tokens))))
    return out


ADVERSARIAL = {
    "python": ["", "   ", "#", "pass", "def f(:\n  return", "é = 1\nñ = é + 2", "变量 = 1\n结果 = 变量 * 2",
               "s = 'a // b'\nt = s", "a = b // c\nd = a", "if x:\n    y = 1\nelse:\n    y = 2\nz = y",
               "'''doc'''\nv = 1", "while True:\n    i = i + 1", "for a, b in pairs:\n    c = a + b", "((((((((((x))))))))))",
               "def g(x):\n\treturn x", "\t\n\n", "x=1;y=x", "lambda q: q + 1", "a = [\n1,\n2", "print('\\u00e9' + \"ü\")"],
    "java": ["", " ", "//", "/* unclosed", "int x = ;", "int é = 1; int ñ = é + 2;", "String s = \"/* not */\"; int y = 1;",
             "class A { void f() { i++; j = i; } }", "for (;;) { x = x + 1; }", "int[] a = {1, 2, 3};",
             "char c = '\\''; int d = c;", "if (a) b = 1; else b = 2; c = b;", "x += y; y -= x;", "{{{{{{{{}}}}}}}}",
             "return;", "String s = \"漢字\"; String t = s + s;", "a = b = c;", "while (i < n) i++;", "try { f(); } catch (E e) { g(e); }", "x"],
}


def build_cases() -> list[dict]:
    cases = []
    for language, base in (("python", PY_BASE), ("java", JAVA_BASE)):
        for i, ref in enumerate(base):
            for what, hyp in mutations(ref, language):
                cases.append({"language": language, "what": f"base {i}: {what}", "hyps": [hyp], "refs": [[ref]]})
        adv = ADVERSARIAL[language]
        for i, snippet in enumerate(adv):
            other = adv[(i + 1) % len(adv)]
            cases.append({"language": language, "what": f"adversarial {i} vs itself", "hyps": [snippet], "refs": [[snippet]]})
            cases.append({"language": language, "what": f"adversarial {i} vs next", "hyps": [snippet], "refs": [[other]]})
            cases.append({"language": language, "what": f"adversarial {i} vs base", "hyps": [snippet], "refs": [[base[i % len(base)]]]})
        # corpora: several segments, multiple references, weights
        hyps = [mutations(r, language)[1][1] for r in base]
        cases.append({"language": language, "what": "corpus of renames", "hyps": hyps, "refs": [[r] for r in base]})
        cases.append({"language": language, "what": "corpus, two references", "hyps": hyps,
                      "refs": [[r, mutations(r, language)[-1][1]] for r in base]})
        cases.append({"language": language, "what": "corpus, paper weights", "hyps": hyps, "refs": [[r] for r in base], "weights": [0.1, 0.1, 0.4, 0.4]})
        cases.append({"language": language, "what": "corpus of adversarial", "hyps": adv, "refs": [[s] for s in adv[1:] + adv[:1]]})
        cases.append({"language": language, "what": "corpus, no data flow", "hyps": adv[:3], "refs": [[s] for s in adv[:3]]})
    return cases


def _load_codexglue(path: str):
    import importlib

    import tree_sitter

    sys.path.insert(0, path)
    grammars = {"python": "tree_sitter_python", "java": "tree_sitter_java", "c_sharp": "tree_sitter_c_sharp"}
    mods = {name: importlib.import_module(name) for name in ("bleu", "weighted_ngram_match", "syntax_match", "dataflow_match")}
    for name in ("syntax_match", "dataflow_match"):  # the only adaptation: load the pinned grammar wheels
        mods[name].Language = lambda _so, lang: tree_sitter.Language(importlib.import_module(grammars[lang]).language())
    return mods


def codexglue_score(mods, case: dict, path: str) -> dict:
    """calc_code_bleu.py's steps after reading its files."""
    lang = case["language"]
    alpha, beta, gamma, theta = case.get("weights", [0.25] * 4)
    hypothesis = [x.strip() for x in case["hyps"]]
    references = [[x.strip() for x in refs] for refs in case["refs"]]
    tok_h = [x.split() for x in hypothesis]
    tok_r = [[x.split() for x in refs] for refs in references]
    ngram = mods["bleu"].corpus_bleu(tok_r, tok_h)
    keywords = [x.strip() for x in open(os.path.join(path, "keywords", lang + ".txt"), encoding="utf-8").readlines()]
    weighted_refs = [[[t, {tok: 1 if tok in keywords else 0.2 for tok in t}] for t in refs] for refs in tok_r]
    weighted = mods["weighted_ngram_match"].corpus_bleu(weighted_refs, tok_h)
    cwd = os.getcwd()
    syntax = mods["syntax_match"].corpus_syntax_match(references, hypothesis, lang)
    dataflow = mods["dataflow_match"].corpus_dataflow_match(references, hypothesis, lang)
    os.chdir(cwd)
    score = alpha * ngram + beta * weighted + gamma * syntax + theta * dataflow
    return {"codebleu": score, "ngram_match": float(ngram), "weighted_ngram_match": weighted, "syntax_match": syntax, "dataflow_match": dataflow}


def codebleu07_score(case: dict) -> dict:
    from codebleu import calc_codebleu

    r = calc_codebleu(case["refs"], case["hyps"], case["language"], weights=tuple(case.get("weights", [0.25] * 4)))
    return {"codebleu": r["codebleu"], "ngram_match": r["ngram_match_score"], "weighted_ngram_match": r["weighted_ngram_match_score"],
            "syntax_match": r["syntax_match_score"], "dataflow_match": r["dataflow_match_score"]}


def run_all(path: str) -> list:
    import logging
    import warnings

    logging.disable(logging.WARNING)
    warnings.simplefilter("ignore")
    mods = _load_codexglue(path)
    out = []
    for case in build_cases():
        row = {}
        for flavour, fn in (("codexglue", lambda c: codexglue_score(mods, c, path)), ("codebleu-0.7", codebleu07_score)):
            try:
                row[flavour] = fn(case)
            except Exception as e:  # the reference's own failure, recorded
                row[flavour] = {"error": type(e).__name__}
        out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--codexglue", required=True, help="CodeXGLUE's evaluator/CodeBLEU directory")
    ap.add_argument("--worker", action="store_true")
    args = ap.parse_args()
    if args.worker:
        with open(os.devnull, "w") as devnull:  # the references print
            stdout, sys.stdout = sys.stdout, devnull
            rows = run_all(os.path.abspath(args.codexglue))
            sys.stdout = stdout
        json.dump(rows, sys.stdout)
        return
    runs = []
    for seed in range(4):
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        res = subprocess.run([sys.executable, __file__, "--codexglue", args.codexglue, "--worker"], env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(res.stdout))
    cases = build_cases()
    for i, case in enumerate(cases):
        case["expected"] = runs[0][i]
        case["seed_dependent"] = any(r[i] != runs[0][i] for r in runs[1:])
    import importlib.metadata as md

    versions = {p: md.version(p) for p in ("codebleu", "tree-sitter", "tree-sitter-python", "tree-sitter-java")}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"versions": versions, "codexglue_commit": "ac74a62802a0dd159b3258c78a2df8ad36cdf2b9", "hash_seed": 0, "cases": cases}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases, {sum(c['seed_dependent'] for c in cases)} seed-dependent -> {OUT}")


if __name__ == "__main__":
    main()
