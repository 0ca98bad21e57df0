"""The numbers of a binary-classification report: one or more scorers on the same labels.

Each scorer gives a score per sample (higher = more positive); predictions are the scores
thresholded (``score >= threshold`` is positive) unless given. The metrics are computed as
``nlgmetrics classify`` computes them for a binary problem (ROC AUC and average precision
from the scores; accuracy, balanced accuracy, precision / recall / F1 and the confusion
matrix from the predictions), so the report shows the numbers that command prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..errors import InvalidInputError, LengthMismatchError


@dataclass
class ScorerResult:
    name: str
    metrics: dict[str, Any]
    fpr: np.ndarray = field(repr=False)
    tpr: np.ndarray = field(repr=False)
    precision: np.ndarray = field(repr=False)
    recall: np.ndarray = field(repr=False)
    scores: np.ndarray = field(repr=False)
    matrix_labels: list[Any] = field(default_factory=list)


@dataclass
class ClassificationReport:
    labels: np.ndarray
    pos_label: Any
    classes: list[Any]
    threshold: float
    scorers: list[ScorerResult]
    version: str


def _labels(values: Sequence[Any]) -> np.ndarray:
    parsed = []
    for v in values:
        s = str(v).strip()
        try:
            parsed.append(int(s))
        except ValueError:
            parsed.append(s)
    kinds = {type(x) for x in parsed}
    if len(kinds) > 1:
        raise InvalidInputError("labels mix numbers and names")
    return np.asarray(parsed)


def _scores(values: Sequence[Any], what: str) -> np.ndarray:
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        try:
            out[i] = float(v)
        except (TypeError, ValueError):
            raise InvalidInputError(f"{what}: line {i + 1} is not a number: {str(v)[:40]!r}") from None
    if not np.all(np.isfinite(out)):
        bad = int(np.flatnonzero(~np.isfinite(out))[0])
        raise InvalidInputError(f"{what}: line {bad + 1} is not finite ({out[bad]!r})")
    return out


def classification_report(
    labels: Sequence[Any],
    scorers: Sequence[tuple[str, Sequence[Any]]],
    *,
    predictions: dict[str, Sequence[Any]] | None = None,
    threshold: float = 0.5,
    pos_label: Any = None,
    n_threads: int = 0,
) -> ClassificationReport:
    """Metrics and curves of every ``(name, scores)`` against ``labels`` (two classes)."""
    from .. import __version__
    from .. import classification as C

    y = _labels(labels)
    if len(y) == 0:
        raise InvalidInputError("no labels")
    classes = np.unique(y).tolist()
    if len(classes) != 2:
        raise InvalidInputError(f"the classification report is for two classes; the labels have {len(classes)}")
    if pos_label is None:
        pos_label = 1 if 1 in classes else classes[-1]
    elif pos_label not in classes:
        raise InvalidInputError(f"pos_label {pos_label!r} is not one of the labels {classes}")
    neg_label = classes[0] if classes[1] == pos_label else classes[1]
    yb = (y == pos_label).astype(np.int64)
    if not scorers:
        raise InvalidInputError("no scores to evaluate")
    out = []
    for name, values in scorers:
        s = _scores(values, name)
        if len(s) != len(y):
            raise LengthMismatchError(f"{name} has {len(s)} scores but there are {len(y)} labels")
        if predictions and name in predictions:
            p = _labels(predictions[name])
            if len(p) != len(y):
                raise LengthMismatchError(f"predictions of {name} have {len(p)} rows but there are {len(y)} labels")
        else:
            p = np.where(s >= threshold, pos_label, neg_label)
        pr, rc, f1, _ = C.precision_recall_fscore_support(y, p, average="binary", pos_label=pos_label)
        metrics = {
            "n_samples": int(len(y)),
            "accuracy": C.accuracy_score(y, p),
            "precision": pr,
            "recall": rc,
            "f1": f1,
            "balanced_accuracy": C.balanced_accuracy_score(y, p),
            "confusion_matrix": C.confusion_matrix(y, p).tolist(),
            "roc_auc": C.roc_auc_score(yb, s, n_threads=n_threads),
            "average_precision": C.average_precision_score(yb, s, n_threads=n_threads),
        }
        fpr, tpr, _ = C.roc_curve(yb, s, n_threads=n_threads)
        prec, rec, _ = C.precision_recall_curve(yb, s, n_threads=n_threads)
        matrix_labels = np.unique(np.concatenate([y, p])).tolist()  # confusion_matrix's row order
        out.append(ScorerResult(name, metrics, fpr, tpr, prec, rec, s, matrix_labels))
    return ClassificationReport(y, pos_label, classes, threshold, out, __version__)
