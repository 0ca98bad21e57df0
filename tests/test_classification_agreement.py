"""MCC, Cohen's kappa and the Brier score against scikit-learn 1.9.1 (``==``), and the
calibration errors (ECE / RMS / MCE) against torchmetrics 1.9.0, on generated labels and
probabilities with their edge cases; mergeable statistics; typed errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nlgmetrics import classification as C
from nlgmetrics.errors import IncompatibleStatsError, InvalidInputError, InvalidOptionError, NlgMetricsError

sk = pytest.importorskip("sklearn.metrics")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


def same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@st.composite
def label_pairs(draw):
    k = draw(st.integers(1, 5))
    n = draw(st.integers(1, 40))
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    mode = draw(st.sampled_from(["random", "all-correct", "all-wrong", "constant"]))
    if mode == "all-correct":
        p = list(y)
    elif mode == "all-wrong":
        p = [(v + 1) % max(k, 2) for v in y]
    elif mode == "constant":
        p = [y[0]] * n
    else:
        p = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    w = draw(st.one_of(st.none(), st.lists(st.floats(0.01, 10), min_size=n, max_size=n)))
    names = draw(st.sampled_from([None, ["a", "b", "c", "d", "e"]]))
    if names:
        y, p = [names[v] for v in y], [names[v] for v in p]
    return y, p, w


@SETTINGS
@given(label_pairs())
def test_mcc_equals_sklearn(data):
    y, p, w = data
    assert same(C.matthews_corrcoef(y, p, sample_weight=w), quiet(sk.matthews_corrcoef, y, p, sample_weight=w))


@SETTINGS
@given(label_pairs(), st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_equals_sklearn(data, weights):
    y, p, w = data
    want = quiet(sk.cohen_kappa_score, y, p, weights=weights, sample_weight=w)
    assert same(quiet(C.cohen_kappa_score, y, p, weights=weights, sample_weight=w), want)


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.5, 1.0, 0.25]) | st.floats(0, 1)), min_size=1, max_size=40),
       st.booleans(), st.sampled_from(["auto", True, False]))
def test_binary_brier_equals_sklearn(rows, weighted, half):
    y = [r[0] for r in rows]
    p = [r[1] for r in rows]
    w = [1.0 + i % 3 for i in range(len(rows))] if weighted else None
    want = quiet(sk.brier_score_loss, y, p, sample_weight=w, scale_by_half=half)
    assert C.brier_score_loss(y, p, sample_weight=w, scale_by_half=half) == want


@SETTINGS
@given(st.integers(2, 5), st.integers(1, 30), st.integers(0, 2**32 - 1), st.booleans())
def test_multiclass_brier_equals_sklearn(k, n, seed, weighted):
    r = np.random.default_rng(seed)
    y = np.r_[np.arange(k), r.integers(0, k, n)]
    P = r.random((n + k, k))
    P /= P.sum(axis=1, keepdims=True)
    w = r.random(n + k) + 0.1 if weighted else None
    for half in ("auto", True, False):
        assert C.brier_score_loss(y, P, sample_weight=w, scale_by_half=half) == sk.brier_score_loss(y, P, sample_weight=w, scale_by_half=half)


def test_confusion_matrix_statistics_merge():
    # MCC and kappa are functions of the confusion matrix, which adds across shards
    r = np.random.default_rng(5)
    y, p = r.integers(0, 4, 300), r.integers(0, 4, 300)
    parts = [C.confusion_matrix(y[i:i + 100], p[i:i + 100], labels=[0, 1, 2, 3]) for i in range(0, 300, 100)]
    total = sum(parts)
    assert C.mcc_from_confusion(total) == sk.matthews_corrcoef(y, p)
    for weights in (None, "linear", "quadratic"):
        assert C.kappa_from_confusion(total, weights=weights) == sk.cohen_kappa_score(y, p, weights=weights)
    sc = C.StreamingConfusion([0, 1, 2, 3])
    for i in range(0, 300, 100):
        sc.update(y[i:i + 100], p[i:i + 100])
    assert C.mcc_from_confusion(sc.matrix(sc.state)) == sk.matthews_corrcoef(y, p)


def test_agreement_edge_cases_and_errors():
    assert C.matthews_corrcoef([1, 1, 1], [1, 1, 1]) == sk.matthews_corrcoef([1, 1, 1], [1, 1, 1]) == 0.0
    assert C.matthews_corrcoef([0, 1, 2], [0, 1, 2]) == 1.0
    assert math.isnan(quiet(C.cohen_kappa_score, [1, 1], [1, 1]))
    with pytest.raises(InvalidInputError):
        C.matthews_corrcoef([[0, 1], [1, 0]], [[0, 1], [1, 1]])  # multilabel, as scikit-learn
    with pytest.raises(InvalidOptionError):
        C.cohen_kappa_score([0, 1], [0, 1], weights="cubic")
    for bad in ([0.2, float("nan")], [0.2, 1.5], [-0.1, 0.3]):
        with pytest.raises(InvalidInputError):
            C.brier_score_loss([0, 1], bad)
    with pytest.raises(InvalidInputError):
        C.brier_score_loss([0, 1, 2], [0.2, 0.3, 0.4])  # three classes, one column
    with pytest.raises(NlgMetricsError):
        C.matthews_corrcoef([0, 1], [0])


# -- calibration: torchmetrics ---------------------------------------------------------
torch = pytest.importorskip("torch")
tmf = pytest.importorskip("torchmetrics.functional.classification")


def tm_binary(p, y, n_bins, norm):
    return float(tmf.binary_calibration_error(torch.tensor(np.asarray(p, dtype=np.float64)), torch.tensor(np.asarray(y)), n_bins=n_bins, norm=norm))


def tm_multiclass(P, y, k, n_bins, norm):
    return float(tmf.multiclass_calibration_error(torch.tensor(P), torch.tensor(np.asarray(y)), num_classes=k, n_bins=n_bins, norm=norm))


@st.composite
def binary_probs(draw):
    n_bins = draw(st.sampled_from([1, 2, 3, 5, 10, 15, 16]))
    n = draw(st.integers(1, 50))
    kind = draw(st.sampled_from(["random", "edges", "ones", "one-bin"]))
    seed = draw(st.integers(0, 2**32 - 1))
    r = np.random.default_rng(seed)
    if kind == "edges":  # exactly on bin edges (torchmetrics' boundaries for these n_bins)
        p = C.calibration.bin_boundaries(n_bins)[r.integers(0, n_bins + 1, n)]
    elif kind == "ones":
        p = np.where(r.random(n) < 0.5, 1.0, r.random(n))
    elif kind == "one-bin":  # every other bin empty
        p = np.full(n, 0.5 / n_bins)
    else:
        p = r.random(n)
    y = r.integers(0, 2, n) if draw(st.booleans()) else (p >= 0.5).astype(int)
    return p, y, n_bins


# torchmetrics sums the bins with torch.sum, whose reduction order is its own; the bins
# themselves (boundaries, members, sums added one after the other) are the same, so the
# values agree to the last bits of that final sum
TOL64 = 1e-12
TOL32 = 2e-6


@SETTINGS
@given(binary_probs(), st.sampled_from(["l1", "l2", "max"]))
def test_binary_calibration_error_matches_torchmetrics(data, norm):
    p, y, n_bins = data
    got = C.binary_calibration_error(y, p, n_bins=n_bins, norm=norm)
    want = tm_binary(p, y, n_bins, norm)
    assert abs(got - want) <= TOL64, (got, want)
    if norm == "max":
        assert got == want  # no final sum: identical


@SETTINGS
@given(st.integers(2, 5), st.integers(1, 40), st.sampled_from([1, 2, 5, 10, 15]), st.integers(0, 2**32 - 1), st.sampled_from(["l1", "l2", "max"]))
def test_multiclass_calibration_error_matches_torchmetrics(k, n, n_bins, seed, norm):
    r = np.random.default_rng(seed)
    P = r.random((n, k))
    P /= P.sum(axis=1, keepdims=True)
    y = r.integers(0, k, n)
    got = C.multiclass_calibration_error(y, P, num_classes=k, n_bins=n_bins, norm=norm)
    assert abs(got - tm_multiclass(P, y, k, n_bins, norm)) <= TOL32


@SETTINGS
@given(binary_probs(), st.sampled_from(["l1", "l2", "max"]), st.integers(1, 4))
def test_streaming_calibration_merges_exactly(data, norm, shards):
    p, y, n_bins = data
    cuts = np.array_split(np.arange(len(p)), shards)
    metrics = [C.StreamingCalibration(n_bins=n_bins, norm=norm).update(y[c], p[c]) for c in cuts]
    states = [m.state for m in metrics]
    forward = sum(states)
    backward = sum(reversed(states))
    assert forward == backward  # exact sums: the order of merging does not matter
    whole = C.StreamingCalibration(n_bins=n_bins, norm=norm).update(y, p)
    a = metrics[0].score_state(forward).score
    assert a == whole.compute().score
    assert abs(a - C.binary_calibration_error(y, p, n_bins=n_bins, norm=norm)) <= TOL64


def test_calibration_edge_cases_and_errors():
    # torchmetrics' doc example
    p, y = [0.25, 0.25, 0.55, 0.75, 0.75], [0, 0, 1, 1, 1]
    assert round(C.binary_calibration_error(y, p, n_bins=2, norm="l1"), 4) == 0.29
    assert round(C.binary_calibration_error(y, p, n_bins=2, norm="max"), 4) == 0.3167
    # perfectly calibrated: all-correct with confidence 1
    assert C.binary_calibration_error([1, 1, 0], [1.0, 1.0, 0.0]) == tm_binary([1.0, 1.0, 0.0], [1, 1, 0], 15, "l1")
    for bad in ([0.1, float("nan")], [0.1, 1.2], [-0.5, 0.1]):
        with pytest.raises(InvalidInputError):
            C.binary_calibration_error([0, 1], bad)
    with pytest.raises(InvalidInputError):
        C.binary_calibration_error([0, 2], [0.1, 0.2])
    with pytest.raises(InvalidInputError):
        C.multiclass_calibration_error([2], [[0.5, 0.5]], num_classes=2)
    with pytest.raises(InvalidOptionError):
        C.binary_calibration_error([0], [0.1], norm="l3")
    with pytest.raises(InvalidOptionError):
        C.binary_calibration_error([0], [0.1], n_bins=0)
    with pytest.raises(InvalidInputError):
        C.StreamingCalibration().compute()
    a = C.StreamingCalibration(n_bins=5).update([0], [0.2])
    b = C.StreamingCalibration(n_bins=5, norm="max").update([1], [0.3])
    with pytest.raises(IncompatibleStatsError):
        a.state + b.state
    with pytest.raises(IncompatibleStatsError):
        a.merge(b)
