"""LongBench's classification, retrieval, count and code datasets (trec, lsht,
passage_retrieval_en/zh, passage_count, lcc, repobench-p) against goldens made by LongBench's
own eval.py ``scorer`` / ``scorer_e`` and metrics.py with fuzzywuzzy 0.18.0 on difflib
(scripts/goldens/longbench_rest_goldens.py), and fuzz.ratio's python-Levenshtein flavour
against fuzzywuzzy with python-Levenshtein and thefuzz."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.qa.longbench_tasks import (classification_score, code_line, count_score, fuzz_ratio, longbench_task_rows,
                                                longbench_task_score, retrieval_score)

HERE = Path(__file__).parent / "goldens" / "longbench_rest"
GOLDEN = json.loads((HERE / "scorer.json").read_text(encoding="utf-8"))
CASES = GOLDEN["cases"]
LEV = json.loads((HERE / "fuzz_levenshtein.json").read_text(encoding="utf-8"))


def same(a, b) -> bool:
    """== with eval.py's NaN of an empty bucket equal to itself."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_rows_and_scorer_equal(name):
    c = CASES[name]
    assert longbench_task_rows(c["dataset"], c["predictions"], c["answers"], c["all_classes"]) == c["rows"]
    assert longbench_task_score(c["dataset"], c["predictions"], c["answers"], c["all_classes"]) == c["score"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_dispatch_and_scorer_e_equal(name):
    pytest.importorskip("jieba")
    from nlgmetrics.metrics.llm.llm_presets import longbench, longbench_e, longbench_rows

    c = CASES[name]
    assert longbench(c["dataset"], c["predictions"], c["answers"], c["all_classes"]) == c["score"]
    assert longbench_rows(c["dataset"], c["predictions"], c["answers"], c["all_classes"]).tolist() == c["rows"]
    assert same(longbench_e(c["dataset"], c["predictions"], c["answers"], c["lengths"], c["all_classes"]), c["score_e"])


def test_fuzz_ratio_difflib_equal():
    got = [fuzz_ratio(a, b) for a, b in GOLDEN["fuzz_pairs"]]
    assert got == GOLDEN["fuzz_difflib"]


def test_fuzz_ratio_levenshtein_equal_and_differs_from_difflib():
    assert LEV["fuzzywuzzy_levenshtein"] == LEV["thefuzz"]
    got = [fuzz_ratio(a, b, "levenshtein") for a, b in LEV["pairs"]]
    assert got == LEV["thefuzz"]
    assert sum(a != b for a, b in zip(got, GOLDEN["fuzz_difflib"])) == 91  # the flavours disagree: it has to be named
    assert fuzz_ratio("ab", "ba") == 50 and fuzz_ratio("ab", "ba", "levenshtein") == 50
    assert (fuzz_ratio("", ""), fuzz_ratio("a", ""), fuzz_ratio("", "a")) == (100, 0, 0)


def test_code_line_rule():
    assert code_line("\n\n```python\n# c\n// d\nx = 1\ny") == "x = 1"
    assert code_line("x = 1  # trailing comment\nz") == "z"  # any '#' in the line skips it
    assert code_line("```\n#\n//") == "" and code_line("") == ""
    assert code_line(" \nx") == " "  # only leading line breaks are stripped


def test_classification_removal_skips_the_next_name():
    classes = ["Other", "location", "Other location", "Other number"]
    # "Other" is removed (a substring of the answer), so the loop never looks at the name after
    # it, "location", which stays: 1/2, not 1 (LongBench's metrics.py gives 0.5)
    assert classification_score("Other location", "Other location", classes) == 0.5
    assert classification_score("Other number", "Other location", classes) == 0.0
    assert classification_score("Date", "Date", ["Date", "Date"]) == 0.5  # duplicates count twice


def test_retrieval_and_count_numbers():
    assert retrieval_score("Paragraph 3, 3, 03, ３", "Paragraph 3") == 0.5  # Unicode digits are numbers; "03" != "3"
    assert retrieval_score("段落12", "段落12", zh=True) == 1.0
    assert retrieval_score("nothing", "Paragraph 1") == 0.0
    assert count_score("7 or 7 or 8", 7) == 2 / 3 and count_score("seven", "7") == 0.0


def test_errors():
    with pytest.raises(InvalidInputError, match="Paragraph N"):
        longbench_task_rows("passage_retrieval_en", ["1"], [["the first one"]])
    with pytest.raises(InvalidInputError, match="all_classes"):
        longbench_task_rows("trec", ["Date"], [["Date"]], None)
    with pytest.raises(InputTypeError):
        longbench_task_rows("trec", ["Date"], [["Date"]], "Date")
    with pytest.raises(InputTypeError):
        longbench_task_rows("lcc", ["x"], [[1]])
    with pytest.raises(InputTypeError):
        longbench_task_rows("passage_count", ["1"], [[True]])
    with pytest.raises(InputTypeError):
        longbench_task_rows("lcc", "x", [["x"]])
    with pytest.raises(LengthMismatchError):
        longbench_task_rows("lcc", ["x"], [["x"], ["y"]])
    with pytest.raises(InvalidOptionError):
        longbench_task_rows("hotpotqa", ["x"], [["x"]])
    with pytest.raises(InvalidOptionError):
        longbench_task_rows("lcc", ["x"], [["x"]], flavour="rapidfuzz")
    with pytest.raises(InvalidInputError, match="divides by zero"):
        longbench_task_score("lcc", [], [])


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "nlgmetrics", "score", *args], capture_output=True, text=True)


def _write_case(folder: Path, c: dict) -> None:
    with (folder / f"{c['dataset']}.jsonl").open("w", encoding="utf-8") as f:
        for p, a, n in zip(c["predictions"], c["answers"], c["lengths"]):
            f.write(json.dumps({"pred": p, "answers": a, "all_classes": c["all_classes"], "length": n}, ensure_ascii=False) + "\n")


def test_cli_folder_every_dataset(tmp_path):
    """`--preset longbench` on eval.py's pred/<model>/ folder: its result.json, every dataset."""
    pytest.importorskip("jieba")
    names = [n for n in CASES if n == CASES[n]["dataset"]]
    for n in names:
        _write_case(tmp_path, CASES[n])
    (tmp_path / "result.json").write_text("{}", encoding="utf-8")  # not *jsonl: skipped, as eval.py does
    r = _cli("--jsonl", str(tmp_path), "--preset", "longbench", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["scores"] == {n: CASES[n]["score"] for n in sorted(names)}
    r = _cli("--jsonl", str(tmp_path), "--preset", "longbench-e", "-f", "json")
    assert r.returncode == 0, r.stderr
    # -f json writes an empty bucket's NaN as null
    assert json.loads(r.stdout)["scores"] == {n: {b: (None if v != v else v) for b, v in CASES[n]["score_e"].items()} for n in names}


def test_cli_one_file_and_errors(tmp_path):
    pytest.importorskip("jieba")
    _write_case(tmp_path, CASES["trec_removal_skip"])
    r = _cli("--jsonl", str(tmp_path / "trec.jsonl"), "--preset", "longbench")
    assert r.returncode == 0 and r.stdout.startswith(f"trec = {CASES['trec_removal_skip']['score']!r}\npreset:longbench|"), r.stderr
    bad = tmp_path / "passage_retrieval_en.jsonl"
    bad.write_text(json.dumps({"pred": "1", "answers": ["no paragraph"], "all_classes": None}) + "\n", encoding="utf-8")
    r = _cli("--jsonl", str(bad), "--preset", "longbench")
    assert r.returncode == 1 and "Paragraph N" in r.stderr and str(bad) in r.stderr and r.stderr.count("\n") == 1
    classes = tmp_path / "lsht.jsonl"  # a class list of numbers: a data error naming the file
    classes.write_text(json.dumps({"pred": "1", "answers": ["体育"], "all_classes": [1, 2], "length": 1}) + "\n", encoding="utf-8")
    for preset in ("longbench", "longbench-e"):
        r = _cli("--jsonl", str(classes), "--preset", preset)
        assert r.returncode == 1 and str(classes) in r.stderr and "all_classes" in r.stderr and r.stderr.count("\n") == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _cli("--jsonl", str(empty), "--preset", "longbench")
    assert r.returncode == 1 and "no *.jsonl" in r.stderr and r.stderr.count("\n") == 1


def test_levenshtein_ratio_lcs_equals_dynamic_programming():
    """The bit-parallel LCS behind the levenshtein flavour against the textbook table, on
    generated strings past one machine word (small alphabets: many equal characters)."""
    import random

    from nlgmetrics.metrics.qa.longbench_tasks import _indel_ratio

    def lcs(a, b):
        row = [0] * (len(b) + 1)
        for ca in a:
            prev = 0
            for j, cb in enumerate(b, 1):
                prev, row[j] = row[j], prev + 1 if ca == cb else max(row[j], row[j - 1])
        return row[-1]

    rng = random.Random(7)
    for _ in range(40):
        a = "".join(rng.choice("ab c中") for _ in range(rng.randint(1, 150)))
        b = "".join(rng.choice("abd中") for _ in range(rng.randint(1, 150)))
        total = len(a) + len(b)
        assert _indel_ratio(a, b) == 1.0 - (total - 2 * lcs(a, b)) / total
