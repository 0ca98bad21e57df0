"""Parity with scikit-learn 1.9 on hypothesis-generated inputs: bit-identical values
(ties, a single class, sample weights, many classes, zero weights)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import nlgmetrics.classification as C

sk = pytest.importorskip("sklearn.metrics")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same(a, b) -> None:
    """Exact equality (NaN equals NaN); None only equals None."""
    if a is None or b is None:
        assert a is None and b is None, (a, b)
        return
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_array_equal(a, b)


def both(f_ref, f_ours):
    """Run both; they must both raise (ValueError family) or agree exactly.

    Where scikit-learn lets numpy raise ZeroDivisionError (all sample weights zero), we
    raise a ValueError that says so."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = f_ref()
        except (ValueError, NotImplementedError, ZeroDivisionError):
            with pytest.raises(ValueError):
                f_ours()
            return None
        ours = f_ours()
    if isinstance(ref, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(ref)
        for x, y in zip(ref, ours):
            same(x, y)
    else:
        same(ref, ours)
    return ours


@st.composite
def binary_data(draw, max_n=60, weighted=None):
    n = draw(st.integers(1, max_n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    tie_heavy = draw(st.booleans())
    if tie_heavy:
        s = draw(st.lists(st.sampled_from([0.0, -0.0, 0.1, 0.25, 0.5, 0.9, 1.0, -2.0]), min_size=n, max_size=n))
    else:
        s = draw(st.lists(st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False), min_size=n, max_size=n))
    use_w = draw(st.booleans()) if weighted is None else weighted
    w = None
    if use_w:
        w = draw(st.lists(st.one_of(st.just(0.0), st.floats(0.01, 10.0), st.integers(1, 5).map(float)), min_size=n, max_size=n))
        w = np.array(w)
    return np.array(y), np.array(s, dtype=np.float64), w


@SETTINGS
@given(binary_data(), st.booleans())
def test_roc_curve(data, drop):
    y, s, w = data
    both(lambda: sk.roc_curve(y, s, sample_weight=w, drop_intermediate=drop), lambda: C.roc_curve(y, s, sample_weight=w, drop_intermediate=drop))


@SETTINGS
@given(binary_data(), st.booleans())
def test_precision_recall_curve(data, drop):
    y, s, w = data
    both(
        lambda: sk.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop),
        lambda: C.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop),
    )


@SETTINGS
@given(binary_data(), st.sampled_from([None, 1.0, 0.5, 0.1, 0.999]))
# no weight on the negatives: scikit-learn raises for a partial AUC
@example((np.array([0, 0, 0, 0, 0, 1]), np.zeros(6), np.array([0.0, 0, 0, 0, 0, 1])), 0.5)
# no weight on the positives: NaN
@example((np.array([0, 0, 1]), np.array([0.1, 0.2, 0.3]), np.array([1.0, 1.0, 0.0])), 0.5)
def test_roc_auc_binary(data, max_fpr):
    y, s, w = data
    both(lambda: sk.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr), lambda: C.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr))


@SETTINGS
@given(binary_data())
def test_average_precision_binary(data):
    y, s, w = data
    both(lambda: sk.average_precision_score(y, s, sample_weight=w), lambda: C.average_precision_score(y, s, sample_weight=w))


def test_pos_label_and_string_labels():
    y = np.array(["spam", "ham", "spam", "ham", "spam"])
    s = np.array([0.9, 0.2, 0.4, 0.4, 0.1])
    both(lambda: sk.roc_curve(y, s, pos_label="spam"), lambda: C.roc_curve(y, s, pos_label="spam"))
    both(lambda: sk.average_precision_score(y, s, pos_label="ham"), lambda: C.average_precision_score(y, s, pos_label="ham"))
    both(lambda: sk.roc_auc_score(y, s), lambda: C.roc_auc_score(y, s))
    yn = np.array([-1, 1, 1, -1])
    both(lambda: sk.precision_recall_curve(yn, [0.1, 0.2, 0.3, 0.4]), lambda: C.precision_recall_curve(yn, [0.1, 0.2, 0.3, 0.4]))


@st.composite
def multiclass_data(draw, max_n=80):
    k = draw(st.integers(2, 12))
    n = draw(st.integers(2, max_n))
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    p = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    w = draw(st.one_of(st.none(), st.lists(st.floats(0.0, 5.0), min_size=n, max_size=n).map(np.array)))
    return np.array(y), np.array(p), w, k


@SETTINGS
@given(multiclass_data(), st.sampled_from([None, "micro", "macro", "weighted", "binary"]), st.sampled_from(["warn", 0.0, 1.0, np.nan]), st.sampled_from([1.0, 0.5, 2.0, 0.0, np.inf]))
def test_prf_multiclass(data, average, zero_division, beta):
    y, p, w, _ = data
    both(
        lambda: sk.precision_recall_fscore_support(y, p, average=average, sample_weight=w, zero_division=zero_division, beta=beta),
        lambda: C.precision_recall_fscore_support(y, p, average=average, sample_weight=w, zero_division=zero_division, beta=beta),
    )


@SETTINGS
@given(multiclass_data())
def test_prf_labels_argument(data):
    y, p, w, k = data
    labels = [k + 1, 0, k - 1]  # an absent label and a reordering
    both(
        lambda: sk.precision_recall_fscore_support(y, p, labels=labels, average=None, sample_weight=w),
        lambda: C.precision_recall_fscore_support(y, p, labels=labels, average=None, sample_weight=w),
    )
    both(lambda: sk.f1_score(y, p, labels=labels, average="macro"), lambda: C.f1_score(y, p, labels=labels, average="macro"))


@SETTINGS
@given(multiclass_data())
def test_confusion_accuracy(data):
    y, p, w, k = data
    both(lambda: sk.confusion_matrix(y, p, sample_weight=w), lambda: C.confusion_matrix(y, p, sample_weight=w))
    both(lambda: sk.confusion_matrix(y, p, labels=list(range(k))[::-1]), lambda: C.confusion_matrix(y, p, labels=list(range(k))[::-1]))
    for norm in ("true", "pred", "all"):
        both(lambda: sk.confusion_matrix(y, p, normalize=norm), lambda: C.confusion_matrix(y, p, normalize=norm))
    both(lambda: sk.multilabel_confusion_matrix(y, p, sample_weight=w), lambda: C.multilabel_confusion_matrix(y, p, sample_weight=w))
    both(lambda: sk.accuracy_score(y, p, sample_weight=w), lambda: C.accuracy_score(y, p, sample_weight=w))
    both(lambda: sk.accuracy_score(y, p, normalize=False), lambda: C.accuracy_score(y, p, normalize=False))
    both(lambda: sk.balanced_accuracy_score(y, p, sample_weight=w), lambda: C.balanced_accuracy_score(y, p, sample_weight=w))
    both(lambda: sk.balanced_accuracy_score(y, p, adjusted=True), lambda: C.balanced_accuracy_score(y, p, adjusted=True))


def test_accuracy_weighted_count_close():
    # normalize=False with weights is np.dot (BLAS order): equal to 1e-12.
    rng = np.random.default_rng(1)
    y, p, w = rng.integers(0, 3, 999), rng.integers(0, 3, 999), rng.random(999)
    assert C.accuracy_score(y, p, normalize=False, sample_weight=w) == pytest.approx(sk.accuracy_score(y, p, normalize=False, sample_weight=w), rel=1e-12)


@st.composite
def multilabel_data(draw, max_n=50):
    k = draw(st.integers(2, 6))
    n = draw(st.integers(2, max_n))
    Y = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
    P = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
    S = np.array(draw(st.lists(st.lists(st.sampled_from([0.1, 0.2, 0.5, 0.7, 0.9]), min_size=k, max_size=k), min_size=n, max_size=n)))
    w = draw(st.one_of(st.none(), st.lists(st.floats(0.0, 3.0), min_size=n, max_size=n).map(np.array)))
    return Y, P, S, w


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multilabel_data(), st.sampled_from([None, "micro", "macro", "weighted", "samples"]), st.sampled_from(["warn", 0.0, 1.0, np.nan]))
@example((np.array([[1, 0], [0, 1]]), np.array([[1, 1], [0, 1]]), np.array([[0.1, 0.9], [0.5, 0.2]]), np.zeros(2)), "samples", "warn")
def test_multilabel(data, average, zero_division):
    Y, P, S, w = data
    both(
        lambda: sk.precision_recall_fscore_support(Y, P, average=average, sample_weight=w, zero_division=zero_division),
        lambda: C.precision_recall_fscore_support(Y, P, average=average, sample_weight=w, zero_division=zero_division),
    )
    both(lambda: sk.roc_auc_score(Y, S, average=average, sample_weight=w), lambda: C.roc_auc_score(Y, S, average=average, sample_weight=w))
    both(lambda: sk.average_precision_score(Y, S, average=average, sample_weight=w), lambda: C.average_precision_score(Y, S, average=average, sample_weight=w))
    both(lambda: sk.multilabel_confusion_matrix(Y, P, sample_weight=w), lambda: C.multilabel_confusion_matrix(Y, P, sample_weight=w))
    both(lambda: sk.multilabel_confusion_matrix(Y, P, samplewise=True, sample_weight=w), lambda: C.multilabel_confusion_matrix(Y, P, samplewise=True, sample_weight=w))
    both(lambda: sk.accuracy_score(Y, P, sample_weight=w), lambda: C.accuracy_score(Y, P, sample_weight=w))


@st.composite
def multiclass_scores(draw, max_n=80):
    k = draw(st.integers(3, 10))
    n = draw(st.integers(k, max_n))
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    y[:k] = np.arange(k)  # every class present
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(k), n)
    if draw(st.booleans()):
        P = np.round(P, 1)
        P[:, -1] = 1 - P[:, :-1].sum(axis=1)
    w = draw(st.one_of(st.none(), st.just(rng.random(n))))
    return y, P, w


@SETTINGS
@given(multiclass_scores(), st.sampled_from(["ovr", "ovo"]), st.sampled_from([None, "micro", "macro", "weighted"]))
def test_multiclass_roc_auc(data, multi_class, average):
    y, P, w = data
    ww = w if multi_class == "ovr" else None
    both(
        lambda: sk.roc_auc_score(y, P, multi_class=multi_class, average=average, sample_weight=ww),
        lambda: C.roc_auc_score(y, P, multi_class=multi_class, average=average, sample_weight=ww),
    )


@SETTINGS
@given(multiclass_scores(), st.sampled_from([None, "micro", "macro", "weighted"]))
def test_multiclass_average_precision(data, average):
    y, P, w = data
    both(lambda: sk.average_precision_score(y, P, average=average, sample_weight=w), lambda: C.average_precision_score(y, P, average=average, sample_weight=w))


def test_spec_worked_examples():
    y, p = [0, 1, 2, 0, 1, 2, 2], [0, 2, 1, 0, 0, 2, 2]
    assert C.precision_recall_fscore_support(y, p, average="macro")[:3] == pytest.approx((0.4444444, 0.5555556, 0.4888889), abs=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert C.precision_score([0, 1, 2], [0, 0, 0], average="macro", zero_division=1) == pytest.approx(0.7777778, abs=1e-6)
        assert C.f1_score([0, 0], [0, 0], zero_division=1.0) == 1.0
    yy, ss = [0, 0, 1, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.8, 0.8, 0.05]
    assert C.average_precision_score(yy, ss) == pytest.approx(0.62619, abs=1e-5)
    assert C.roc_auc_score(yy, ss, max_fpr=0.5) == pytest.approx(0.5556, abs=1e-4)
    y6 = [0, 1, 2, 2, 1, 0]
    P6 = [[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4], [0.5, 0.4, 0.1], [0.4, 0.5, 0.1]]
    both(lambda: sk.roc_auc_score(y6, P6, multi_class="ovo"), lambda: C.roc_auc_score(y6, P6, multi_class="ovo"))


def test_one_class_gives_nan_with_warning():
    with pytest.warns(C.UndefinedMetricWarning):
        assert np.isnan(C.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3]))
    with pytest.warns(C.UndefinedMetricWarning):
        assert C.average_precision_score([0, 0, 0], [0.1, 0.2, 0.3]) == 0.0


def test_results_do_not_depend_on_n_threads():
    rng = np.random.default_rng(5)
    y, s = rng.integers(0, 2, 200_000), np.round(rng.random(200_000), 3)
    ref = C.roc_curve(y, s, n_threads=1)
    for nt in (0, 2, 3):
        for a, b in zip(ref, C.roc_curve(y, s, n_threads=nt)):
            np.testing.assert_array_equal(a, b)
    Y = rng.integers(0, 2, (5000, 7))
    S = rng.random((5000, 7))
    assert C.roc_auc_score(Y, S, average=None, n_threads=1).tolist() == C.roc_auc_score(Y, S, average=None, n_threads=2).tolist()


def test_large_binary_parity():
    rng = np.random.default_rng(7)
    n = 300_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(y, 1.0), 4)
    w = rng.random(n)
    both(lambda: sk.roc_auc_score(y, s, sample_weight=w), lambda: C.roc_auc_score(y, s, sample_weight=w))
    both(lambda: sk.average_precision_score(y, s), lambda: C.average_precision_score(y, s))
    both(lambda: sk.precision_recall_curve(y, s, sample_weight=w), lambda: C.precision_recall_curve(y, s, sample_weight=w))


def test_numpy_pairwise_sum_bits():
    from nlgmetrics import _core

    rng = np.random.default_rng(3)
    for n in list(range(0, 40)) + [127, 128, 129, 255, 256, 1000, 4097, 100_003]:
        a = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)
        assert _core.np_sum(a) == np.sum(a) or (n == 0 and np.sum(a) == 0)


@st.composite
def large_scores(draw):
    """Thousands of scores (the bucketed radix sort's range, not the small-input sort):
    few distinct values, -0.0 beside 0.0, subnormals, extremes and a dense cluster."""
    n = draw(st.integers(4097, 30_000))
    seed = draw(st.integers(0, 2**32 - 1))
    kind = draw(st.sampled_from(["ties", "zeros", "extremes", "cluster", "normal"]))
    rng = np.random.default_rng(seed)
    if kind == "ties":
        s = rng.integers(0, draw(st.integers(1, 50)), n).astype(np.float64) / 7
    elif kind == "zeros":
        s = rng.choice(np.array([0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324]), n)
    elif kind == "extremes":
        s = rng.choice(np.array([1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308, 0.0, 1.0]), n)
        half = rng.random(n) < 0.5
        s[half] = rng.normal(0.0, 1e300, int(half.sum()))
    elif kind == "cluster":
        s = 0.5 + rng.integers(-3, 4, n) * np.finfo(np.float64).eps
    else:
        s = rng.normal(0.0, 1.0, n)
    y = (rng.random(n) < draw(st.sampled_from([0.01, 0.3, 0.5, 0.99]))).astype(np.int64)
    y[0], y[1] = 0, 1  # both classes
    return y, s


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(large_scores(), st.sampled_from([None, 1.0]), st.sampled_from([0, 1, 2]))
def test_roc_auc_large_unweighted(data, max_fpr, n_threads):
    y, s = data
    both(lambda: sk.roc_auc_score(y, s, max_fpr=max_fpr), lambda: C.roc_auc_score(y, s, max_fpr=max_fpr, n_threads=n_threads))


def test_roc_auc_rejects_non_finite_scores_at_any_size():
    for n in (10, 10_000):
        y = np.arange(n) % 2
        for bad in (np.nan, np.inf, -np.inf):
            s = np.linspace(0.0, 1.0, n)
            s[n // 3] = bad
            with pytest.raises(ValueError):
                C.roc_auc_score(y, s)
