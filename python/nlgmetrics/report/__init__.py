"""Self-contained HTML reports (the ``[report]`` extra: matplotlib for the plots).

- :func:`text_report` / :func:`render_text`: systems against references with every metric
  asked for: signatures, scores with bootstrap intervals and paired significance against a
  baseline, segment-score distributions, lengths, compare-mt's analyses and sentence
  examples (:mod:`nlgmetrics.analysis`), and a sortable, filterable table of every segment.
- :func:`classification_report` / :func:`render_classification`: binary scorers against
  labels: metrics, ROC and precision-recall curves, confusion matrices.

The numbers are computed first (``data`` modules, plain data), then rendered (``text``,
``classification_html``): one HTML file, inline CSS, SVG figures with PNG links, every
table with CSV and LaTeX links (:mod:`.export`), one inline script that sorts and filters
(nothing is fetched; without it every row shows).
"""

from __future__ import annotations

from .classification import ClassificationReport, classification_report
from .data import TextReport, text_report


def render_text(report: TextReport, **options) -> str:
    from .text import render

    return render(report, **options)


def render_classification(report: ClassificationReport, **options) -> str:
    from .classification_html import render

    return render(report, **options)


__all__ = ["ClassificationReport", "TextReport", "classification_report", "render_classification", "render_text", "text_report"]
