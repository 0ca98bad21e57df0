"""codebleu on deeply nested code: the references' recursive data-flow walk reads a tree as
deep as the interpreter's recursion limit allows from the call site (and gives no data flow
past it); this walk reads the same trees, not fewer, and leaves the recursion limit as it was.
Values are PyPI codebleu 0.7.0's and CodeXGLUE's own for the same snippets."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

pytest.importorskip("tree_sitter")
for _grammar in ("tree_sitter_python", "tree_sitter_java", "tree_sitter_javascript", "tree_sitter_c_sharp", "tree_sitter_go",
                 "tree_sitter_c", "tree_sitter_cpp", "tree_sitter_php", "tree_sitter_ruby", "tree_sitter_rust"):
    pytest.importorskip(_grammar)

from nlgmetrics.metrics.programs.codebleu import CODEXGLUE_LANGUAGES, CodeBLEU  # noqa: E402

TEMPLATES = {"python": "y = {}\nz = y", "java": "int y = {}; z = y;", "c_sharp": "int y = {}; z = y;", "javascript": "let y = {}; z += y;",
             "go": "var y = {}\nz = y", "c": "int f() {{ y = {}; z = y; }}", "cpp": "int f() {{ y = {}; z = y; }}", "php": "<?php $y = {}; $z = $y;",
             "ruby": "y = {}\nz = y", "rust": "fn f() {{ y = {}; z = y; }}"}


def _nested(language: str, depth: int) -> str:
    x = "$x" if language == "php" else "x"
    return TEMPLATES[language].format("(" * depth + x + ")" * depth)


def _dataflow(flavour: str, language: str, depth: int) -> float:
    hyp = _nested(language, depth)
    return CodeBLEU(flavour, language=language).corpus_score([hyp], [[hyp.replace("z", "w")]])["dataflow_match"]


CASES = [(f, lang) for lang in TEMPLATES for f in ("codebleu-0.7", "codexglue") if f == "codebleu-0.7" or lang in CODEXGLUE_LANGUAGES]


@pytest.mark.parametrize("flavour,language", CASES)
def test_700_deep_is_read_and_1200_deep_is_not_as_in_the_references(flavour, language):
    limit = sys.getrecursionlimit()
    # rust: the reference's walk has no edge for this snippet at any depth
    assert _dataflow(flavour, language, 700) == (0 if language == "rust" else 1.0)
    if language in ("python", "javascript", "ruby"):
        assert _dataflow(flavour, language, 1200) == 0
    assert sys.getrecursionlimit() == limit


def test_the_cut_off_follows_the_call_site_as_the_references_do():
    """From a script's top level under the limit 1000, 0.7.0 reads ``y = ((...x...))`` nested
    989 deep and not 990, CodeXGLUE 990 and not 991 (measured on both references)."""
    code = textwrap.dedent("""
        import sys
        from nlgmetrics.metrics.programs.codebleu import CodeBLEU
        def nested(d):
            return "y = " + "(" * d + "x" + ")" * d + "\\nz = y"
        k4, glue = CodeBLEU("codebleu-0.7"), CodeBLEU("codexglue")
        sys.setrecursionlimit(1000)
        got = []
        for metric, depth in ((k4, 989), (k4, 990), (glue, 990), (glue, 991)):  # called from the top level
            got.append(metric.corpus_score([nested(depth)], [[nested(depth)]])["dataflow_match"])
        print(got, sys.getrecursionlimit())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[1.0,", "0,", "1.0,", "0]", "1000"]


def test_threads_walking_deep_trees_leave_the_limit_as_it_was():
    limit = sys.getrecursionlimit()
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(_dataflow("codebleu-0.7", "python", 700))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [1.0] * 4
    assert sys.getrecursionlimit() == limit
