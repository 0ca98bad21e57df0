"""Every function of ``nlgmetrics.classification`` takes scikit-learn's order (the true labels
first), and every one that takes scores warns ``ArgumentOrderWarning`` (the class of the text
functions' jiwer-order trap) when called in torchmetrics' ``(preds, target)`` order."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

from nlgmetrics import ArgumentOrderWarning
from nlgmetrics import classification as C
from nlgmetrics.errors import NlgMetricsError

FUNCTIONS = {name: getattr(C, name) for name in C.__all__ if inspect.isfunction(getattr(C, name))}
SCORE_NAMES = ("y_score", "y_proba", "y_prob")
# scikit-learn's own first names: auc(x, y), cohen_kappa_score(y1, y2), the *_from_confusion(C)
FIRST_NAMES = {"y_true", "x", "y1", "C"}

Y = [0, 1, 1, 0, 1, 0]
P = [0.2, 0.8, 0.6, 0.3, 0.9, 0.45]
P3 = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.5, 0.3, 0.2]]
Y3 = [0, 1, 2, 1]
EXTRA = {"multiclass_calibration_error": {"num_classes": 3}}


def _second(fn) -> str:
    return list(inspect.signature(fn).parameters)[1]


def test_one_convention_for_every_function():
    firsts = {name: list(inspect.signature(fn).parameters)[0] for name, fn in FUNCTIONS.items()}
    assert {n: f for n, f in firsts.items() if f not in FIRST_NAMES} == {}
    assert all(_second(FUNCTIONS[n]) in SCORE_NAMES for n in ("binary_calibration_error", "multiclass_calibration_error", "log_loss"))


SCORE_FUNCTIONS = sorted(n for n, fn in FUNCTIONS.items() if len(inspect.signature(fn).parameters) > 1 and _second(fn) in SCORE_NAMES)


def test_the_score_functions_are_found():
    assert {"roc_auc_score", "roc_curve", "precision_recall_curve", "average_precision_score", "brier_score_loss",
            "binary_calibration_error", "multiclass_calibration_error", "log_loss", "mean_average_precision"} <= set(SCORE_FUNCTIONS)


def _call(fn, a, b, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(a, b, **kw)
        except NlgMetricsError as e:
            out = e
    return out, [w for w in caught if issubclass(w.category, ArgumentOrderWarning)]


@pytest.mark.parametrize("name", SCORE_FUNCTIONS)
def test_scores_first_warns_and_scikit_learn_order_is_silent(name):
    fn = FUNCTIONS[name]
    y, p = (Y3, P3) if name == "multiclass_calibration_error" else (Y, P)
    right, right_warnings = _call(fn, y, p, **EXTRA.get(name, {}))
    assert not isinstance(right, Exception) and right_warnings == []
    _, swapped_warnings = _call(fn, p, y, **EXTRA.get(name, {}))
    assert len(swapped_warnings) == 1
    message = str(swapped_warnings[0].message)
    assert f"{name}(y_true, {_second(fn)})" in message and "torchmetrics" in message
    assert swapped_warnings[0].filename == __file__  # points at the caller's line


def test_integral_float_labels_and_scores_do_not_warn():
    # 0.0/1.0 scores (hard predictions as floats) are not detectably swapped: no warning
    _, caught = _call(C.roc_auc_score, np.array(Y, dtype=float), np.array(Y, dtype=float))
    assert caught == []


@pytest.mark.parametrize("cls_name", ["ExactCurves", "BinnedCurves", "StreamingCalibration"])
def test_streaming_updates_follow_the_same_order(cls_name):
    metric = getattr(C, cls_name)()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ArgumentOrderWarning)
        metric.update(Y, P)
    with pytest.warns(ArgumentOrderWarning):
        try:
            getattr(C, cls_name)().update(P, Y)
        except NlgMetricsError:
            pass


def test_binary_calibration_error_in_scikit_learn_order():
    # the call: labels first, as scikit-learn's calibration functions take them
    assert C.binary_calibration_error([0, 0, 1, 1, 1], [0.25, 0.25, 0.55, 0.75, 0.75], n_bins=2) == pytest.approx(0.29, abs=5e-5)
