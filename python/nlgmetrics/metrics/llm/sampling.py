"""Repeated-sampling aggregates from per-sample correctness, each exactly as the framework
that reports it computes it (pass@k itself is :mod:`.pass_at_k`).

- **avg@k** (lighteval 0.13 ``AvgAtN``): per problem ``np.mean`` of the first k sample
  scores, corpus ``np.mean`` over problems; beside it the accuracy of each run (run j is the
  j-th sample of every problem) and ``np.std`` of those run accuracies with a named ``ddof``.
- **maj@k**: the majority answer of the first k samples against the gold, by flavour:
  ``lm-eval`` (0.4.13 ``majority_vote`` filter: ``Counter(resps).most_common(1)[0][0]``),
  ``lighteval`` (0.13 ``MajAtN``: a missing/empty answer becomes ``""``, then
  ``max(answers, key=answers.count)``), ``nemo-skills`` (``BaseMetrics.get_majority_at_k``:
  ``None`` answers are dropped before ``Counter.most_common``; none left scores 0). All
  three break a tie towards the answer seen first; they differ on missing answers.
- **pass^k** (tau-bench ``run.py``): per problem ``comb(c, k) / comb(n, k)`` (Python
  integers, one correctly rounded division), summed problem after problem from 0 and divided
  by the number of problems.
- **G-Pass@k_t and mG-Pass@k** (lighteval 0.13 ``GPassAtK``, as OpenCompass's GPassK):
  ``scipy.stats.hypergeom.sf(m - 1, n, c, k)`` with ``m = max(int(np.ceil(k * t)), 1)``, 0.0
  when ``m > min(c, k) or k > n``; mG-Pass@k ``= 2 * sum(G(i) for i in ceil(k/2)+1..k) / k``;
  corpus ``np.mean``. Needs scipy (extra ``[sampling]``); its version is in the signature.

The registry metrics over these functions are in :mod:`._sampling_metrics`.
"""
from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any, NamedTuple, Sequence

import numpy as np

from ...errors import (InputTypeError, InvalidInputError, InvalidOptionError,
                      LengthMismatchError, MissingExtraError)
from .pass_at_k import _counts, _check_k

MAJ_FLAVOURS = ("lm-eval", "lighteval", "nemo-skills")
G_PASS_THRESHOLDS = (0.0, 0.25, 0.5, 0.75, 1.0)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _finite(v: Any) -> bool:
    try:
        return math.isfinite(float(v))
    except OverflowError:  # an integer past the floats
        return False


def _rows(values: Any, what: str) -> list[list[Any]]:
    """One list per problem from a list of lists or a 2-D array."""
    from ..._inputs import as_sequence

    if isinstance(values, np.ndarray) and values.ndim == 2:
        return [list(r) for r in values]
    if isinstance(values, (str, bytes)):
        raise InputTypeError(f"{what} must be one sequence of samples per problem")
    rows = []
    for i, row in enumerate(as_sequence(values, what)):
        if isinstance(row, (str, bytes, dict)) or not hasattr(row, "__iter__"):
            raise InputTypeError(f"{what}: problem {i} must be a sequence of samples, got {type(row).__name__}")
        rows.append(list(row))
    if not rows:
        raise InvalidInputError(f"{what}: no problems")
    return rows


def _scores(values: Any, k: int) -> list[list[float]]:
    """The first k per-sample scores of each problem (booleans count 0/1)."""
    out = []
    for i, row in enumerate(_rows(values, "correct")):
        if len(row) < k:
            raise InvalidOptionError(f"avg@k: problem {i} has {len(row)} samples < k={k} (lighteval's AvgAtN fails on it)")
        clean = []
        for v in row[:k]:
            if not isinstance(v, (bool, np.bool_, int, float, np.integer, np.floating)) or not _finite(v):
                raise InputTypeError(f"avg@k: problem {i}: scores must be finite numbers or booleans, got {v!r}")
            clean.append(float(v))
        out.append(clean)
    return out


# -- avg@k ---------------------------------------------------------------------------------------
class AvgAtK(NamedTuple):
    per_problem: np.ndarray
    mean: float
    runs: np.ndarray
    std: float


def _runs_std(runs: np.ndarray, ddof: int) -> float:
    if len(runs) <= ddof:
        return float("nan")  # numpy's value there, without its warning
    return float(np.std(runs, ddof=ddof))


def avg_at_k(correct: Any, k: int, *, ddof: int = 0) -> AvgAtK:
    """Per-problem mean of the first k sample scores, their mean (lighteval's avg@n), the
    accuracy of each of the k runs and ``np.std(runs, ddof=ddof)``."""
    k = _check_k(k)
    ddof = _check_ddof(ddof)
    rows = _scores(correct, k)
    per = np.array([np.mean(r) for r in rows], dtype=np.float64)
    runs = np.array([np.mean(col) for col in np.array(rows, dtype=np.float64).T], dtype=np.float64)
    return AvgAtK(per, float(np.mean(per)), runs, _runs_std(runs, ddof))


def _check_ddof(ddof: Any) -> int:
    if not _is_int(ddof) or int(ddof) < 0:
        raise InvalidOptionError(f"avg@k: ddof must be an integer >= 0, got {ddof!r}")
    return int(ddof)


# -- maj@k ---------------------------------------------------------------------------------------
def majority_answer(answers: Sequence[Any], flavour: str = "lm-eval") -> Any:
    """The voted answer of ``answers`` under ``flavour``'s rule (``None``: nemo-skills with no answer)."""
    flavour = _check_flavour(flavour)
    if isinstance(answers, (str, bytes, dict)) or not hasattr(answers, "__iter__"):
        raise InputTypeError(f"majority_answer: give a sequence of answers, not {type(answers).__name__}")
    answers = list(answers)
    if not answers:
        raise InvalidInputError("majority_answer: no answers to vote on")
    for a in answers:
        if a is not None and not isinstance(a, str):
            raise InputTypeError(f"majority_answer: answers must be strings or None, got {type(a).__name__}")
    return _vote(answers, flavour)


def _vote(answers: list, flavour: str) -> Any:
    if flavour == "lm-eval":
        return Counter(answers).most_common(1)[0][0]
    if flavour == "lighteval":
        cleaned = [a if a else "" for a in answers]
        return max(cleaned, key=cleaned.count)
    valid = [a for a in answers if a is not None]
    return Counter(valid).most_common(1)[0][0] if valid else None


def _maj_inputs(answers: Any, golds: Any, k: int, flavour: str) -> tuple[list[list[Any]], list[Any]]:
    from ..._inputs import as_sequence

    rows = _rows(answers, "answers")
    if isinstance(golds, (str, bytes)):
        raise InputTypeError("maj@k: golds must be a sequence, one gold answer per problem")
    golds = as_sequence(golds, "golds")
    if len(golds) != len(rows):
        raise LengthMismatchError(f"maj@k: {len(rows)} problems of answers but {len(golds)} golds")
    for i, (row, gold) in enumerate(zip(rows, golds)):
        if not row:
            raise InvalidInputError(f"maj@k: problem {i} has no samples")
        if len(row) < k and flavour != "lighteval":  # lighteval slices; the others refuse
            raise InvalidOptionError(f"maj@k: problem {i} has {len(row)} samples < k={k} ({flavour} does not report this k)")
        for a in (*row[:k], gold):
            if a is not None and not isinstance(a, str):
                raise InputTypeError(f"maj@k: problem {i}: answers and golds must be strings or None, got {type(a).__name__}")
    return [r[:k] for r in rows], list(golds)


def maj_at_k(answers: Any, golds: Any, k: int, flavour: str = "lm-eval") -> tuple[np.ndarray, float]:
    """Per problem 1.0 when the majority of the first k answers equals the gold, else 0.0;
    and their mean. Fewer than k samples: lighteval votes with what there is (it slices),
    lm-eval's ``take_first_k`` and nemo-skills do not report that k (an error here)."""
    k = _check_k(k)
    flavour = _check_flavour(flavour)
    rows, golds = _maj_inputs(answers, golds, k, flavour)
    per = np.array([_maj_one(r, g, flavour) for r, g in zip(rows, golds)], dtype=np.float64)
    return per, float(per.sum() / len(per))


def _maj_one(answers: list[Any], gold: Any, flavour: str) -> float:
    vote = _vote(answers, flavour)
    if flavour == "lighteval":
        gold = gold if gold else ""
    elif flavour == "nemo-skills" and vote is None:
        return 0.0
    return 1.0 if vote == gold else 0.0


def _check_flavour(flavour: Any) -> str:
    if flavour not in MAJ_FLAVOURS:
        raise InvalidOptionError(f"maj@k: unknown flavour {flavour!r}; known: {', '.join(MAJ_FLAVOURS)}")
    return flavour


# -- pass^k --------------------------------------------------------------------------------------
# tau-bench divides two exact binomials; their size grows as n * H(k / n) bits, and Python's
# big-integer comb past about 2**17 bits takes seconds per problem: refused there (typed).
COMB_BITS_LIMIT = 2**17


@functools.lru_cache(maxsize=4096)
def _pass_hat_one(n: int, c: int, k: int) -> float:
    if c < k:
        return 0.0  # comb(c, k) == 0: tau-bench's 0 / comb(n, k)
    if c == n:
        return 1.0
    bits = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)
    if bits > COMB_BITS_LIMIT:
        raise InvalidInputError(f"pass^k: comb({n}, {k}) has about {bits:.0f} bits, past the {COMB_BITS_LIMIT} this computes exactly")
    return math.comb(c, k) / math.comb(n, k)


def _check_k_le_n(ns: list[int], k: int, what: str) -> None:
    for i, n in enumerate(ns):
        if n < k:
            raise InvalidOptionError(f"{what}: problem {i} has {n} samples < k={k} (comb(n, k) is 0)")


def pass_hat_k(num_samples: Any, num_correct: Any, k: int) -> tuple[np.ndarray, float]:
    """tau-bench's pass^k: per problem ``comb(c, k) / comb(n, k)``; their sum in order / count."""
    k = _check_k(k)
    ns, cs = _counts(num_samples, num_correct)
    if not cs:
        raise InvalidInputError("pass^k: no problems")
    _check_k_le_n(ns, k, "pass^k")
    per = [_pass_hat_one(n, c, k) for n, c in zip(ns, cs)]
    total = 0
    for v in per:
        total += v
    return np.array(per, dtype=np.float64), total / len(per)


# -- G-Pass@k ------------------------------------------------------------------------------------
def _hypergeom():
    try:
        from scipy.stats import hypergeom
    except ImportError:
        raise MissingExtraError("G-Pass@k needs scipy: pip install 'nlgmetrics[sampling]'") from None
    return hypergeom


def _g_pass(n: int, c: int, k: int, m: int, sf: Any) -> float:
    if m > min(c, k) or k > n or c < 0 or n <= 0 or m < 0:
        return 0.0
    return sf(m - 1, n, c, k)


def _g_pass_row(n: int, c: int, ks: Sequence[int], thresholds: Sequence[float], sf: Any) -> list[float]:
    """One problem's values in :func:`g_pass_fields` order, lighteval's operations."""
    out = []
    for k in ks:
        for t in thresholds:
            out.append(float(_g_pass(n, c, k, max(int(np.ceil(k * t)), 1), sf)))
        out.append(_mg_pass(n, c, k, sf))
    return out


def _mg_pass(n: int, c: int, k: int, sf: Any) -> float:
    """lighteval adds ``G(i)`` for ``i = ceil(k/2)+1 .. k`` one after the other from 0.0; the
    terms it skips (``i > min(c, k)``, ``k > n``) add 0.0, which changes nothing. The survival
    function is scipy's ufunc, element by element the same value as one call per ``i``."""
    from ..._resources import check_allocation

    low = int(np.ceil(k * 0.5))
    top = min(c, k)
    if k > n or c < 0 or n <= 0 or top <= low:
        return float(2 * 0.0 / k)
    check_allocation(16 * (top - low), "mG-Pass@k's terms (one per i up to k)")
    terms = np.asarray(sf(np.arange(low + 1, top + 1) - 1, n, c, k), dtype=np.float64)
    return float(2 * np.cumsum(terms)[-1] / k)  # cumsum adds strictly in order


def g_pass_fields(ks: Sequence[int], thresholds: Sequence[float]) -> tuple[str, ...]:
    """lighteval's metric names: ``g-pass@{k}_{t}`` per threshold, then ``mg-pass@{k}``."""
    return tuple(name for k in ks for name in (*(f"g-pass@{k}_{t}" for t in thresholds), f"mg-pass@{k}"))


def _check_thresholds(thresholds: Any) -> tuple[float, ...]:
    if isinstance(thresholds, (str, bytes, dict, set, frozenset)) or not hasattr(thresholds, "__iter__"):
        raise InvalidOptionError(f"G-Pass@k: thresholds must be a list of numbers, got {thresholds!r}")
    out = []
    for t in thresholds:
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, float, np.integer, np.floating)) or not math.isfinite(float(t)):
            raise InvalidOptionError(f"G-Pass@k: thresholds must be finite numbers, got {t!r}")
        out.append(float(t))
    if not out or len(set(out)) != len(out):
        raise InvalidOptionError(f"G-Pass@k: give distinct thresholds, got {out}")
    return tuple(out)


def g_pass_at_k(num_samples: Any, num_correct: Any, k: int | Sequence[int],
                thresholds: Sequence[float] = G_PASS_THRESHOLDS) -> dict[str, float]:
    """Corpus G-Pass@k_t and mG-Pass@k as lighteval reports them (``np.mean`` over problems)."""
    ks = _ks(k, "G-Pass@k")
    thresholds = _check_thresholds(thresholds)
    ns, cs = _counts(num_samples, num_correct)
    if not cs:
        raise InvalidInputError("G-Pass@k: no problems")
    sf = _hypergeom().sf
    rows = np.array([_g_pass_row(n, c, ks, thresholds, sf) for n, c in zip(ns, cs)], dtype=np.float64)
    return {f: float(np.mean(rows[:, j])) for j, f in enumerate(g_pass_fields(ks, thresholds))}


def _ks(k: Any, what: str) -> tuple[int, ...]:
    if isinstance(k, (str, bytes, dict, set, frozenset)):
        raise InvalidOptionError(f"{what}: k must be an integer or a list of integers, got {k!r}")
    ks = tuple(_check_k(v) for v in ([k] if not hasattr(k, "__iter__") else list(k)))
    if not ks or len(set(ks)) != len(ks):
        raise InvalidOptionError(f"{what}: give distinct k values, got {list(ks)}")
    return ks
