"""HTML of a binary-classification report (:class:`~nlgmetrics.report.classification.ClassificationReport`)."""

from __future__ import annotations

from .. import plots
from .classification import ClassificationReport
from .html import esc, number, page, figure, table

_FIELDS = [
    ("roc_auc", "ROC AUC"),
    ("average_precision", "average precision"),
    ("accuracy", "accuracy"),
    ("balanced_accuracy", "balanced accuracy"),
    ("precision", "precision"),
    ("recall", "recall"),
    ("f1", "F1"),
]


def render(report: ClassificationReport, *, title: str = "nlgmetrics classification report") -> str:
    rows = []
    for s in report.scorers:
        rows.append(f'<td class="name">{esc(s.name)}</td>' + "".join(number(s.metrics[k], 4, system=s.name, field=k) for k, _ in _FIELDS))
    n_pos = int((report.labels == report.pos_label).sum())
    body = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="meta">nlgmetrics {esc(report.version)} · {len(report.labels)} samples, {n_pos} positive (label {esc(report.pos_label)}) · '
        f"predictions: score ≥ {report.threshold:g} unless given · numbers as <code>nlgmetrics classify</code> computes them (scikit-learn's definitions)</p>",
        "<h2>Metrics</h2>",
        table(["scorer"] + [label for _, label in _FIELDS], rows),
    ]
    yb = (report.labels == report.pos_label).astype(int)
    fig_roc, ax_roc = plots.roc_curve(yb, report.scorers[0].scores, label=report.scorers[0].name)
    fig_pr, ax_pr = plots.pr_curve(yb, report.scorers[0].scores, label=report.scorers[0].name)
    for s in report.scorers[1:]:
        plots.roc_curve(yb, s.scores, label=s.name, ax=ax_roc)
        plots.pr_curve(yb, s.scores, label=s.name, ax=ax_pr)
    body.append("<h2>Curves</h2>")
    body.append(f'<div class="plots">{figure(fig_roc, "ROC curves")}{figure(fig_pr, "precision-recall curves")}</div>')
    body.append("<h2>Confusion matrices</h2>")
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
