"""WMT24's meta-evaluation numbers: soft pairwise accuracy and tie-calibrated pairwise
accuracy, against goldens made by running google-research/mt-metrics-eval itself
(scripts/goldens/meta_pairwise_goldens.py), plus their input rules and bounds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics.engines import meta
from nlgmetrics.engines.meta_pairwise import pairwise_p_values, soft_pairwise_accuracy, tie_calibrated_accuracy
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, LengthMismatchError, NlgMetricsError, ResourceLimitError

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "meta_pairwise" / "wmt24.json").read_text())
EXACT = os.environ.get("NLGMETRICS_EXACT_GOLDENS") == "1"


@pytest.mark.parametrize("case", GOLDENS["spa"], ids=lambda c: f"{len(c['human'])}x{len(c['human'][0])}")
def test_spa_equals_mt_metrics_eval(case):
    ours = soft_pairwise_accuracy(case["metric"], case["human"], num_permutations=case["num_permutations"])
    if case["exact_everywhere"] or EXACT:
        assert ours == case["spa"]
    else:
        # float32 sums of real-valued scores: a CPU with other BLAS kernels may move a p-value by
        # a permutation or two, in the reference as in ours (docs/meta-evaluation.md)
        assert abs(ours - case["spa"]) <= 3 / case["num_permutations"]


def test_the_spa_goldens_cover_what_they_claim():
    cases = GOLDENS["spa"]
    assert sum(c["exact_everywhere"] for c in cases) >= 5
    assert any(None in row for c in cases for row in c["human"])
    assert {c["num_permutations"] for c in cases} >= {1000, 37}
    assert len({c["spa"] for c in cases}) > 20  # the goldens are not one value


@pytest.mark.parametrize("case", GOLDENS["tie_calibrated"], ids=lambda c: f"{c['variant']}-{c['average_by']}-{len(c['human'])}x{len(c['human'][0])}")
def test_tie_calibration_equals_mt_metrics_eval(case):
    ours = tie_calibrated_accuracy(case["metric"], case["human"], variant=case["variant"], average_by=case["average_by"],
                                   sample_rate=case["sample_rate"], seed=case["seed"])
    assert ours.value == case["value"]
    assert ours.threshold == case["threshold"]
    assert len(ours.thresholds) == case["n_thresholds"] == len(ours.values)
    if case["thresholds"] is not None:
        assert ours.thresholds == case["thresholds"]
        assert ours.values == case["values"]


def test_the_tie_goldens_cover_what_they_claim():
    cases = GOLDENS["tie_calibrated"]
    assert {(c["variant"], c["average_by"]) for c in cases} == {(v, a) for v in ("acc23", "23") for a in ("item", "sys", "none")}
    assert any(c["sample_rate"] < 1 for c in cases)
    assert any(None in row for c in cases for row in c["metric"])
    assert any(c["threshold"] > 0 for c in cases) and any(c["threshold"] == 0 for c in cases)


def test_a_metric_that_is_the_human_scores_agrees_perfectly():
    rng = np.random.default_rng(1)
    human = rng.integers(-25, 1, size=(5, 40)).astype(float)
    assert soft_pairwise_accuracy(human, human) == 1.0
    # every pair is concordant or tied on both sides at threshold 0
    assert tie_calibrated_accuracy(human, human).value == 1.0


def test_p_values_fill_the_upper_triangle_only():
    p = pairwise_p_values([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [3.0, 2.0, 1.0]], num_permutations=100)
    assert np.isnan(p[np.tril_indices(3)]).all()
    assert ((p[np.triu_indices(3, 1)] >= 0) & (p[np.triu_indices(3, 1)] <= 1)).all()
    assert p[0, 1] < 0.2  # system 0 is clearly above system 1


def test_tie_calibration_threshold_zero_is_plain_pairwise_accuracy():
    human = [[3.0, 1.0, 2.0, 2.0]]
    metric = [[0.9, 0.1, 0.5, 0.45]]
    result = tie_calibrated_accuracy(metric, human, average_by="none")
    # pairs: (3,1)c (3,2)c (3,2)c (1,2)c (1,2)c (2,2): human tie, metric not -> 5/6 at 0
    assert result.thresholds[0] == 0.0 and result.values[0] == 5 / 6
    # calling the 0.05 difference a tie makes every pair right
    assert result.value == 1.0 and result.threshold == pytest.approx(0.05)


def test_a_vector_is_one_row():
    assert tie_calibrated_accuracy([0.1, 0.2, 0.3], [1.0, 2.0, 3.0], average_by="none").value == 1.0
    with pytest.raises(InvalidInputError, match="average_by='none'"):
        tie_calibrated_accuracy([0.1, 0.2, 0.3], [1.0, 2.0, 3.0])


def test_spa_refuses_missing_scores_that_would_misalign_segments():
    human = [[1.0, None, 3.0, 4.0], [2.0, 2.0, None, 1.0]]
    with pytest.raises(InvalidInputError, match="segment 1"):
        soft_pairwise_accuracy([[1, 2, 3, 4], [4, 3, 2, 1]], human)
    # the same segment missing for every system is left out, as the reference filters it
    whole = [[1.0, None, 3.0, 4.0], [2.0, None, 5.0, 1.0]]
    assert soft_pairwise_accuracy([[1, 9, 3, 4], [2, -9, 5, 1]], whole) == soft_pairwise_accuracy([[1, 3, 4], [2, 5, 1]], [[1.0, 3.0, 4.0], [2.0, 5.0, 1.0]])


@pytest.mark.parametrize("call, error", [
    (lambda: soft_pairwise_accuracy([[1.0, 2.0]], [[1.0, 2.0]]), InvalidInputError),
    (lambda: soft_pairwise_accuracy([[1.0, 2.0], [1.0, 2.0]], [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), LengthMismatchError),
    (lambda: soft_pairwise_accuracy([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], num_permutations=0), InvalidOptionError),
    (lambda: soft_pairwise_accuracy([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], num_permutations=True), InvalidOptionError),
    (lambda: soft_pairwise_accuracy([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], seed=-1), InvalidOptionError),
    (lambda: soft_pairwise_accuracy([[1.0, float("nan")], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]), InvalidInputError),
    (lambda: soft_pairwise_accuracy([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, float("inf")]]), InvalidInputError),
    (lambda: tie_calibrated_accuracy([[1.0, 2.0]], [[1.0, 2.0]], variant="b"), InvalidOptionError),
    (lambda: tie_calibrated_accuracy([[1.0, 2.0]], [[1.0, 2.0]], average_by="segment"), InvalidOptionError),
    (lambda: tie_calibrated_accuracy([[1.0, 2.0]], [[1.0, 2.0]], sample_rate=0.5), InvalidOptionError),
    (lambda: tie_calibrated_accuracy([[1.0, 2.0]], [[1.0, 2.0]], sample_rate=0.0, seed=1), InvalidOptionError),
    (lambda: tie_calibrated_accuracy([[1.0, 2.0]], [[1.0, 2.0, 3.0]]), LengthMismatchError),
    (lambda: tie_calibrated_accuracy([[None, 2.0]], [[1.0, None]], average_by="none"), InvalidInputError),
    (lambda: tie_calibrated_accuracy([["a", 2.0]], [[1.0, 2.0]]), NlgMetricsError),
])
def test_bad_input_is_a_typed_error(call, error):
    with pytest.raises(error):
        call()


def test_sizes_past_the_bounds_are_refused_before_allocating():
    with pytest.raises(ResourceLimitError):
        soft_pairwise_accuracy(np.zeros((2, 10**6)), np.zeros((2, 10**6)), num_permutations=10**6)
    with pytest.raises(ResourceLimitError):  # 9000 scores in one row: 40 million pairs
        tie_calibrated_accuracy(np.arange(9000.0), np.arange(9000.0), average_by="none")


def test_engines_meta_offers_both():
    assert meta.soft_pairwise_accuracy is soft_pairwise_accuracy
    assert meta.tie_calibrated_accuracy is tie_calibrated_accuracy
