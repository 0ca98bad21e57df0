"""LLM toolchain presets against goldens made by running the toolchains' own code
(scripts/goldens/make_llamafactory_goldens.py: LLaMA-Factory 0.9.5's ComputeSimilarity with
rouge-chinese 1.0.3, jieba 0.42.1, nltk 3.10.4) on WMT22 en-zh outputs and adversarial text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jieba")

from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError  # noqa: E402
from nlgmetrics.metrics.llm.llm_presets import LLAMAFACTORY_KEYS, llamafactory, llamafactory_rows  # noqa: E402

GOLDEN = Path(__file__).parent / "goldens" / "llm_presets" / "llamafactory.json"


@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_llamafactory_per_example_lists_equal(golden):
    rows = llamafactory_rows(golden["predictions"], golden["labels"])
    for j, k in enumerate(LLAMAFACTORY_KEYS):
        assert rows[:, j].tolist() == golden["score_dict"][k], k


def test_llamafactory_means_equal(golden):
    got = llamafactory(golden["predictions"], golden["labels"])
    assert got == golden["means"]
    assert list(got) == list(LLAMAFACTORY_KEYS)


def test_llamafactory_script_aggregation(golden):
    # scripts/eval_bleu_rouge.py: sum(scores) / len(scores) of the same per-example lists
    got = llamafactory(golden["predictions"], golden["labels"], aggregate="sum")
    assert got == {k: sum(golden["score_dict"][k]) / len(golden["score_dict"][k]) for k in LLAMAFACTORY_KEYS}


def test_llamafactory_threads_do_not_change_bits(golden):
    a = llamafactory_rows(golden["predictions"], golden["labels"], n_threads=1)
    b = llamafactory_rows(golden["predictions"], golden["labels"], n_threads=2)
    assert np.array_equal(a, b)


def test_llamafactory_empty_sides_score_zero():
    rows = llamafactory_rows(["", "   ", "同样"], ["有内容", "有内容", "同样"])
    assert rows[:2, :3].tolist() == [[0.0] * 3] * 2
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    bleu = sentence_bleu([list("同样")], list("同样"), smoothing_function=SmoothingFunction().method3)
    # one jieba word: F = 0.999999995 rounds to 100.0, no bigram; BLEU smoothed by method3
    assert rows[2].tolist() == [100.0, 0.0, 100.0, round(bleu * 100, 4)] == [100.0, 0.0, 100.0, 59.4604]


def test_llamafactory_errors():
    with pytest.raises(LengthMismatchError):
        llamafactory(["a"], ["a", "b"])
    with pytest.raises(InputTypeError):
        llamafactory("abc", ["a"])
    with pytest.raises(InvalidInputError):
        llamafactory([], [])
    with pytest.raises(InvalidOptionError):
        llamafactory(["a"], ["a"], aggregate="median")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "nlgmetrics", "score", *args], capture_output=True, text=True)


def test_cli_preset_on_generated_predictions(golden, tmp_path):
    f = tmp_path / "generated_predictions.jsonl"
    with f.open("w", encoding="utf-8") as out:
        for p, l in zip(golden["predictions"], golden["labels"]):
            out.write(json.dumps({"prompt": "<s>", "predict": p, "label": l}, ensure_ascii=False) + "\n")
    r = _cli("--jsonl", str(f), "--preset", "llamafactory", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["scores"] == golden["means"]
    r = _cli("--jsonl", str(f), "--preset", "llamafactory")
    assert f"rouge-l = {golden['means']['rouge-l']!r}" in r.stdout


def test_cli_preset_errors(tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text('{"prediction": "a", "references": ["a"]}\n', encoding="utf-8")
    r = _cli("--jsonl", str(f), "--preset", "llamafactory")
    assert r.returncode == 1 and '"predict" (string) and "label" (string)' in r.stderr and "Traceback" not in r.stderr
    r = _cli("--jsonl", str(f), "--preset", "nope")
    assert r.returncode == 2 and "unknown preset" in r.stderr
    r = _cli("--preset", "llamafactory", "-i", str(f), "-r", str(f))
    assert r.returncode == 2


# --- OpenCompass JiebaRougeEvaluator and LongBench's ROUGE scorer ------------------------
# goldens: scripts/goldens/make_llm_eval_goldens.py (their own code, run once)
from nlgmetrics.metrics.llm.llm_presets import general_postprocess, longbench_rouge, longbench_rouge_rows, opencompass_jieba_rouge  # noqa: E402

EVAL_GOLDEN = Path(__file__).parent / "goldens" / "llm_presets" / "opencompass_longbench.json"


@pytest.fixture(scope="module")
def eval_golden():
    return json.loads(EVAL_GOLDEN.read_text(encoding="utf-8"))


def test_opencompass_jieba_rouge_equal(eval_golden):
    oc = eval_golden["opencompass"]
    assert opencompass_jieba_rouge(oc["predictions"], oc["references"]) == oc["scores"]["wmt22+adversarial"]
    assert opencompass_jieba_rouge(*oc["first300"]) == oc["scores"]["wmt22"]
    for text, cleaned in oc["general_postprocess"].items():
        assert general_postprocess(text) == cleaned


@pytest.mark.parametrize("dataset", ["vcsum", "dureader", "gov_report", "samsum"])
def test_longbench_scorer_equal(eval_golden, dataset):
    lb = eval_golden["longbench"]
    case = lb["cases"][dataset]
    assert longbench_rouge_rows(dataset, case["predictions"], case["answers"]).tolist() == lb["per_example"][dataset]
    assert longbench_rouge(dataset, case["predictions"], case["answers"]) == lb["scores"][dataset]


def test_longbench_recursion_limit_zeroes_long_texts(eval_golden):
    # rouge 1.0.1's recursive LCS traceback raises RecursionError on long unpunctuated
    # texts; LongBench's bare except scores those 0.0 (11 of the golden's vcsum examples)
    case = eval_golden["longbench"]["cases"]["vcsum"]
    default = longbench_rouge_rows("vcsum", case["predictions"], case["answers"])
    unlimited = longbench_rouge_rows("vcsum", case["predictions"], case["answers"], recursion_limit=10**9)
    changed = np.flatnonzero(default != unlimited)
    assert len(changed) == 11 and (default[changed] == 0).all() and (unlimited[changed] > 0).all()


def test_longbench_errors():
    with pytest.raises(InvalidOptionError, match="not scored by ROUGE"):
        longbench_rouge("hotpotqa", ["a"], [["a"]])
    with pytest.raises(LengthMismatchError):
        longbench_rouge("vcsum", ["a"], [["a"], ["b"]])


def test_cli_longbench_preset(eval_golden, tmp_path):
    case = eval_golden["longbench"]["cases"]["gov_report"]
    f = tmp_path / "gov_report.jsonl"
    with f.open("w", encoding="utf-8") as out:
        for p, a in zip(case["predictions"], case["answers"]):
            out.write(json.dumps({"pred": p, "answers": a, "all_classes": None, "length": 100}) + "\n")
    r = _cli("--jsonl", str(f), "--preset", "longbench", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["scores"] == {"gov_report": eval_golden["longbench"]["scores"]["gov_report"]}
    bad = tmp_path / "gsm8k.jsonl"  # not a LongBench dataset
    bad.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    r = _cli("--jsonl", str(bad), "--preset", "longbench")
    assert r.returncode == 1 and "not one of LongBench's datasets" in r.stderr and r.stderr.count("\n") == 1


QA_GOLDEN = Path(__file__).parent / "goldens" / "qa_aggregates" / "longbench_qa.json"


@pytest.mark.parametrize("case", ["hotpotqa_coco", "triviaqa_first_line", "multifieldqa_zh_wmt22", "multifieldqa_en_duplicates"])
def test_cli_longbench_preset_qa_datasets(case, tmp_path):
    """A pred/<model>/<dataset>.jsonl of a QA dataset: eval.py's scorer value (qa_f1_score or
    qa_f1_zh_score, first line for triviaqa) from the file name, as eval.py picks it."""
    c = json.loads(QA_GOLDEN.read_text(encoding="utf-8"))["cases"][case]
    f = tmp_path / f"{c['dataset']}.jsonl"
    with f.open("w", encoding="utf-8") as out:
        for p, a in zip(c["predictions"], c["answers"]):
            out.write(json.dumps({"pred": p, "answers": a, "all_classes": None, "length": 100}, ensure_ascii=False) + "\n")
    r = _cli("--jsonl", str(f), "--preset", "longbench", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["scores"] == {c["dataset"]: c["score"]}
