"""Every JSON the command line prints carries the signature of its numbers: every
subcommand with ``-f json``, every ``score`` mode and every ``--preset``, walked from the
parser itself, so a new subcommand, mode or preset without one fails here."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from nlgmetrics.cli import main
from nlgmetrics.cli.main import build_parser, subparsers
from nlgmetrics.metrics.llm.llm_presets import PRESET_SOURCES, PRESETS

SUBCOMMANDS = subparsers(build_parser())

HYP = ["the cat sat on a mat", "a dog runs in a park", "hello world"]
HYP2 = ["the cat is on the mat", "a dog ran in park", "hello there world"]
REF = ["the cat sat on the mat", "a dog ran in the park", "hello world again"]

SQUAD = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": "Paris is the capital of France.", "qas": [
    {"id": "q1", "question": "capital?", "answers": [{"text": "Paris", "answer_start": 0}], "is_impossible": False},
    {"id": "q2", "question": "moon?", "answers": [], "is_impossible": True}]}]}]}
CMRC = {"version": "v1.0", "data": [{"paragraphs": [{"id": "p", "context": "北京是首都。", "qas": [
    {"id": "c1", "question": "首都？", "answers": [{"text": "北京", "answer_start": 0}]}]}]}]}
COCO_ANN = {"images": [{"id": 1}, {"id": 2}], "annotations": [
    {"image_id": 1, "id": 1, "caption": "a cat sits on a mat"}, {"image_id": 1, "id": 2, "caption": "the cat is on the mat"},
    {"image_id": 2, "id": 3, "caption": "a dog runs in a park"}]}
COCO_RES = [{"image_id": 1, "caption": "a cat on a mat"}, {"image_id": 2, "caption": "a dog in the park"}]
# one record per preset, in the preset's own layout (file names matter to LongBench)
PRESET_FILES = {
    "llamafactory": ("generated_predictions.jsonl", {"prompt": "…", "predict": "今天天气很好", "label": "今天天气不错"}),
    "llamafactory-script": ("generated_predictions.jsonl", {"prompt": "…", "predict": "今天天气很好", "label": "今天天气不错"}),
    "longbench": ("vcsum.jsonl", {"pred": "会议讨论了预算。", "answers": ["会议讨论了明年的预算。"], "all_classes": None, "length": 10}),
    "longbench-e": ("hotpotqa.jsonl", {"pred": "Paris", "answers": ["paris"], "all_classes": None, "length": 10}),
    "opencompass": ("oc.jsonl", {"origin_prompt": "…", "prediction": "今天天气很好。", "gold": "今天天气不错"}),
    "evalscope": ("es.jsonl", {"prediction": "The cat sat on the mat.", "answer": "The cat is on the mat."}),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("json_signature")
    for name, lines in (("hyp.txt", HYP), ("hyp2.txt", HYP2), ("ref.txt", REF)):
        (d / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (d / "human.tsv").write_text("".join(f"{s}\t{i}\t{v}\n" for s, i, v in [
        ("hyp.txt", 1, 0.5), ("hyp.txt", 2, 0.1), ("hyp.txt", 3, 0.9), ("hyp2.txt", 1, 0.3), ("hyp2.txt", 2, 0.2), ("hyp2.txt", 3, 0.7)]), encoding="utf-8")
    (d / "clf.tsv").write_text("y_true\ty_score\ty_pred\n1\t0.9\t1\n0\t0.2\t0\n1\t0.4\t0\n0\t0.6\t1\n", encoding="utf-8")
    (d / "squad.json").write_text(json.dumps(SQUAD), encoding="utf-8")
    (d / "squad_pred.json").write_text(json.dumps({"q1": "Paris", "q2": "France"}), encoding="utf-8")
    (d / "na.json").write_text(json.dumps({"q1": 0.1, "q2": 0.9}), encoding="utf-8")
    (d / "cmrc.json").write_text(json.dumps(CMRC, ensure_ascii=False), encoding="utf-8")
    (d / "cmrc_pred.json").write_text(json.dumps({"c1": "北京"}, ensure_ascii=False), encoding="utf-8")
    (d / "coco_ann.json").write_text(json.dumps(COCO_ANN), encoding="utf-8")
    (d / "coco_res.json").write_text(json.dumps(COCO_RES), encoding="utf-8")
    (d / "pairs.jsonl").write_text("".join(json.dumps({"prediction": h, "references": [r]}) + "\n" for h, r in zip(HYP, REF)), encoding="utf-8")
    (d / "d2t.jsonl").write_text("".join(json.dumps({"prediction": h, "references": [r], "table": [["name", "cat"]]}) + "\n" for h, r in zip(HYP, REF)), encoding="utf-8")
    (d / "results.jsonl").write_text("".join(json.dumps({"task_id": f"t/{i // 2}", "completion": "", "result": "passed", "passed": i % 3 == 0}) + "\n" for i in range(6)), encoding="utf-8")
    (d / "run.trec").write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 0.5 t\n", encoding="utf-8")
    (d / "qrels.trec").write_text("q1 0 d2 1\nq2 0 d3 2\n", encoding="utf-8")
    (d / "db" / "t").mkdir(parents=True)
    conn = sqlite3.connect(d / "db" / "t" / "t.sqlite")
    conn.executescript("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2);")
    conn.close()
    (d / "gold.sql").write_text("SELECT a FROM t\tt\nSELECT count(*) FROM t\tt\n", encoding="utf-8")
    (d / "pred.sql").write_text("SELECT a FROM t\nSELECT 1; DROP TABLE t\n", encoding="utf-8")
    (d / "preferences.txt").write_text("2\n1\n1.5\n2\n", encoding="utf-8")  # nlgmetrics judge
    battles = [("a", "b", "model_a"), ("a", "b", "model_b"), ("b", "c", "tie"), ("c", "a", "model_a"), ("a", "c", "model_a")]
    (d / "battles.jsonl").write_text("".join(json.dumps({"model_a": a, "model_b": b, "winner": w}) + "\n" for a, b, w in battles), encoding="utf-8")
    (d / "mqm.jsonl").write_text(json.dumps("Critical:\nno-error\nMajor:\naccuracy/mistranslation - x\nMinor:\n") + "\nnull\n", encoding="utf-8")
    for preset, (name, record) in PRESET_FILES.items():
        (d / preset).mkdir()
        (d / preset / name).write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    return d


LM_EVAL_FOLDER = Path(__file__).parent / "goldens" / "lm_eval_folders" / "limited"


def _recipes(d) -> dict[str, list[list[str]]]:
    """Command lines with JSON output, per subcommand (every score mode under "score")."""
    f = lambda name: str(d / name)  # noqa: E731
    score = ["score", "-r", f("ref.txt"), "-i", f("hyp.txt")]
    return {
        "score": [
            [*score, "-f", "json"],
            [*score, "-i", f("hyp2.txt"), "-m", "bleu", "chrf", "ter", "rouge", "-f", "json"],
            [*score, "--sentence-level", "-f", "json"],
            [*score, "--confidence", "-cin", "20", "-f", "json"],
            [*score, "--confidence", "-cin", "20", "--method", "sacrebleu", "-f", "json"],
            [*score, "--chunk-size", "2", "-f", "json"],
            ["score", "--jsonl", f("pairs.jsonl"), "-m", "bleu", "chrf", "-f", "json"],
            ["score", "--jsonl", f("d2t.jsonl"), "-m", "parent", "-f", "json"],
            ["score", "--jsonl", f("results.jsonl"), "-m", "pass_at_k", "-f", "json"],
            ["score", "--list-presets", "-f", "json"],
            *[["score", "--jsonl", str(d / p / name), "--preset", p, "-f", "json"] for p, (name, _) in PRESET_FILES.items()],
        ],
        "compare": [["compare", "-r", f("ref.txt"), "-i", f("hyp.txt"), f("hyp2.txt"), "-m", "bleu", "chrf", "--paired-bs", "-pbsn", "10", "-f", "json"],
                    ["compare", "-r", f("ref.txt"), "-i", f("hyp.txt"), f("hyp2.txt"), "--paired-ar", "-parn", "10", "-f", "json"]],
        "correlate": [["correlate", "-r", f("ref.txt"), "-i", f("hyp.txt"), f("hyp2.txt"), "--human", f("human.tsv"), "--level", "segment", "-cin", "0", "-f", "json"]],
        "classify": [["classify", "-i", f("clf.tsv"), "-f", "json"], ["classify", "-i", f("clf.tsv"), "--streaming", "binned", "-f", "json"]],
        "coco": [["coco", "-a", f("coco_ann.json"), "-R", f("coco_res.json"), "-f", "json"],
                 ["coco", "-a", f("coco_ann.json"), "-R", f("coco_res.json"), "--per-image", "-f", "json"]],
        "squad": [["squad", f("squad.json"), f("squad_pred.json"), "-f", "json"],
                  ["squad", f("squad.json"), f("squad_pred.json"), "--na-prob-file", f("na.json"), "-f", "json"]],
        "cmrc2018": [["cmrc2018", f("cmrc.json"), f("cmrc_pred.json"), "-f", "json"]],
        "retrieval": [["retrieval", "-q", f("qrels.trec"), "-r", f("run.trec"), "-f", "json"],
                      ["retrieval", "-q", f("qrels.trec"), "-r", f("run.trec"), "-m", "map", "num_rel", "--per-query", "-f", "json"]],
        "sacrebleu": [["sacrebleu", f("ref.txt"), "-i", f("hyp.txt"), "-f", "json"]],
        "sql": [["sql", "--gold", f("gold.sql"), "--pred", f("pred.sql"), "--db", f("db"), "-f", "json"],
                ["sql", "--flavour", "bird", "--gold", f("gold.sql"), "--pred", f("pred.sql"), "--db", f("db"), "--per-item", "-f", "json"]],
        "lm-eval": [["lm-eval", str(LM_EVAL_FOLDER), "-t", "toy_gsm", "-f", "json"]],
        "judge": [["judge", "win-rate", f("preferences.txt"), "-f", "json"],
                  ["judge", "bradley-terry", f("battles.jsonl"), "--baseline", "a", "--rounds", "3", "-f", "json"],
                  ["judge", "arena-hard", f("battles.jsonl"), "--baseline", "a", "--rounds", "0", "-f", "json"],
                  ["judge", "elo", f("battles.jsonl"), "-f", "json"],
                  ["judge", "mqm", f("mqm.jsonl"), "--per-segment", "-f", "json"]],
    }


def _json_outputs(capsys, argv) -> list:
    """The documents ``argv`` prints: one, or one per line (``--sentence-level``)."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, (argv, err)
    try:
        return [json.loads(out)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in out.splitlines()]


def _results(doc) -> list[dict]:
    """The result objects of one document: a list's items; compare's rows carry one per
    metric (the values that are dicts); anything else is one result."""
    if isinstance(doc, list):
        assert doc, "an empty list of results"
        return [r for item in doc for r in _results(item)]
    assert isinstance(doc, dict), doc
    if "system" in doc and "signature" not in doc and all(isinstance(v, dict) for k, v in doc.items() if k != "system"):
        return [v for k, v in doc.items() if k != "system"]
    return [doc]


def test_every_subcommand_with_json_output_has_a_recipe(tmp_path):
    """A subcommand offering ``-f json`` (or sacrebleu's own) is walked below."""
    with_json = {name for name, p in SUBCOMMANDS.items() for a in p._actions if "--format" in a.option_strings and "json" in (a.choices or ())}
    assert with_json | {"sacrebleu"} <= set(_recipes(tmp_path)), with_json - set(_recipes(tmp_path))
    assert {"score", "compare", "correlate", "classify", "coco", "squad", "cmrc2018"} <= with_json


def test_every_preset_is_walked_and_listed():
    assert set(PRESET_FILES) == set(PRESETS) == set(PRESET_SOURCES)


@pytest.mark.parametrize("command", sorted(["score", "compare", "correlate", "classify", "coco", "squad", "cmrc2018", "retrieval", "sacrebleu", "sql", "lm-eval", "judge"]))
def test_json_output_carries_a_signature(command, files, capsys):
    for argv in _recipes(files)[command]:
        for doc in _json_outputs(capsys, argv):
            for result in _results(doc):
                sig = result.get("signature")
                assert isinstance(sig, str) and "version:" in sig, (argv, result)


def test_preset_json_keeps_the_framework_numbers_under_scores(files, capsys):
    (doc,) = _json_outputs(capsys, ["score", "--jsonl", str(files / "llamafactory" / "generated_predictions.jsonl"), "--preset", "llamafactory", "-f", "json"])
    assert doc["scores"] == {"rouge-1": 40.0, "rouge-2": 0.0, "rouge-l": 40.0, "bleu-4": 50.8133}
    assert doc["signature"].startswith("preset:llamafactory|framework:llamafactory-0.9.5|tok:jieba-")
    (doc,) = _json_outputs(capsys, ["squad", str(files / "squad.json"), str(files / "squad_pred.json"), "-f", "json"])
    assert doc["scores"]["exact"] == 50.0 and doc["signature"].startswith("script:squad-evaluate-v2.0|na_prob:no|thresh:1.0|")
    (doc,) = _json_outputs(capsys, ["compare", "-r", str(files / "ref.txt"), "-i", str(files / "hyp.txt"), str(files / "hyp2.txt"), "--paired-bs", "-pbsn", "10", "-f", "json"])
    assert doc[0]["BLEU"]["signature"].startswith("nrefs:1|bs:10|seed:12345|")
