"""codebleu: equal to microsoft/CodeXGLUE's calc_code_bleu and PyPI codebleu 0.7.0 on the
goldens of scripts/goldens/codebleu_goldens.py (real code pairs, mutations, adversarial
snippets), plus the flavour differences, mergeable statistics and bad input."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tree_sitter")
pytest.importorskip("tree_sitter_python")
pytest.importorskip("tree_sitter_java")

import nlgmetrics  # noqa: E402
from nlgmetrics import InvalidInputError, InvalidOptionError  # noqa: E402
from nlgmetrics.errors import MissingExtraError  # noqa: E402
from nlgmetrics.metrics.programs.codebleu import CodeBLEU  # noqa: E402

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "codebleu" / "cases.json").read_text("utf-8"))
PARTS = ("codebleu", "ngram_match", "weighted_ngram_match", "syntax_match", "dataflow_match")


def _parts(flavour, case):
    s = CodeBLEU(flavour, language=case["language"], weights=case.get("weights", [0.25] * 4)).corpus_score(case["hyps"], case["refs"])
    return {"codebleu": s.score, **{p: s[p] for p in PARTS[1:]}}


CASES = GOLDENS["cases"]
# The data-flow part (so the total) of a few snippets follows the process's string hashing in
# the references and here alike; in this process the other parts are compared, and every part
# in a subprocess under the goldens' PYTHONHASHSEED below.
HASH_FREE = ("ngram_match", "weighted_ngram_match", "syntax_match")


@pytest.mark.parametrize("flavour", ["codexglue", "codebleu-0.7"])
def test_goldens_equal_the_references(flavour):
    assert len(CASES) > 250
    wrong = []
    for c in CASES:
        got, expected = _parts(flavour, c), c["expected"][flavour]
        if any(got[p] != expected[p] for p in HASH_FREE):
            wrong.append((c["what"], c["language"]))
    assert wrong == []


def test_hash_seed_dependent_goldens_equal_the_references_under_the_same_seed():
    """The references merge data-flow sources through a set of strings: under the goldens'
    PYTHONHASHSEED every case, those that move with the seed too, is equal."""
    code = (
        "import json, sys\n"
        "from nlgmetrics.metrics.programs.codebleu import CodeBLEU\n"
        "cases = json.load(open(sys.argv[1], encoding='utf-8'))['cases']\n"
        "bad = []\n"
        "for c in cases:\n"
        "    for f in ('codexglue', 'codebleu-0.7'):\n"
        "        s = CodeBLEU(f, language=c['language'], weights=c.get('weights', [0.25] * 4)).corpus_score(c['hyps'], c['refs'])\n"
        "        got = {'codebleu': s.score, **{p: s[p] for p in ('ngram_match', 'weighted_ngram_match', 'syntax_match', 'dataflow_match')}}\n"
        "        bad += [] if got == c['expected'][f] else [c['what']]\n"
        "print(len(cases), sum(c['seed_dependent'] for c in cases), bad)\n"
    )
    env = dict(os.environ, PYTHONHASHSEED=str(GOLDENS["hash_seed"]))
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent / "goldens" / "codebleu" / "cases.json")],
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    n, dependent, bad = out.stdout.strip().split(" ", 2)
    assert (int(n), int(dependent) > 0, bad) == (len(GOLDENS["cases"]), True, "[]")


# The values below are the references' own (PYTHONHASHSEED=0; none of these moves with it).
def test_codexglue_strips_python_with_c_rules_so_floor_division_cuts_the_line():
    hyp, ref = ["q = n // 2\nr = q"], [["q = n // 2\nr = q + n"]]
    glue = CodeBLEU("codexglue", language="python").corpus_score(hyp, ref)
    k4 = CodeBLEU("codebleu-0.7", language="python").corpus_score(hyp, ref)
    # CodeXGLUE's trees are of "q = n" (the rest of the line read as a // comment)
    assert (glue["syntax_match"], glue["dataflow_match"], glue.score) == (0.3333333333333333, 0.6, 0.6179924505140827)
    assert (k4["syntax_match"], k4["dataflow_match"], k4.score) == (0.42857142857142855, 0.6666666666666666, 0.6584686409902731)
    assert glue["ngram_match"] == k4["ngram_match"] == 0.7788007830714049


def test_no_reference_data_flow_weighs_zero_in_codexglue_and_one_in_codebleu_07():
    glue = CodeBLEU("codexglue", language="java").corpus_score(["return;"], ["return;"])
    k4 = CodeBLEU("codebleu-0.7", language="java").corpus_score(["return;"], ["return;"])
    assert glue["dataflow_match"] == k4["dataflow_match"] == 0
    assert (glue.score, k4.score) == (0.3053941064735807, 0.5553941064735807)
    # a one-token snippet has no 2- to 4-grams: smoothed, not 1, even against itself
    assert (glue["ngram_match"], glue["weighted_ngram_match"]) == (0.1778279410038923, 0.04374848489043043)


def test_codebleu_07_adds_match_case_type_to_the_python_keywords():
    hyp, ref = ["match x"], [["match y"]]
    glue = CodeBLEU("codexglue", language="python").corpus_score(hyp, ref)
    k4 = CodeBLEU("codebleu-0.7", language="python").corpus_score(hyp, ref)
    assert (glue["weighted_ngram_match"], k4["weighted_ngram_match"]) == (0.11892071150027214, 0.1699044244847123)
    assert (glue.score, k4.score) == (0.3171138974055986, 0.5798598256517086)


def test_statistics_merge_to_the_corpus_score_and_rescore_under_other_weights():
    case = next(c for c in CASES if c["what"] == "corpus of renames" and c["language"] == "java")
    metric = CodeBLEU("codebleu-0.7", language="java")
    seg = metric.stats(case["hyps"], case["refs"])
    whole = metric.score_stats(seg.total())
    assert whole["ngram_match"] == case["expected"]["codebleu-0.7"]["ngram_match"]
    halves = metric.stats(case["hyps"][:5], case["refs"][:5]).total() + metric.stats(case["hyps"][5:], case["refs"][5:]).total()
    assert metric.score_stats(halves).score == whole.score
    paper = CodeBLEU("codebleu-0.7", language="java", weights="0.1,0.1,0.4,0.4")
    assert paper.key == metric.key
    assert paper.score_stats(seg.total()).score == paper.corpus_score(case["hyps"], case["refs"]).score
    assert paper.score_stats(seg.total()).score != whole.score
    scores = metric.sentence_scores(case["hyps"][:2], case["refs"][:2])
    assert list(scores) == [metric.corpus_score([h], [r]).score for h, r in zip(case["hyps"][:2], case["refs"][:2])]


def test_registry_loads_each_flavour_and_the_signature_names_flavour_language_weights_grammar():
    metric = nlgmetrics.load("codebleu", flavour="codebleu-0.7", language="java")
    sig = str(metric.corpus_score(["int x = 1;"], ["int x = 1;"]).signature)
    for part in ("flavour:codebleu-0.7", "lang:java", "weights:0.25,0.25,0.25,0.25", "tree-sitter-0.22.3+tree-sitter-java-0.21.0"):
        assert part in sig
    assert nlgmetrics.load("codebleu").flavour == "codexglue"


@pytest.mark.parametrize("options", [{"flavour": "codebleu"}, {"language": "cobol"}, {"weights": "0.5,0.5"}, {"weights": "a,b,c,d"},
                                     {"weights": [0.25, 0.25, 0.25, float("nan")]}, {"weights": 1.0}, {"weights": [True, 0, 0, 0]}])
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOptionError):
        CodeBLEU(**options)


def test_a_lone_surrogate_is_a_typed_error():
    with pytest.raises(InvalidInputError, match="surrogate"):
        CodeBLEU().corpus_score(["x = '\ud800'"], ["x = 1"])


def test_empty_snippets_score_as_the_references_do():
    case = next(c for c in CASES if c["what"] == "adversarial 0 vs itself" and c["language"] == "python")
    assert case["hyps"] == [""]
    assert _parts("codexglue", case) == case["expected"]["codexglue"]


def test_a_missing_grammar_names_the_extra(monkeypatch):
    from nlgmetrics.metrics.programs import _codebleu_tree as tree

    monkeypatch.setitem(tree.GRAMMARS, "python", "tree_sitter_no_such_grammar")
    tree.parser_for.cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=r"nlgmetrics\[code\]"):
            CodeBLEU().corpus_score(["x = 1"], ["x = 1"])
    finally:
        tree.parser_for.cache_clear()


def test_cli_flags_reach_the_metric(tmp_path, capsys):
    """``score -m codebleu`` with its flags gives the API's number for the same options."""
    from nlgmetrics.cli import main

    hyps = ["int add(int a, int b) { return a + b; }", "int sub(int x, int y) { int r = x - y; return r; }"]
    refs = ["int add(int a, int b) { int s = a + b; return s; }", "int sub(int a, int b) { return a - b; }"]
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", "utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", "utf-8")
    rc = main(["score", "-m", "codebleu", "--codebleu-flavour", "codebleu-0.7", "--codebleu-language", "java",
               "--codebleu-weights", "0.1,0.2,0.3,0.4", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    record = out[0] if isinstance(out, list) else out
    expected = CodeBLEU("codebleu-0.7", language="java", weights="0.1,0.2,0.3,0.4").corpus_score(hyps, [[r] for r in refs])
    assert record["score"] == expected.score
    assert "java" in record["signature"] and "codebleu-0.7" in record["signature"]


def test_cli_choices_are_the_metrics():
    from nlgmetrics.cli import opts_codebleu
    from nlgmetrics.metrics.programs import codebleu

    assert opts_codebleu.FLAVOURS == codebleu.FLAVOURS
    assert opts_codebleu.LANGUAGES == codebleu.LANGUAGES
