"""Classification metrics with scikit-learn's numbers, computed in the Rust core.

Functional API (scikit-learn's signatures, plus ``n_threads`` where work is parallel):
``accuracy_score``, ``balanced_accuracy_score``, ``precision_recall_fscore_support``,
``precision_score``, ``recall_score``, ``f1_score``, ``fbeta_score``,
``confusion_matrix``, ``multilabel_confusion_matrix``, ``roc_curve``,
``precision_recall_curve``, ``auc``, ``roc_auc_score``, ``average_precision_score``,
and ``mean_average_precision(convention="sklearn"|"voc11"|"voc"|"coco")``;
``matthews_corrcoef``, ``cohen_kappa_score`` (from a confusion matrix:
``mcc_from_confusion``, ``kappa_from_confusion``), ``brier_score_loss``, ``log_loss``,
``classification_report`` (scikit-learn's text, or ``output_dict=True``);
``binary_calibration_error`` / ``multiclass_calibration_error`` (torchmetrics' binning,
``StreamingCalibration`` with mergeable ``CalibrationBins``).

Streaming objects (``update``/``merge``/``compute``; states add with ``+`` and pickle):
``ExactCurves`` (exact score table), ``BinnedCurves`` (constant memory, with error
bounds), ``StreamingConfusion``.

One argument order throughout, scikit-learn's: the true labels first (``y_true, y_pred``,
``y_true, y_score``, ``y_true, y_prob``); a call in torchmetrics' ``(preds, target)`` order
that can be told (scores where the labels belong) warns ``ArgumentOrderWarning``.

Parity target: scikit-learn 1.9.1 (values identical; tested bit for bit or to 1e-12).
Errors are the typed exceptions of :mod:`nlgmetrics.errors`; ill-defined values warn
with :class:`UndefinedMetricWarning` as scikit-learn does.
"""

from ._validate import UndefinedMetricWarning
from .base import MergeableState, StreamingMetric
from .confusion import confusion_matrix, multilabel_confusion_matrix
from .curves import auc, precision_recall_curve, roc_curve
from .mean_ap import CONVENTIONS as MAP_CONVENTIONS
from .mean_ap import mean_average_precision
from .prf import (
    accuracy_score,
    balanced_accuracy_score,
    f1_score,
    fbeta_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from .ranking import average_precision_score, roc_auc_score
from .streaming import BinnedCurves, ExactCurves, ScoreHistogram, ScoreTable, StreamingConfusion
from .agreement import brier_score_loss, cohen_kappa_score, kappa_from_confusion, matthews_corrcoef, mcc_from_confusion
from .losses import log_loss
from .report import classification_report
from .calibration import CalibrationBins, StreamingCalibration, binary_calibration_error, multiclass_calibration_error

__all__ = [
    "MAP_CONVENTIONS",
    "BinnedCurves",
    "ExactCurves",
    "MergeableState",
    "ScoreHistogram",
    "ScoreTable",
    "StreamingConfusion",
    "StreamingMetric",
    "UndefinedMetricWarning",
    "accuracy_score",
    "auc",
    "average_precision_score",
    "balanced_accuracy_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "mean_average_precision",
    "multilabel_confusion_matrix",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "matthews_corrcoef",
    "mcc_from_confusion",
    "cohen_kappa_score",
    "kappa_from_confusion",
    "brier_score_loss",
    "log_loss",
    "classification_report",
    "binary_calibration_error",
    "multiclass_calibration_error",
    "CalibrationBins",
    "StreamingCalibration",
]
