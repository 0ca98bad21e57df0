"""tasks.lm_eval_folder: lm-eval 0.4.13's own output folders (tests/goldens/lm_eval_folders,
made by running it) rebuilt from their samples files key by key; the Open LLM Leaderboard
v2 normalisation on a constructed run with known values."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from nlgmetrics.errors import InvalidInputError
from nlgmetrics.tasks.lm_eval_folder import find_run, rescore_folder, task_values
from nlgmetrics.tasks.open_llm_leaderboard import leaderboard_scores, normalize_within_range

GOLDENS = Path(__file__).parent / "goldens" / "lm_eval_folders"
FOLDERS = ["mixed", "limited"]


def _copy(tmp_path: Path, name: str = "mixed") -> tuple[Path, Path]:
    dest = tmp_path / name
    shutil.copytree(GOLDENS / name, dest)
    model = next(p for p in dest.iterdir() if p.is_dir())
    return dest, model


def _edit(path: Path, change) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        change(row)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


@pytest.mark.parametrize("name", FOLDERS)
def test_results_and_groups_equal_lm_evals_file_key_by_key(name):
    scores = rescore_folder(GOLDENS / name)
    assert scores.differences == []
    assert scores.results == scores.run.results["results"]
    assert scores.groups == scores.run.results["groups"]
    assert list(scores.results["toy_mc_a"]) == list(scores.run.results["results"]["toy_mc_a"])  # lm-eval's key order


def test_known_values_of_the_mixed_run():
    r = rescore_folder(GOLDENS / "mixed").results
    assert r["toy_mc_a"]["acc,none"] == 0.325 and r["toy_mc_a"]["acc_stderr,none"] == 0.07499999999999998
    assert r["toy_gsm"]["exact_match,strict-match"] == 0.3
    assert r["toy_gsm"]["exact_match,flexible-extract"] == 0.7333333333333333
    assert r["toy_lambada"]["perplexity_stderr,none"] == 40673.94021119783  # the bootstrap replayed
    assert r["toy_ppl"]["word_perplexity,none"] == 2.724625479187406
    assert r["toy_ppl"]["bits_per_byte_stderr,none"] == "N/A"
    assert r["toy_group"]["acc_norm,none"] == 0.33641304347826084


def test_group_weighting_is_read_off_the_file():
    scores = rescore_folder(GOLDENS / "mixed")
    assert scores.weight_by_size == {"toy_group/acc": True, "toy_group/acc_norm": False}
    forced = rescore_folder(GOLDENS / "mixed", group_config={"toy_group": {"acc_norm": True}})
    assert [d[:2] for d in forced.differences] == [("results.toy_group", "acc_norm,none"), ("results.toy_group", "acc_norm_stderr,none"),
                                                    ("groups.toy_group", "acc_norm,none"), ("groups.toy_group", "acc_norm_stderr,none")]
    assert forced.groups["toy_group"]["acc_norm,none"] == (0.325 * 40 + 0.34782608695652173 * 23) / 63


def test_multiple_choice_and_exact_match_come_from_the_responses_not_the_logged_values(tmp_path):
    dest, model = _copy(tmp_path)

    def lie(row):
        for key in ("acc", "acc_norm", "exact_match"):
            if key in row:
                row[key] = 1.0 - row[key]

    for task in ("toy_mc_a", "toy_mc_b", "toy_gsm"):
        _edit(next(model.glob(f"samples_{task}_*.jsonl")), lie)
    assert rescore_folder(dest).differences == []


def test_changed_loglikelihoods_change_the_numbers_and_name_the_keys(tmp_path):
    dest, model = _copy(tmp_path)

    def flip(row):
        if row["doc_id"] == 0:
            gold = "-1000.0" if row["acc"] == 1.0 else "1000.0"  # logged as strings
            row["filtered_resps"] = [[gold if i == int(row["target"]) else x[0], x[1]] for i, x in enumerate(row["filtered_resps"])]

    _edit(next(model.glob("samples_toy_mc_a_*.jsonl")), flip)
    where = {(d[0], d[1]) for d in rescore_folder(dest).differences}
    assert ("results.toy_mc_a", "acc,none") in where and ("groups.toy_group", "acc,none") in where
    assert not any(w == "results.toy_gsm" for w, _ in where)


def test_malformed_samples_line_names_file_and_line(tmp_path):
    dest, model = _copy(tmp_path)
    path = next(model.glob("samples_toy_gsm_*.jsonl"))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = lines[4][:30] + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=rf"{path.name}:5: not JSON"):
        rescore_folder(dest)


def test_missing_field_is_named(tmp_path):
    dest, model = _copy(tmp_path)
    path = next(model.glob("samples_toy_lambada_*.jsonl"))
    _edit(path, lambda row: row.pop("perplexity") if row["doc_id"] == 2 else None)
    with pytest.raises(InvalidInputError, match=r'samples_toy_lambada_.*:3: missing "perplexity"'):
        rescore_folder(dest)


def test_unknown_task_names_the_known_ones():
    with pytest.raises(InvalidInputError, match=r"unknown task 'toy_nope'; this run has: toy_group, toy_gsm, toy_lambada, toy_mc_a, toy_mc_b, toy_ppl$"):
        rescore_folder(GOLDENS / "mixed", tasks=["toy_nope"])
    group = rescore_folder(GOLDENS / "mixed", tasks=["toy_group"])  # a group: its subtasks
    assert list(group.results) == ["toy_mc_a", "toy_mc_b", "toy_group"] and group.differences == []


def test_missing_samples_file_and_empty_folder(tmp_path):
    dest, model = _copy(tmp_path)
    next(model.glob("samples_toy_ppl_*.jsonl")).unlink()
    with pytest.raises(InvalidInputError, match=r"no samples file for task 'toy_ppl' \(run lm-eval with --log_samples\)"):
        rescore_folder(dest)
    with pytest.raises(InvalidInputError, match="no results_"):
        rescore_folder(tmp_path / "mixed" / "..")
    assert rescore_folder(dest, tasks=["toy_gsm"]).results["toy_gsm"]["exact_match,strict-match"] == 0.3


def test_a_results_file_or_the_model_folder_is_accepted():
    run = find_run(GOLDENS / "mixed")
    assert find_run(run.results_path).results_path == run.results_path
    assert find_run(run.results_path.parent).samples == run.samples


def test_bootstrap_iters_override():
    r = rescore_folder(GOLDENS / "mixed", bootstrap_iters=0).results
    assert r["toy_lambada"]["perplexity_stderr,none"] == "N/A" and r["toy_mc_a"]["acc_stderr,none"] == "N/A"


# -- Open LLM Leaderboard v2 -------------------------------------------------------------------
def test_normalisation_as_the_leaderboard_page():
    assert normalize_within_range(0.6, 0.25) == pytest.approx(46.666666666666664)  # the page's GPQA example, 46.67
    assert normalize_within_range(0.2, 0.25) == 0.0
    assert normalize_within_range(0.5, 0.0) == 50.0


def test_leaderboard_scores_known_values():
    results = {
        "leaderboard_bbh_a": {"acc_norm,none": 0.75}, "leaderboard_bbh_b": {"acc_norm,none": 0.1},
        "leaderboard_musr_x": {"acc_norm,none": 0.5}, "leaderboard_musr_y": {"acc_norm,none": 0.6},
        "leaderboard_gpqa": {"acc_norm,none": 0.4}, "leaderboard_mmlu_pro": {"acc,none": 0.55},
        "leaderboard_math_hard": {"exact_match,none": 0.125},
        "leaderboard_ifeval": {"prompt_level_strict_acc,none": 0.5, "inst_level_strict_acc,none": 0.75},
    }
    board = leaderboard_scores(results, {"leaderboard_bbh_a": 2, "leaderboard_bbh_b": 4, "leaderboard_musr_x": 2, "leaderboard_musr_y": 5})
    assert board["leaderboard_bbh"] == (50.0 + 0.0) / 2
    assert board["leaderboard_musr"] == (0.0 + (0.6 - 0.2) / 0.8 * 100) / 2
    assert board["leaderboard_gpqa"] == (0.4 - 0.25) / 0.75 * 100
    assert board["leaderboard_mmlu_pro"] == (0.55 - 0.1) / 0.9 * 100
    assert board["leaderboard_math_hard"] == 12.5
    assert board["leaderboard_ifeval"] == 62.5
    six = [board[t] for t in ("leaderboard_bbh", "leaderboard_gpqa", "leaderboard_ifeval", "leaderboard_math_hard", "leaderboard_mmlu_pro", "leaderboard_musr")]
    assert board["average"] == sum(six) / 6
    with pytest.raises(InvalidInputError, match="leaderboard_gpqa"):
        leaderboard_scores({k: v for k, v in results.items() if k != "leaderboard_gpqa"}, {"leaderboard_bbh_a": 2, "leaderboard_bbh_b": 4, "leaderboard_musr_x": 2, "leaderboard_musr_y": 5})


# -- paired significance between two runs ------------------------------------------------------
def test_compare_pairs_on_doc_id(tmp_path):
    from nlgmetrics.tasks.lm_eval_compare import compare_folders

    same, skipped = compare_folders(GOLDENS / "mixed", GOLDENS / "mixed", tasks=["toy_mc_a"])
    assert [(r.metric, r.n_paired, r.score_a, r.score_b, r.p_value) for r in same] == [("acc", 40, 0.325, 0.325, 1 / 1001), ("acc_norm", 40, 0.325, 0.325, 1 / 1001)]  # sacrebleu's +1 rule: never 1
    assert skipped == [] and same[0].signature.startswith("lm-eval-paired|statistic:document-mean|bs:1000|seed:12345|")
    dest, model = _copy(tmp_path)
    path = next(model.glob("samples_toy_mc_a_*.jsonl"))

    def right_and_shuffled(row):  # every document right in B, and doc 0 dropped
        row["filtered_resps"] = [["0.0" if i == int(row["target"]) else "-50.0", x[1]] for i, x in enumerate(row["filtered_resps"])]

    _edit(path, right_and_shuffled)
    rows = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(reversed(rows[1:])), encoding="utf-8")  # order must not matter: paired on doc_id
    better, _ = compare_folders(GOLDENS / "mixed", dest, tasks=["toy_mc_a"], test="ar", n_samples=2000)
    acc = better[0]
    assert (acc.n_paired, acc.only_a, acc.only_b, acc.score_b) == (39, 1, 0, 1.0)
    run = find_run(GOLDENS / "mixed")
    values = task_values(run.samples["toy_mc_a"], run.results["configs"]["toy_mc_a"], "toy_mc_a")[("acc", "none")]
    assert acc.score_a == pytest.approx(sum(values[1:]) / 39, abs=1e-15)  # A on the 39 paired documents
    assert acc.p_value < 0.001


def test_compare_skips_non_mean_metrics_and_names_unknown_tasks():
    from nlgmetrics.tasks.lm_eval_compare import compare_folders

    rows, skipped = compare_folders(GOLDENS / "mixed", GOLDENS / "limited", tasks=["toy_ppl"])
    assert rows == [] and skipped[0] == "toy_ppl: word_perplexity,none (aggregation weighted_perplexity)"
    with pytest.raises(InvalidInputError, match="unknown task 'nope'; both runs have: toy_gsm"):
        compare_folders(GOLDENS / "mixed", GOLDENS / "limited", tasks=["nope"])


def test_logged_pairs_with_matthews_and_f1_aggregations(tmp_path):
    """A task whose per-document values are lm-eval's (gold, pred) pairs: mcc and f1 as
    lm-eval aggregates them (scikit-learn's numbers), their bootstrap stderr replayed."""
    from sklearn.metrics import f1_score, matthews_corrcoef

    from nlgmetrics.metrics.llm.lm_eval_stderr import bootstrap_stderr

    model = tmp_path / "out" / "m"
    model.mkdir(parents=True)
    pairs = [(1, 1), (0, 0), (1, 0), (0, 0), (1, 1), (0, 1), (1, 1), (0, 0), (1, 0)]
    rows = [{"doc_id": i, "doc": {}, "target": str(g), "filter": "none", "mcc": [g, p], "f1": [g, p]} for i, (g, p) in enumerate(pairs)]
    (model / "samples_cls_T.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    config = {"output_type": "multiple_choice", "metric_list": [{"metric": "mcc"}, {"metric": "f1"}]}
    (model / "results_T.json").write_text(json.dumps({"results": {"cls": {"alias": "cls"}}, "configs": {"cls": config},
                                                      "config": {"bootstrap_iters": 3000}}), encoding="utf-8")
    r = rescore_folder(tmp_path / "out").results["cls"]
    golds, preds = [g for g, _ in pairs], [p for _, p in pairs]
    assert r["mcc,none"] == matthews_corrcoef(golds, preds)
    assert r["f1,none"] == f1_score(golds, preds)  # lm-eval: np.max of the binary F1
    assert r["mcc_stderr,none"] == bootstrap_stderr("matthews_corrcoef", pairs, 3000)
    assert r["f1_stderr,none"] == bootstrap_stderr("f1", pairs, 3000)


def test_a_tasks_own_process_results_is_not_second_guessed(tmp_path):
    """MATH-hard's exact_match comes from its own answer check: the logged values are kept
    (a plain exact_match of the generation would differ); its own aggregation is named."""
    model = tmp_path / "out" / "m"
    model.mkdir(parents=True)
    rows = [{"doc_id": i, "doc": {}, "target": "\\frac{1}{2}", "filter": "none", "resps": [["$0.5$"]], "filtered_resps": ["$0.5$"],
             "exact_match": v} for i, v in enumerate([1, 1, 0, 1])]
    (model / "samples_math_T.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    config = {"output_type": "generate_until", "process_results": "def process_results(doc, results):\n    ...\n",
              "metric_list": [{"metric": "exact_match", "aggregation": "mean"}]}
    results = {"results": {"math": {"alias": "math"}}, "configs": {"math": config}, "config": {"bootstrap_iters": 10}}
    (model / "results_T.json").write_text(json.dumps(results), encoding="utf-8")
    assert rescore_folder(tmp_path / "out").results["math"]["exact_match,none"] == 0.75
    config["metric_list"] = [{"metric": "exact_match", "aggregation": "def my_agg(items):\n    return 1\n"}]
    (model / "results_T.json").write_text(json.dumps(results), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"exact_match,none: aggregation .my_agg \(the task's own function\). is not re-scored here"):
        rescore_folder(tmp_path / "out")
