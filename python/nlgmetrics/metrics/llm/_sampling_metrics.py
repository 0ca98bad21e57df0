"""The registry metrics of :mod:`.sampling`: avg@k, maj@k, pass^k, G-Pass@k.

Each keeps one row of values per problem, in order, so that a corpus value is the
reference's own reduction of those rows (``np.mean``, or tau-bench's sum in order); totals
rebuilt from sums alone (bootstrap resamples, past the kept order) take the exactly rounded
mean. Inputs go in as ``corpus_score(first, second)``: ``(correct,)`` for avg@k,
``(answers, golds)`` for maj@k, ``(num_samples, num_correct)`` for pass^k and G-Pass@k.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from ...errors import InputTypeError, InvalidOptionError
from . import sampling as S
from ..base import Metric, Score
from .pass_at_k import _counts, _check_k

TAU_BENCH = "tau-bench@01ed5e3"
LIGHTEVAL = "lighteval-0.13.0"
MAJ_REFS = {"lm-eval": "lm-eval-0.4.13", "lighteval": LIGHTEVAL, "nemo-skills": "nemo-skills@7ca8a0f"}


class _SamplingMetric(Metric):
    """Per-problem rows of ``sum_fields``; :meth:`_rows` builds them, :meth:`_parts` scores."""

    count_fields = ("problems",)
    sequential = False  # True: the corpus value is the rows summed in order / problems
    needs_second = True

    def _rows(self, first: Any, second: Any) -> np.ndarray:
        raise NotImplementedError

    def _parts(self, means: dict[str, float]) -> tuple[float, dict[str, Any]]:
        raise NotImplementedError

    def _abbreviations(self) -> dict[str, str]:
        return {"k": "k", "ref": "ref"}

    def stats(self, first: Any, second: Any = None):  # type: ignore[override]
        from ...stats import SegmentStats

        if self.needs_second and second is None:
            raise InputTypeError(f"{self.name} needs two inputs per problem: {self._inputs_hint}")
        if not self.needs_second and second is not None:
            raise InputTypeError(f"{self.name} takes one input: {self._inputs_hint}")
        sums = np.asarray(self._rows(first, second), dtype=np.float64).reshape(-1, len(self.sum_fields))
        counts = np.ones((len(sums), 1), dtype=np.uint64)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums, sequence_field=self.sum_fields)

    def _score(self, stats) -> Score:
        from ...errors import InvalidInputError
        from ...stats import ordered_column_means, sequential_column_sums

        problems = int(stats.counts[0])
        if problems == 0:
            raise InvalidInputError(f"{self.name}: no problems")
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments == problems:
            if self.sequential:
                values = [float(v) / problems for v in sequential_column_sums(seq)]
            else:
                values = [float(v) for v in ordered_column_means(seq)]
        else:
            values = [math.fsum(p) / problems for p in stats.sum_partials]
        score, parts = self._parts(dict(zip(self.sum_fields, values)))
        return Score(self.name, score, self.signature(stats), stats, **parts, problems=problems)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, self.sum_fields.index(self._headline)].copy()

    # -- faces --------------------------------------------------------------------------------
    def corpus_score(self, first: Any, second: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(first, second).total())

    def sentence_scores(self, first: Any, second: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(first, second))

    def sentence_parts(self, first: Any, second: Any = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(first, second)
        out = {"score": self._sentence_scores(seg)}
        out.update({f: seg.sums[:, j].copy() for j, f in enumerate(self.sum_fields)})
        return out

    def update(self, first: Any, second: Any = None) -> "_SamplingMetric":  # type: ignore[override]
        return self._accumulate(self.stats(first, second).total())

    def add_batch(self, *, predictions: Any = None, references: Any = None, **named: Any) -> "_SamplingMetric":  # type: ignore[override]
        first, second = self._named(predictions, references, named)
        return self.update(first, second)

    def add(self, *, prediction: Any = None, reference: Any = None, **named: Any) -> "_SamplingMetric":  # type: ignore[override]
        first, second = self._named(prediction, reference, named)
        return self.update([first], None if second is None and not self.needs_second else [second])

    def compute(self, *, predictions: Any = None, references: Any = None, **named: Any) -> Score:  # type: ignore[override]
        first, second = self._named(predictions, references, named)
        if first is not None or second is not None:
            self.update(first, second)
        return self.score_stats(self._compute_state())

    def _named(self, first: Any, second: Any, named: dict[str, Any]) -> tuple[Any, Any]:
        names = self._input_names
        unknown = set(named) - set(names)
        if unknown:
            raise InputTypeError(f"{self.name}: unknown inputs {sorted(unknown)}; it takes {', '.join(names)}")
        if named:
            first = named.get(names[0], first)
            second = named.get(names[1], second) if len(names) > 1 else second
        return first, second

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError(f"{self.name} has no pairwise form")


class AvgAtKMetric(_SamplingMetric):
    """avg@k (``avg_at_k``), lighteval 0.13's ``AvgAtN``: ``corpus_score(correct)``, one list
    of per-sample scores per problem. The breakdown has ``run@J`` (accuracy of the J-th
    samples), ``runs_mean`` (``np.mean`` of them, the form of OpenCompass's "n runs average")
    and ``runs_std`` (``np.std`` of them, ``ddof`` named in the signature).

    >>> from nlgmetrics import AvgAtKMetric
    >>> s = AvgAtKMetric(k=2).corpus_score([[1, 0, 1], [1, 1, 0]])
    >>> s.score, s["run@1"], s["run@2"], s["runs_std"]
    (0.75, 1.0, 0.5, 0.25)
    """

    name = "avg_at_k"
    needs_second = False
    _input_names = ("correct",)
    _inputs_hint = "correct (one list of per-sample scores per problem)"

    # one statistics column per run: k bounds what the metric holds (a real k is tens to thousands)
    MAX_K = 1 << 20

    def __init__(self, k: int = 1, *, ddof: int = 0, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        self.k = _check_k(k)
        if self.k > self.MAX_K:
            raise InvalidOptionError(f"avg@k: k={self.k} is more than {self.MAX_K:,} runs (one statistics column per run)")
        self.ddof = S._check_ddof(ddof)
        self._headline = f"avg@{self.k}"
        self.sum_fields = (self._headline, *(f"run@{j}" for j in range(1, self.k + 1)))

    def _signature_items(self) -> dict[str, Any]:
        return {"k": self.k, "ddof": self.ddof, "ref": LIGHTEVAL}

    def _stats_items(self) -> dict[str, Any]:
        return {"k": self.k, "ref": LIGHTEVAL}

    def _abbreviations(self) -> dict[str, str]:
        return {"k": "k", "ddof": "ddof", "ref": "ref"}

    def _rows(self, first: Any, second: Any) -> np.ndarray:
        rows = S._scores(first, self.k)
        return np.array([[np.mean(r), *r] for r in rows], dtype=np.float64)

    def _parts(self, means: dict[str, float]) -> tuple[float, dict[str, Any]]:
        runs = np.array([means[f] for f in self.sum_fields[1:]], dtype=np.float64)
        return means[self._headline], {**means, "runs_mean": float(np.mean(runs)), "runs_std": S._runs_std(runs, self.ddof)}


class MajAtKMetric(_SamplingMetric):
    """maj@k (``maj_at_k``): ``corpus_score(answers, golds)``; the flavour names whose vote:
    ``lm-eval`` (default), ``lighteval``, ``nemo-skills`` (see :mod:`.sampling`).

    >>> from nlgmetrics import MajAtKMetric
    >>> MajAtKMetric(k=3).corpus_score([["4", "5", "5"], ["1", "2", None]], ["5", "2"]).score
    0.5
    """

    name = "maj_at_k"
    _input_names = ("answers", "golds")
    _inputs_hint = "answers (one list per problem) and golds (one per problem)"

    def __init__(self, k: int = 1, flavour: str = "lm-eval", *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        self.k = _check_k(k)
        self.flavour = S._check_flavour(flavour)
        self._headline = f"maj@{self.k}"
        self.sum_fields = (self._headline,)

    def _signature_items(self) -> dict[str, Any]:
        return {"k": self.k, "flavour": self.flavour, "ref": MAJ_REFS[self.flavour]}

    def _abbreviations(self) -> dict[str, str]:
        return {"k": "k", "flavour": "f", "ref": "ref"}

    def _rows(self, first: Any, second: Any) -> np.ndarray:
        rows, golds = S._maj_inputs(first, second, self.k, self.flavour)
        return np.array([S._maj_one(r, g, self.flavour) for r, g in zip(rows, golds)], dtype=np.float64)

    def _parts(self, means: dict[str, float]) -> tuple[float, dict[str, Any]]:
        return means[self._headline], means


class PassHatKMetric(_SamplingMetric):
    """pass^k (``pass_hat_k``), tau-bench's: ``corpus_score(num_samples, num_correct)``;
    ``k`` one integer or several, the score is pass^ the first.

    >>> from nlgmetrics import PassHatKMetric
    >>> PassHatKMetric(k=(1, 2)).corpus_score([4, 4], [4, 2])["pass^2"]
    0.5833333333333334
    """

    name = "pass_hat_k"
    sequential = True
    _input_names = ("num_samples", "num_correct")
    _inputs_hint = "num_samples (n) and num_correct (c), one per problem"

    def __init__(self, k: int | Sequence[int] = 1, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        self.ks = S._ks(k, "pass^k")
        self.sum_fields = tuple(f"pass^{k}" for k in self.ks)
        self._headline = self.sum_fields[0]

    def _signature_items(self) -> dict[str, Any]:
        return {"k": ",".join(map(str, self.ks)), "ref": TAU_BENCH}

    def _rows(self, first: Any, second: Any) -> np.ndarray:
        ns, cs = _counts(first, second)
        for k in self.ks:
            S._check_k_le_n(ns, k, "pass^k")
        return np.array([[S._pass_hat_one(n, c, k) for k in self.ks] for n, c in zip(ns, cs)], dtype=np.float64)

    def _parts(self, means: dict[str, float]) -> tuple[float, dict[str, Any]]:
        return means[self._headline], means


class GPassAtKMetric(_SamplingMetric):
    """G-Pass@k and mG-Pass@k (``g_pass_at_k``), lighteval 0.13's ``GPassAtK``:
    ``corpus_score(num_samples, num_correct)``. The breakdown has lighteval's names
    (``g-pass@{k}_{t}``, ``mg-pass@{k}``); the score is mG-Pass@ the first k. Needs scipy.

    >>> from nlgmetrics import GPassAtKMetric
    >>> s = GPassAtKMetric(k=2).corpus_score([4, 4], [4, 2])
    >>> s.score, s["g-pass@2_0.5"]
    (0.5833333333333334, 0.9166666666666667)
    """

    name = "g_pass_at_k"
    _input_names = ("num_samples", "num_correct")
    _inputs_hint = "num_samples (n) and num_correct (c), one per problem"

    def __init__(self, k: int | Sequence[int] = 1, *, thresholds: Sequence[float] = S.G_PASS_THRESHOLDS, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        S._hypergeom()  # the extra is named here, not on the first update
        self.ks = S._ks(k, "G-Pass@k")
        self.thresholds = S._check_thresholds(thresholds)
        self.sum_fields = S.g_pass_fields(self.ks, self.thresholds)
        self._headline = f"mg-pass@{self.ks[0]}"

    def _signature_items(self) -> dict[str, Any]:
        import scipy

        return {"k": ",".join(map(str, self.ks)), "t": ",".join(map(str, self.thresholds)),
                "ref": LIGHTEVAL, "scipy": scipy.__version__}

    def _abbreviations(self) -> dict[str, str]:
        return {"k": "k", "t": "t", "ref": "ref", "scipy": "scipy"}

    def _rows(self, first: Any, second: Any) -> np.ndarray:
        ns, cs = _counts(first, second)
        sf = S._hypergeom().sf
        return np.array([S._g_pass_row(n, c, self.ks, self.thresholds, sf) for n, c in zip(ns, cs)], dtype=np.float64)

    def _parts(self, means: dict[str, float]) -> tuple[float, dict[str, Any]]:
        return means[self._headline], means
