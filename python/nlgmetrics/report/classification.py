"""The numbers of a classification report: one or more scorers on the same labels.

Two classes: each scorer gives a score per sample (higher = more positive), or one column per
class; predictions are ``score >= threshold`` unless given. More classes: each line holds one
score per class (columns in the sorted order of the labels) and the prediction is the
highest-scoring class unless given. The metrics are the ones ``nlgmetrics classify`` prints
(scikit-learn's definitions); ROC AUC and average precision are one-vs-rest macro averages
for more than two classes. Intervals are percentile bootstrap intervals over samples, drawn
once and shared by all scorers, so the p-value against the first scorer is a paired
bootstrap test; for two classes the ROC AUC difference also gets DeLong's test.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..errors import InvalidInputError, LengthMismatchError

RESAMPLED = ("accuracy", "f1", "roc_auc", "average_precision")


@dataclass
class ScorerResult:
    name: str
    metrics: dict[str, Any]
    scores: np.ndarray = field(repr=False)
    matrix_labels: list[Any] = field(default_factory=list)
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    p_values: dict[str, float | None] = field(default_factory=dict)
    per_class: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ClassificationReport:
    labels: np.ndarray
    pos_label: Any
    classes: list[Any]
    threshold: float
    scorers: list[ScorerResult]
    version: str
    n_resamples: int = 0
    seed: int = 12345

    @property
    def binary(self) -> bool:
        return len(self.classes) == 2


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
    """One row per line: a single score, or one score per class (white-space separated)."""
    rows = []
    for i, v in enumerate(values):
        fields = str(v).split() if isinstance(v, str) else [v]
        try:
            rows.append([float(x) for x in fields])
        except (TypeError, ValueError):
            raise InvalidInputError(f"{what}: line {i + 1} is not a number: {str(v)[:40]!r}") from None
        if len(rows[-1]) != len(rows[0]) or not rows[-1]:
            raise InvalidInputError(f"{what}: line {i + 1} has {len(rows[-1])} scores, line 1 has {len(rows[0])}")
    out = np.asarray(rows, dtype=np.float64).reshape(len(rows), -1) if rows else np.zeros((0, 1))
    if not np.all(np.isfinite(out)):
        bad = int(np.flatnonzero(~np.all(np.isfinite(out), axis=1))[0])
        raise InvalidInputError(f"{what}: line {bad + 1} is not finite")
    return out[:, 0] if out.shape[1] == 1 else out


def _metrics(y: np.ndarray, p: np.ndarray, s: np.ndarray, classes: list[Any], pos_label: Any, n_threads: int) -> dict[str, Any]:
    from .. import classification as C

    binary = len(classes) == 2
    average = "binary" if binary else "macro"
    pr, rc, f1, _ = C.precision_recall_fscore_support(y, p, average=average, pos_label=pos_label, labels=None if binary else classes)
    if binary:
        yb = (y == pos_label).astype(np.int64)
        auc, ap = C.roc_auc_score(yb, s, n_threads=n_threads), C.average_precision_score(yb, s, n_threads=n_threads)
    else:
        onehot = (y[:, None] == np.asarray(classes)[None, :]).astype(np.int64)
        auc = C.roc_auc_score(y, s, multi_class="ovr", labels=classes, n_threads=n_threads)
        ap = C.average_precision_score(onehot, s, n_threads=n_threads)
    return {"accuracy": C.accuracy_score(y, p), "balanced_accuracy": C.balanced_accuracy_score(y, p),
            "precision": pr, "recall": rc, "f1": f1, "roc_auc": auc, "average_precision": ap}


def _per_class(y: np.ndarray, p: np.ndarray, s: np.ndarray, classes: list[Any], pos_label: Any, n_threads: int) -> list[dict[str, Any]]:
    from .. import classification as C

    with warnings.catch_warnings():  # a class never predicted shows precision 0, as the table says
        warnings.simplefilter("ignore")
        pr, rc, f1, support = C.precision_recall_fscore_support(y, p, average=None, labels=classes)
    rows = []
    for k, label in enumerate(classes):
        if s.ndim == 2:
            column = s[:, k]
        else:  # a single score ranks the positive class: the other class ranks by its negation
            column = s if label == pos_label else -s
        yk = (y == label).astype(np.int64)
        rows.append({"label": label, "support": int(support[k]), "precision": float(pr[k]), "recall": float(rc[k]), "f1": float(f1[k]),
                     "roc_auc": C.roc_auc_score(yk, column, n_threads=n_threads) if 0 < yk.sum() < len(yk) else float("nan")})
    return rows


def _bootstrap(y, predictions, scores, classes, pos_label, n_resamples, seed, n_threads, report_rows):
    """Percentile intervals for every scorer, paired p-values against the first."""
    rng = np.random.default_rng(seed)
    n = len(y)
    draws = {name: {m: [] for m in RESAMPLED} for name in predictions}
    per_class_f1 = {name: [] for name in predictions}
    from .. import classification as C

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(n_resamples):
            idx = rng.integers(0, n, n)
            yb = y[idx]
            for name in predictions:
                p, s = predictions[name][idx], scores[name][idx]
                try:
                    values = _metrics(yb, p, s, classes, pos_label, n_threads)
                except InvalidInputError:  # a class missing from this resample
                    values = {m: float("nan") for m in RESAMPLED}
                for m in RESAMPLED:
                    draws[name][m].append(float(values[m]))
                per_class_f1[name].append(C.precision_recall_fscore_support(yb, p, average=None, labels=classes)[2])
    first = next(iter(predictions))
    for row in report_rows:
        d = {m: np.asarray(v) for m, v in draws[row.name].items()}
        for m, values in d.items():
            ok = values[np.isfinite(values)]
            row.intervals[m] = (float(np.percentile(ok, 2.5)), float(np.percentile(ok, 97.5))) if ok.size else (float("nan"), float("nan"))
            if row.name != first:
                delta = values - np.asarray(draws[first][m])
                delta = delta[np.isfinite(delta)]
                row.p_values[m] = float(min(1.0, 2 * min((delta <= 0).mean(), (delta >= 0).mean()))) if delta.size else None
        f1s = np.asarray(per_class_f1[row.name])
        for k, cls_row in enumerate(row.per_class):
            cls_row["f1_lower"], cls_row["f1_upper"] = float(np.percentile(f1s[:, k], 2.5)), float(np.percentile(f1s[:, k], 97.5))


def classification_report(
    labels: Sequence[Any],
    scorers: Sequence[tuple[str, Sequence[Any]]],
    *,
    predictions: dict[str, Sequence[Any]] | None = None,
    threshold: float = 0.5,
    pos_label: Any = None,
    n_resamples: int = 0,
    seed: int = 12345,
    n_threads: int = 0,
) -> ClassificationReport:
    """Metrics, intervals and tests of every ``(name, scores)`` against ``labels``."""
    from .. import __version__
    from .. import classification as C
    from ..classification.delong import delong_test

    y = _labels(labels)
    if len(y) == 0:
        raise InvalidInputError("no labels")
    classes = np.unique(y).tolist()
    if len(classes) < 2:
        raise InvalidInputError(f"a classification report needs two or more classes; the labels have {len(classes)}")
    binary = len(classes) == 2
    if binary:
        if pos_label is None:
            pos_label = 1 if 1 in classes else classes[-1]
        elif pos_label not in classes:
            raise InvalidInputError(f"pos_label {pos_label!r} is not one of the labels {classes}")
    elif pos_label is not None:
        raise InvalidInputError(f"--pos-label applies to two classes; the labels have {len(classes)}")
    if not scorers:
        raise InvalidInputError("no scores to evaluate")
    preds, scores, rows = {}, {}, []
    for name, values in scorers:
        s = _scores(values, name)
        if len(s) != len(y):
            raise LengthMismatchError(f"{name} has {len(s)} scores but there are {len(y)} labels")
        if s.ndim == 2 and s.shape[1] != len(classes):
            raise InvalidInputError(f"{name}: {s.shape[1]} scores per line for {len(classes)} classes {classes} (one column per class, in this order)")
        if binary and s.ndim == 2:
            s = s[:, classes.index(pos_label)]
        if not binary and s.ndim == 1:
            raise InvalidInputError(f"{name}: {len(classes)} classes need one score per class on each line, in the order {classes}")
        if predictions and name in predictions:
            p = _labels(predictions[name])
            if len(p) != len(y):
                raise LengthMismatchError(f"predictions of {name} have {len(p)} rows but there are {len(y)} labels")
        elif binary:
            neg_label = classes[0] if classes[1] == pos_label else classes[1]
            p = np.where(s >= threshold, pos_label, neg_label)
        else:
            p = np.asarray(classes)[np.argmax(s, axis=1)]
        metrics = {"n_samples": int(len(y)), **_metrics(y, p, s, classes, pos_label, n_threads), "confusion_matrix": C.confusion_matrix(y, p).tolist()}
        matrix_labels = np.unique(np.concatenate([y, p])).tolist()  # confusion_matrix's row order
        preds[name], scores[name] = p, s
        rows.append(ScorerResult(name, metrics, s, matrix_labels, per_class=_per_class(y, p, s, classes, pos_label, n_threads)))
    if n_resamples:
        _bootstrap(y, preds, scores, classes, pos_label, n_resamples, seed, n_threads, rows)
    if binary and len(rows) > 1:
        yb = (y == pos_label).astype(np.int64)
        for row in rows[1:]:
            try:
                row.p_values["roc_auc_delong"] = delong_test(yb, row.scores, rows[0].scores).p_value
            except InvalidInputError:
                row.p_values["roc_auc_delong"] = None
    return ClassificationReport(y, pos_label, classes, threshold, rows, __version__, n_resamples, seed)
