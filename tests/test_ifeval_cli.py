"""``nlgmetrics score -m ifeval --jsonl samples_ifeval_*.jsonl``: lm-eval's ifeval samples
file rescored (goldens made by scripts/goldens/ifeval_goldens.py running lm-eval 0.4.13)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("langdetect")
pytest.importorskip("nltk")

from nlgmetrics.metrics.llm.ifeval import IFEval, read_ifeval_samples  # noqa: E402

SAMPLES = Path(__file__).parent / "goldens" / "ifeval" / "samples_ifeval_generated.jsonl"


def run_cli(argv, capsys) -> tuple[int, str, str]:
    from nlgmetrics.cli.main import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_scores_an_lm_eval_ifeval_samples_file(capsys):
    r = read_ifeval_samples(SAMPLES)
    code, out, err = run_cli(["score", "-m", "ifeval", "--ifeval-score", "inst_level_loose_acc", "--jsonl", SAMPLES, "-f", "json"], capsys)
    assert code == 0, err
    row = json.loads(out)[0]
    flat = [v for sub in r.logged["inst_level_loose_acc"] for v in sub]
    assert row["score"] == row["inst_level_loose_acc"] == sum(flat) / len(flat)
    assert row["prompt_level_strict_acc"] == sum(r.logged["prompt_level_strict_acc"]) / 120
    assert (row["documents"], row["logged_mismatches"]) == (120, 0)
    assert row["signature"].startswith("score:inst_level_loose_acc|langdetect-seed:0|")
    code, out, err = run_cli(["score", "-m", "ifeval", "--jsonl", SAMPLES, "-sl", "-f", "json"], capsys)
    assert code == 0, err
    assert [json.loads(line)["score"] for line in out.splitlines()] == [float(v) for v in r.logged["prompt_level_strict_acc"]]


def test_cli_bad_files_are_one_line_data_errors(tmp_path, capsys):
    bad = tmp_path / "samples_bad.jsonl"
    bad.write_text(SAMPLES.read_text(encoding="utf-8").splitlines()[0] + '\n{"doc_id": 1}\n', encoding="utf-8")
    code, out, err = run_cli(["score", "-m", "ifeval", "--jsonl", bad], capsys)
    assert code == 1 and 'samples_bad.jsonl:2: missing "doc"' in err and len(err.strip().splitlines()) == 1
    rec = json.loads(SAMPLES.read_text(encoding="utf-8").splitlines()[0])
    rec["doc"]["instruction_id_list"][0] = "no:such"
    bad.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    code, out, err = run_cli(["score", "-m", "ifeval", "--jsonl", bad], capsys)
    assert code == 1 and "samples_bad.jsonl:1" in err and "unknown instruction 'no:such'" in err
    code, out, err = run_cli(["score", "-m", "ifeval", "-i", bad, "-r", bad], capsys)
    assert code == 2


def test_registered_with_its_kind_and_extras():
    import nlgmetrics as nm

    entry = {e.name: e for e in nm.available()}["ifeval"]
    assert (entry.kind, entry.extras) == ("ifeval", ("ifeval", "nltk"))
    assert nm.IFEval is IFEval
