"""BLEU reads plain lists in place in the core; every other input shape goes through the
validating path. Both must give the same statistics and the same typed errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics import _core
from nlgmetrics.errors import InputTypeError, InvalidTextError, LengthMismatchError, MissingReferenceError

HYPS = ["The cat sat on the mat.", "It is raining, today!", "", "ünïcode — “quotes” 3.5-4"]
REFS = [["The cat is on the mat.", "A cat sat on a mat."], "It rains today.", ["nothing"], ("ünïcode “quotes” 3.5 - 4",)]


def slow(metric, hyps, refs):
    """The validating path: a tuple of predictions never takes the list fast path."""
    return metric.stats(tuple(hyps), refs)


@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "zh", "char"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_fast_path_equals_validating_path(tokenize, lowercase):
    metric = nlgmetrics.BLEU(tokenize=tokenize, lowercase=lowercase)
    assert _core.bleu_stats_lists(HYPS, REFS, tokenize, lowercase, 4, 0) is not None
    fast = metric.stats(HYPS, REFS)
    ref = slow(metric, HYPS, REFS)
    assert np.array_equal(fast.counts, ref.counts)
    assert list(fast.ref_counts) == [2, 1, 1, 1]
    assert fast.total() == ref.total()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet=st.sampled_from("ab1.,- \t()é\u3000"), max_size=20),
            st.lists(st.text(alphabet=st.sampled_from("ab1.,- \t()é\u3000"), max_size=20), min_size=1, max_size=3),
        ),
        max_size=8,
    )
)
def test_fast_path_equals_validating_path_on_random_text(pairs):
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    for tokenize in ("13a", "none"):
        metric = nlgmetrics.BLEU(tokenize=tokenize, lowercase=True)
        assert np.array_equal(metric.stats(hyps, refs).counts, slow(metric, hyps, refs).counts)


@pytest.mark.parametrize(
    "refs, error",
    [
        ([["a"], None], MissingReferenceError),
        ([["a"], []], MissingReferenceError),
        ([["a"], [3]], InputTypeError),
        ([["a"], 3], InputTypeError),
        ([["a"]], LengthMismatchError),
    ],
)
def test_bad_references_get_typed_errors(refs, error):
    if error is not LengthMismatchError:
        assert _core.bleu_stats_lists(["a", "b"], refs, "13a", False, 4, 0) is None
    with pytest.raises(error):
        nlgmetrics.bleu(["a", "b"], refs)


def test_none_inside_references_is_dropped_as_before():
    assert nlgmetrics.bleu(["a b c d"], [["a b c d", None]]).score == nlgmetrics.bleu(["a b c d"], [["a b c d"]]).score


def test_non_text_and_surrogates_are_reported():
    with pytest.raises(InputTypeError):
        nlgmetrics.bleu(["a", 3], [["a"], ["b"]])
    with pytest.raises(InvalidTextError):
        nlgmetrics.bleu(["a", "b\ud800"], [["a"], ["b"]])
    assert _core.bleu_stats_lists(["a", "b\ud800"], [["a"], ["b"]], "13a", False, 4, 0) is None
