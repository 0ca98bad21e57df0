"""``nlgmetrics lm-eval``: lm-eval 0.4.13's own printed tables and results files (the
folders under tests/goldens/lm_eval_folders, made by running it), exit codes, the Open LLM
Leaderboard v2 preset on a constructed run with known values."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from nlgmetrics.cli.main import main

GOLDENS = Path(__file__).parent / "goldens" / "lm_eval_folders"


@pytest.mark.parametrize("name", ["mixed", "limited"])
def test_table_is_the_one_lm_eval_printed(name, capsys):
    assert main(["lm-eval", str(GOLDENS / name)]) == 0
    assert capsys.readouterr().out == (GOLDENS / name / "table.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["mixed", "limited"])
def test_json_is_results_and_groups_key_by_key(name, capsys):
    assert main(["lm-eval", str(GOLDENS / name), "-f", "json", "--check"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (path,) = (GOLDENS / name).glob("*/results_*.json")
    file = json.loads(path.read_text(encoding="utf-8"))
    assert doc["results"] == file["results"] and doc["groups"] == file["groups"]
    assert doc["differences"] == []
    assert doc["signature"].startswith("lm-eval-folder|ref:lm-eval-0.4.13|bootstrap_iters:100000|version:")


def test_check_exits_1_naming_each_differing_key(tmp_path, capsys):
    dest = tmp_path / "run"
    shutil.copytree(GOLDENS / "mixed", dest)
    (path,) = dest.glob("*/results_*.json")
    file = json.loads(path.read_text(encoding="utf-8"))
    file["results"]["toy_gsm"]["exact_match,strict-match"] = 0.5
    path.write_text(json.dumps(file), encoding="utf-8")
    assert main(["lm-eval", str(dest), "--check"]) == 1
    captured = capsys.readouterr()
    assert captured.err == "results.toy_gsm: exact_match,strict-match: results file 0.5, re-scored 0.3\n"
    assert "|           |       |strict-match    |     0|exact_match    |↑  |    0.3000|" in captured.out  # the table is re-scored


def test_data_errors_exit_1_with_one_line(tmp_path, capsys):
    dest = tmp_path / "run"
    shutil.copytree(GOLDENS / "limited", dest)
    (samples,) = dest.glob("*/samples_toy_mc_b_*.jsonl")
    lines = samples.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = "{not json\n"
    samples.write_text("".join(lines), encoding="utf-8")
    assert main(["lm-eval", str(dest), "-f", "json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and f"{samples}:3: not JSON" in captured.err
    assert main(["lm-eval", str(GOLDENS / "limited"), "-t", "nope"]) == 1
    err = capsys.readouterr().err
    assert "unknown task 'nope'; this run has: toy_group, toy_gsm, toy_lambada, toy_mc_a, toy_mc_b, toy_ppl" in err
    assert main(["lm-eval", str(tmp_path / "missing")]) == 1
    assert "no such file or folder" in capsys.readouterr().err


def test_usage_errors_exit_2(capsys):
    assert main(["lm-eval"]) == 2
    assert main(["lm-eval", str(GOLDENS / "mixed"), "--bootstrap-iters", "-1"]) == 2
    assert main(["lm-eval", str(GOLDENS / "mixed"), "--preset", "nope"]) == 2
    capsys.readouterr()


def test_bootstrap_iters_flag_is_in_the_signature(capsys):
    assert main(["lm-eval", str(GOLDENS / "mixed"), "-t", "toy_lambada", "--bootstrap-iters", "0", "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["results"]["toy_lambada"]["perplexity_stderr,none"] == "N/A"
    assert "|bootstrap_iters:0|" in doc["signature"]


# -- the Open LLM Leaderboard v2 preset on a constructed run -----------------------------------
def _mc_task(model: Path, task: str, n_choices: int, correct: int, n: int, *, list_choices: bool) -> dict:
    """A multiple-choice task whose first ``correct`` documents pick the gold choice."""
    rows = []
    for i in range(n):
        gold = i % n_choices
        lls = [-5.0] * n_choices
        lls[gold if i < correct else (gold + 1) % n_choices] = -1.0
        args = {f"gen_args_{j}": {"arg_0": f"q{i}", "arg_1": f" ({chr(65 + j)})"} for j in range(n_choices)}
        acc = 1.0 if i < correct else 0.0
        rows.append({"doc_id": i, "doc": {"q": i}, "target": str(gold), "arguments": args,
                     "resps": [[[str(x), False]] for x in lls], "filtered_resps": [[str(x), False] for x in lls],
                     "filter": "none", "metrics": ["acc_norm"], "acc_norm": acc})
    (model / f"samples_{task}_T.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    config = {"task": task, "output_type": "multiple_choice", "target_delimiter": " ",
              "doc_to_choice": [f"({chr(65 + j)})" for j in range(n_choices)] if list_choices else "{{choices}}",
              "metric_list": [{"metric": "acc_norm", "aggregation": "mean", "higher_is_better": True}]}
    return config


def _leaderboard_run(tmp_path: Path) -> Path:
    model = tmp_path / "out" / "model"
    model.mkdir(parents=True)
    configs = {
        "leaderboard_bbh_sports_understanding": _mc_task(model, "leaderboard_bbh_sports_understanding", 2, 6, 8, list_choices=True),  # 0.75
        "leaderboard_bbh_geometric_shapes": _mc_task(model, "leaderboard_bbh_geometric_shapes", 11, 0, 5, list_choices=True),  # 0.0
        "leaderboard_musr_murder_mysteries": _mc_task(model, "leaderboard_musr_murder_mysteries", 2, 3, 4, list_choices=False),  # 0.75
        "leaderboard_musr_object_placements": _mc_task(model, "leaderboard_musr_object_placements", 5, 3, 5, list_choices=False),  # 0.6
        "leaderboard_gpqa_main": _mc_task(model, "leaderboard_gpqa_main", 4, 2, 5, list_choices=False),  # 0.4
        "leaderboard_mmlu_pro": _mc_task(model, "leaderboard_mmlu_pro", 10, 11, 20, list_choices=False),  # acc below
    }
    configs["leaderboard_mmlu_pro"]["metric_list"] = [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}]
    (mmlu,) = model.glob("samples_leaderboard_mmlu_pro_*.jsonl")
    mmlu.write_text(mmlu.read_text(encoding="utf-8").replace('"acc_norm"', '"acc"'), encoding="utf-8")  # 11/20 = 0.55
    math_rows = [{"doc_id": i, "doc": {}, "target": str(i), "arguments": {"gen_args_0": {"arg_0": "p", "arg_1": {}}},
                  "resps": [[str(i) if i < 1 else "x"]], "filtered_resps": [str(i) if i < 1 else "x"], "filter": "none",
                  "metrics": ["exact_match"], "exact_match": 1.0 if i < 1 else 0.0} for i in range(8)]  # 0.125
    (model / "samples_leaderboard_math_algebra_hard_T.jsonl").write_text("".join(json.dumps(r) + "\n" for r in math_rows), encoding="utf-8")
    configs["leaderboard_math_algebra_hard"] = {"output_type": "generate_until", "metric_list": [{"metric": "exact_match", "aggregation": "mean"}]}
    docs = [({"instruction_id_list": ["punctuation:no_comma", "change_case:english_lowercase"], "kwargs": [{}, {}], "prompt": "p"}, r)
            for r in ("all lower no commas", "Upper, with commas", "lower, but a comma", "the quick brown fox jumps over the lazy dog and runs away")]  # prompt 2/4, inst 5/8
    if_rows = [{"doc_id": i, "doc": d, "target": "0", "arguments": {"gen_args_0": {"arg_0": "p", "arg_1": {}}}, "resps": [[r]],
                "filtered_resps": [r], "filter": "none", "metrics": ["prompt_level_strict_acc", "inst_level_strict_acc"],
                "prompt_level_strict_acc": False, "inst_level_strict_acc": [False, False]} for i, (d, r) in enumerate(docs)]
    (model / "samples_leaderboard_ifeval_T.jsonl").write_text("".join(json.dumps(r) + "\n" for r in if_rows), encoding="utf-8")
    configs["leaderboard_ifeval"] = {"output_type": "generate_until", "metric_list": [
        {"metric": "prompt_level_strict_acc", "aggregation": "mean"}, {"metric": "inst_level_strict_acc", "aggregation": "<function agg_inst_level_acc>"}]}
    groups = {"leaderboard_gpqa": {"alias": "leaderboard_gpqa", "acc_norm,none": 0.4, "acc_norm_stderr,none": 0.1},
              "leaderboard_math_hard": {"alias": "leaderboard_math_hard", "exact_match,none": 0.125, "exact_match_stderr,none": 0.1}}
    results = {"results": {t: {"alias": t} for t in configs} | groups, "groups": groups, "configs": configs,
               "group_subtasks": {"leaderboard_gpqa": ["leaderboard_gpqa_main"], "leaderboard_math_hard": ["leaderboard_math_algebra_hard"]},
               "config": {"bootstrap_iters": 0}}
    (model / "results_T.json").write_text(json.dumps(results), encoding="utf-8")
    return tmp_path / "out"


def test_open_llm_leaderboard_v2_preset_known_values(tmp_path, capsys):
    out = _leaderboard_run(tmp_path)
    assert main(["lm-eval", str(out), "--preset", "open-llm-leaderboard-v2", "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    bbh = ((0.75 - 0.5) / 0.5 * 100 + 0.0) / 2  # 1/2 and 1/11 baselines; 0.0 < 1/11 clips to 0
    musr = ((0.75 - 0.5) / 0.5 * 100 + (0.6 - 0.2) / 0.8 * 100) / 2
    gpqa = (0.4 - 0.25) / 0.75 * 100
    mmlu = (0.55 - 0.1) / 0.9 * 100
    ifeval = (5 / 8 * 100 + 2 / 4 * 100) / 2
    expected = {"leaderboard_bbh": bbh, "leaderboard_gpqa": gpqa, "leaderboard_ifeval": ifeval,
                "leaderboard_math_hard": 12.5, "leaderboard_mmlu_pro": mmlu, "leaderboard_musr": musr}
    expected["average"] = sum(expected.values()) / 6
    assert doc["scores"] == pytest.approx(expected, rel=1e-15, abs=0)
    assert doc["preset"] == "open-llm-leaderboard-v2" and doc["source"].endswith("open_llm_leaderboard/normalization")
    assert main(["lm-eval", str(out), "--preset", "open-llm-leaderboard-v2"]) == 0
    text = capsys.readouterr().out
    assert f"average                {expected['average']:8.4f}\n" in text


def test_preset_without_a_leaderboard_task_is_a_data_error(capsys):
    assert main(["lm-eval", str(GOLDENS / "mixed"), "--preset", "open-llm-leaderboard-v2"]) == 1
    assert "open-llm-leaderboard-v2: the run has no leaderboard_bbh_* subtask" in capsys.readouterr().err


def test_compare_prints_one_row_per_task_metric_and_json(capsys):
    a, b = str(GOLDENS / "mixed"), str(GOLDENS / "limited")
    assert main(["lm-eval", a, "--compare", b, "-t", "toy_gsm"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "| Tasks |     Filter     |  Metric   |  A   |  B   |p-value|paired|A only|B only|"
    assert out[2].startswith("|toy_gsm|strict-match    |exact_match|0.2222|0.1111|")  # the 9 documents both runs have
    assert out[-1].startswith("paired bootstrap: lm-eval-paired|statistic:document-mean|bs:1000|seed:12345|")
    assert main(["lm-eval", a, "--compare", b, "-t", "toy_ppl", "-f", "json", "--test", "ar"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["comparisons"] == [] and len(doc["skipped"]) == 3 and "signature" in doc
    assert main(["lm-eval", a, "--compare", b, "--check"]) == 2
    assert main(["lm-eval", a, "--compare", b, "--n-samples", "0"]) == 2
    capsys.readouterr()
