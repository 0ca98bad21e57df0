"""LongBench-E (``eval.py --e``, ``scorer_e``): the per-dataset length buckets "0-4k", "4-8k",
"8k+" against the goldens of scripts/goldens/make_qa_aggregate_goldens.py (LongBench's own
eval.py run as a program, and its result.json)."""
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jieba")

from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError  # noqa: E402
from nlgmetrics.metrics.llm.llm_presets import longbench_e  # noqa: E402
from nlgmetrics.metrics.qa.longbench_qa import LONGBENCH_E_BUCKETS, LongBenchQA, longbench_e_bucket, longbench_e_buckets, longbench_qa_f1_rows  # noqa: E402

GOLDEN = json.loads((Path(__file__).parent / "goldens" / "qa_aggregates" / "longbench_e.json").read_text(encoding="utf-8"))
CASES = GOLDEN["cases"]


def same(a, b) -> bool:
    """== with eval.py's NaN of an empty bucket equal to itself (JSON text of both)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_scorer_e_equal(name):
    c = CASES[name]
    got = longbench_e(c["dataset"], c["predictions"], c["answers"], c["lengths"])
    assert list(got) == list(LONGBENCH_E_BUCKETS)
    assert same(got, c["scorer_e"]), (got, c["scorer_e"])


def test_golden_covers_edges_and_empty_buckets():
    lengths = {n for c in CASES.values() for n in c["lengths"]}
    assert {3999, 4000, 7999, 8000, 3999.5, 7999.999} <= lengths
    assert sum(math.isnan(v) for c in CASES.values() for v in c["scorer_e"].values()) >= 8
    assert any(p == "" for c in CASES.values() for p in c["predictions"])


@pytest.mark.parametrize("name", ["hotpotqa_coco", "multifieldqa_zh_wmt22", "multifieldqa_en_adversarial", "triviaqa_short_only"])
def test_buckets_from_per_example_rows(name):
    """The Python face on per-example scores: the functional rows and the metric's statistics."""
    c = CASES[name]
    m = LongBenchQA(dataset=c["dataset"])
    stats_rows = m.stats(c["predictions"], c["answers"]).sums[:, 0]
    assert same(longbench_e_buckets(stats_rows, c["lengths"]), c["scorer_e"])
    rows = longbench_qa_f1_rows(c["predictions"], c["answers"], zh=m.flavour == "zh", first_line=m.first_line)
    assert same(longbench_e_buckets(rows, c["lengths"]), c["scorer_e"])


def test_bucket_edges():
    assert [longbench_e_bucket(n) for n in (-1, 0, 3999, 3999.999, 4000, 4000.0, 7999, 7999.5, 8000, 8000.0, float("inf"), 10**12)] == \
        ["0-4k"] * 4 + ["4-8k"] * 4 + ["8k+"] * 4


def test_numpy_mean_and_numpy_round():
    # eval.py: round(100 * np.mean(bucket), 2) -- numpy's pairwise sum and the np.float64's
    # own round (x * 100, rint, / 100), which differs from Python's round of the same double
    rng = random.Random(5)
    scores = [rng.random() for _ in range(1000)]
    got = longbench_e_buckets(scores, [0] * 1000)["0-4k"]
    assert got == float(round(100 * np.mean(scores), 2))
    x = 0.83765  # 100 * x = 83.765: numpy rounds it to 83.76, Python to 83.77
    assert (round(np.float64(100 * x), 2), round(100 * x, 2)) == (83.76, 83.77)
    assert longbench_e_buckets([x], [0])["0-4k"] == 83.76


@pytest.mark.parametrize("seed", range(6))
def test_random_lengths_match_bucketed_scorer(seed):
    """Generated mixed-script text and lengths at the edges: each bucket is the existing
    per-example F1 of its examples, their numpy mean, as scorer_e buckets them."""
    rng = random.Random(seed)
    pieces = ["the", "A", "北京", "是", "首都", "，", "。", "ＡＢＣ", "１２３", " ", "\t", "\n", "", "Paris", "1889", "“q”"]
    n = rng.randint(1, 60)
    text = lambda: "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))  # noqa: E731
    preds = [text() for _ in range(n)]
    answers = [[text() for _ in range(rng.randint(1, 3))] for _ in range(n)]
    lengths = [rng.choice([3999, 4000, 7999, 8000, rng.randint(0, 20000)]) for _ in range(n)]
    for dataset in ("hotpotqa", "multifieldqa_zh", "triviaqa"):
        got = longbench_e(dataset, preds, answers, lengths)
        m = LongBenchQA(dataset=dataset)
        rows = longbench_qa_f1_rows(preds, answers, zh=m.flavour == "zh", first_line=m.first_line)
        for b, lo, hi in (("0-4k", -math.inf, 4000), ("4-8k", 4000, 8000), ("8k+", 8000, math.inf)):
            picked = [r for r, k in zip(rows, lengths) if lo <= k < hi]
            want = round(100 * np.mean(picked), 2) if picked else float("nan")
            assert same(got[b], float(want))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "nlgmetrics", "score", *args], capture_output=True, text=True)


def _write(path, preds, answers, lengths, **extra):
    with path.open("w", encoding="utf-8") as f:
        for p, a, n in zip(preds, answers, lengths):
            f.write(json.dumps({"pred": p, "answers": a, "all_classes": None, "length": n, **extra}, ensure_ascii=False) + "\n")


def test_cli_preset_equals_result_json(tmp_path):
    """`--preset longbench-e` on each pred_e/<model>/<dataset>.jsonl: together eval.py --e's result.json."""
    result = {}
    for c in CASES.values():
        if not c["predictions"]:
            continue
        f = tmp_path / f"{c['dataset']}.jsonl"
        _write(f, c["predictions"], c["answers"], c["lengths"])
        r = _cli("--jsonl", str(f), "--preset", "longbench-e", "-f", "json")
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        assert doc["preset"] == "longbench-e" and doc["signature"].startswith("preset:longbench-e|framework:longbench-v1|")
        result.update({k: {b: float("nan") if v is None else v for b, v in buckets.items()} for k, buckets in doc["scores"].items()})
    assert same(result, json.loads(GOLDEN["result_json"]))
    c = CASES["triviaqa_short_only"]  # eval.py's dictionary of that dataset; its NaN (no example in a bucket) is JSON's null
    r = _cli("--jsonl", str(tmp_path / "triviaqa.jsonl"), "--preset", "longbench-e", "-f", "json")
    strict = {b: None if v != v else v for b, v in c["scorer_e"].items()}
    assert json.loads(r.stdout)["scores"] == {"triviaqa": strict} and None in strict.values() and "NaN" not in r.stdout


def test_cli_preset_errors(tmp_path):
    good = tmp_path / "hotpotqa.jsonl"
    _write(good, ["Paris", "x"], [["paris"], ["y"]], [10, 5000])
    r = _cli("--jsonl", str(good), "--preset", "longbench-e")
    assert r.returncode == 0 and r.stdout.startswith("hotpotqa = {'0-4k': 100.0, '4-8k': 0.0, '8k+': nan}\npreset:longbench-e|")
    unknown = tmp_path / "gsm8k.jsonl"  # not a LongBench dataset
    unknown.write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    cases = {unknown: "not one of LongBench's datasets"}
    noclasses = tmp_path / "trec.jsonl"  # classification reads the records' all_classes
    noclasses.write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    cases[noclasses] = "needs all_classes"
    nolen = tmp_path / "musique.jsonl"
    nolen.write_text(json.dumps({"pred": "a", "answers": ["a"], "all_classes": None}) + "\n", encoding="utf-8")
    cases[nolen] = 'no "length"'
    strlen = tmp_path / "qasper.jsonl"
    _write(strlen, ["a"], [["a"]], ["4000"])
    cases[strlen] = "a length must be a number"
    boollen = tmp_path / "narrativeqa.jsonl"
    _write(boollen, ["a"], [["a"]], [True])
    cases[boollen] = "a length must be a number"
    empty = tmp_path / "2wikimqa.jsonl"
    empty.write_text("\n", encoding="utf-8")
    cases[empty] = "no example"
    for f, msg in cases.items():
        r = _cli("--jsonl", str(f), "--preset", "longbench-e")
        assert r.returncode == 1 and msg in r.stderr and r.stderr.count("\n") == 1, (f.name, r.stderr)


def test_api_errors():
    with pytest.raises(LengthMismatchError):
        longbench_e_buckets([0.5, 0.5], [1])
    with pytest.raises(LengthMismatchError):
        longbench_e("hotpotqa", ["a"], [["a"]], [1, 2])
    with pytest.raises(InputTypeError):
        longbench_e_buckets([0.5], ["1"])
    with pytest.raises(InputTypeError):
        longbench_e_buckets([0.5], [None])
    with pytest.raises(InputTypeError):
        longbench_e_buckets(["0.5"], [1])
    with pytest.raises(InputTypeError):
        longbench_e_buckets("0.5", "1")
    with pytest.raises(InvalidInputError, match="NaN"):
        longbench_e_buckets([0.5], [float("nan")])
    with pytest.raises(InvalidOptionError):
        longbench_e("gsm8k", ["a"], [["a"]], [1])
    with pytest.raises(InputTypeError):
        longbench_e("hotpotqa", "a", [["a"]], [1])
    assert same(longbench_e("qasper", [], [], []), {b: float("nan") for b in LONGBENCH_E_BUCKETS})  # scorer_e of nothing
