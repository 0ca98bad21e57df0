"""``classification_report``: scikit-learn 1.9's per-class table (text or ``output_dict=True``),
its numbers from :func:`.prf.precision_recall_fscore_support` and its layout character for
character."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..errors import InvalidOptionError, LengthMismatchError
from ._validate import check_targets
from .prf import precision_recall_fscore_support

_HEADERS = ("precision", "recall", "f1-score", "support")
_LONGEST_HEADING = "weighted avg"


def _names(labels: np.ndarray, target_names: Any, labels_given: bool) -> list[str]:
    if target_names is None:
        return ["%s" % label for label in labels]
    names = list(target_names)
    if len(names) != len(labels):
        if not labels_given:
            raise LengthMismatchError(f"Number of classes, {len(labels)}, does not match size of target_names, {len(names)}. "
                                      "Try specifying the labels parameter")
        warnings.warn(f"labels size, {len(labels)}, does not match size of target_names, {len(names)}", UserWarning, stacklevel=3)
    return names


def classification_report(y_true: Any, y_pred: Any, *, labels: Any = None, target_names: Any = None, sample_weight: Any = None,
                          digits: int = 2, output_dict: bool = False, zero_division: Any = "warn") -> str | dict:
    """scikit-learn's ``classification_report``: precision, recall, F1 and support per label,
    then the micro (``accuracy`` when it equals accuracy), macro and weighted averages
    (and ``samples`` for multilabel input). ``output_dict=True`` returns the same numbers
    as a dict of floats (``accuracy`` a single float)."""
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or digits < 0:
        raise InvalidOptionError(f"digits must be an integer >= 0, got {digits!r}")
    kind, present, yt, yp = check_targets(y_true, y_pred)
    labels_given = labels is not None
    labels = np.asarray(labels) if labels_given else present
    # the micro average is the accuracy when every label that occurs is reported
    micro_is_accuracy = kind in ("multiclass", "binary") and (not labels_given or set(labels.tolist()) >= set(present.tolist()))
    names = _names(labels, target_names, labels_given)
    options = dict(labels=labels, sample_weight=sample_weight, zero_division=zero_division)
    p, r, f1, s = precision_recall_fscore_support(y_true, y_pred, average=None, **options)
    rows = list(zip(names, p, r, f1, s))
    averages = ("micro", "macro", "weighted", "samples") if kind.startswith("multilabel") else ("micro", "macro", "weighted")
    total = np.sum(s)
    summary = []
    for average in averages:
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        avg_p, avg_r, avg_f1, _ = precision_recall_fscore_support(y_true, y_pred, average=average, **options)
        summary.append((heading, avg_p, avg_r, avg_f1, total))
    if output_dict:
        report = {row[0]: dict(zip(_HEADERS, (float(v) for v in row[1:]))) for row in rows}
        for heading, *values in summary:
            report[heading] = dict(zip(_HEADERS, (float(v) for v in values)))
        if "accuracy" in report:
            report["accuracy"] = report["accuracy"]["precision"]
        return report
    return _text(rows, summary, names, digits)


def _text(rows: list, summary: list, names: list[str], digits: int) -> str:
    width = max(max(len(n) for n in names), len(_LONGEST_HEADING), digits)
    head_fmt = "{:>{width}s} " + " {:>9}" * len(_HEADERS)
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    out = head_fmt.format("", *_HEADERS, width=width) + "\n\n"
    for row in rows:
        out += row_fmt.format(*row, width=width, digits=digits)
    out += "\n"
    for heading, *values in summary:
        if heading == "accuracy":
            # the accuracy row leaves precision and recall blank
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            out += fmt.format(heading, "", "", *values[2:], width=width, digits=digits)
        else:
            out += row_fmt.format(heading, *values, width=width, digits=digits)
    return out


