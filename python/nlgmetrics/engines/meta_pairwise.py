"""The WMT24 metrics task's two meta-evaluation numbers, as google-research/mt-metrics-eval
computes them (``stats.py``, ``pce.py``, ``tau_optimization.py``; commit 68a481a).

- ``soft_pairwise_accuracy`` (SPA, Thompson et al. 2024; mt-metrics-eval's
  ``PairwiseConfidenceError``, which returns 1 - PCE): for every pair of systems, the p-value
  of "system i is better than system j" from a paired permutation test over segments, once
  from the human scores and once from the metric's; SPA is one minus the mean absolute
  difference of the two p-values. The permutations are mt-metrics-eval's: one float32
  ``numpy.random.default_rng(seed)`` sign matrix shared by all pairs (seed 4, 1000
  permutations), applied with a float32 matrix product.
- ``tie_calibrated_accuracy`` (acc-eq / acc*_eq, Deutsch et al. 2023; mt-metrics-eval's
  ``KendallWithTiesOpt``): pairwise accuracy in which a metric may call two translations tied
  when its scores differ by at most a threshold, the threshold chosen to maximise the
  accuracy averaged over rows (``average_by="item"``: each source segment's systems, as WMT24
  reports it at segment level).

Inputs are matrices, one row per system and one column per segment (mt-metrics-eval packs
the same matrix into a vector with ``num_sys``). Missing human scores are ``None``.

Exactness. ``tie_calibrated_accuracy`` is computed in float64 in the reference's order (the
pairs sorted stably by metric-score difference, the running sum of row accuracies updated
pair by pair, the rows in the order Python's ``set`` gives them), so it is ``==`` the
reference under the same Python. ``soft_pairwise_accuracy`` uses the reference's own float32
operations (numpy's PCG64 draws, ``np.rint``, ``np.matmul``, ``np.sum``): ``==`` on the same
machine; like the reference, a p-value can move by one permutation across CPUs whose BLAS
kernels sum a float32 product in another order (never when the scores are small integers
or multiples of a power of two, whose float32 sums are exact in any order).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

from .._numbers import real_array
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, ResourceLimitError

#: mt-metrics-eval's defaults for the permutation test behind SPA.
SPA_PERMUTATIONS = 1000
SPA_SEED = 4
#: Bounds: the sign matrix holds permutations x segments float32 values; the tie optimisation
#: keeps a few numbers per pair of scores in a row.
MAX_SIGN_MATRIX = 2**28
MAX_PAIRS = 2**24
AVERAGE_BY = ("none", "sys", "item")
VARIANTS = ("acc23", "23")


def _matrix(x: Any, what: str, allow_none: bool) -> np.ndarray:
    """A 2-D float64 matrix (systems x segments); ``None`` (missing) as NaN where allowed."""
    if isinstance(x, (str, bytes, dict, set)) or x is None or isinstance(x, (bool, np.bool_)):
        raise InputTypeError(f"{what} must be a matrix of numbers (one row per system), got {type(x).__name__}")
    if allow_none and isinstance(x, np.ndarray) and x.dtype == object:
        x = x.tolist()
    if allow_none and not isinstance(x, np.ndarray):
        rows = list(x) if isinstance(x, Sequence) or hasattr(x, "__iter__") else None
        if rows is None:
            raise InputTypeError(f"{what} must be a matrix of numbers (one row per system), got {type(x).__name__}")
        missing = []
        clean = []
        for i, row in enumerate(rows):
            if isinstance(row, (str, bytes, dict, set)) or row is None or not hasattr(row, "__iter__"):
                raise InputTypeError(f"{what}[{i}] must be a row of numbers, got {type(row).__name__}")
            row = list(row)
            missing.append([v is None for v in row])
            clean.append([0.0 if v is None else v for v in row])
        a = real_array(clean, what, ndim=(2,))
        try:
            holes = np.asarray(missing, dtype=bool).reshape(a.shape)
        except ValueError as e:  # pragma: no cover - real_array already refused ragged rows
            raise InvalidInputError(f"{what} rows differ in length") from e
        a = a.copy()
        a[holes] = np.nan
        return a
    return real_array(x, what, ndim=(2,))


def _pair(metric_scores: Any, human_scores: Any) -> tuple[np.ndarray, np.ndarray]:
    metric = _matrix(metric_scores, "the metric scores", allow_none=False)
    human = _matrix(human_scores, "the human scores", allow_none=True)
    if metric.shape != human.shape:
        raise LengthMismatchError(f"the metric scores are {metric.shape[0]} x {metric.shape[1]} (systems x segments) but the human scores are {human.shape[0]} x {human.shape[1]}")
    if metric.size == 0:
        raise InvalidInputError("no scores: the matrices are empty")
    return metric, human


def _positive_int(value: Any, name: str, limit: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidOptionError(f"{name} must be a positive integer, got {value!r}")
    if not 1 <= value <= limit:
        raise InvalidOptionError(f"{name} must be between 1 and {limit}, got {value}")
    return int(value)


def pairwise_p_values(scores: Any, *, num_permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED) -> np.ndarray:
    """mt-metrics-eval's ``pce.compute_pairwise_p_values``: a systems x systems matrix whose
    upper triangle holds the permutation p-value of "system i scores higher than system j"
    (the share of sign-flipped score sums at least as far apart), NaN elsewhere."""
    seg = _matrix(scores, "the scores", allow_none=False)
    return _p_values(seg, num_permutations, seed)


def _p_values(seg: np.ndarray, num_permutations: int, seed: int) -> np.ndarray:
    num_permutations = _positive_int(num_permutations, "num_permutations", 10**7)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidOptionError(f"seed must be a non-negative integer, got {seed!r}")
    num_systems, num_segments = seg.shape
    if num_permutations * num_segments > MAX_SIGN_MATRIX:
        raise ResourceLimitError(
            f"{num_permutations} permutations x {num_segments} segments is over the {MAX_SIGN_MATRIX} float32 values "
            "the sign matrix may hold (1 GiB)")
    rng = np.random.default_rng(int(seed))
    signs = rng.random(size=(num_permutations, num_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    with np.errstate(over="ignore", invalid="ignore"):
        seg32 = seg.astype(np.float32)
        sys_scores = np.sum(seg32, axis=1)
        partial = np.matmul(signs, seg32.T)
    if not (np.isfinite(sys_scores).all() and np.isfinite(partial).all()):
        # past float32's range the reference's sums become inf and NaN, and every comparison
        # with them is False: it prints p-values (and an SPA) that mean nothing
        raise InvalidInputError("the scores overflow single precision (float32, about 3.4e38) in the permutation test "
                                "mt-metrics-eval runs: scale them down (one positive factor for all of them leaves every comparison of the test as it was)")
    p = np.empty((num_systems, num_systems)) * np.nan
    for i in range(num_systems):
        for j in range(i + 1, num_systems):
            null_delta = partial[:, i] - partial[:, j]
            p[i, j] = np.sum(null_delta >= sys_scores[i] - sys_scores[j]) / num_permutations
    return p


def soft_pairwise_accuracy(metric_scores: Any, human_scores: Any, *, num_permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED) -> float:
    """Soft pairwise accuracy (WMT24's system-level number): ``1 - mean |p_human - p_metric|``
    over the pairs of systems, each p-value from mt-metrics-eval's paired permutation test.

    ``metric_scores`` and ``human_scores`` are systems x segments matrices (segment scores;
    the test sums them). A segment without a human score (``None``) is left out for every
    system, as mt-metrics-eval's ``filter_gold_nones`` does when the same segments lack a
    score for every system; missing scores that differ between systems are refused (the
    reference would pair the wrong segments).
    """
    metric, human = _pair(metric_scores, human_scores)
    holes = np.isnan(human)
    if holes.any():
        columns = holes.all(axis=0)
        if not (holes == columns[None, :]).all():
            bad = int(np.argwhere(holes != columns[None, :])[0][1])
            raise InvalidInputError(
                f"segment {bad} has a human score for some systems and None for others: SPA needs the same segments "
                "for every system (mt-metrics-eval would pair misaligned segments)")
        metric, human = metric[:, ~columns], human[:, ~columns]
        if human.shape[1] == 0:
            raise InvalidInputError("every segment's human score is None")
    if metric.shape[0] < 2:
        raise InvalidInputError(f"SPA compares pairs of systems; got {metric.shape[0]} system")
    if not np.isfinite(metric).all() or not np.isfinite(human).all():
        raise InvalidInputError("scores must be finite (a missing human score is None)")
    p_human = _p_values(human, num_permutations, seed)
    p_metric = _p_values(metric, num_permutations, seed)
    upper = np.triu_indices(metric.shape[0], 1)
    return float(1.0 - np.mean(np.abs(p_human - p_metric)[upper]))


class TieCalibration(NamedTuple):
    """``value``: the best average accuracy (or tau), at ``threshold``; ``thresholds`` and
    ``values`` list every candidate threshold (0.0 first, then each distinct metric-score
    difference, ascending) with its value, as mt-metrics-eval's ``TauOptimizationResult``."""

    value: float
    threshold: float
    thresholds: list
    values: list


# The five kinds of pair, as mt-metrics-eval's TauSufficientStats fields.
_CON, _DIS, _TIE_HUMAN, _TIE_METRIC, _TIE_BOTH = range(5)


def _rows(metric: np.ndarray, human: np.ndarray, average_by: str) -> tuple[np.ndarray, np.ndarray]:
    if average_by == "none":
        return metric.reshape(1, -1), human.reshape(1, -1)
    if average_by == "sys":
        return metric, human
    return metric.T, human.T


def tie_calibrated_accuracy(
    metric_scores: Any,
    human_scores: Any,
    *,
    variant: str = "acc23",
    average_by: str = "item",
    sample_rate: float = 1.0,
    seed: int | None = None,
) -> TieCalibration:
    """Pairwise accuracy with tie calibration (WMT24's segment-level acc-eq with
    ``variant="acc23"``, ``average_by="item"``; ``variant="23"`` is tau_eq).

    Within each row (``"item"``: a segment's systems; ``"sys"``: a system's segments;
    ``"none"``: every score at once), every pair of non-missing scores is concordant,
    discordant or tied on either side; a metric difference at most the threshold counts as a
    metric tie. ``sample_rate`` below 1 keeps each pair with that probability, drawn as
    mt-metrics-eval draws it from NumPy's global generator after ``np.random.seed(seed)``;
    here the generator is private and ``seed`` is required.
    """
    if variant not in VARIANTS:
        raise InvalidOptionError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    if average_by not in AVERAGE_BY:
        raise InvalidOptionError(f"average_by must be one of {', '.join(AVERAGE_BY)}, got {average_by!r}")
    if isinstance(sample_rate, (bool, np.bool_)) or not isinstance(sample_rate, (int, float, np.integer, np.floating)) or not 0 < sample_rate <= 1:
        raise InvalidOptionError(f"sample_rate must be in (0, 1], got {sample_rate!r}")
    draws = None
    if sample_rate != 1.0:
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**32:
            raise InvalidOptionError(f"sample_rate below 1 draws pairs at random: give seed, an integer in [0, 2**32), got {seed!r}")
        draws = np.random.RandomState(int(seed))
    metric = _matrix(_two_d(metric_scores), "the metric scores", allow_none=True)
    human = _matrix(_two_d(human_scores), "the human scores", allow_none=True)
    if metric.shape != human.shape:
        raise LengthMismatchError(f"the metric scores are {metric.shape[0]} x {metric.shape[1]} but the human scores are {human.shape[0]} x {human.shape[1]}")
    for name, a in (("metric", metric), ("human", human)):
        if np.isinf(a).any():
            raise InvalidInputError(f"the {name} scores must be finite (a missing score is None)")
    m_rows, h_rows = _rows(metric, human, average_by)
    return _optimise(m_rows, h_rows, variant, sample_rate, draws)


def _two_d(x: Any) -> Any:
    """A vector of scores as a matrix of one row (the reference's ``reshape(1, -1)``)."""
    if isinstance(x, np.ndarray):
        return x.reshape(1, -1) if x.ndim == 1 else x
    if isinstance(x, (list, tuple)) and x and all(v is None or isinstance(v, (int, float, np.integer, np.floating)) for v in x):
        return [x]
    return x


def _kinds(h1: np.ndarray, h2: np.ndarray, m1: np.ndarray, m2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    human_tie, metric_tie = h1 == h2, m1 == m2
    agree = ((h1 > h2) & (m1 > m2)) | ((h1 < h2) & (m1 < m2))
    kind = np.where(human_tie & metric_tie, _TIE_BOTH, np.where(human_tie, _TIE_HUMAN, np.where(metric_tie, _TIE_METRIC, np.where(agree, _CON, _DIS))))
    tie_kind = np.where(human_tie, _TIE_BOTH, _TIE_METRIC)
    return kind.astype(np.int8), tie_kind.astype(np.int8)


def _enumerate(m_rows: np.ndarray, h_rows: np.ndarray, sample_rate: float, draws) -> tuple[np.ndarray, ...]:
    """Every pair (i < j) of non-missing scores in each row, in the reference's order (row by
    row, then i, then j), with the sampling draws taken one per pair in that order."""
    n_rows, width = m_rows.shape
    if n_rows * (width * (width - 1) // 2) > MAX_PAIRS:
        raise ResourceLimitError(
            f"{n_rows} rows of {width} scores make more than {MAX_PAIRS} pairs; average by item or sys, or sample pairs (sample_rate)")
    i, j = np.triu_indices(width, 1)
    present = ~(np.isnan(m_rows) | np.isnan(h_rows))
    keep = present[:, i] & present[:, j]
    row = np.broadcast_to(np.arange(n_rows)[:, None], keep.shape)[keep]
    ii, jj = np.broadcast_to(i, keep.shape)[keep], np.broadcast_to(j, keep.shape)[keep]
    if draws is not None:
        chosen = draws.random_sample(row.size) <= sample_rate
        row, ii, jj = row[chosen], ii[chosen], jj[chosen]
    h1, h2, m1, m2 = h_rows[row, ii], h_rows[row, jj], m_rows[row, ii], m_rows[row, jj]
    kind, tie_kind = _kinds(h1, h2, m1, m2)
    with np.errstate(over="ignore"):
        diff = np.abs(m1 - m2)
    if not np.isfinite(diff).all():
        # two such differences would both be inf, one threshold where the exact values give two
        raise InvalidInputError("two metric scores differ by more than the largest double (about 1.8e308): "
                                "scale the scores down (one positive factor for all of them keeps every tie and order)")
    return row, diff, kind, tie_kind


def _optimise(m_rows: np.ndarray, h_rows: np.ndarray, variant: str, sample_rate: float, draws) -> TieCalibration:
    row, diff, kind, tie_kind = _enumerate(m_rows, h_rows, sample_rate, draws)
    if row.size == 0:
        raise InvalidInputError(
            "no pair of scores to compare: every row has fewer than two non-missing scores "
            "(a vector is one row: average it with average_by='none')")
    # each kind of pair's share in the row's value: acc23 counts concordant pairs and pairs tied
    # on both sides; tau23 also subtracts the others
    weight = np.array([1, 0, 0, 0, 1] if variant == "acc23" else [1, -1, -1, -1, 1], dtype=np.int64)
    n_rows = m_rows.shape[0]
    pairs = np.bincount(row, minlength=n_rows)
    numerator = np.bincount(row, weights=weight[kind], minlength=n_rows).astype(np.int64)
    # the rows as the reference's set of row numbers iterates them (its sums run in that order)
    rows_seen: set[int] = set()
    for r in np.flatnonzero(pairs).tolist():
        rows_seen.add(r)
    num_rows = len(rows_seen)
    total = sum(int(numerator[r]) / int(pairs[r]) for r in rows_seen)
    # flipping the pairs to metric ties in order of difference: each flip moves its row's
    # numerator by delta; the row's value before and after the flip, for every flip at once
    order = np.argsort(diff, kind="stable")
    r_sorted, d_sorted = row[order], diff[order]
    delta = (weight[tie_kind] - weight[kind])[order]
    by_row = np.argsort(r_sorted, kind="stable")
    running = np.empty_like(delta)
    grouped = delta[by_row]
    cums = np.cumsum(grouped)
    starts = np.r_[0, np.flatnonzero(np.diff(r_sorted[by_row])) + 1]
    cums -= np.repeat(cums[starts] - grouped[starts], np.diff(np.r_[starts, grouped.size]))
    running[by_row] = cums
    after_num = numerator[r_sorted] + running
    size = pairs[r_sorted]
    before = ((after_num - delta) / size).tolist()
    after = (after_num / size).tolist()
    totals = []
    for old, new in zip(before, after):  # sequential: the reference's float rounding, step by step
        total -= old
        total += new
        totals.append(total)
    overall = np.asarray(totals) / num_rows
    # one candidate per distinct difference, holding the value after its last flip
    last = np.r_[np.flatnonzero(d_sorted[1:] != d_sorted[:-1]), d_sorted.size - 1]
    thresholds = [0.0] + d_sorted[last].tolist()
    values = [sum(int(numerator[r]) / int(pairs[r]) for r in rows_seen) / num_rows] + overall[last].tolist()
    if thresholds[1] == 0.0:  # the reference overwrites its 0.0 candidate with the flips at 0
        thresholds, values = thresholds[1:], values[1:]
    best = int(np.nanargmax(values))
    return TieCalibration(values[best], thresholds[best], thresholds, values)
