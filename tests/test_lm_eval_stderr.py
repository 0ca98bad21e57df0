"""lm_eval_stderr against lm-evaluation-harness 0.4.13's own aggregation functions (goldens made
by scripts/goldens/lm_eval_stderr_goldens.py), plus the replay of its resample stream."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.llm import lm_eval_stderr as S

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "lm_eval_stderr" / "cases.json").read_text(encoding="utf-8"))
ERRORS = {"OverflowError": InvalidInputError}


def _xs(case):
    return [tuple(x) if isinstance(x, list) else x for x in case["xs"]]


@pytest.mark.parametrize("case", GOLDENS["bootstrap"], ids=lambda c: f"{c['statistic']}-{len(c['xs'])}-{c['iters']}")
def test_bootstrap_stderr_equals_lm_eval(case):
    if "error" in case:
        with pytest.raises(ERRORS[case["error"]]):
            S.bootstrap_stderr(case["statistic"], _xs(case), case["iters"])
        return
    got = S.bootstrap_stderr(case["statistic"], _xs(case), case["iters"])
    assert got == case["stderr"] or (math.isnan(got) and math.isnan(case["stderr"]))


def test_slow_path_gives_the_same_value():
    """A function of the list (lm-eval's f) runs on the same resamples as the statistics."""
    case = next(c for c in GOLDENS["bootstrap"] if c["statistic"] == "median" and len(c["xs"]) == 37)
    xs = _xs(case)
    assert S.bootstrap_stderr(lambda a: sorted(a)[len(a) // 2], xs, case["iters"]) == case["stderr"]
    nan_xs = [float("nan")] + [float(v) for v in range(9)]  # NaN: median replays on the lists
    assert math.isnan(S.bootstrap_stderr("median", nan_xs, 1000))  # a NaN median in some resample, as lm-eval
    ints = [5, 1, 4, 1, 5, 9, 2, 6]
    assert S.bootstrap_stderr("median", ints, 2000) == S.bootstrap_stderr(lambda a: sorted(a)[len(a) // 2], ints, 2000)
    assert S.bootstrap_stderr("mean", ints, 2000) == S.bootstrap_stderr(lambda a: sum(a) / len(a), ints, 2000)
    mixed = [1, 2.5, True, np.float64(0.25)]  # mixed types: the lists themselves
    assert S.bootstrap_stderr("mean", mixed, 1000) == S.bootstrap_stderr(lambda a: sum(a) / len(a), mixed, 1000)


def test_threads_do_not_change_the_value():
    case = next(c for c in GOLDENS["bootstrap"] if c["statistic"] == "perplexity" and len(c["xs"]) == 37)
    for n_threads in (1, 2, 3):
        assert S.bootstrap_stderr("perplexity", _xs(case), case["iters"], n_threads=n_threads) == case["stderr"]
    with pytest.raises(InvalidOptionError, match="n_threads"):
        S.bootstrap_stderr("median", [1.0, 2.0], 1000, n_threads=-1)


def test_resample_indices_are_random_choices():
    xs = list(range(17))
    blocks = list(S.resample_indices(17, 2500))
    rows = np.concatenate(blocks).tolist()
    assert len(rows) == 2000  # 2 chunks of 1000; the remaining 500 are dropped, as lm-eval does
    for chunk in range(2):
        rnd = random.Random(chunk)
        assert rows[chunk * 1000 : (chunk + 1) * 1000] == [rnd.choices(xs, k=17) for _ in range(1000)]
    assert len(np.concatenate(list(S.resample_indices(5, 999)))) == 999


@pytest.mark.parametrize("case", GOLDENS["closed"][:60])
def test_closed_forms_and_groups_equal_lm_eval(case):
    xs = case["xs"]
    assert S.mean(xs) == case["mean"]
    assert S.sample_stddev(xs) == case["sample_stddev"]
    assert S.mean_stderr(xs) == case["mean_stderr"]
    assert S.pop_stddev(xs) == case["pop_stddev"]
    stderrs, sizes, metrics = case["stderrs"], case["sizes"], case["metrics"]
    assert float(S.pooled_sample_stderr(stderrs, sizes)) == case["pooled_sample_stderr"]
    assert float(S.unweighted_mean_stderr(stderrs)) == case["unweighted_mean_stderr"]
    assert float(S.combined_sample_stderr(stderrs, sizes, metrics)) == case["combined_sample_stderr"]
    assert S.aggregate_subtask_metrics(metrics, sizes) == case["weighted"]
    assert S.aggregate_subtask_metrics(metrics, sizes, weight_by_size=False) == case["unweighted"]


def test_group_aggregate_and_stderr_choice():
    g = S.group_aggregate([0.5, 0.75], [0.1, 0.2], [10, 30])
    assert g["value"] == (0.5 * 10 + 0.75 * 30) / 40 and g["sample_count"] == 40
    assert g["stderr"] == S.pooled_sample_stderr([0.1, 0.2], [10, 30])
    assert S.group_aggregate([0.5, 0.75], [0.1, 0.2], [10, 30], weight_by_size=False)["stderr"] == np.sqrt(0.1**2 + 0.2**2) / 2
    assert S.group_aggregate([0.5, 0.75], [0.1, "N/A"], [10, 30])["stderr"] == "N/A"
    assert S.stderr_for_aggregation("mean") is S.mean_stderr
    assert S.stderr_for_aggregation("weighted_perplexity") is None
    assert S.stderr_for_aggregation("median", 0) is None
    assert S.stderr_for_aggregation("median", 1000)([3.0, 1.0, 2.0]) == S.bootstrap_stderr("median", [3.0, 1.0, 2.0], 1000)
    assert S.HIGHER_IS_BETTER["acc"] is True and S.HIGHER_IS_BETTER["ter"] is False and S.HIGHER_IS_BETTER["bits_per_byte"] is False


def test_bad_input_is_typed():
    with pytest.raises(InvalidInputError, match="no values"):
        S.bootstrap_stderr("median", [], 1000)
    with pytest.raises(InvalidOptionError, match="iters"):
        S.bootstrap_stderr("median", [1.0, 2.0], 0)
    with pytest.raises(InvalidOptionError, match="unknown statistic"):
        S.bootstrap_stderr("mode", [1.0, 2.0], 1000)
    with pytest.raises(InvalidOptionError, match="rescores"):
        S.stderr_for_aggregation("bleu")
    with pytest.raises(InvalidInputError, match="binary"):
        S.bootstrap_stderr("f1", [(0, 2), (1, 1)], 1000)
    with pytest.raises(InputTypeError, match="pair"):
        S.bootstrap_stderr("matthews_corrcoef", [1, 0], 1000)
    with pytest.raises(InvalidInputError, match="continuous"):
        S.bootstrap_stderr("matthews_corrcoef", [(0.5, 1), (1, 1)], 1000)
    with pytest.raises(InvalidInputError, match="at least 2"):
        S.mean_stderr([1.0])
    with pytest.raises(LengthMismatchError):
        S.pooled_sample_stderr([0.1], [10, 20])
    with pytest.raises(InputTypeError):
        S.mean("abc")


def test_blocks_smaller_than_a_chunk_give_the_same_value(monkeypatch):
    """Large n: a chunk is drawn in several blocks, continuing the one stream."""
    case = next(c for c in GOLDENS["bootstrap"] if c["statistic"] == "nanmean" and len(c["xs"]) == 200)
    monkeypatch.setattr(S, "_ROWS_BUDGET", 200 * 7)  # 7 rows a block: 142 blocks and a rest per chunk
    got = S.bootstrap_stderr("nanmean", _xs(case), case["iters"], n_threads=1)
    assert got == case["stderr"] or (math.isnan(got) and math.isnan(case["stderr"]))
