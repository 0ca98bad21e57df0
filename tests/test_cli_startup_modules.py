"""Every subcommand of every console script, as a user starts it: which heavy modules its
``--help`` and its run on one-line files load. Help never loads a numeric, plotting, NLP or
ML stack; a one-line run loads only what its numbers need (numpy where the metric
computes with it, matplotlib for the report's plots), never nltk, pandas, scipy,
scikit-learn or torch. ``list`` reads the registry's table without importing a metric.

Module sets, not timings: benches/bench_startup.py measures the time (BENCHMARKS.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.cli import listing, sacrebleu_cli
from nlgmetrics.cli.main import COMMANDS, build_parser, subparsers, top_level_parser

ROOT = Path(__file__).resolve().parents[1]

# What no `--help` (or `--version`) may load.
NEVER_FOR_HELP = ["numpy", "nltk", "matplotlib", "torch", "pandas", "scipy", "sklearn", "PIL", "transformers", "punkt"]
# What no one-line run may load: the stacks none of these numbers needs.
NEVER_FOR_ONE_LINE = ["nltk", "torch", "pandas", "scipy", "sklearn", "transformers", "punkt"]

SENTENCE = "the cat sat on the mat"


def _files(d: Path) -> dict[str, str]:
    """One-line inputs of every subcommand, written to ``d``."""
    squad = {"version": "1.1", "data": [{"title": "t", "paragraphs": [{"context": SENTENCE, "qas": [
        {"id": "q1", "question": "who sat?", "answers": [{"text": "the cat", "answer_start": 0}]}]}]}]}
    cmrc = {"version": "v1.0", "data": [{"title": "t", "paragraphs": [{"id": "p", "context": "猫坐在垫子上 2008年", "qas": [
        {"id": "q1", "question": "谁坐着？", "answers": [{"text": "猫 2008", "answer_start": 0}]}]}]}]}
    texts = {
        "ref": SENTENCE + "\n", "hyp": "the cat sat on a mat\n", "hyp2": "a cat sat on the mat\n", "hyp3": "the cat sat\n",
        "human": "system\tscore\nhyp\t0.5\nhyp2\t0.7\nhyp3\t0.2\n",
        "labels.tsv": "y_true\ty_pred\n1\t1\n",
        "refs.jsonl": json.dumps({"image_id": 1, "references": [SENTENCE]}) + "\n",
        "caps.tsv": "1\tthe cat sat on a mat\n",
        "squad.json": json.dumps(squad), "squad_pred.json": json.dumps({"q1": "the cat"}),
        "cmrc.json": json.dumps(cmrc, ensure_ascii=False), "cmrc_pred.json": json.dumps({"q1": "猫 2008"}, ensure_ascii=False),
        "qrels.txt": "q1 0 d1 1\n", "run.txt": "q1 Q0 d1 1 1.5 tag\n",
        "gold.sql": "SELECT 1\tone\n", "pred.sql": "SELECT 1\n",
        "preferences.txt": "2\n",
    }
    for name, text in texts.items():
        (d / name).write_text(text, encoding="utf-8")
    (d / "db" / "one").mkdir(parents=True, exist_ok=True)
    with contextlib.closing(sqlite3.connect(d / "db" / "one" / "one.sqlite")) as db:  # one table: a 0-byte file is refused
        db.execute("CREATE TABLE t (x)")
        db.commit()
    return {name: str(d / name) for name in texts} | {"page": str(d / "page.html"), "db": str(d / "db")}


def one_line_runs(p: dict[str, str]) -> dict[str, list[str]]:
    """Each subcommand's run on one-line files (the arguments after ``nlgmetrics``)."""
    return {
        "score": ["score", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"]],
        "compare": ["compare", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"], p["hyp2"], "--paired-bs"],
        "correlate": ["correlate", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"], p["hyp2"], p["hyp3"], "--human", p["human"], "--names", "hyp", "hyp2", "hyp3"],
        "list": ["list"],
        "classify": ["classify", "-i", p["labels.tsv"]],
        "coco": ["coco", "-a", p["refs.jsonl"], "-R", p["caps.tsv"]],
        "report": ["report", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"], "-o", p["page"], "--overwrite"],
        "sacrebleu": ["sacrebleu", p["ref"], "-i", p["hyp"]],
        "squad": ["squad", p["squad.json"], p["squad_pred.json"]],
        "cmrc2018": ["cmrc2018", p["cmrc.json"], p["cmrc_pred.json"]],
        "retrieval": ["retrieval", p["qrels.txt"], p["run.txt"]],
        "sql": ["sql", "--gold", p["gold.sql"], "--pred", p["pred.sql"], "--db", p["db"]],
        "lm-eval": ["lm-eval", str(ROOT / "tests" / "goldens" / "lm_eval_folders" / "limited"), "-t", "toy_gsm"],
        "judge": ["judge", "win-rate", p["preferences.txt"]],
    }


# Every subcommand the full parser declares (a new one is covered without a line here).
PARSER_COMMANDS = tuple(subparsers(build_parser()))


# What a one-line run may load beyond the text path's modules, and why.
NEEDS = {
    "compare": {"numpy"},  # the paired resampling
    "correlate": {"numpy"},  # the correlations and their bootstrap
    "classify": {"numpy"},  # the metrics' arrays
    # squad, cmrc2018 and retrieval: none; their totals are the per-question values added in Python
    "coco": {"numpy"},  # CIDEr-D, METEOR
    "report": {"numpy", "matplotlib", "PIL"},  # the plots
    "sql": {"numpy"},  # execution_accuracy's count statistics
    "lm-eval": {"numpy"},  # the answer filters' exact_match and the stderr replay
    "judge": {"numpy"},  # alpaca_eval's win rate is pandas' float sums, replayed with numpy
}

_PROBE = """
import sys
report, script, *argv = sys.argv[1:]
sys.argv = [script, *argv]
from nlgmetrics.__main__ import run, run_sacrebleu
try:
    (run if script == "nlgmetrics" else run_sacrebleu)()
except SystemExit as e:
    code = e.code
with open(report, "w") as f:
    f.write("\\n".join([repr(code), *sorted(sys.modules)]))
"""


def _loaded(tmp_path: Path, script: str, argv: list[str], stdin: str | None = None) -> set[str]:
    """sys.modules after the console script ``script`` ran ``argv`` in a fresh interpreter
    (through its entry point, as ``[project.scripts]`` starts it); it must exit 0."""
    report = tmp_path / "modules.txt"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(report), script, *argv], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path, input=stdin)
    assert done.returncode == 0 and report.exists(), done.stderr[-2000:]
    code, *modules = report.read_text().splitlines()
    assert code in ("0", "None"), (code, done.stderr[-2000:])
    return set(modules)


def _heavy(loaded: set[str], names: list[str]) -> list[str]:
    return sorted(n for n in names if n in loaded)


def test_console_scripts_are_the_two_entry_points():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"nlgmetrics": "nlgmetrics.__main__:run", "sacrebleu-nm": "nlgmetrics.__main__:run_sacrebleu"}


def test_every_subcommand_has_a_one_line_run(tmp_path):
    assert set(one_line_runs(_files(tmp_path))) == set(PARSER_COMMANDS)


def test_every_parsers_subcommand_is_listed_by_the_top_level_parser():
    assert tuple(subparsers(top_level_parser())) == PARSER_COMMANDS == COMMANDS


@pytest.mark.parametrize("argv", [["--help"], ["--version"], *([c, "--help"] for c in PARSER_COMMANDS)], ids=lambda a: " ".join(a))
def test_help_loads_nothing_heavy(tmp_path, argv):
    loaded = _loaded(tmp_path, "nlgmetrics", argv)
    assert _heavy(loaded, NEVER_FOR_HELP) == []
    assert not any(m.startswith("nlgmetrics.metrics.") for m in loaded)  # no metric is built for help


@pytest.mark.parametrize("argv", [["--help"], ["--version"]])
def test_sacrebleu_script_help_loads_nothing_heavy(tmp_path, argv):
    loaded = _loaded(tmp_path, "sacrebleu-nm", argv)
    assert _heavy(loaded, NEVER_FOR_HELP) == []
    assert "nlgmetrics.compat.sacrebleu" not in loaded


@pytest.mark.parametrize("command", PARSER_COMMANDS)
def test_one_line_run_loads_only_what_its_numbers_need(tmp_path, command):
    if command == "coco":
        pytest.importorskip("pycocoevalcap", reason="coco's METEOR needs the [meteor] extra")
    loaded = _loaded(tmp_path, "nlgmetrics", one_line_runs(_files(tmp_path))[command])
    assert _heavy(loaded, NEVER_FOR_ONE_LINE) == []
    assert _heavy(loaded, ["numpy", "matplotlib", "PIL"]) == sorted(NEEDS.get(command, set()) & loaded)
    if command == "list":
        assert not any(m.startswith("nlgmetrics.metrics.") for m in loaded)


def test_sacrebleu_script_scores_stdin_without_numpy(tmp_path):
    p = _files(tmp_path)
    loaded = _loaded(tmp_path, "sacrebleu-nm", [p["ref"]], stdin="the cat sat on a mat\n")
    assert _heavy(loaded, [*NEVER_FOR_ONE_LINE, "numpy"]) == []  # BLEU from the core's totals
    assert "nlgmetrics.compat.sacrebleu.metrics" in loaded  # it did score


@pytest.mark.parametrize("metric", ["chrf", "ter"])
def test_sacrebleu_chrf_and_ter_need_numpy(tmp_path, metric):
    """chrF's and TER's statistics come from the core as arrays (numpy): inherent until the
    core returns their totals as BLEU's does (BENCHMARKS.md, start-up)."""
    p = _files(tmp_path)
    loaded = _loaded(tmp_path, "nlgmetrics", ["sacrebleu", p["ref"], "-i", p["hyp"], "-m", metric])
    assert _heavy(loaded, NEVER_FOR_ONE_LINE) == [] and "numpy" in loaded


def _squad_v2_files(p: dict[str, str]) -> list[str]:
    """A v2.0 dataset with an unanswerable question and a no-answer probabilities file."""
    d = Path(p["squad.json"]).parent
    data = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": SENTENCE, "qas": [
        {"id": "q1", "question": "who sat?", "answers": [{"text": "the cat", "answer_start": 0}]},
        {"id": "q2", "question": "who flew?", "answers": []}]}]}]}
    for name, doc in (("v2.json", data), ("v2_pred.json", {"q1": "the cat", "q2": ""}), ("v2_na.json", {"q1": 0.1, "q2": 0.9})):
        (d / name).write_text(json.dumps(doc), encoding="utf-8")
    return [str(d / "v2.json"), str(d / "v2_pred.json"), "--na-prob", str(d / "v2_na.json")]


# The options of the plain runs whose totals are computed without numpy: none of them loads it.
NUMPY_FREE_RUNS = {
    "squad -f json": lambda p: ["squad", p["squad.json"], p["squad_pred.json"], "-f", "json"],
    "squad v2.0 --na-prob": lambda p: ["squad", *_squad_v2_files(p)],
    "squad v2.0 --out-file": lambda p: ["squad", *_squad_v2_files(p), "-o", str(Path(p["ref"]).parent / "eval.json")],
    "cmrc2018 -f json": lambda p: ["cmrc2018", p["cmrc.json"], p["cmrc_pred.json"], "-f", "json"],
    "retrieval --per-query": lambda p: ["retrieval", p["qrels.txt"], p["run.txt"], "--per-query", "-m", "map", "P.5", "num_q", "num_rel"],
    "retrieval -f json -c": lambda p: ["retrieval", "-q", p["qrels.txt"], "-r", p["run.txt"], "-f", "json", "-c", "--per-query"],
}


@pytest.mark.parametrize("run", NUMPY_FREE_RUNS)
def test_qa_and_retrieval_runs_load_no_numpy(tmp_path, run):
    loaded = _loaded(tmp_path, "nlgmetrics", NUMPY_FREE_RUNS[run](_files(tmp_path)))
    assert _heavy(loaded, [*NEVER_FOR_ONE_LINE, "numpy"]) == []


def test_cmrc2018_with_punctuation_still_loads_nltk(tmp_path):
    """The plain-words path is a shortcut, not a change of tokenizer: text it cannot prove
    (here ``3.5``) goes through nltk."""
    p = _files(tmp_path)
    Path(p["cmrc_pred.json"]).write_text(json.dumps({"q1": "猫 3.5"}, ensure_ascii=False), encoding="utf-8")
    assert "nltk" in _loaded(tmp_path, "nlgmetrics", ["cmrc2018", p["cmrc.json"], p["cmrc_pred.json"]])


# --- the literals that stand for imports ------------------------------------------------

def test_listed_flavours_are_the_classes_flavours():
    for e in nlgmetrics.available():  # as sets: a family's flavours register in import order
        assert sorted(listing.flavours(e)) == sorted(e.flavours), e.name
    assert set(listing.FLAVOURS) == {e.name for e in nlgmetrics.available() if e.declared_flavours is None}


def test_listed_classification_functions_are_the_packages():
    import nlgmetrics.classification as classification

    functions = {n for n in classification.__all__ if callable(getattr(classification, n)) and not isinstance(getattr(classification, n), type)}
    assert set(listing.CLASSIFICATION) <= set(classification.__all__)
    assert {n for n in functions if n.endswith(("_score", "_loss", "_error", "_curve", "_matrix", "_report"))} <= set(listing.CLASSIFICATION)


def test_sacrebleu_parser_literals_are_compat_sacrebleus():
    from nlgmetrics.compat import sacrebleu
    from nlgmetrics.compat.sacrebleu.metrics import BLEU, CHRF

    assert sacrebleu_cli.VERSION == sacrebleu.__version__
    assert sacrebleu_cli.SMOOTH_METHODS == tuple(BLEU.SMOOTH_DEFAULTS)
    assert (sacrebleu_cli.CHRF_CHAR_ORDER, sacrebleu_cli.CHRF_WORD_ORDER, sacrebleu_cli.CHRF_BETA) == (CHRF.CHAR_ORDER, CHRF.WORD_ORDER, CHRF.BETA)
