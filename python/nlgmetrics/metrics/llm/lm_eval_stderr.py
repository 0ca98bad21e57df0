"""lm-evaluation-harness 0.4.13's aggregation layer (``lm_eval/api/metrics.py``,
``lm_eval/api/group.py``) on per-sample values, its bootstrap replayed exactly.

- :func:`mean` (``sum(arr) / len(arr)``), :func:`sample_stddev`, :func:`pop_stddev`,
  :func:`mean_stderr` (``sample_stddev / sqrt(n)``): Python's own ``sum``, in order, as
  lm-eval runs them (so the value follows the interpreter, as lm-eval's does).
- :func:`bootstrap_stderr` (``statistic, xs, iters``): lm-eval draws ``iters // 1000`` chunks
  (``min(1000, iters)`` resamples each, the rest dropped); chunk ``i`` seeds
  ``random.Random(i)`` and each resample is ``rnd.choices(xs, k=len(xs))``, i.e. index
  ``floor(random() * n)`` per draw; the result is ``sample_stddev`` of the resampled values.
  Here the same Mersenne Twister stream is replayed by numpy (Python's state for seed ``i``
  is loaded into a ``RandomState``; ``random()`` is the same 53-bit double on both sides),
  indices come out as arrays, and each resample's value is rebuilt from per-sample statistics
  instead of a copied list: ``mean`` / ``perplexity`` (the in-order sum: a cumulative sum,
  what Python < 3.12's ``sum`` is; 3.12's compensated ``sum`` takes the exact path below),
  ``nanmean`` (numpy's pairwise sum per row, as ``np.nanmean`` of the list), ``median``
  (``sorted(arr)[n // 2]``: a partition), ``f1`` and ``matthews_corrcoef`` (confusion counts
  per resample, then scikit-learn 1.9's float operations). Any other statistic, a callable,
  NaN for ``median`` or mixed number types are scored on the resampled lists themselves
  (the same indices, so still exactly lm-eval's value, only slower).
- :func:`stderr_for_aggregation`: which aggregations lm-eval bootstraps (``median``,
  ``matthews_corrcoef``, ``f1``, ``perplexity``, ``bleu``, ``chrf``, ``chrf++``, ``ter``,
  ``nanmean``; ``bootstrap_iters`` default 100000, 0 for none), which use ``mean_stderr``
  (``mean``) and which have none (``N/A``). ``bleu`` / ``chrf`` / ``ter`` need a callable.
- Groups: :func:`aggregate_subtask_metrics` (size-weighted mean, or plain with
  ``weight_by_size=False``), :func:`pooled_sample_stderr` (with weights) and
  :func:`unweighted_mean_stderr` (without), :func:`combined_sample_stderr` (lm-eval's
  pairwise formula, its running size never updated, kept as is), and
  :data:`HIGHER_IS_BETTER` of lm-eval's registered metrics.

Where lm-eval crashes (empty input, ``iters`` of 0, an overflowing perplexity, labels that
scikit-learn refuses) a typed error says why.
"""
from __future__ import annotations

import math
import os
import random
import sys
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

REFERENCE = "lm-eval-0.4.13"
DEFAULT_BOOTSTRAP_ITERS = 100000
CHUNK = 1000
BOOTSTRAPPED = ("median", "matthews_corrcoef", "f1", "perplexity", "bleu", "chrf", "chrf++", "ter", "nanmean")
# metric -> (higher_is_better, aggregation), as lm-eval 0.4.13 registers them
METRICS: dict[str, tuple[bool, str]] = {
    "acc": (True, "mean"), "acc_norm": (True, "mean"), "acc_mutual_info": (True, "mean"),
    "acc_bytes": (True, "mean"), "acc_all": (True, "mean"), "exact_match": (True, "mean"),
    "likelihood": (True, "mean"), "brier_score": (False, "brier_score"),
    "perplexity": (False, "perplexity"), "word_perplexity": (False, "weighted_perplexity"),
    "byte_perplexity": (False, "weighted_perplexity"), "bits_per_byte": (False, "bits_per_byte"),
    "mcc": (True, "matthews_corrcoef"), "f1": (True, "f1"), "bleu": (True, "bleu"),
    "chrf": (True, "chrf"), "chrf++": (True, "chrf++"), "ter": (False, "ter"), "bypass": (True, "bypass"),
}
HIGHER_IS_BETTER: dict[str, bool] = {name: hib for name, (hib, _) in METRICS.items()}
# a bound on the work a results file or a caller can ask for: 100 x lm-eval's default
MAX_BOOTSTRAP_ITERS = 100 * DEFAULT_BOOTSTRAP_ITERS
_OF_NUMBERS = ("mean", "median", "nanmean", "perplexity")  # statistics of plain per-document numbers
_ROWS_BUDGET = 1 << 20  # resampled values held at once per thread (rows x n)


def _values(arr: Any, what: str) -> list:
    if isinstance(arr, (str, bytes, dict)):
        raise InputTypeError(f"{what}: give a sequence of per-sample values")
    try:
        values = list(arr)
    except TypeError:
        raise InputTypeError(f"{what}: give a sequence of per-sample values, not {type(arr).__name__}") from None
    if not values:
        raise InvalidInputError(f"{what}: no values")
    return values


def _numbers(arr: Any, what: str) -> list:
    """:func:`_values` whose items are real numbers (booleans count 1 and 0, as in lm-eval's
    ``sum``; NaN and infinities stay: lm-eval's value then is NaN or infinite too)."""
    values = _values(arr, what)
    for i, v in enumerate(values):
        if not isinstance(v, (int, float, np.integer, np.floating, np.bool_)):
            raise InputTypeError(f"{what}: item {i} must be a number, got {type(v).__name__}")
    return values


def _sizes(arr: Any, what: str) -> list:
    values = _values(arr, what)
    for i, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0:
            raise InvalidInputError(f"{what}: size {i} must be a count (an integer >= 0), got {v!r}")
    return values


def _in_floats(what: str, compute: Callable[[], Any]) -> Any:
    """lm-eval's arithmetic; an integer past the floats is refused, not an OverflowError."""
    try:
        return compute()
    except OverflowError:
        raise InvalidInputError(f"{what}: a value is past the largest float (about 1.8e308)") from None


def mean(arr: Sequence[Any]) -> Any:
    values = _numbers(arr, "mean")
    return _in_floats("mean", lambda: sum(values) / len(values))


def pop_stddev(arr: Sequence[Any]) -> float:
    values = _numbers(arr, "pop_stddev")
    mu = mean(values)
    return _in_floats("pop_stddev", lambda: math.sqrt(sum([(x - mu) ** 2 for x in values]) / len(values)))


def sample_stddev(arr: Sequence[Any]) -> float:
    values = _numbers(arr, "sample_stddev")
    if len(values) < 2:
        raise InvalidInputError("sample_stddev: needs at least 2 values (lm-eval reports N/A)")
    mu = mean(values)
    return _in_floats("sample_stddev", lambda: math.sqrt(sum([(x - mu) ** 2 for x in values]) / (len(values) - 1)))


def mean_stderr(arr: Sequence[Any]) -> float:
    values = _numbers(arr, "mean_stderr")
    return sample_stddev(values) / math.sqrt(len(values))


# -- the resample indices ---------------------------------------------------------------------
def _python_stream(seed: int) -> np.random.RandomState:
    """A numpy generator in the state ``random.Random(seed)`` starts from."""
    state = random.Random(seed).getstate()[1]
    rs = np.random.RandomState()
    rs.set_state(("MT19937", np.array(state[:624], dtype=np.uint32), state[624]))
    return rs


def _chunk_indices(n: int, seed: int, chunk: int) -> Iterator[np.ndarray]:
    """Chunk ``seed``'s resamples as index blocks (rows of ``n`` indices), in order."""
    rs = _python_stream(seed)
    rows = max(1, min(chunk, _ROWS_BUDGET // max(n, 1)))
    scale = float(n)
    left = chunk
    while left:
        take = min(rows, left)
        u = rs.random_sample(take * n)
        np.multiply(u, scale, out=u)  # floor(random() * n), as choices draws
        yield u.astype(np.intp).reshape(take, n)  # truncation is floor: u * n >= 0
        left -= take


def resample_indices(n: int, iters: int = DEFAULT_BOOTSTRAP_ITERS) -> Iterator[np.ndarray]:
    """lm-eval's resamples of ``n`` items as index blocks (rows of ``n`` indices), in order:
    row ``j`` of chunk ``i`` is ``random.Random(i)``'s ``j``-th ``choices(range(n), k=n)``."""
    chunk = min(CHUNK, iters)
    for i in range(iters // chunk):
        yield from _chunk_indices(n, i, chunk)


def _kind(values: list) -> type | None:
    """The one number type of the values (float, numpy float64 or a small int), else None."""
    first = type(values[0])
    if first in (float, np.float64) and all(type(v) is first for v in values):
        return first
    if first is int and all(type(v) is int for v in values) and max(abs(v) for v in values) * len(values) < 2**53:
        return int
    return None


def _mean_values(values: list) -> Callable[[Iterator[np.ndarray]], list]:
    """``sum(resample) / n`` per resample, the sum in order."""
    x = np.asarray(values, dtype=np.float64)
    n = len(values)

    def run(blocks: Iterator[np.ndarray]) -> list:
        out: list = []
        for idx in blocks:
            sums = np.cumsum(x[idx], axis=1)[:, -1]  # in order, as Python < 3.12's sum
            out.extend((sums / n).tolist())
        return out

    return run


def _nanmean_values(values: list) -> Callable[[Iterator[np.ndarray]], list]:
    x = np.asarray(values, dtype=np.float64)
    nan = np.isnan(x)
    clean = np.where(nan, 0.0, x)

    def run(blocks: Iterator[np.ndarray]) -> list:
        out: list = []
        for idx in blocks:
            counts = (~nan[idx]).sum(axis=1)
            totals = clean[idx].sum(axis=1)  # numpy's pairwise sum, row by row as of one list
            with np.errstate(invalid="ignore", divide="ignore"):
                avg = totals / counts
            out.extend(np.nan if c == 0 else v for v, c in zip(avg, counts))  # lm-eval: all NaN -> np.nan
        return out

    return run


def _median_values(values: list) -> Callable[[Iterator[np.ndarray]], list]:
    x = np.asarray(values, dtype=np.float64)
    n, cast = len(values), _kind(values)

    def run(blocks: Iterator[np.ndarray]) -> list:
        out: list = []
        for idx in blocks:
            out.extend(cast(v) for v in np.partition(x[idx], n // 2, axis=1)[:, n // 2].tolist())
        return out

    return run


def _labels(pairs: list, what: str) -> tuple[np.ndarray, np.ndarray, int]:
    golds, preds = [], []
    for i, pair in enumerate(pairs):
        try:
            gold, pred = pair
        except (TypeError, ValueError):
            raise InputTypeError(f"{what}: item {i} is not a (gold, prediction) pair") from None
        for v in (gold, pred):
            if isinstance(v, (float, np.floating)) and not float(v).is_integer():
                raise InvalidInputError(f"{what}: item {i}: {v!r} is no class label (scikit-learn: continuous target)")
        golds.append(gold)
        preds.append(pred)
    try:
        codes = {v: k for k, v in enumerate(sorted(set(golds) | set(preds)))}
    except TypeError:
        raise InputTypeError(f"{what}: the labels mix types that do not sort (scikit-learn refuses them)") from None
    return np.array([codes[g] for g in golds]), np.array([codes[p] for p in preds]), len(codes)


def _confusions(cells: np.ndarray, k: int, blocks: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    """Per resample, the k x k confusion counts (gold rows, prediction columns)."""
    for idx in blocks:
        rows = len(idx)
        flat = cells[idx] + (np.arange(rows, dtype=np.int64) * (k * k))[:, None]
        yield np.bincount(flat.ravel(), minlength=rows * k * k).reshape(rows, k, k).astype(np.float64)


def _mcc_values(pairs: list) -> Callable[[Iterator[np.ndarray]], list]:
    golds, preds, k = _labels(pairs, "matthews_corrcoef")
    return lambda blocks: _mcc_run(golds * k + preds, k, blocks)


def _mcc_run(cells: np.ndarray, k: int, blocks: Iterator[np.ndarray]) -> list:
    out: list = []
    for c in _confusions(cells, k, blocks):
        t_sum, p_sum = c.sum(axis=2), c.sum(axis=1)
        n_correct = np.trace(c, axis1=1, axis2=2)
        n_samples = p_sum.sum(axis=1)
        cov_ytyp = n_correct * n_samples - (t_sum * p_sum).sum(axis=1)
        cov_ypyp = n_samples**2 - (p_sum * p_sum).sum(axis=1)
        cov_ytyt = n_samples**2 - (t_sum * t_sum).sum(axis=1)
        product = cov_ypyp * cov_ytyt
        with np.errstate(invalid="ignore", divide="ignore"):
            mcc = cov_ytyp / np.sqrt(product)
        out.extend(0.0 if p == 0 else float(v) for v, p in zip(mcc.tolist(), product.tolist()))
    return out


def _f1_values(pairs: list) -> Callable[[Iterator[np.ndarray]], list]:
    for i, pair in enumerate(pairs):
        try:
            gold, pred = pair
        except (TypeError, ValueError):
            raise InputTypeError(f"f1: item {i} is not a (gold, prediction) pair") from None
        if any(isinstance(v, str) or v not in (0, 1) for v in (gold, pred)):
            raise InvalidInputError(f"f1: item {i}: lm-eval's f1 is binary, labels 0 and 1 (got {gold!r}, {pred!r})")
    golds = np.array([int(g) for g, _ in pairs])
    preds = np.array([int(p) for _, p in pairs])
    return lambda blocks: _f1_run(golds * 2 + preds, blocks)


def _f1_run(cells: np.ndarray, blocks: Iterator[np.ndarray]) -> list:
    out: list = []
    for c in _confusions(cells, 2, blocks):
        tp, true_sum, pred_sum = c[:, 1, 1], c[:, 1, 0] + c[:, 1, 1], c[:, 0, 1] + c[:, 1, 1]
        denom = 1.0 * true_sum + pred_sum
        f = (2.0 * tp) / np.where(denom == 0, 1.0, denom)
        out.extend(np.float64(0.0) if d == 0 else v for v, d in zip(f, denom))
    return out


def _perplexity(mean_value: float) -> float:
    try:
        return math.exp(-mean_value)
    except OverflowError:
        raise InvalidInputError("perplexity: a resample's perplexity is past the float range (lm-eval raises OverflowError)") from None


def _reference_statistic(name: str) -> Callable[[list], Any]:
    """lm-eval's aggregation applied to a resampled list (the exact, slow path)."""
    if name == "mean":
        return lambda arr: sum(arr) / len(arr)
    if name == "median":
        return lambda arr: sorted(arr)[len(arr) // 2]
    if name == "perplexity":
        return lambda arr: _perplexity(sum(arr) / len(arr))
    if name == "nanmean":
        return lambda arr: np.nan if all(np.isnan(arr)) else np.nanmean(arr)
    return lambda arr: _FAST[name](arr)(iter([np.arange(len(arr))[None, :]]))[0]  # the list itself


def _fast_values(name: str, values: list, iters: int, n_threads: int) -> list | None:
    """The resampled values from statistics, or None where only the lists replay exactly."""
    if name in ("mean", "perplexity", "median", "nanmean"):
        kind = _kind(values)
        if kind is None:
            return None
        if name in ("mean", "perplexity") and kind is float and sys.version_info >= (3, 12):
            return None  # Python 3.12's sum of floats is compensated: the lists themselves
        if name == "median" and any(v != v for v in values):
            return None  # NaN: sorted() has no order to replay
    run = _FAST[name](values)
    n, chunk = len(values), min(CHUNK, iters)

    def one_chunk(seed: int) -> list:
        return run(_chunk_indices(n, seed, chunk))

    seeds = range(iters // chunk)
    if n_threads == 1 or len(seeds) == 1:
        parts = [one_chunk(i) for i in seeds]
    else:  # chunks are seeded apart: any order of work, joined in order
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(n_threads) as pool:
            parts = list(pool.map(one_chunk, seeds))
    out = [v for part in parts for v in part]
    if name == "perplexity":
        out = [_perplexity(m) for m in out]
    return out


_FAST: dict[str, Callable[[list], Callable[[Iterator[np.ndarray]], list]]] = {
    "mean": _mean_values, "perplexity": _mean_values, "nanmean": _nanmean_values,
    "median": _median_values, "f1": _f1_values, "matthews_corrcoef": _mcc_values,
}


def aggregation_value(name: str, values: Sequence[Any]) -> Any:
    """lm-eval's aggregation ``name`` (``mean``, ``median``, ``perplexity``, ``nanmean``,
    ``f1``, ``matthews_corrcoef``) of per-document values, as lm-eval computes it."""
    if name not in _FAST:
        raise InvalidOptionError(f"aggregation_value: unknown aggregation {name!r}; known: {', '.join(_FAST)}")
    return _reference_statistic(name)(_values(values, name))


def bootstrap_stderr(
    statistic: str | Callable[[list], Any], xs: Sequence[Any], iters: int = DEFAULT_BOOTSTRAP_ITERS, n_threads: int = 0
) -> float:
    """lm-eval's ``bootstrap_stderr(f, xs, iters)``, ``==`` its value. ``statistic`` is an
    aggregation's name (``mean``, ``median``, ``nanmean``, ``perplexity``, ``f1``,
    ``matthews_corrcoef``) or any function of a list (lm-eval's ``f``). ``n_threads``: the
    chunks of 1,000 resamples spread over threads (0: every core; the value does not change)."""
    values = _numbers(xs, "bootstrap_stderr") if statistic in _OF_NUMBERS else _values(xs, "bootstrap_stderr")
    iters = _check_iters(iters, "bootstrap_stderr", 1)
    if isinstance(n_threads, bool) or not isinstance(n_threads, (int, np.integer)) or n_threads < 0:
        raise InvalidOptionError(f"bootstrap_stderr: n_threads must be an integer >= 0, got {n_threads!r}")
    n_threads = int(n_threads) or (os.cpu_count() or 1)
    if callable(statistic):
        f = statistic
        res = [f([values[j] for j in row]) for block in resample_indices(len(values), iters) for row in block.tolist()]
        return sample_stddev(res)
    if statistic not in _FAST:
        known = ", ".join(_FAST)
        raise InvalidOptionError(f"bootstrap_stderr: unknown statistic {statistic!r}; known: {known} (or give a function)")
    res = _fast_values(statistic, values, iters, n_threads)
    if res is None:
        f = _reference_statistic(statistic)
        res = [f([values[j] for j in row]) for block in resample_indices(len(values), iters) for row in block.tolist()]
    if len(res) < 2:
        raise InvalidInputError(f"bootstrap_stderr: {len(res)} resample(s); lm-eval's stddev needs 2 (iters >= 2)")
    return sample_stddev(res)


def _check_iters(iters: Any, what: str, least: int | None) -> int:
    """An integer number of resamples, at most :data:`MAX_BOOTSTRAP_ITERS`; ``least``: the
    smallest accepted (None: any, lm-eval reads 0 and below as no bootstrap)."""
    if isinstance(iters, (bool, np.bool_)) or not isinstance(iters, (int, np.integer)) or (least is not None and iters < least):
        raise InvalidOptionError(f"{what}: iters must be an integer{'' if least is None else f' >= {least}'}, got {iters!r}")
    if iters > MAX_BOOTSTRAP_ITERS:
        raise InvalidOptionError(f"{what}: {iters} resamples is past the {MAX_BOOTSTRAP_ITERS} done here "
                                 f"(lm-eval's default is {DEFAULT_BOOTSTRAP_ITERS}); the work grows with iters x documents")
    return int(iters)


def stderr_for_aggregation(aggregation: str, bootstrap_iters: int = DEFAULT_BOOTSTRAP_ITERS) -> Callable[[Sequence[Any]], float] | None:
    """lm-eval's ``stderr_for_metric``: the stderr function of an aggregation, or None
    (lm-eval then reports ``N/A``; it also does for one item)."""
    bootstrap_iters = _check_iters(bootstrap_iters, "stderr_for_aggregation", None)
    if bootstrap_iters <= 0:
        return None
    if aggregation in BOOTSTRAPPED:
        if aggregation not in _FAST:
            raise InvalidOptionError(f"{aggregation}: its bootstrap rescores the corpus; give bootstrap_stderr a function")
        return lambda xs: bootstrap_stderr(aggregation, xs, bootstrap_iters)
    return mean_stderr if aggregation == "mean" else None


# -- groups -----------------------------------------------------------------------------------
def _same_length(what: str, **columns: Sequence[Any]) -> list[list]:
    lists = [_values(v, f"{what} {k}") for k, v in columns.items()]
    if len({len(v) for v in lists}) != 1:
        sizes = ", ".join(f"{len(v)} {k}" for k, v in zip(columns, lists))
        raise LengthMismatchError(f"{what}: {sizes}")
    return lists


def aggregate_subtask_metrics(metrics: Sequence[float], sizes: Sequence[int], weight_by_size: bool = True) -> float:
    metrics, sizes = _same_length("aggregate_subtask_metrics", metrics=metrics, sizes=sizes)
    _numbers(metrics, "aggregate_subtask_metrics metrics")
    _sizes(sizes, "aggregate_subtask_metrics sizes")
    if not weight_by_size:
        sizes = [1] * len(sizes)
    if sum(sizes) == 0:
        raise InvalidInputError("aggregate_subtask_metrics: the sizes sum to 0")
    return _in_floats("aggregate_subtask_metrics", lambda: sum([metric * size for metric, size in zip(metrics, sizes)]) / sum(sizes))


def pooled_sample_stderr(stderrs: Sequence[float], sizes: Sequence[int]) -> float:
    stderrs, sizes = _same_length("pooled_sample_stderr", stderrs=stderrs, sizes=sizes)
    _numbers(stderrs, "pooled_sample_stderr stderrs")
    _sizes(sizes, "pooled_sample_stderr sizes")
    if sum(sizes) - len(sizes) <= 0:
        raise InvalidInputError("pooled_sample_stderr: needs more samples than subtasks")
    return _in_floats("pooled_sample_stderr", lambda: np.sqrt(
        sum([(size - 1) * stderr**2 * size for size, stderr in zip(sizes, stderrs)]) / (sum(sizes) - len(sizes)) / sum(sizes)))


def unweighted_mean_stderr(stderrs: Sequence[float]) -> float:
    stderrs = _numbers(stderrs, "unweighted_mean_stderr")
    return _in_floats("unweighted_mean_stderr", lambda: np.sqrt(sum(stderr**2 for stderr in stderrs)) / len(stderrs))


def combined_sample_stderr(stderrs: Sequence[float], sizes: Sequence[int], metrics: Sequence[float]) -> float:
    stderrs, sizes, metrics = _same_length("combined_sample_stderr", stderrs=stderrs, sizes=sizes, metrics=metrics)
    _numbers(stderrs, "combined_sample_stderr stderrs")
    _numbers(metrics, "combined_sample_stderr metrics")
    _sizes(sizes, "combined_sample_stderr sizes")
    return _in_floats("combined_sample_stderr", lambda: _combined(stderrs, sizes, metrics))


def _combined(stderrs: list, sizes: list, metrics: list) -> float:
    variance, curr_size, curr_score = stderrs[0] ** 2, sizes[0], metrics[0]
    for stderr, size, score in zip(stderrs[1:], sizes[1:], metrics[1:]):
        if curr_size + size - 1 == 0:
            raise InvalidInputError("combined_sample_stderr: sizes too small")
        curr_score = ((curr_score * curr_size) + (score * size)) / (curr_size + size)
        # lm-eval never grows curr_size here: its value, kept
        variance = ((curr_size - 1) * variance + (size - 1) * (stderr**2)) / (curr_size + size - 1) + curr_size * size / (
            (curr_size + size) * (curr_size + size - 1)
        ) * (curr_score - score) ** 2
    return np.sqrt(variance)


def group_aggregate(metrics: Sequence[float], stderrs: Sequence[float] | None, sizes: Sequence[int], weight_by_size: bool = True) -> dict:
    """A group's value and stderr as ``lm_eval/api/group.py`` builds them: the size-weighted
    (or plain) mean, and the pooled (or unweighted-mean) stderr; ``"N/A"`` without stderrs."""
    value = aggregate_subtask_metrics(metrics, sizes, weight_by_size)
    stderrs = None if stderrs is None else _values(stderrs, "group_aggregate stderrs")
    if stderrs is None or any(isinstance(s, str) for s in stderrs) or len(stderrs) != len(list(metrics)):
        return {"value": value, "stderr": "N/A", "sample_count": sum(sizes)}
    stderr = pooled_sample_stderr(stderrs, sizes) if weight_by_size else unweighted_mean_stderr(stderrs)
    return {"value": value, "stderr": stderr, "sample_count": sum(sizes)}
