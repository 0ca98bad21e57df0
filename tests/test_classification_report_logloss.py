"""``classification_report`` and ``log_loss`` against scikit-learn 1.9 on generated inputs:
the text character for character, the dict and the loss exactly (==), warnings included."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nlgmetrics import classification as C
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, LengthMismatchError

sk = pytest.importorskip("sklearn.metrics")

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
NAMES = np.array(["cat", "dog", "emu", "fox"])


def _run(fn, *args, **kwargs):
    """(result or the error's kind, warning messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args, **kwargs)
        except (ValueError, TypeError) as e:
            out = ("error", type(e).__mro__[-3].__name__ if isinstance(e, ValueError) else "TypeError")
    return out, [str(w.message) for w in caught if not issubclass(w.category, DeprecationWarning)]


@st.composite
def report_case(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(2, 5))
    if draw(st.integers(0, 4)) == 0:  # multilabel indicator matrices
        y = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
        p = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
        labels = None
    else:
        y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
        p = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
        if k <= 4 and draw(st.booleans()):
            y, p = NAMES[y], NAMES[p]
        present = sorted(set(y.tolist()) | set(p.tolist()))
        labels = draw(st.none() | st.lists(st.sampled_from(present), min_size=1, unique=True))
    kwargs = {"labels": labels, "digits": draw(st.integers(0, 6)), "zero_division": draw(st.sampled_from(["warn", 0, 1, np.nan]))}
    weights = draw(st.sampled_from(["none", "float", "int"]))
    if weights != "none":
        w = draw(st.lists(st.integers(1, 9), min_size=n, max_size=n))
        kwargs["sample_weight"] = np.array(w) / (4 if weights == "float" else 1)
    if labels is not None and draw(st.booleans()):
        kwargs["target_names"] = [f"class {x}" for x in labels]
    return y, p, kwargs


@SETTINGS
@given(report_case())
def test_classification_report_text_equals_sklearn(case):
    y, p, kwargs = case
    assert _run(C.classification_report, y, p, **kwargs) == _run(sk.classification_report, y, p, **kwargs)


@SETTINGS
@given(report_case())
def test_classification_report_dict_equals_sklearn(case):
    y, p, kwargs = case
    got, got_warnings = _run(C.classification_report, y, p, output_dict=True, **kwargs)
    want, want_warnings = _run(sk.classification_report, y, p, output_dict=True, **kwargs)
    assert repr(got) == repr(want)  # repr: NaN (zero_division=nan) compares equal to itself
    assert got_warnings == want_warnings


def test_classification_report_known_text():
    text = C.classification_report([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], target_names=["a", "b", "c"])
    assert text.splitlines()[2] == "           a       0.50      1.00      0.67         1"
    assert text.splitlines()[6] == "    accuracy                           0.60         5"
    assert C.classification_report([0, 1], [0, 1], output_dict=True)["accuracy"] == 1.0


def test_support_is_float_where_sklearn_counts_in_float():
    # no sample predicted right: scikit-learn's counts start as float zeros, its support prints "1.0"
    assert C.classification_report([0], [1], zero_division=0) == sk.classification_report([0], [1], zero_division=0)
    assert C.multilabel_confusion_matrix([0], [1]).dtype == sk.multilabel_confusion_matrix([0], [1]).dtype == np.float64
    assert C.multilabel_confusion_matrix([0, 1], [0, 0]).dtype == np.int64


def test_classification_report_errors_are_typed():
    with pytest.raises(LengthMismatchError, match="target_names"):
        C.classification_report([0, 1, 2], [0, 1, 1], target_names=["a", "b"])
    with pytest.raises(InvalidOptionError, match="digits"):
        C.classification_report([0, 1], [0, 1], digits=-1)


@st.composite
def loss_case(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(2, 4))
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.float16]))
    raw = np.array(draw(st.lists(st.lists(st.integers(0, 20), min_size=k, max_size=k), min_size=n, max_size=n)), dtype=np.float64)
    raw[raw.sum(axis=1) == 0, 0] = 1
    proba = (raw / raw.sum(axis=1, keepdims=True)).astype(dtype)  # exact zeros and ones: the clipping matters
    if k == 2 and draw(st.booleans()):
        proba = proba[:, 1]  # 1-D: the probability of the greater class
    labels = list(range(k)) if draw(st.booleans()) or len(set(y.tolist())) < k else None
    if labels is not None and draw(st.integers(0, 5)) == 0:
        labels = labels[::-1]  # unsorted labels: scikit-learn warns and sorts them
    kwargs = {"labels": labels, "normalize": draw(st.booleans())}
    weights = draw(st.sampled_from(["none", "float64", "float32", "int"]))
    if weights != "none":
        w = np.array(draw(st.lists(st.integers(1, 9), min_size=n, max_size=n)))
        kwargs["sample_weight"] = w if weights == "int" else (w / 3).astype(weights)
    return y, proba, kwargs


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(loss_case())
def test_log_loss_equals_sklearn(case):
    y, proba, kwargs = case
    got, want = _run(C.log_loss, y, proba, **kwargs), _run(sk.log_loss, y, proba, **kwargs)
    if isinstance(want[0], tuple):  # scikit-learn refused: ours refuses too, with a typed error
        assert isinstance(got[0], tuple)
    else:
        assert got == want


def test_log_loss_known_values_and_clipping():
    y, p = ["spam", "ham", "ham", "spam"], [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]
    assert C.log_loss(y, p) == sk.log_loss(y, p) == 0.21616187468057912
    # a probability of 0 for the true class is clipped to eps of its dtype: a finite, dtype-dependent loss
    for dtype in (np.float64, np.float32):
        q = np.array([[1.0, 0.0]], dtype=dtype)
        assert C.log_loss([1], q, labels=[0, 1]) == sk.log_loss([1], q, labels=[0, 1]) == -float(np.log(np.finfo(dtype).eps))


def test_log_loss_errors_are_typed():
    with pytest.raises(InvalidInputError, match="greater than 1"):
        C.log_loss([0, 1], [0.5, 1.5])
    with pytest.raises(InvalidInputError, match="only one label"):
        C.log_loss([1, 1], [0.5, 0.5])
    with pytest.raises(InvalidInputError, match="not in labels"):
        C.log_loss([0, 2], [[0.5, 0.5], [0.5, 0.5]], labels=[0, 1])
    with pytest.raises(InvalidInputError, match="different numbers of classes"):
        C.log_loss([0, 1, 2], [[0.5, 0.5]] * 3)
