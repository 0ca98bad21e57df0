"""sacrebleu 2.6's scores of float32 resampled totals, as it computes them under NumPy ≥ 2.

sacrebleu's bootstrap (``corpus_score(n_bootstrap=N)``, ``--paired-bs``, the confidence
intervals of ``--paired-ar``) sums ``np.array(stats, dtype='float32')`` rows and passes the
float32 totals to each metric's ``_compute_score_from_stats``. Under NumPy 2's promotion
rules (NEP 50) an operation between a ``float32`` and a Python ``int`` or ``float`` stays
``float32`` (the Python number is first rounded to float32), while an operation between two
Python numbers stays double precision. chrF and TER mix both kinds (chrF's ``eps = 1e-16``
stands in for an undefined precision as a Python float; TER returns ``1.0``/``0.0`` for
empty references), so which precision a step runs in depends on the data.

:class:`Mixed` carries that per value: a float64 array of the values and a mask of which
ones are float32. Every operation is then done in both precisions and each element keeps
the one NumPy would have used; the float32 results are exact NumPy float32 results
(correctly rounded IEEE operations, no fused multiply-add), so the scores are bit for bit
sacrebleu's. BLEU's equivalent lives in the Rust core (``sig_sacrebleu_bleu_f32_scores``).

The scores come back as sacrebleu holds them: a float32 array when every resample's score
is a float32, else float64 (``np.array`` of float32 and Python floats). Means and intervals
are then taken with the same NumPy and ``statistics`` calls on that array.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

_CHRF_EPS = 1e-16  # sacrebleu's CHRF._compute_f_score


@dataclass
class Mixed:
    """Values that are each either a NumPy float32 (``f32``) or a Python float/int."""

    v: np.ndarray  # float64 values (float32 ones are exactly representable)
    f32: np.ndarray  # bool: the value is a NumPy float32

    @staticmethod
    def python(value: float | np.ndarray, n: int) -> "Mixed":
        return Mixed(np.broadcast_to(np.asarray(value, dtype=np.float64), (n,)).copy(), np.zeros(n, dtype=bool))

    @staticmethod
    def float32(values: np.ndarray) -> "Mixed":
        return Mixed(np.asarray(values, dtype=np.float32).astype(np.float64), np.ones(len(values), dtype=bool))

    def _apply(self, other: "Mixed", op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> "Mixed":
        with np.errstate(all="ignore"):
            wide = op(self.v, other.v)
            narrow = op(self.v.astype(np.float32), other.v.astype(np.float32)).astype(np.float64)
        f32 = self.f32 | other.f32
        return Mixed(np.where(f32, narrow, wide), f32)

    def __add__(self, other: "Mixed") -> "Mixed":
        return self._apply(other, np.add)

    def __mul__(self, other: "Mixed") -> "Mixed":
        return self._apply(other, np.multiply)

    def __truediv__(self, other: "Mixed") -> "Mixed":
        return self._apply(other, np.divide)

    def where(self, cond: np.ndarray, other: "Mixed") -> "Mixed":
        """``self`` where ``cond``, else ``other`` (a Python ``x if c else y``)."""
        return Mixed(np.where(cond, self.v, other.v), np.where(cond, self.f32, other.f32))

    def as_scores(self) -> np.ndarray:
        """The array sacrebleu builds from the per-resample scores."""
        return self.v.astype(np.float32) if self.f32.all() else self.v.copy()


def chrf_scores(totals: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """``CHRF._compute_f_score`` of each float32 totals row ``[hyp, ref, match] * order``."""
    n, width = totals.shape
    order = width // 3
    py = lambda x: Mixed.python(x, n)  # noqa: E731 - a Python number in every row
    factor = beta**2
    eps = py(_CHRF_EPS)
    score, avg_prec, avg_rec = py(0.0), py(0.0), py(0.0)
    effective_order = np.zeros(n, dtype=np.int64)
    for i in range(order):
        n_hyp, n_ref, n_match = (totals[:, 3 * i + j] for j in range(3))
        with np.errstate(all="ignore"):
            prec = Mixed.float32(n_match / n_hyp).where(n_hyp > 0, eps)
            rec = Mixed.float32(n_match / n_ref).where(n_ref > 0, eps)
        denom = py(factor) * prec + rec
        score = score + ((py(1 + factor) * prec * rec) / denom).where(denom.v > 0, eps)
        both = (n_hyp > 0) & (n_ref > 0)
        avg_prec = (avg_prec + prec).where(both, avg_prec)
        avg_rec = (avg_rec + rec).where(both, avg_rec)
        effective_order += both
    if eps_smoothing:
        return (py(100) * score / py(order)).as_scores()
    none = effective_order == 0
    divisor = py(np.maximum(effective_order, 1))
    avg_prec = py(0.0).where(none, avg_prec / divisor)
    avg_rec = py(0.0).where(none, avg_rec / divisor)
    f = py(1 + factor) * avg_prec * avg_rec
    f = f / (py(factor) * avg_prec + avg_rec)
    return (py(100) * f).where((avg_prec + avg_rec).v != 0, py(0.0)).as_scores()


def ter_scores(totals: np.ndarray) -> np.ndarray:
    """``TER._compute_score_from_stats`` of each float32 totals row ``[edits, ref_length]``."""
    n = len(totals)
    edits, ref_length = totals[:, 0], totals[:, 1]
    with np.errstate(all="ignore"):
        ratio = Mixed.float32(edits / ref_length)
    empty = Mixed.python(np.where(edits > 0, 1.0, 0.0), n)
    return (Mixed.python(100, n) * ratio.where(ref_length > 0, empty)).as_scores()


def sacrebleu_chrf(metric: Any, totals: np.ndarray) -> np.ndarray:
    return chrf_scores(totals, metric.beta, metric.eps_smoothing)


def sacrebleu_ter(metric: Any, totals: np.ndarray) -> np.ndarray:
    return ter_scores(totals)
