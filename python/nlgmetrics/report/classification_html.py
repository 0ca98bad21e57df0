"""HTML of a classification report (:class:`~nlgmetrics.report.classification.ClassificationReport`)."""

from __future__ import annotations

import math

import numpy as np

from . import plots
from .classification import ClassificationReport
from .html import esc, figure, number, page, table

_FIELDS = [
    ("roc_auc", "ROC AUC"),
    ("average_precision", "average precision"),
    ("accuracy", "accuracy"),
    ("balanced_accuracy", "balanced accuracy"),
    ("precision", "precision"),
    ("recall", "recall"),
    ("f1", "F1"),
]


def _interval(row, key: str) -> str:
    lo, hi = row.intervals.get(key, (None, None))
    if lo is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return "<td>–</td>"
    return f'<td data-system="{esc(row.name)}" data-field="{key}-interval" data-lower="{lo!r}" data-upper="{hi!r}">[{lo:.4f}, {hi:.4f}]</td>'


def _metrics_table(report: ClassificationReport) -> str:
    macro = "" if report.binary else " (macro)"
    header = ["scorer"] + [label + (macro if k in ("roc_auc", "average_precision", "precision", "recall", "f1") else "") for k, label in _FIELDS]
    resampled = bool(report.n_resamples)
    if resampled:
        header += ["ROC AUC 95% CI", "F1 95% CI", "p (AUC, bootstrap)"]
    if report.binary and len(report.scorers) > 1:
        header += ["p (AUC, DeLong)"]
    rows = []
    for i, s in enumerate(report.scorers):
        cells = f'<td class="name">{esc(s.name)}{" (first)" if i == 0 and len(report.scorers) > 1 else ""}</td>'
        cells += "".join(number(s.metrics[k], 4, system=s.name, field=k) for k, _ in _FIELDS)
        if resampled:
            cells += _interval(s, "roc_auc") + _interval(s, "f1") + number(s.p_values.get("roc_auc"), 4, system=s.name, field="p-roc-auc-bootstrap")
        if report.binary and len(report.scorers) > 1:
            cells += number(s.p_values.get("roc_auc_delong"), 4, system=s.name, field="p-roc-auc-delong")
        rows.append(cells)
    return table(header, rows)


def _per_class_tables(report: ClassificationReport) -> str:
    out = []
    for s in report.scorers:
        rows = []
        for c in s.per_class:
            kw = {"system": s.name, "label": c["label"]}
            ci = f'[{c["f1_lower"]:.4f}, {c["f1_upper"]:.4f}]' if "f1_lower" in c else "–"
            rows.append(
                f'<td class="name">{esc(c["label"])}</td>' + number(c["support"], field="support", **kw) + number(c["precision"], 4, field="class-precision", **kw)
                + number(c["recall"], 4, field="class-recall", **kw) + number(c["f1"], 4, field="class-f1", **kw) + f"<td>{ci}</td>"
                + number(c["roc_auc"], 4, field="class-roc-auc", **kw)
            )
        out.append(f"<h3>{esc(s.name)}</h3>" + table(["class", "support", "precision", "recall", "F1", "F1 95% CI", "ROC AUC (one vs rest)"], rows))
    return "".join(out)


def _curves(report: ClassificationReport) -> str:
    figs = []
    if report.binary:
        yb = (report.labels == report.pos_label).astype(int)
        fig_roc, ax_roc = plots.roc_curve(yb, report.scorers[0].scores, label=report.scorers[0].name)
        fig_pr, ax_pr = plots.pr_curve(yb, report.scorers[0].scores, label=report.scorers[0].name)
        for s in report.scorers[1:]:
            plots.roc_curve(yb, s.scores, label=s.name, ax=ax_roc)
            plots.pr_curve(yb, s.scores, label=s.name, ax=ax_pr)
        return figure(fig_roc, "ROC curves") + figure(fig_pr, "precision-recall curves")
    for s in report.scorers:
        fig_roc = fig_pr = ax_roc = ax_pr = None
        for k, label in enumerate(report.classes):
            yk = (report.labels == label).astype(int)
            if not 0 < yk.sum() < len(yk):
                continue
            fig_roc, ax_roc = plots.roc_curve(yk, s.scores[:, k], label=str(label), ax=ax_roc)
            fig_pr, ax_pr = plots.pr_curve(yk, s.scores[:, k], label=str(label), ax=ax_pr)
        if fig_roc is not None:
            ax_roc.set_title(f"{s.name}: ROC, one vs rest")
            ax_pr.set_title(f"{s.name}: precision-recall, one vs rest")
            figs += [figure(fig_roc, f"ROC curves of {s.name}"), figure(fig_pr, f"precision-recall curves of {s.name}")]
    return "".join(figs)


def render(report: ClassificationReport, *, title: str = "nlgmetrics classification report") -> str:
    counts = ", ".join(f"{esc(c)}: {int(np.sum(report.labels == c))}" for c in report.classes)
    what = (f"positive label {esc(report.pos_label)}; predictions: score ≥ {report.threshold:g} unless given" if report.binary
            else "predictions: the highest-scoring class unless given; ROC AUC and AP are one-vs-rest macro averages")
    ci = (f" · {report.n_resamples} bootstrap resamples (seed {report.seed}), paired across scorers; p-values against the first scorer"
          if report.n_resamples else "")
    body = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="meta">nlgmetrics {esc(report.version)} · {len(report.labels)} samples in {len(report.classes)} classes ({counts}) · {what}{ci} · '
        "numbers as <code>nlgmetrics classify</code> computes them (scikit-learn's definitions)</p>",
        "<h2>Metrics</h2>", _metrics_table(report),
        "<h2>Per class</h2>", _per_class_tables(report),
        "<h2>Curves</h2>", f'<div class="plots">{_curves(report)}</div>',
        "<h2>Confusion matrices</h2>",
    ]
    mats = []
    for s in report.scorers:
        fig, _ = plots.confusion_matrix(s.metrics["confusion_matrix"], s.matrix_labels, title=s.name)
        cells = [
            f'<td class="name">{esc(lab)}</td>' + "".join(number(v, system=s.name, field="confusion", row=i, col=j) for j, v in enumerate(row))
            for i, (lab, row) in enumerate(zip(s.matrix_labels, s.metrics["confusion_matrix"]))
        ]
        tab = table([f"{s.name}: true \\ predicted"] + [str(x) for x in s.matrix_labels], cells)
        mats.append(f"<div>{tab}{figure(fig, f'confusion matrix of {s.name}')}</div>")
    body.append(f'<div class="plots">{"".join(mats)}</div>')
    return page(title, "\n".join(body))
