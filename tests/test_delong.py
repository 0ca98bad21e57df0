"""DeLong's test against the definition: structural components by direct pairwise comparison."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nlgmetrics import InvalidInputError
from nlgmetrics.classification import roc_auc_score
from nlgmetrics.classification.delong import delong_test, structural_components


def _by_definition(y, a, b):
    """DeLong et al. (1988) literally: psi over every (positive, negative) pair."""
    out = []
    for s in (a, b):
        pos, neg = s[y == 1], s[y == 0]
        psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        out.append((psi.mean(), psi.mean(axis=1), psi.mean(axis=0)))
    (auc_a, v10a, v01a), (auc_b, v10b, v01b) = out
    m, n = len(v10a), len(v01a)
    cov = np.cov(np.vstack([v10a, v10b])) / m + np.cov(np.vstack([v01a, v01b])) / n
    return auc_a, auc_b, cov


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 60), st.sampled_from([3, 10, 1000]))
def test_components_equal_the_pairwise_definition(seed, n, levels):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    a = rng.integers(0, levels, n).astype(float)  # few levels: many ties
    b = a + rng.normal(0, 2, n).round(1)
    auc_a, auc_b, cov = _by_definition(y, a, b)
    result = delong_test(y, a, b)
    assert result.auc_a == pytest.approx(auc_a, abs=1e-12) and result.auc_b == pytest.approx(auc_b, abs=1e-12)
    assert result.auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert (result.variance_a, result.variance_b, result.covariance) == pytest.approx((cov[0, 0], cov[1, 1], cov[0, 1]), abs=1e-12)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    if var > 1e-15:
        z = (auc_a - auc_b) / math.sqrt(var)
        assert result.z == pytest.approx(z, rel=1e-9) and result.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-9)


def test_a_better_model_is_significant_and_a_model_equals_itself():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 2000)
    good = y + rng.normal(0, 0.6, 2000)
    poor = y + rng.normal(0, 2.0, 2000)
    assert delong_test(y, good, poor).p_value < 1e-6
    same = delong_test(y, good, good)
    assert (same.z, same.p_value) == (0.0, 1.0)


def test_bad_inputs_are_typed_errors():
    with pytest.raises(InvalidInputError):
        structural_components([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(InvalidInputError):
        structural_components([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(InvalidInputError):
        structural_components([0, 1, 0], [0.1, 0.2, 0.3])  # one positive: no variance
    with pytest.raises(InvalidInputError):
        structural_components([0, 1], [0.1, float("nan")])
