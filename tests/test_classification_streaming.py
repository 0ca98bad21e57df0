"""Streaming states: merge properties, sharding invariance, pickling, the histogram's
error bounds, and StreamingConfusion on Stats."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics.classification as C
from nlgmetrics.errors import IncompatibleStatsError

sk = pytest.importorskip("sklearn.metrics")


@st.composite
def stream(draw):
    n = draw(st.integers(2, 80))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1
    s = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 1.0]) | st.floats(0, 1), min_size=n, max_size=n)))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    return y, s, cuts


def shards(y, s, cuts):
    bounds = [0, *cuts, len(y)]
    return [(y[a:b], s[a:b]) for a, b in zip(bounds, bounds[1:])]


@settings(max_examples=60, deadline=None)
@given(stream())
def test_exact_table_equals_sklearn_for_any_sharding(data):
    y, s, cuts = data
    states = [C.ExactCurves().batch_state(a, b) for a, b in shards(y, s, cuts)]
    total = sum(states)
    assert total == sum(reversed(states))  # commutative
    if len(states) >= 3:
        assert (states[0] + states[1]) + states[2] == states[0] + (states[1] + states[2])
    assert total + C.ScoreTable() == total  # identity
    m = C.ExactCurves()
    m.state = pickle.loads(pickle.dumps(total))
    r = m.compute()
    assert r.score == sk.roc_auc_score(y, s)
    assert r.average_precision == sk.average_precision_score(y, s)
    for a, b in zip(m.roc_curve(), sk.roc_curve(y, s)):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(m.precision_recall_curve(), sk.precision_recall_curve(y, s)):
        np.testing.assert_array_equal(a, b)


@settings(max_examples=60, deadline=None)
@given(stream(), st.sampled_from([1, 3, 10, 100, 1000]))
def test_histogram_error_bounds_hold(data, n_bins):
    y, s, cuts = data
    m = C.BinnedCurves(n_bins=n_bins)
    parts = [C.BinnedCurves(n_bins=n_bins).update(a, b) for a, b in shards(y, s, cuts)]
    for p in parts:
        m.merge(p)
    r = m.compute()
    exact_auc, exact_ap = sk.roc_auc_score(y, s), sk.average_precision_score(y, s)
    assert abs(r.score - exact_auc) <= r.auc_error_bound + 1e-12
    assert abs(r.average_precision - exact_ap) <= r.ap_error_bound + 1e-12


def test_histogram_converges_and_is_exact_on_bin_grid():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200_000)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.15), 0, 1)
    exact = sk.roc_auc_score(y, s)
    r = C.BinnedCurves(n_bins=1 << 16).update(y, s).compute()
    assert abs(r.score - exact) <= r.auc_error_bound < 1e-4
    assert abs(r.average_precision - sk.average_precision_score(y, s)) <= r.ap_error_bound < 1e-3
    g = np.round(s * 100) / 100  # scores on the bin edges of 100 bins over [0, 1) (1.0 clamps into the last bin with .99)
    g = np.minimum(g, 0.99)
    r = C.BinnedCurves(n_bins=100).update(y, g + 1e-9).compute()
    assert r.score == pytest.approx(sk.roc_auc_score(y, g), abs=1e-12)


def test_histogram_rejects_incompatible_merge_and_pickles():
    a = C.BinnedCurves(n_bins=10).update([0, 1], [0.2, 0.8])
    b = C.BinnedCurves(n_bins=20).update([0, 1], [0.2, 0.8])
    with pytest.raises(IncompatibleStatsError):
        a.merge(b)
    with pytest.raises(IncompatibleStatsError):
        _ = a.state + C.ScoreHistogram.empty(0, 2, 10)
    assert pickle.loads(pickle.dumps(a.state)) == a.state


def test_streaming_confusion_matches_functional():
    rng = np.random.default_rng(2)
    y, p = rng.integers(0, 4, 1000), rng.integers(0, 4, 1000)
    w = rng.random(1000)
    for average in (None, "micro", "macro", "weighted"):
        m = C.StreamingConfusion(labels=[0, 1, 2, 3], average=average)
        for part in np.array_split(np.arange(1000), 5):
            m.update(y[part], p[part])
        r = m.compute()
        ref = sk.precision_recall_fscore_support(y, p, average=average)
        if average is None:
            np.testing.assert_array_equal(r.f_score, ref[2])
        else:
            assert (r.precision, r.recall, r.f_score) == ref[:3]
        assert r.accuracy == sk.accuracy_score(y, p)
    mw = C.StreamingConfusion(labels=[0, 1, 2, 3], weighted=True)
    parts = [C.StreamingConfusion(labels=[0, 1, 2, 3], weighted=True).update(y[i::3], p[i::3], w[i::3]) for i in range(3)]
    for q in parts:
        mw.merge(q)
    np.testing.assert_allclose(mw.matrix(), sk.confusion_matrix(y, p, sample_weight=w), rtol=1e-13)
    assert mw.compute().f_score == pytest.approx(sk.f1_score(y, p, average="macro", sample_weight=w), rel=1e-12)
    # exact float sums: any grouping gives the same state
    s1 = parts[0].state + (parts[1].state + parts[2].state)
    s2 = (parts[2].state + parts[0].state) + parts[1].state
    assert s1 == s2


def test_single_class_stream_warns_nan():
    m = C.ExactCurves().update([1, 1], [0.2, 0.3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(m.compute().score)


# -- issue 15: streams score what the batch functions score, or refuse as they do ---------
def test_multiclass_labels_across_batches_are_refused_and_state_kept():
    from nlgmetrics.errors import InvalidInputError

    m = C.ExactCurves().update([0, 1, 1], [0.1, 0.8, 0.4])
    before = m.state
    with pytest.raises(InvalidInputError, match="more than two classes"):
        m.update([1, 2], [0.3, 0.9])  # each batch is binary; the stream is not
    assert m.state == before
    with pytest.raises(InvalidInputError, match="more than two classes"):
        C.BinnedCurves().update([0, 1, 2], [0.1, 0.5, 0.9])


@pytest.mark.parametrize("make", [C.ExactCurves, C.BinnedCurves], ids=["exact", "binned"])
def test_string_labels_score_as_the_batch_function(make):
    rng = np.random.default_rng(5)
    y = rng.choice(["ham", "spam"], 300)
    s = np.round(rng.random(300), 2)
    m = make()
    # the first batch holds one class only: orientation is fixed when the second arrives
    order = np.argsort(y, kind="stable")
    y, s = y[order], s[order]
    for i in range(0, 300, 40):
        m.update(y[i : i + 40], s[i : i + 40])
    assert m.compute().score == pytest.approx(sk.roc_auc_score(y, s), abs=1e-12 if make is C.ExactCurves else 1e-2)
    assert m.compute().score == pytest.approx(C.roc_auc_score(y, s), abs=1e-12 if make is C.ExactCurves else 1e-2)
    flipped = make(pos_label="ham").update(y, s)
    assert flipped.compute().score == pytest.approx(sk.roc_auc_score(y == "ham", s), abs=1e-12 if make is C.ExactCurves else 1e-2)


def test_negative_sample_weights_are_refused():
    from nlgmetrics.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="sample_weight"):
        C.roc_auc_score([0, 1, 1], [0.2, 0.4, 0.9], sample_weight=[1, -1, 1])
    with pytest.raises(InvalidInputError, match="sample_weight"):
        C.ExactCurves().update([0, 1], [0.2, 0.4], sample_weight=[1, -2])


def test_confusion_refuses_unknown_and_nan_labels_unless_asked():
    from nlgmetrics.errors import InvalidInputError, InvalidOptionError

    m = C.StreamingConfusion([0, 1])
    m.update([0, 1], [0, 1])
    with pytest.raises(InvalidInputError, match=r"y_true\[2\] = 2"):
        m.update([0, 1, 2], [0, 1, 1])
    with pytest.raises(InvalidInputError, match="NaN"):
        m.update([0.0, float("nan")], [0.0, 1.0])
    assert m.state.n_segments == 2  # nothing half-added
    y, p = [0, 1, 2, 1, 0], [0, 2, 2, 1, 1]
    ignore = C.StreamingConfusion([0, 1], unknown_labels="ignore").update(y, p)
    np.testing.assert_array_equal(ignore.matrix(), sk.confusion_matrix(y, p, labels=[0, 1]))
    with pytest.raises(InvalidOptionError):
        C.StreamingConfusion([0, 1], unknown_labels="drop")
    with pytest.raises(InvalidOptionError, match="beta"):
        C.StreamingConfusion([0, 1], beta=-1)


def test_states_of_differently_configured_metrics_refuse_to_add():
    # a state carries the signature of the metric that made it: states made with another
    # pos_label, max_fpr, bins or range are refused (IncompatibleStatsError), never summed
    from nlgmetrics.classification import BinnedCurves, ExactCurves
    from nlgmetrics.errors import IncompatibleStatsError

    rng = np.random.default_rng(3)
    y1, s1, y2, s2 = rng.integers(0, 2, 40), rng.random(40), rng.integers(0, 2, 40), rng.random(40)
    pairs = [
        (ExactCurves(pos_label=0), ExactCurves(pos_label=1)),
        (ExactCurves(), ExactCurves(max_fpr=0.5)),
        (BinnedCurves(pos_label=0), BinnedCurves(pos_label=1)),
        (BinnedCurves(n_bins=16), BinnedCurves(n_bins=16, max_fpr=0.3)),
    ]
    for a, b in pairs:
        a.update(y1, s1)
        b.update(y2, s2)
        with pytest.raises(IncompatibleStatsError):
            a.state + b.state
        with pytest.raises(IncompatibleStatsError):
            a.merge(b)
        with pytest.raises(IncompatibleStatsError):
            b.score_state(a.state)
    # the same configuration adds, and equals the batch function on the concatenation
    from nlgmetrics.classification import roc_auc_score

    a, b = ExactCurves(pos_label=0).update(y1, s1), ExactCurves(pos_label=0).update(y2, s2)
    both = a.score_state(a.state + b.state).score
    assert both == roc_auc_score(np.r_[y1, y2] == 0, np.r_[s1, s2])
