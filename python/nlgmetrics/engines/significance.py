"""Confidence intervals and paired significance tests for any metric.

Everything works on per-segment statistics (:class:`~nlgmetrics.SegmentStats`): a
resample is an index-count matrix times the statistics matrix (computed in the Rust
core), then the metric scores every resampled total at once
(``Metric._scores_from_totals``). Text is tokenized once, never per resample.

Two methods:

- ``method="nlgmetrics"`` (default): draws from Philox4x64-10, a counter-based generator
  keyed by the seed (so results do not depend on threads or on NumPy's version); integer
  statistics summed in u64 and real-valued ones exactly rounded; the mean is
  ``fsum(scores) / n``. ``resampling="poisson"`` replaces the multinomial draws by
  Poisson(1) weights keyed by ``(seed, segment id, resample)``: each segment's weight is
  the same whichever shard holds it, so shards can be resampled separately and their
  :class:`ResampledTotals` merged (bootstrap for distributed data; Hanley & MacGibbon 2006,
  Chamandy et al. 2012).
- ``method="sacrebleu"``: sacrebleu 2.6.0's procedure and numbers. Indices from
  ``numpy.random.default_rng(seed).choice(n, size=(n_resamples, n))`` in one call (the
  same matrix for the baseline and every system), randomization masks from
  ``default_rng(seed).integers(2, size=(n_trials, n), dtype=bool)``; statistics cast to
  float32 and summed in float32 (its ``np.array(stats, dtype='float32')[idxs].sum(0)``);
  BLEU, chrF/chrF++ and TER of float32 totals as NumPy ≥ 2 computes them (chrF and TER in
  float32 arithmetic, their scores kept as float32: ``_sacrebleu_float32.py``). The
  single-system CI mean is ``statistics.mean`` of those scores (as
  ``corpus_score(n_bootstrap=...)``), paired-test means and p-value centring ``np.mean``.
  Randomization sums real-valued statistics (TER's) with NumPy's matrix product, and the
  whole-corpus score sums them in segment order (sacrebleu's ``sum_of_lists``). Every
  number equals sacrebleu's (``tests/test_significance_sacrebleu.py``). Where sacrebleu
  itself fails (``statistics.mean`` over a mix of float32 and Python-float scores, when a
  resample holds only empty references) the mean is that of the same scores as floats.

Shared definitions (sacrebleu's, which follow Koehn 2004 and Clark et al. 2011 / multeval):

- CI: sort the ``N`` resample scores, ``lower = s[N // 40]``, ``upper = s[N - N // 40 - 1]``,
  ``ci = (upper - lower) / 2``; reported as ``score (μ = mean ± ci)``.
- Paired bootstrap: ``diff = |score_bl - score_sys|`` on the full data; per resample
  ``d_i = |s_sys,i - s_bl,i|``; ``p = (#{d_i - mean(d) > diff} + 1) / (N + 1)``.
- Paired approximate randomization: per trial swap each segment between the two systems
  with probability 1/2; ``p = (#{|score(A_t) - score(B_t)| > diff} + 1) / (N + 1)``.

Seeds: default 12345 (sacrebleu's). ``seed=None`` draws a fresh seed from the OS and
records it in the signature (``method="sacrebleu"`` passes ``None`` to NumPy and records
``none``, as sacrebleu does). Unlike sacrebleu's ``PairedTest``, seed 0 is an ordinary seed:
sacrebleu treats 0 as "unseeded" for the compared systems only (``seed if seed else
None``), which makes its output irreproducible, so there is nothing to be compatible with.

Signatures gain ``bs:N|seed:S`` (paired bootstrap and CIs) or ``ar:N|seed:S`` right after
``nrefs``, in sacrebleu's order; the nlgmetrics method adds ``resampling:philox`` or
``resampling:poisson``, since the same seed gives other draws than sacrebleu's.
"""

from __future__ import annotations

import dataclasses
import math
import secrets
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .. import _core
from .._resources import check_allocation, n_threads_value
from ..errors import IncompatibleStatsError, InvalidInputError, InvalidOptionError, LengthMismatchError, ResourceLimitError
from ..metrics.base import Metric, Score
from ..signature import Signature
from ..stats import SegmentStats, exact_partials

DEFAULT_SEED = 12345
METHODS = ("nlgmetrics", "sacrebleu")
RESAMPLINGS = ("multinomial", "poisson")
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}

# sacrebleu scores float32 totals with float32 arithmetic in places (NumPy ≥ 2 promotion);
# metrics whose sacrebleu flavour does so register an emulation here (class -> scorer of a
# float32 totals matrix). Metrics not listed are scored from the float32-rounded totals.
_SACREBLEU_F32_SCORERS: dict[type, Callable[[Metric, np.ndarray], np.ndarray]] = {}


def register_sacrebleu_float32_scorer(cls: type, scorer: Callable[[Metric, np.ndarray], np.ndarray]) -> None:
    """Declare how sacrebleu scores float32 totals of metric class ``cls``."""
    _SACREBLEU_F32_SCORERS[cls] = scorer


def _sacrebleu_bleu_f32(metric: Any, totals: np.ndarray) -> np.ndarray:
    return _core.sig_sacrebleu_bleu_f32_scores(totals, metric.max_ngram_order, metric.smooth_method, metric.smooth_value, metric.effective_order)


def _register_builtin() -> None:
    from .._sacrebleu_float32 import sacrebleu_chrf, sacrebleu_ter
    from ..metrics.bleu import SacreBLEU
    from ..metrics.chrf import SacreCHRF
    from ..metrics.ter import SacreTER

    register_sacrebleu_float32_scorer(SacreBLEU, _sacrebleu_bleu_f32)
    register_sacrebleu_float32_scorer(SacreCHRF, sacrebleu_chrf)
    register_sacrebleu_float32_scorer(SacreTER, sacrebleu_ter)


_register_builtin()


# -- validation ------------------------------------------------------------------------
def _check_choice(name: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise InvalidOptionError(f"unknown {name} {value!r}; known: {', '.join(allowed)}")


def _check_count(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidOptionError(f"{name} must be a positive integer, got {n!r}")
    if n >= 1 << 62:
        raise ResourceLimitError(f"{name}={n} resamples need more memory than any machine's address space")
    return int(n)


def _check_draw_memory(name: str, n_draws: int, systems: Sequence[SegmentStats]) -> None:
    """Refuse, before drawing, a resample count whose matrices cannot fit in memory: per
    draw one row of int64 indices (or a mask and its complements) over the segments,
    plus u64/f64 totals and float64 scores of every system."""
    n = len(systems[0]) if systems else 0
    width = sum(s.counts.shape[1] + (0 if s.sums is None else s.sums.shape[1]) + 2 for s in systems)
    row_bytes = 8 * n + 24 * width
    check_allocation(n_draws * row_bytes, f"{name}={n_draws} over {n} segments")


def _resolve_seed(seed: Any, method: str) -> tuple[int | None, str]:
    """The seed to use and its signature value."""
    if seed is None:
        if method == "sacrebleu":
            return None, "none"
        seed = secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise InvalidOptionError(f"seed must be an integer in [0, 2**64) or None, got {seed!r}")
    return int(seed), str(int(seed))


def _check_stats(metric: Metric, stats: SegmentStats, what: str) -> None:
    if not isinstance(stats, SegmentStats):
        raise InvalidInputError(f"{what} must be SegmentStats (metric.stats(...)), got {type(stats).__name__}")
    if stats.key != metric.key:
        raise IncompatibleStatsError(f"{what} are statistics of {stats.key!r}, not of {metric.key!r}")
    if len(stats) == 0:
        raise InvalidInputError(f"{what}: cannot resample an empty corpus")


def _sum_matrix(stats: SegmentStats) -> np.ndarray:
    return np.ascontiguousarray(stats._sum_matrix(), dtype=np.float64)


# -- resampled totals -----------------------------------------------------------------
def _counts_and_segments(stats: SegmentStats) -> np.ndarray:
    """The count matrix with a last column of ones: resampled, it counts the segments
    drawn, which metrics that average over segments (ROUGE, CIDEr, ...) divide by."""
    return np.hstack([np.asarray(stats.counts, dtype=np.uint64), np.ones((len(stats), 1), dtype=np.uint64)])


def _score_totals(metric: Metric, counts: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """Scores of resampled totals whose last count column is the number of segments."""
    # __class__, not type(): wrappers (progress.ChunkedMetric) present the wrapped class.
    if metric.__class__._scores_from_totals is Metric._scores_from_totals:
        return metric._scores_from_totals(counts[:, :-1], sums, n_segments=counts[:, -1])
    return metric._scores_from_totals(np.ascontiguousarray(counts[:, :-1]), sums)


def _exact_scores(metric: Metric, systems: Sequence[SegmentStats], kind: str, draws: np.ndarray, n_threads: int) -> list[np.ndarray]:
    """Scores of every resample for each system: one count-matrix product for all systems."""
    counts = np.ascontiguousarray(np.hstack([_counts_and_segments(s) for s in systems]), dtype=np.uint64)
    sums = np.ascontiguousarray(np.hstack([_sum_matrix(s) for s in systems]))
    tc = _core.sig_totals_u64(kind, draws, counts, n_threads)
    ts = _core.sig_totals_f64(kind, draws, sums, False, n_threads)[0] if sums.shape[1] else np.zeros((len(tc), 0))
    k, m = len(metric.count_fields) + 1, len(metric.sum_fields)
    return [_score_totals(metric, tc[:, i * k:(i + 1) * k], ts[:, i * m:(i + 1) * m]) for i in range(len(systems))]


def _sacrebleu_scores(metric: Metric, systems: Sequence[SegmentStats], indices: np.ndarray, n_threads: int) -> list[np.ndarray]:
    """sacrebleu's float32 resample scores (see the module docstring)."""
    k, m = len(metric.count_fields), len(metric.sum_fields)
    stats = np.hstack([np.hstack([s.counts.astype(np.float64), _sum_matrix(s)]) for s in systems])
    totals = _core.sig_index_totals_f32(np.ascontiguousarray(indices, dtype=np.int64), np.ascontiguousarray(stats), n_threads)
    scorer = next((f for cls, f in _SACREBLEU_F32_SCORERS.items() if isinstance(metric, cls)), None)
    out = []
    for i in range(len(systems)):
        t = np.ascontiguousarray(totals[:, i * (k + m):(i + 1) * (k + m)])
        if scorer is not None:
            # float32 scores stay float32: sacrebleu averages and compares them in float32
            scores = np.asarray(scorer(metric, t))
            out.append(scores if scores.dtype == np.float32 else scores.astype(np.float64))
        else:
            drawn = np.full((len(t), 1), indices.shape[1], dtype=np.uint64)
            out.append(_score_totals(metric, np.hstack([t[:, :k].astype(np.uint64), drawn]), t[:, k:].astype(np.float64)))
    return out


def _full_score(metric: Metric, stats: SegmentStats, method: str) -> Score:
    """The score of the whole corpus. ``method="sacrebleu"`` sums real-valued statistics as
    sacrebleu's ``sum_of_lists`` does, one segment after the other in float64 (TER's average
    reference lengths over three references are not exact binary fractions, so the order
    of additions can move the last bit; nlgmetrics' own sum is exactly rounded)."""
    total = stats.total()
    if method != "sacrebleu" or stats.sums is None or not len(metric.sum_fields):
        return metric.score_stats(total)
    in_order = np.cumsum(_sum_matrix(stats), axis=0)[-1]  # cumsum adds strictly in order
    return metric.score_stats(total.replace(sum_partials=tuple((float(v),) for v in in_order)))


@dataclass
class ResampledTotals:
    """Poisson-bootstrap totals of one shard (or of merged shards): mergeable with ``+``.

    ``counts[r]`` and the exact partials of the sums of resample ``r``; shards resampled
    with the same seed and disjoint segment ids merge into exactly the totals of the
    whole corpus.
    """

    key: str
    seed: int
    counts: np.ndarray
    sum_partials: list[tuple[float, ...]]
    n_sum_fields: int
    n_segments: int

    def __add__(self, other: "ResampledTotals") -> "ResampledTotals":
        if not isinstance(other, ResampledTotals):
            return NotImplemented
        if (other.key, other.seed, other.counts.shape, other.n_sum_fields) != (self.key, self.seed, self.counts.shape, self.n_sum_fields):
            raise IncompatibleStatsError("resampled totals of different metrics, seeds or resample counts cannot be merged")
        return ResampledTotals(
            self.key,
            self.seed,
            self.counts + other.counts,
            [exact_partials(b, a) for a, b in zip(self.sum_partials, other.sum_partials)],
            self.n_sum_fields,
            self.n_segments + other.n_segments,
        )

    def sums(self) -> np.ndarray:
        n = len(self.counts)
        return np.array([math.fsum(p) for p in self.sum_partials], dtype=np.float64).reshape(n, self.n_sum_fields)

    def scores(self, metric: Metric) -> np.ndarray:
        if metric.key != self.key:
            raise IncompatibleStatsError(f"totals of {self.key!r} cannot be scored by {metric.key!r}")
        return _score_totals(metric, self.counts, self.sums())


def poisson_totals(metric: Metric, stats: SegmentStats, *, segment_ids: Sequence[int] | np.ndarray | None = None, n_resamples: int = 1000, seed: int = DEFAULT_SEED, n_threads: int = 0) -> ResampledTotals:
    """Poisson(1)-weighted totals of ``n_resamples`` resamples of one shard.

    ``segment_ids`` (default ``0..n-1``) name the segments globally: give each shard its
    own ids and merge the shards' results with ``+``.
    """
    _check_stats(metric, stats, "stats")
    n_resamples = _check_count("n_resamples", n_resamples)
    n_threads = n_threads_value(n_threads)
    _check_draw_memory("n_resamples", n_resamples, [stats])
    seed, _ = _resolve_seed(seed, "nlgmetrics")
    ids = np.arange(len(stats), dtype=np.uint64) if segment_ids is None else np.asarray(segment_ids)
    if ids.shape != (len(stats),):
        raise LengthMismatchError(f"{len(ids)} segment ids for {len(stats)} segments")
    if ids.dtype.kind not in "iu" or (ids.dtype.kind == "i" and (ids < 0).any()):
        raise InvalidInputError("segment ids must be non-negative integers")
    if len(np.unique(ids)) != len(ids):
        raise InvalidInputError("segment ids must be unique")
    w = _core.sig_poisson_weights(seed, np.ascontiguousarray(ids, dtype=np.uint64), n_resamples, n_threads)
    counts = _core.sig_totals_u64("weights", w, np.ascontiguousarray(_counts_and_segments(stats)), n_threads)
    sums = _sum_matrix(stats)
    partials: list[tuple[float, ...]] = []
    if sums.shape[1]:
        _, flat, lens = _core.sig_totals_f64("weights", w, sums, True, n_threads)
        ends = np.cumsum(lens)
        partials = [tuple(flat[e - n:e]) for e, n in zip(ends.tolist(), lens.tolist())]
    return ResampledTotals(metric.key, seed, counts, partials, sums.shape[1], len(stats))


# -- results ------------------------------------------------------------------------
def _estimate(scores: np.ndarray, mean: str) -> tuple[float, float, float, float]:
    s = np.sort(scores)
    n = len(s)
    lo, hi = s[n // 40], s[n - n // 40 - 1]
    if mean == "statistics":
        # sacrebleu passes its scores' own type: NumPy float32 scalars give a float32 mean
        mu = statistics.mean(list(s) if s.dtype == np.float32 else s.tolist())
    elif mean == "numpy":
        mu = float(s.mean())  # sacrebleu's estimate_ci averages the sorted scores
    else:
        mu = math.fsum(scores.tolist()) / n
    return float(mu), float(0.5 * (hi - lo)), float(lo), float(hi)


def _p_value(stats: np.ndarray, diff: float) -> float:
    """multeval's ``(#{stats > diff} + 1) / (N + 1)``: never 0, 1 when nothing exceeds."""
    return (int(np.sum(stats > diff)) + 1) / (len(stats) + 1)


def resampling_signature(metric: Metric, stats: SegmentStats, *, bs: int | None = None, ar: int | None = None, seed: str | None = None, resampling: str | None = None) -> Signature:
    """The metric's signature with ``bs``/``ar``/``seed`` right after ``nrefs`` (sacrebleu's order)."""
    base = metric.signature(stats.total())
    info = dict(base.info)
    items: dict[str, Any] = {"nrefs": info.pop("nrefs", None), "bs": bs, "ar": ar, "seed": seed, "resampling": resampling}
    items.update(info)
    return Signature(items, {**base._abbr, "resampling": "rsm"})


def _resampling_item(method: str, resampling: str) -> str | None:
    if method == "sacrebleu":
        return None
    return "poisson" if resampling == "poisson" else "philox"


@dataclass
class ConfidenceInterval:
    """A score with its bootstrap mean and 95% interval (``ci`` is the half-width)."""

    score: Score
    mean: float
    ci: float
    lower: float
    upper: float
    scores: np.ndarray = field(repr=False)
    signature: Signature = field(repr=False)

    def format(self, width: int = 2) -> str:
        return f"{self.score.score:.{width}f} (μ = {self.mean:.{width}f} ± {self.ci:.{width}f})"

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score.score, "mean": self.mean, "ci": self.ci, "lower": self.lower, "upper": self.upper, "signature": self.signature.format()}


def _draw_indices(method: str, seed: int | None, n_resamples: int, n: int, n_threads: int) -> np.ndarray:
    if method == "sacrebleu":
        return np.random.default_rng(seed).choice(n, size=(n_resamples, n), replace=True)
    return _core.sig_multinomial_indices(seed, n_resamples, n, n_threads)


def _bootstrap_scores(metric: Metric, systems: Sequence[SegmentStats], *, method: str, resampling: str, seed: int | None, n_resamples: int, n_threads: int) -> list[np.ndarray]:
    n = len(systems[0])
    if resampling == "poisson":
        return [poisson_totals(metric, s, n_resamples=n_resamples, seed=seed, n_threads=n_threads).scores(metric) for s in systems]
    idx = _draw_indices(method, seed, n_resamples, n, n_threads)
    if method == "sacrebleu":
        return _sacrebleu_scores(metric, systems, idx, n_threads)
    return _exact_scores(metric, systems, "indices", idx, n_threads)


def _check_method(method: str, resampling: str) -> None:
    _check_choice("method", method, METHODS)
    _check_choice("resampling", resampling, RESAMPLINGS)
    if method == "sacrebleu" and resampling != "multinomial":
        raise InvalidOptionError("method='sacrebleu' resamples with numpy's multinomial draws only")


def bootstrap_ci(metric: Metric, stats: SegmentStats, *, n_resamples: int = 1000, seed: int | None = DEFAULT_SEED, method: str = "nlgmetrics", resampling: str = "multinomial", n_threads: int = 0) -> ConfidenceInterval:
    """Bootstrap 95% confidence interval of ``metric`` on per-segment ``stats``.

    ``method="sacrebleu"`` reproduces ``sacrebleu`` ``corpus_score(..., n_bootstrap=N)``
    (its mean is ``statistics.mean`` of the resample scores).

    >>> from nlgmetrics import BLEU
    >>> from nlgmetrics.engines.significance import bootstrap_ci
    >>> m = BLEU()
    >>> st = m.stats(["the cat sat", "a dog ran off", "hello there"], [["the cat sat"], ["the dog ran"], ["hi there"]])
    >>> ci = bootstrap_ci(m, st, n_resamples=200, seed=1)
    >>> ci.lower <= ci.mean <= ci.upper
    True
    """
    _check_method(method, resampling)
    _check_stats(metric, stats, "stats")
    n_resamples = _check_count("n_resamples", n_resamples)
    n_threads = n_threads_value(n_threads)
    _check_draw_memory("n_resamples", n_resamples, [stats])
    seed, seed_str = _resolve_seed(seed, method)
    (scores,) = _bootstrap_scores(metric, [stats], method=method, resampling=resampling, seed=seed, n_resamples=n_resamples, n_threads=n_threads)
    mean, ci, lo, hi = _estimate(scores, "statistics" if method == "sacrebleu" else "exact")
    sig = resampling_signature(metric, stats, bs=n_resamples, seed=seed_str, resampling=_resampling_item(method, resampling))
    return ConfidenceInterval(_full_score(metric, stats, method), mean, ci, lo, hi, scores, sig)


def confidence_interval(metric: Metric, predictions: Sequence[str], references: Any, **options: Any) -> ConfidenceInterval:
    """:func:`bootstrap_ci` from texts (statistics are extracted once)."""
    return bootstrap_ci(metric, metric.stats(predictions, references), **options)


@dataclass
class SystemResult:
    """One row of a paired test: the score, and against the baseline the p-value."""

    name: str
    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    is_baseline: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass
class PairedTestResult:
    """Results of comparing several systems with one baseline (baseline first).

    ``metric`` is the name of the metric's score (``chrF2++``, ``BLEU``), as sacrebleu
    labels its columns.
    """

    metric: str
    test: str
    n_samples: int
    systems: list[SystemResult]
    signature: Signature

    @property
    def baseline(self) -> SystemResult:
        return self.systems[0]


def _system_list(systems: Any) -> list[tuple[str, SegmentStats]]:
    if isinstance(systems, Mapping):
        return list(systems.items())
    items = list(systems)
    out = []
    for i, s in enumerate(items):
        if isinstance(s, SegmentStats):
            out.append((f"System {i + 1}", s))
        else:
            name, st = s
            out.append((str(name), st))
    return out


def paired_test_stats(
    metric: Metric,
    baseline: SegmentStats | tuple[str, SegmentStats],
    systems: Mapping[str, SegmentStats] | Sequence[tuple[str, SegmentStats] | SegmentStats],
    *,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    method: str = "nlgmetrics",
    resampling: str = "multinomial",
    ar_confidence_n: int | None = None,
    n_threads: int = 0,
) -> PairedTestResult:
    """Paired bootstrap (``test="bs"``) or approximate randomization (``test="ar"``) of
    every system against ``baseline``, from per-segment statistics.

    ``n_samples`` defaults to 1000 resamples (bs) or 10000 trials (ar). With ``test="ar"``
    bootstrap CIs of the scores are added only when ``ar_confidence_n`` is given (as
    sacrebleu's ``n_ar_confidence``; its CLI never asks for them). All systems share the
    same draws.
    """
    _check_choice("test", test, ("bs", "ar"))
    _check_method(method, resampling)
    if test == "ar" and resampling != "multinomial":
        raise InvalidOptionError("resampling applies to bootstrap tests; approximate randomization swaps segments")
    bl_name, bl = baseline if isinstance(baseline, tuple) else ("Baseline", baseline)
    named = _system_list(systems)
    if not named:
        raise InvalidInputError("a paired test needs at least one system besides the baseline")
    _check_stats(metric, bl, "baseline statistics")
    for name, st in named:
        _check_stats(metric, st, f"statistics of {name!r}")
        if len(st) != len(bl):
            raise LengthMismatchError(f"system {name!r} has {len(st)} segments but the baseline has {len(bl)}")
    n_samples = _check_count("n_samples", n_samples if n_samples is not None else DEFAULT_SAMPLES[test])
    if ar_confidence_n is not None:
        ar_confidence_n = _check_count("ar_confidence_n", ar_confidence_n)
    n_threads = n_threads_value(n_threads)
    seed, seed_str = _resolve_seed(seed, method)
    stats_list = [bl] + [st for _, st in named]
    _check_draw_memory("n_samples", n_samples, stats_list)
    if ar_confidence_n is not None:
        _check_draw_memory("ar_confidence_n", ar_confidence_n, stats_list)
    full_scores = [_full_score(metric, st, method) for st in stats_list]
    full = [sc.score for sc in full_scores]
    label = full_scores[0].name  # the score's name with its options (chrF2++), as sacrebleu labels it
    mean_kind = "numpy" if method == "sacrebleu" else "exact"
    rows = [SystemResult(bl_name, full[0], is_baseline=True)]
    n = len(bl)

    if test == "bs":
        scores = _bootstrap_scores(metric, stats_list, method=method, resampling=resampling, seed=seed, n_resamples=n_samples, n_threads=n_threads)
        rows[0].mean, rows[0].ci = _estimate(scores[0], mean_kind)[:2]
        for (name, _), s_full, s_res in zip(named, full[1:], scores[1:]):
            diff = abs(full[0] - s_full)
            d = np.abs(s_res - scores[0])
            centre = d.mean() if method == "sacrebleu" else math.fsum(d.tolist()) / len(d)
            mean, ci = _estimate(s_res, mean_kind)[:2]
            rows.append(SystemResult(name, s_full, _p_value(d - centre, diff), mean, ci))
        sig = resampling_signature(metric, bl, bs=n_samples, seed=seed_str, resampling=_resampling_item(method, resampling))
        return PairedTestResult(label, "bs", n_samples, rows, sig)

    # approximate randomization
    if method == "sacrebleu":
        rng = np.random.default_rng(seed)
        swap = rng.integers(2, size=(n_samples, n), dtype=bool)
        mask = swap.astype(np.uint8)
        bs_idx = rng.choice(n, size=(ar_confidence_n, n), replace=True) if ar_confidence_n else None
    else:
        mask = _core.sig_randomization_mask(seed, n_samples, n, n_threads)
        swap = None
        bs_idx = _core.sig_multinomial_indices(seed, ar_confidence_n, n, n_threads) if ar_confidence_n else None
    if ar_confidence_n:
        ci_scores = _bootstrap_scores(metric, [bl], method=method, resampling="multinomial", seed=seed, n_resamples=ar_confidence_n, n_threads=n_threads)[0]
        rows[0].mean, rows[0].ci = _estimate(ci_scores, mean_kind)[:2]
    trials = _randomization_scores(metric, stats_list, mask, n_threads, numpy_swap=swap)
    for (name, st), s_full, (sa, sb) in zip(named, full[1:], trials):
        row = SystemResult(name, s_full, _p_value(np.abs(sa - sb), abs(full[0] - s_full)))
        if bs_idx is not None:
            if method == "sacrebleu":
                (res,) = _sacrebleu_scores(metric, [st], bs_idx, n_threads)
            else:
                (res,) = _exact_scores(metric, [st], "indices", bs_idx, n_threads)
            row.mean, row.ci = _estimate(res, mean_kind)[:2]
        rows.append(row)
    sig = resampling_signature(metric, bl, bs=ar_confidence_n, ar=n_samples, seed=seed_str, resampling=_resampling_item(method, resampling))
    return PairedTestResult(label, "ar", n_samples, rows, sig)


def _randomization_scores(metric: Metric, stats_list: Sequence[SegmentStats], mask: np.ndarray, n_threads: int, numpy_swap: np.ndarray | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Scores of the two pseudo-systems of every trial, for each system against the baseline.

    Pseudo-system A takes the baseline's segment where the mask is 1 and the system's
    elsewhere; B the opposite. Counts: with ``M = mask @ stats`` (one product for all
    systems) and column totals ``T``, ``A = M_bl + T_sys - M_sys`` and
    ``B = T_bl - M_bl + M_sys``, exact in u64. Real sums: one exactly rounded product of
    ``[mask, 1 - mask]`` with the stacked ``[baseline; system]`` rows each.

    ``numpy_swap`` (``method="sacrebleu"``, the boolean mask): a metric with real-valued
    statistics (TER's average reference length) is summed as sacrebleu sums it,
    ``swap @ bl + ~swap @ sys`` in float64 through NumPy's matrix product, whose order of
    additions (the BLAS kernel's) differs from an exactly rounded sum when the values are
    not all small dyadic numbers (e.g. averages over three references).
    """
    k, m = len(metric.count_fields) + 1, len(metric.sum_fields)
    if numpy_swap is not None and m:
        return [_numpy_randomization_scores(metric, stats_list[0], st, numpy_swap) for st in stats_list[1:]]
    counts = np.ascontiguousarray(np.hstack([_counts_and_segments(s) for s in stats_list]), dtype=np.uint64)
    mm = _core.sig_totals_u64("mask", mask, counts, n_threads)
    tt = counts.sum(axis=0, dtype=np.uint64)
    bl_m, bl_t = mm[:, :k], tt[:k]
    take_a = take_b = None
    if m:
        take_a = np.ascontiguousarray(np.hstack([mask, 1 - mask]))
        take_b = np.ascontiguousarray(np.hstack([1 - mask, mask]))
    out = []
    for i, st in enumerate(stats_list[1:], start=1):
        sys_m, sys_t = mm[:, i * k:(i + 1) * k], tt[i * k:(i + 1) * k]
        a_counts = bl_m + (sys_t - sys_m)
        b_counts = (bl_t - bl_m) + sys_m
        if m:
            both = _sum_matrix(_concat(stats_list[0], st))
            a_sums = _core.sig_totals_f64("mask", take_a, both, False, n_threads)[0]
            b_sums = _core.sig_totals_f64("mask", take_b, both, False, n_threads)[0]
        else:
            a_sums = b_sums = np.zeros((len(mask), 0))
        out.append((_score_totals(metric, a_counts, a_sums), _score_totals(metric, b_counts, b_sums)))
    return out


def _numpy_randomization_scores(metric: Metric, baseline: SegmentStats, system: SegmentStats, swap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sacrebleu's pseudo-systems ``swap @ bl + ~swap @ sys`` and the reverse, in float64."""
    k = len(metric.count_fields)
    bl, st = (np.hstack([s.counts.astype(np.float64), _sum_matrix(s)]) for s in (baseline, system))
    keep = ~swap
    drawn = np.full((len(swap), 1), len(baseline), dtype=np.uint64)
    out = []
    for totals in (swap @ bl + keep @ st, keep @ bl + swap @ st):
        # integer counts sum exactly in float64 (far below 2**53)
        out.append(_score_totals(metric, np.hstack([totals[:, :k].astype(np.uint64), drawn]), np.ascontiguousarray(totals[:, k:])))
    return out[0], out[1]


def _concat(a: SegmentStats, b: SegmentStats) -> SegmentStats:
    return SegmentStats(a.key, a.count_fields, np.concatenate([a.counts, b.counts]), a.sum_fields, None if a.sums is None and b.sums is None else np.concatenate([_sum_matrix(a), _sum_matrix(b)]))


def paired_test(
    metric: Metric,
    references: Any,
    baseline: Sequence[str] | tuple[str, Sequence[str]],
    systems: Mapping[str, Sequence[str]] | Sequence[tuple[str, Sequence[str]]],
    **options: Any,
) -> PairedTestResult:
    """:func:`paired_test_stats` from texts: ``paired_test(BLEU(), refs, ("base", hyps), {"sys1": hyps1})``.

    ``references[i]`` are the references of segment ``i`` (as everywhere in nlgmetrics).
    """
    if isinstance(baseline, tuple) and len(baseline) == 2 and isinstance(baseline[0], str) and not isinstance(baseline[1], str):
        bl_name, bl_hyps = baseline
    else:
        bl_name, bl_hyps = "Baseline", baseline
    items = list(systems.items()) if isinstance(systems, Mapping) else [tuple(s) for s in systems]
    refs = metric._prepare(bl_hyps, references)[1]
    bl_stats = metric.stats(bl_hyps, refs)
    named = []
    for name, hyps in items:
        hyps = list(hyps)
        if len(hyps) != len(bl_stats):
            raise LengthMismatchError(f"system {name!r} has {len(hyps)} segments but the baseline has {len(bl_stats)}")
        named.append((str(name), metric.stats(hyps, refs)))
    return paired_test_stats(metric, (str(bl_name), bl_stats), named, **options)


__all__ = [
    "ConfidenceInterval",
    "PairedTestResult",
    "ResampledTotals",
    "SystemResult",
    "bootstrap_ci",
    "confidence_interval",
    "paired_test",
    "paired_test_stats",
    "poisson_totals",
    "register_sacrebleu_float32_scorer",
    "resampling_signature",
]
