"""Plots of evaluation results (matplotlib, the ``[report]`` extra).

Every function takes ``ax=None`` and returns ``(fig, ax)``: with no axes it makes a new
:class:`matplotlib.figure.Figure` (not through pyplot, so no global figure state, no GUI
backend and nothing to close); with axes it draws into them and returns their figure.
Nothing here calls ``plt.show()``. The numbers drawn come from nlgmetrics' own functions
(``classification.roc_curve``, ``precision_recall_curve``, ``meta.pearson`` ...), so a
curve's arrays are the ones those functions return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from ..errors import InvalidInputError, LengthMismatchError, MissingExtraError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..engines.significance import ConfidenceInterval


def require() -> None:
    """Raise :class:`MissingExtraError` now if matplotlib is absent (before long work)."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise MissingExtraError("plots need matplotlib: pip install 'nlgmetrics[report]'") from None


def _axes(ax: "Axes | None", size: tuple[float, float] = (5.0, 3.6)) -> tuple["Figure", "Axes"]:
    if ax is not None:
        return ax.figure, ax
    require()
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _literal(fig: "Figure") -> "Figure":
    """Every text of the figure drawn as written: no mathtext (a ``$`` in a system name or a
    class label is a dollar sign, not a formula) and no usetex, whatever rcParams say."""
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        t.set_parse_math(False)
        t.set_usetex(False)
    return fig


_LITERAL_RC = {"text.parse_math": False, "text.usetex": False}  # texts made while drawing (ticks) too


def _legend_outside(ax: "Axes") -> None:
    """The legend right of the axes, never over the data (constrained layout makes room)."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small", frameon=False)


def robust_range(values: np.ndarray) -> tuple[float, float]:
    """The range a histogram shows: the data's, but clipped at 3 interquartile ranges beyond
    the quartiles, so a few outliers (a TER of 400) do not squeeze every other bin into one."""
    lo, hi = float(values.min()), float(values.max())
    q1, q3 = np.quantile(values, [0.25, 0.75])
    spread = 3.0 * (q3 - q1)
    if spread > 0:
        fence_lo, fence_hi = max(lo, float(q1 - spread)), min(hi, float(q3 + spread))
        # clip only when the outliers would squeeze the bulk of the data (not a BLEU of 100)
        if hi - lo > 1.5 * (fence_hi - fence_lo):
            lo, hi = fence_lo, fence_hi
    return lo, hi


def _scores(values: Any, what: str) -> np.ndarray:
    a = np.asarray(values, dtype=np.float64)
    if a.ndim != 1:
        raise InvalidInputError(f"{what} must be one-dimensional, got shape {a.shape}")
    return a


def roc_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None, label: str | None = None, ax: "Axes | None" = None) -> tuple["Figure", "Axes"]:
    """ROC curve (false positive rate, true positive rate) with its AUC in the legend."""
    from ..classification import auc, roc_curve as curve

    fpr, tpr, _ = curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    fig, ax = _axes(ax)
    area = auc(fpr, tpr)
    ax.plot(fpr, tpr, drawstyle="default", label=f"{label + ' ' if label else ''}AUC = {area:.4f}")
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=0.8, label="_chance")
    ax.set(xlabel="false positive rate", ylabel="true positive rate", xlim=(0, 1), ylim=(0, 1.01), title="ROC curve")
    ax.legend(loc="lower right", fontsize="small")
    return _literal(fig), ax


def pr_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None, label: str | None = None, ax: "Axes | None" = None) -> tuple["Figure", "Axes"]:
    """Precision-recall curve as a step function (average precision's own interpolation)."""
    from ..classification import average_precision_score, precision_recall_curve

    precision, recall, _ = precision_recall_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    ap = average_precision_score(y_true, y_score, pos_label=1 if pos_label is None else pos_label, sample_weight=sample_weight)
    fig, ax = _axes(ax)
    ax.plot(recall, precision, drawstyle="steps-post", label=f"{label + ' ' if label else ''}AP = {ap:.4f}")
    ax.set(xlabel="recall", ylabel="precision", xlim=(0, 1), ylim=(0, 1.01), title="Precision-recall curve")
    ax.legend(loc="lower left", fontsize="small")
    return _literal(fig), ax


def confusion_matrix(matrix: Any, labels: Sequence[Any] | None = None, *, ax: "Axes | None" = None, title: str = "Confusion matrix") -> tuple["Figure", "Axes"]:
    """A confusion matrix (rows: true label, columns: predicted label) with its counts."""
    m = np.asarray(matrix)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise InvalidInputError(f"a confusion matrix must be square, got shape {m.shape}")
    names = [str(x) for x in (labels if labels is not None else range(m.shape[0]))]
    if len(names) != m.shape[0]:
        raise LengthMismatchError(f"{len(names)} labels for a {m.shape[0]}x{m.shape[0]} matrix")
    fig, ax = _axes(ax, (3.6 + 0.3 * len(names), 3.2 + 0.3 * len(names)))
    ax.imshow(m, cmap="Blues")
    top = m.max() if m.size else 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            v = m[i, j]
            text = f"{v:g}" if np.issubdtype(m.dtype, np.floating) else str(v)
            ax.text(j, i, text, ha="center", va="center", color="white" if top and v > top / 2 else "black")
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(names)), names)
    ax.set(xlabel="predicted label", ylabel="true label", title=title)
    return _literal(fig), ax


def bootstrap_distribution(ci: "ConfidenceInterval", *, bins: int = 30, label: str | None = None, ax: "Axes | None" = None) -> tuple["Figure", "Axes"]:
    """Histogram of a :class:`~nlgmetrics.engines.significance.ConfidenceInterval`'s resample scores,
    with the full-data score and the 95% interval marked."""
    fig, ax = _axes(ax)
    ax.hist(ci.scores, bins=bins, alpha=0.6, label=label or ci.score.name)
    ax.axvline(ci.score.score, color="black", linewidth=1.2, label=f"score {ci.score.score:.4g}")
    ax.axvline(ci.lower, color="black", linestyle="--", linewidth=0.8, label=f"95% [{ci.lower:.4g}, {ci.upper:.4g}]")
    ax.axvline(ci.upper, color="black", linestyle="--", linewidth=0.8, label="_upper")
    ax.set(xlabel=ci.score.name, ylabel="resamples", title=f"Bootstrap distribution ({len(ci.scores)} resamples)")
    _legend_outside(ax)
    return _literal(fig), ax


def system_bars(
    names: Sequence[str],
    scores: Sequence[float],
    lower: Sequence[float] | None = None,
    upper: Sequence[float] | None = None,
    *,
    metric: str = "score",
    ax: "Axes | None" = None,
) -> tuple["Figure", "Axes"]:
    """One bar per system, with the interval ``[lower, upper]`` as an error bar."""
    s = _scores(scores, "scores")
    if len(names) != len(s):
        raise LengthMismatchError(f"{len(names)} names for {len(s)} scores")
    yerr = None
    if lower is not None or upper is not None:
        if lower is None or upper is None:
            raise InvalidInputError("give both lower and upper, or neither")
        lo, hi = _scores(lower, "lower"), _scores(upper, "upper")
        if len(lo) != len(s) or len(hi) != len(s):
            raise LengthMismatchError("lower and upper need one value per system")
        # an interval need not contain the full-data score; clip so matplotlib gets
        # non-negative error lengths
        yerr = np.vstack([np.maximum(s - lo, 0), np.maximum(hi - s, 0)])
    fig, ax = _axes(ax, (max(4.0, 0.9 * len(s) + 2), 3.6))
    ax.bar(range(len(s)), s, yerr=yerr, capsize=4, color="#4878a8")
    crowded = len(s) > 4 or max((len(str(n)) for n in names), default=0) * len(s) > 40
    ax.set_xticks(range(len(s)), list(names), rotation=30 if crowded else 0, ha="right" if crowded else "center")
    ax.set(ylabel=metric, title=f"{metric} per system" + (" (95% CI)" if yerr is not None else ""))
    return _literal(fig), ax


def system_bars_ci(intervals: Mapping[str, "ConfidenceInterval"], *, ax: "Axes | None" = None) -> tuple["Figure", "Axes"]:
    """:func:`system_bars` from ``{system: bootstrap_ci(...)}``."""
    names = list(intervals)
    cis = [intervals[n] for n in names]
    metric = cis[0].score.name if cis else "score"
    return system_bars(names, [c.score.score for c in cis], [c.lower for c in cis], [c.upper for c in cis], metric=metric, ax=ax)


def segment_histogram(scores: Mapping[str, Any], *, bins: int = 20, metric: str = "score", ax: "Axes | None" = None) -> tuple["Figure", "Axes"]:
    """Per-segment score distributions of several systems on shared bins.

    The shown range is :func:`robust_range` of all scores; values beyond it are counted in
    the first or last bin, which is then hatched and labelled with how many it holds."""
    arrays = {name: _scores(v, f"scores of {name!r}") for name, v in scores.items()}
    finite = [a[np.isfinite(a)] for a in arrays.values()]
    both = np.concatenate(finite) if finite else np.zeros(0)
    lo, hi = robust_range(both) if both.size else (0.0, 1.0)
    edges = np.histogram_bin_edges(np.clip(both, lo, hi), bins=bins) if both.size else np.linspace(0, 1, bins + 1)
    fig, ax = _axes(ax, (6.4, 3.6))
    for name, fa in zip(arrays, finite):
        ax.hist(np.clip(fa, lo, hi), bins=edges, histtype="step", linewidth=1.4, label=f"{name} (mean {fa.mean():.4g})" if fa.size else name)
    below, above = int((both < lo).sum()), int((both > hi).sum())
    for count, (left, right), where in ((below, edges[:2], f"< {lo:.4g}"), (above, edges[-2:], f"> {hi:.4g}")):
        if count:
            ax.axvspan(left, right, facecolor="none", edgecolor="grey", hatch="///", linewidth=0, label=f"{count} segment(s) {where} in this bin")
    ax.set(xlabel=f"segment {metric}", ylabel="segments", title=f"Segment-level {metric}")
    _legend_outside(ax)
    return _literal(fig), ax


def metric_human_scatter(metric_scores: Any, human_scores: Any, *, metric: str = "metric", human: str = "human", ax: "Axes | None" = None) -> tuple["Figure", "Axes"]:
    """Metric against human scores (meta-evaluation), with Pearson's r and Kendall's tau-b."""
    from ..engines.meta import kendall, pearson

    m, h = _scores(metric_scores, "metric_scores"), _scores(human_scores, "human_scores")
    if len(m) != len(h):
        raise LengthMismatchError(f"{len(m)} metric scores for {len(h)} human scores")
    r, tau = pearson(m, h), kendall(m, h)
    fig, ax = _axes(ax)
    ax.scatter(h, m, s=12, alpha=0.6)
    ax.set(xlabel=human, ylabel=metric, title=f"{metric} vs {human}: r = {r:.3f}, τ = {tau:.3f}")
    return _literal(fig), ax


def to_png(fig: "Figure", dpi: int = 200) -> bytes:
    """The figure as PNG bytes (200 dpi: sharp in print)."""
    import io

    from matplotlib import rc_context

    buf = io.BytesIO()
    _literal(fig)
    with rc_context(_LITERAL_RC):
        fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def to_svg(fig: "Figure") -> str:
    """The figure as an ``<svg>`` element to inline in HTML: text stays text (searchable,
    sharp at any zoom), element ids are stable across runs, and no XML prolog or metadata."""
    import io
    import re

    from matplotlib import rc_context

    buf = io.StringIO()
    _literal(fig)
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "nlgmetrics", **_LITERAL_RC}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    return re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg, count=2)


__all__ = [
    "bootstrap_distribution",
    "require",
    "confusion_matrix",
    "metric_human_scatter",
    "pr_curve",
    "roc_curve",
    "segment_histogram",
    "system_bars",
    "system_bars_ci",
    "robust_range",
    "to_png",
    "to_svg",
]
