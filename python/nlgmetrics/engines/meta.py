"""Meta-evaluation: how well a metric agrees with human judgments.

Correlations (each equal to ``scipy.stats`` on the same vectors, tested):

- ``pearson``: Pearson's r, computed as ``scipy.stats.pearsonr`` does (centred, normalised
  vectors, dot product, clipped to [-1, 1]).
- ``spearman``: Pearson's r of average ranks (``scipy.stats.spearmanr``).
- ``kendall`` / ``kendall-c``: Kendall's tau-b / tau-c with scipy's tie handling.
- ``kendall-like``: the WMT DARR "Kendall's tau-like" formulation of the WMT17–20 metrics
  tasks (Ma et al. 2018, 2019; Mathur et al. 2020): within each source segment (``groups``),
  every pair of translations whose human DA scores differ by more than ``threshold``
  (25 points) is a relative-ranking judgment; ``tau = (Concordant - Discordant) /
  (Concordant + Discordant)``, where a metric tie counts as Discordant.
- ``pairwise-accuracy``: Kocmi et al. (2021) system-level pairwise accuracy, the share of
  system pairs ordered the same way by the metric and the humans.

WMT24's two numbers (``meta_pairwise``, equal to google-research/mt-metrics-eval):
``soft_pairwise_accuracy`` (system level, from paired permutation p-values) and
``tie_calibrated_accuracy`` (segment level acc-eq, with its optimised tie threshold).

System level follows the WMT20–22 metrics tasks: Pearson's r between the metric's corpus
scores and the human system scores (WMT22 DA: the ``Z.SCR``/``RAW.SCR`` averages).
Confidence intervals resample test segments (one set of Philox-drawn indices shared by
all systems; each system's metric score recomputed from its resampled statistics) and keep
the human system scores fixed, since DA judgments cover only part of each system's
segments. Segment level resamples items (``groups``, e.g. source segments) or single
rows. Intervals are percentile intervals with sacrebleu's ``N // 40`` rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from .._inputs import unordered_reason
from .._resources import n_threads_value
from .. import _core
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from ..metrics.base import Metric
from .significance import DEFAULT_SEED, _check_count, _exact_scores, _resolve_seed
from .._numbers import real_array
from ..stats import SegmentStats
from .meta_pairwise import TieCalibration, pairwise_p_values, soft_pairwise_accuracy, tie_calibrated_accuracy  # noqa: F401

CORRELATIONS = ("pearson", "spearman", "kendall", "kendall-c", "kendall-like", "pairwise-accuracy")


def _floats(x: Any, what: str) -> np.ndarray:
    # booleans are scores scipy correlates (0/1 judgements); complex numbers and strings are refused
    return real_array(x, what, ndim=(0, 1, 2, 3), allow_nan=True, allow_bool=True)


def _vectors(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    a = _floats(x, "the metric scores")
    b = _floats(y, "the human scores")
    if a.ndim != 1 or b.ndim != 1:
        raise InvalidInputError("correlations take two 1-D sequences of numbers")
    if len(a) != len(b):
        raise LengthMismatchError(f"{len(a)} metric scores but {len(b)} human scores")
    if len(a) < 2:
        raise InvalidInputError(f"a correlation needs at least 2 pairs, got {len(a)}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InvalidInputError("scores must be finite (no NaN or infinity)")
    return a, b


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r (nan when one side is constant, as scipy).

    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 6)
    0.8
    """
    a, b = _vectors(x, y)
    return _pearson(a, b)


def _pearson(a: np.ndarray, b: np.ndarray) -> float:
    am = a - a.mean()
    bm = b - b.mean()
    na, nb = np.linalg.norm(am), np.linalg.norm(bm)
    if na == 0 or nb == 0:
        return math.nan
    r = float(np.dot(am / na, bm / nb))
    return max(min(r, 1.0), -1.0)


def _rank(a: np.ndarray) -> np.ndarray:
    """Average ranks (1-based), ties sharing the mean rank."""
    order = np.argsort(a, kind="mergesort")
    s = a[order]
    starts = np.r_[True, s[1:] != s[:-1]]
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    counts = np.diff(np.r_[first, len(a)])
    avg = first + (counts + 1) / 2.0
    ranks = np.empty(len(a))
    ranks[order] = avg[group]
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: Pearson's r of average ranks."""
    a, b = _vectors(x, y)
    ra, rb = _rank(a), _rank(b)
    if (ra == ra[0]).all() or (rb == rb[0]).all():
        return math.nan  # a constant side has no correlation (scipy warns and returns nan)
    c = np.corrcoef(ra, rb)
    return float(c[0, 1]) if np.isfinite(c[0, 1]) else math.nan


def _tie_pairs(a: np.ndarray) -> int:
    _, counts = np.unique(a, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def _discordant(a: np.ndarray, b: np.ndarray) -> int:
    """Pairs ordered one way by ``a`` and strictly the other way by ``b`` (Fenwick tree)."""
    order = np.lexsort((b, a))
    rb = np.unique(b, return_inverse=True)[1][order] + 1
    m = int(rb.max())
    tree = [0] * (m + 1)
    dis = 0
    for seen, r in enumerate(rb.tolist()):
        # count earlier elements with rank > r: seen - (#earlier with rank <= r)
        i, le = r, 0
        while i > 0:
            le += tree[i]
            i -= i & -i
        dis += seen - le
        i = r
        while i <= m:
            tree[i] += 1
            i += i & -i
    return dis


def kendall(x: Sequence[float], y: Sequence[float], variant: str = "b") -> float:
    """Kendall's tau-b (default) or tau-c, as ``scipy.stats.kendalltau``.

    >>> round(kendall([1, 2, 3, 4], [1, 3, 2, 4]), 6)
    0.666667
    """
    if variant not in ("b", "c"):
        raise InvalidOptionError(f"unknown Kendall variant {variant!r}; known: b, c")
    a, b = _vectors(x, y)
    n = len(a)
    tot = n * (n - 1) // 2
    xtie, ytie = _tie_pairs(a), _tie_pairs(b)
    ntie = _joint_ties(a, b)
    dis = _discordant(a, b)
    con_minus_dis = tot - xtie - ytie + ntie - 2 * dis
    if xtie == tot or ytie == tot:
        return math.nan
    if variant == "b":
        tau = con_minus_dis / math.sqrt(tot - xtie) / math.sqrt(tot - ytie)
    else:
        minclasses = min(len(np.unique(a)), len(np.unique(b)))
        tau = 2 * con_minus_dis / (n**2 * (minclasses - 1) / minclasses)
    return max(min(tau, 1.0), -1.0)


def _joint_ties(a: np.ndarray, b: np.ndarray) -> int:
    _, counts = np.unique(np.stack([a, b], axis=1), axis=0, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def pairwise_accuracy(x: Sequence[float], y: Sequence[float]) -> float:
    """Share of pairs with ``sign(x_i - x_j) == sign(y_i - y_j)`` (Kocmi et al. 2021)."""
    a, b = _vectors(x, y)
    i, j = np.triu_indices(len(a), 1)
    return float(np.mean(np.sign(a[i] - a[j]) == np.sign(b[i] - b[j])))


def _darr_counts(metric: np.ndarray, human: np.ndarray, groups: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Per group: (concordant, discordant) DARR pairs; returns the groups and a (G, 2) matrix."""
    order = np.argsort(groups, kind="stable")
    g, m, h = groups[order], metric[order], human[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    ends = np.r_[starts[1:], len(g)]
    out = np.zeros((len(starts), 2), dtype=np.uint64)
    for k, (s, e) in enumerate(zip(starts.tolist(), ends.tolist())):
        if e - s < 2:
            continue
        i, j = np.triu_indices(e - s, 1)
        dh = h[s:e][i] - h[s:e][j]
        keep = np.abs(dh) > threshold
        dm = (m[s:e][i] - m[s:e][j])[keep]
        conc = int(np.sum(np.sign(dm) == np.sign(dh[keep])))
        out[k] = (conc, int(keep.sum()) - conc)
    return g[starts], out


def kendall_like(metric_scores: Sequence[float], human_scores: Sequence[float], groups: Sequence[Any], threshold: float = 25.0) -> float:
    """WMT DARR Kendall's tau-like (see the module docstring)."""
    m, h = _vectors(metric_scores, human_scores)
    if groups is None or isinstance(groups, (str, bytes)) or not hasattr(groups, "__len__") or unordered_reason(groups):
        raise InputTypeError(f"groups must be a sequence (one group id per score), not {type(groups).__name__}")
    try:
        g = np.asarray(groups)
    except ValueError as e:  # ragged rows
        raise InputTypeError(f"groups must be one id per score: {e}") from None
    if g.ndim != 1:
        raise InputTypeError("groups must be one hashable id per score (a 1-D sequence)")
    if len(g) != len(m):
        raise LengthMismatchError(f"{len(g)} groups for {len(m)} scores")
    _, counts = _darr_counts(m, h, g, threshold)
    return _tau_like(counts.sum(axis=0))


def _tau_like(cd: np.ndarray) -> float:
    c, d = int(cd[0]), int(cd[1])
    return (c - d) / (c + d) if c + d else math.nan


_FUNCS = {
    "pearson": _pearson,
    "spearman": lambda a, b: spearman(a, b),
    "kendall": lambda a, b: kendall(a, b, "b"),
    "kendall-c": lambda a, b: kendall(a, b, "c"),
    "pairwise-accuracy": lambda a, b: pairwise_accuracy(a, b),
}


@dataclass
class Correlation:
    """A correlation with its bootstrap percentile interval (``lower``/``upper`` are None without resampling)."""

    correlation: str
    level: str
    value: float
    n: int
    lower: float | None = None
    upper: float | None = None
    n_resamples: int = 0
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _interval(values: np.ndarray) -> tuple[float, float]:
    s = np.sort(values[np.isfinite(values)])
    if not len(s):
        return math.nan, math.nan
    k = len(s) // 40
    return float(s[k]), float(s[len(s) - k - 1])


def _check_correlation(name: str, allowed: Sequence[str] = CORRELATIONS) -> None:
    if name not in allowed:
        raise InvalidOptionError(f"unknown correlation {name!r}; known: {', '.join(allowed)}")


def system_level(
    metric: Metric,
    systems: Mapping[str, SegmentStats],
    human: Mapping[str, float],
    *,
    correlation: str = "pearson",
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    n_threads: int = 0,
) -> Correlation:
    """System-level correlation of ``metric``'s corpus scores with human system scores.

    ``systems`` maps a system name to its per-segment statistics (``metric.stats(...)``);
    systems without a human score are an error. ``n_resamples=0`` skips the interval.
    """
    _check_correlation(correlation, [c for c in CORRELATIONS if c != "kendall-like"])
    n_threads = n_threads_value(n_threads)
    if not isinstance(metric, Metric):
        raise InputTypeError(f"system_level: metric must be an nlgmetrics metric (e.g. load('bleu')), not {type(metric).__name__}")
    for what, value in (("systems", systems), ("human", human)):
        if not isinstance(value, Mapping):
            raise InputTypeError(f"system_level: {what} must be a mapping of system names, not {type(value).__name__}")
    bad = [n for n, s in systems.items() if not isinstance(s, SegmentStats)]
    if bad:
        raise InputTypeError(f"system_level: systems map a name to metric.stats(...); {bad[0]!r} maps to {type(systems[bad[0]]).__name__}")
    names = list(systems)
    missing = [n for n in names if n not in human]
    if missing:
        raise InvalidInputError(f"no human score for system(s) {', '.join(missing)}")
    if len(names) < 3:
        raise InvalidInputError(f"a system-level correlation needs at least 3 systems, got {len(names)}")
    stats = [systems[n] for n in names]
    lengths = {len(s) for s in stats}
    if len(lengths) != 1:
        raise LengthMismatchError(f"systems have different numbers of segments: {sorted(lengths)}")
    try:
        h = np.array([float(human[n]) for n in names])
    except (TypeError, ValueError) as e:
        raise InputTypeError(f"system_level: human scores must be numbers: {e}") from None
    m = np.array([metric.score_stats(s).score for s in stats])
    fn = _FUNCS[correlation]
    value = fn(m, h)
    out = Correlation(correlation, "system", value, len(names))
    if n_resamples:
        n_resamples = _check_count("n_resamples", n_resamples)
        seed, _ = _resolve_seed(seed, "nlgmetrics")
        idx = _core.sig_multinomial_indices(seed, n_resamples, lengths.pop(), n_threads)
        scores = np.stack(_exact_scores(metric, stats, "indices", idx, n_threads), axis=1)
        values = np.array([fn(row, h) for row in scores])
        out.lower, out.upper = _interval(values)
        out.n_resamples, out.seed = n_resamples, seed
    return out


def segment_level(
    metric_scores: Sequence[float],
    human_scores: Sequence[float],
    *,
    groups: Sequence[Any] | None = None,
    correlation: str = "pearson",
    threshold: float = 25.0,
    n_resamples: int = 0,
    seed: int | None = DEFAULT_SEED,
    n_threads: int = 0,
) -> Correlation:
    """Segment-level correlation of metric and human scores of the same rows.

    ``groups`` (e.g. the source segment of each row) are the resampling units and, for
    ``kendall-like``, the sets within which translations are compared.
    """
    _check_correlation(correlation)
    n_threads = n_threads_value(n_threads)
    m, h = _vectors(metric_scores, human_scores)
    g = np.arange(len(m)) if groups is None else np.asarray(groups)
    if len(g) != len(m):
        raise LengthMismatchError(f"{len(g)} groups for {len(m)} scores")
    if correlation == "kendall-like":
        if groups is None:
            raise InvalidInputError("kendall-like compares translations of the same source: give groups=")
        _, cd = _darr_counts(m, h, g, threshold)
        value = _tau_like(cd.sum(axis=0))
    else:
        value = _FUNCS[correlation](m, h)
    out = Correlation(correlation, "segment", value, len(m))
    if not n_resamples:
        return out
    n_resamples = _check_count("n_resamples", n_resamples)
    seed, _ = _resolve_seed(seed, "nlgmetrics")
    uniq, inverse = np.unique(g, return_inverse=True)
    idx = _core.sig_multinomial_indices(seed, n_resamples, len(uniq), n_threads)
    if correlation == "kendall-like":
        # per-group (concordant, discordant) counts times the group-count matrix
        keys, cd = _darr_counts(m, h, g, threshold)
        pos = np.searchsorted(uniq, keys)
        per_group = np.zeros((len(uniq), 2), dtype=np.uint64)
        per_group[pos] = cd
        totals = _core.sig_totals_u64("indices", idx, per_group, n_threads)
        values = np.array([_tau_like(t) for t in totals])
    else:
        order = np.argsort(inverse, kind="stable")
        starts = np.searchsorted(inverse[order], np.arange(len(uniq)))
        ends = np.r_[starts[1:], len(order)]
        fn = _FUNCS[correlation]
        values = np.empty(n_resamples)
        for r in range(n_resamples):
            rows = np.concatenate([order[starts[i]:ends[i]] for i in idx[r]])
            values[r] = fn(m[rows], h[rows])
    out.lower, out.upper = _interval(values)
    out.n_resamples, out.seed = n_resamples, seed
    return out


__all__ = [
    "CORRELATIONS",
    "Correlation",
    "kendall",
    "kendall_like",
    "pairwise_accuracy",
    "pearson",
    "segment_level",
    "spearman",
    "system_level",
]
