"""Hypothesis properties of the resampling layer on generated statistics (a test-only
metric with an integer and a real-valued field): exact sums, shard invariance of the
Poisson scheme, p-value range, thread independence."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nlgmetrics.metrics.base import Metric, Score
from nlgmetrics.engines.significance import bootstrap_ci, paired_test_stats, poisson_totals
from nlgmetrics.stats import SegmentStats, Stats


class Ratio(Metric):
    """score = sum(x) / (1 + hits): exercises the generic ``_scores_from_totals`` loop."""

    name = "Ratio"
    count_fields = ("hits",)
    sum_fields = ("x",)

    def _signature_items(self):
        return {"t": "ratio"}

    def _score(self, stats: Stats) -> Score:
        return Score(self.name, stats.sums[0] / (1 + int(stats.counts[0])), self.signature(stats), stats)


M = Ratio()


def seg(hits, xs) -> SegmentStats:
    return SegmentStats(M.key, M.count_fields, np.array(hits, dtype=np.uint64).reshape(-1, 1), M.sum_fields, np.array(xs, dtype=np.float64).reshape(-1, 1))


rows = st.lists(st.tuples(st.integers(0, 10**6), st.floats(-1e6, 1e6, allow_nan=False) | st.sampled_from([0.1, 1e-300, 1e15])), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(rows, st.integers(0, 2**64 - 1), st.integers(1, 4))
def test_poisson_shards_merge_exactly(data, seed, n_shards):
    hits, xs = zip(*data)
    s = seg(hits, xs)
    whole = poisson_totals(M, s, n_resamples=20, seed=seed)
    ids = np.random.default_rng(seed % 1000).permutation(len(s))
    shards = [poisson_totals(M, s.take(p), segment_ids=p, n_resamples=20, seed=seed) for p in np.array_split(ids, n_shards) if len(p)]
    merged = sum(shards[1:], shards[0])
    assert np.array_equal(merged.counts, whole.counts)
    assert np.array_equal(merged.sums(), whole.sums())
    # exact: the sums equal fsum of the weighted values
    from nlgmetrics import _core

    w = _core.sig_poisson_weights(seed, np.arange(len(s), dtype=np.uint64), 20)
    for r in (0, 19):
        assert whole.sums()[r, 0] == math.fsum(float(x) for x, c in zip(xs, w[r]) for _ in range(int(c)))


@settings(max_examples=40, deadline=None)
@given(rows, rows, st.sampled_from(["bs", "ar"]), st.integers(0, 1000))
def test_p_values_in_unit_interval(a, b, test, seed):
    n = min(len(a), len(b))
    sa, sb = seg(*zip(*a[:n])), seg(*zip(*b[:n]))
    res = paired_test_stats(M, sa, {"b": sb, "same": sa}, test=test, n_samples=50, seed=seed)
    for r in res.systems[1:]:
        assert 0 < r.p_value <= 1
    assert res.systems[2].p_value == 1 / 51


@settings(max_examples=25, deadline=None)
@given(rows, st.integers(0, 1000))
def test_bootstrap_does_not_depend_on_threads(data, seed):
    s = seg(*zip(*data))
    a = bootstrap_ci(M, s, n_resamples=300, seed=seed, n_threads=1)
    b = bootstrap_ci(M, s, n_resamples=300, seed=seed, n_threads=2)
    assert np.array_equal(a.scores, b.scores)
    assert a.lower <= a.upper
