"""Bad input gets a typed error from nlgmetrics.errors, never a crash or a wrong number."""

from __future__ import annotations

import numpy as np
import pytest

import nlgmetrics.classification as C
from nlgmetrics.errors import IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("fn", [C.roc_curve, C.precision_recall_curve, C.roc_auc_score, C.average_precision_score])
def test_non_finite_scores_rejected(fn, bad):
    with pytest.raises(InvalidInputError, match=r"y_score must be finite: y_score\[1\]"):
        fn([0, 1, 1], [0.1, bad, 0.3])


def test_non_finite_scores_rejected_everywhere():
    with pytest.raises(InvalidInputError, match="finite"):
        C.ExactCurves().update([0, 1], [0.2, np.nan])
    with pytest.raises(InvalidInputError, match="finite"):
        C.BinnedCurves().update([0, 1], [0.2, np.inf])
    with pytest.raises(InvalidInputError, match="finite"):
        C.mean_average_precision([[1, 0], [0, 1]], [[0.2, np.nan], [0.1, 0.3]], convention="coco")
    with pytest.raises(InvalidInputError, match="sample_weight"):
        C.roc_auc_score([0, 1], [0.2, 0.3], sample_weight=[1.0, np.nan])
    with pytest.raises(InvalidInputError, match="NaN"):
        C.accuracy_score([0.0, np.nan], [0, 1])


def test_wrong_shapes():
    with pytest.raises(LengthMismatchError):
        C.roc_auc_score([0, 1, 1], [0.1, 0.2])
    with pytest.raises(LengthMismatchError):
        C.f1_score([0, 1, 1], [0, 1])
    with pytest.raises(LengthMismatchError):
        C.roc_curve([0, 1], [0.1, 0.2], sample_weight=[1.0])
    with pytest.raises(InvalidInputError, match="shape"):
        C.average_precision_score([0, 1, 2], [0.1, 0.2, 0.3])  # multiclass needs (n, k) scores
    with pytest.raises(InvalidInputError):
        C.roc_auc_score([0, 1, 2, 1], [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9], [0.3, 0.7]], multi_class="ovr")
    with pytest.raises(InvalidInputError):
        C.roc_auc_score([[0, 1], [1, 0]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    with pytest.raises(InvalidInputError, match="empty"):
        C.accuracy_score([], [])
    with pytest.raises(InvalidInputError, match="continuous"):
        C.f1_score([0.5, 1.0], [0, 1])
    with pytest.raises(InvalidInputError, match="mix"):
        C.f1_score([0, 1, 2], [[0, 1], [1, 0], [1, 1]])
    with pytest.raises(InvalidInputError):
        C.roc_auc_score([0, 1, 2], [[0.5, 0.5, 0.5]] * 3, multi_class="ovr")  # rows not summing to 1


def test_type_errors():
    with pytest.raises(InputTypeError):
        C.roc_auc_score("0101", [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(InputTypeError):
        C.roc_auc_score([0, 1], ["a", "b"])
    with pytest.raises(InputTypeError):
        C.f1_score(["a", "b", "b"], [0, 1, 1], average="macro")


def test_bad_options():
    with pytest.raises(InvalidOptionError):
        C.f1_score([0, 1], [0, 1], average="median")
    with pytest.raises(InvalidOptionError):
        C.f1_score([0, 1], [0, 1], zero_division=2)
    with pytest.raises(InvalidOptionError):
        C.fbeta_score([0, 1], [0, 1], beta=-1)
    with pytest.raises(InvalidOptionError):
        C.f1_score([0, 1, 2], [0, 1, 2])  # binary average on multiclass
    with pytest.raises(InvalidOptionError):
        C.f1_score([0, 1], [0, 1], pos_label=7)
    with pytest.raises(InvalidOptionError):
        C.roc_auc_score([0, 1], [0.1, 0.2], max_fpr=0)
    with pytest.raises(InvalidOptionError):
        C.roc_auc_score([0, 1, 2], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])  # multi_class='raise'
    with pytest.raises(InvalidOptionError):
        C.roc_curve(["a", "b"], [0.1, 0.2])  # string labels need pos_label
    with pytest.raises(InvalidOptionError):
        C.BinnedCurves(n_bins=0)
    with pytest.raises(InvalidOptionError):
        C.BinnedCurves(score_range=(1, 1))
    with pytest.raises(InvalidOptionError):
        C.roc_curve([0, 1], [0.1, 0.2], n_threads=-1)


def test_errors_are_builtin_subclasses_and_merges_checked():
    assert issubclass(InvalidInputError, ValueError) and issubclass(InputTypeError, TypeError)
    a = C.ExactCurves(pos_label=1)
    with pytest.raises(IncompatibleStatsError):
        a.merge(C.ExactCurves(pos_label=0))
    s = C.StreamingConfusion(labels=[0, 1])
    with pytest.raises(IncompatibleStatsError):
        s.merge(C.StreamingConfusion(labels=[0, 1, 2]))
    with pytest.raises(InvalidInputError):
        C.auc([0, 1, 0.5], [1, 1, 1])
