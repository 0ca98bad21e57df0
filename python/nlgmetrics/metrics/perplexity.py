"""Perplexity from per-token log-probabilities (any model).

``PPL = b ** (NLL / T)`` with ``NLL = -Σ_t log_b p(x_t | x_<t)`` over ``T`` scored tokens and
``b`` the base the log-probabilities are in (``e`` by convention; ``2`` and ``10`` too; the
number is the same whatever the base once each input is in its own base).

- Per text: its own NLL over its own tokens.
- Corpus: pooled, ``b ** (Σ_i NLL_i / Σ_i T_i)`` — a token-weighted mean of NLL, *not* the
  mean of per-text perplexities (which Hugging Face ``evaluate`` reports as
  ``mean_perplexity``; it is in the breakdown as ``mean_text_perplexity``).

Numerically stable: log-probabilities are summed exactly (Shewchuk, like ``math.fsum``),
never multiplied as probabilities, and only the mean is exponentiated; a perplexity beyond
the float range is ``inf`` (with ``mean_nll`` still finite), never an ``OverflowError``.
The statistics are ``tokens`` (u64) and ``nll`` (exact float sum), so streaming and
sharded runs give the same bits. Alignment is the caller's: ``logprobs[i][t]`` must be
the log-probability of token ``t`` given the tokens before it (shift model logits
yourself; torchmetrics does not shift either).

Input: a sequence of 1-D arrays (one per text, ragged), or a 2-D array with a boolean
``mask`` of the same shape (``False`` = padding, like ``ignore_index``). Log-probabilities
must be real numbers (complex numbers, booleans and strings are typed errors, never
converted), ``<= 0`` and not NaN; ``-inf`` (probability 0) gives an infinite perplexity.
A text with no tokens has no perplexity (``nan`` in ``sentence_scores``); a corpus with
no tokens is an error.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._numbers import real_array
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from ..signature import Signature
from ..stats import SegmentStats, Stats
from .base import Metric, Score

BASES = {"e": math.e, "2": 2.0, "10": 10.0}


def _pow(base: str, x: float) -> float:
    try:
        return math.exp(x) if base == "e" else BASES[base] ** x
    except OverflowError:
        return math.inf


class Perplexity(Metric):
    """Perplexity; see the module docstring.

    >>> import math
    >>> from nlgmetrics import Perplexity
    >>> s = Perplexity().corpus_score([[math.log(0.5), math.log(0.25)], [math.log(0.5)]])
    >>> round(s.score, 6), s.tokens
    (2.519842, 3)
    """

    name = "perplexity"
    count_fields = ("tokens",)
    sum_fields = ("nll",)

    def __init__(self, *, base: str | float = "e", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        key = {math.e: "e", 2: "2", 10: "10"}.get(base, base) if not isinstance(base, str) else base
        if key not in BASES:
            raise InvalidOptionError(f"base must be 'e', '2' or '10' (or the numbers), got {base!r}")
        self.base = key

    def _signature_items(self) -> dict[str, Any]:
        return {"base": self.base}

    def signature(self, stats: Stats | None = None) -> Signature:
        return Signature(self._signature_items(), {"base": "b"})

    # -- inputs -------------------------------------------------------------------------
    def _rows(self, logprobs: Any, mask: Any) -> list[np.ndarray]:
        if isinstance(logprobs, (str, bytes)):
            raise InputTypeError("logprobs must be a sequence of arrays of log-probabilities")
        if isinstance(logprobs, np.ndarray) and logprobs.ndim == 2:
            arr = real_array(logprobs, "logprobs", ndim=(2,), allow_nan=True)  # NaN may be padding: checked per text
            if mask is None:
                return list(arr)
            m = np.asarray(mask)
            if m.shape != arr.shape:
                raise LengthMismatchError(f"mask has shape {m.shape} but logprobs has shape {arr.shape}")
            if m.dtype != np.bool_:
                raise InputTypeError(f"mask must be boolean (True = scored token), got {m.dtype}")
            return [row[keep] for row, keep in zip(arr, m)]
        if mask is not None:
            raise InputTypeError("mask is only for a 2-D array of log-probabilities")
        rows = []
        try:
            logprobs = list(logprobs)
        except TypeError:
            raise InputTypeError(f"logprobs must be a sequence of arrays of log-probabilities, got {type(logprobs).__name__}") from None
        for i, r in enumerate(logprobs):
            rows.append(real_array(r, f"logprobs[{i}]", allow_nan=True))
        return rows

    def stats(self, logprobs: Any, mask: Any = None) -> SegmentStats:
        """Per text: ``tokens`` and ``nll`` (exactly summed negative log-probabilities)."""
        rows = self._rows(logprobs, mask)
        for i, a in enumerate(rows):
            if np.isnan(a).any():
                raise InvalidInputError(f"logprobs[{i}] contains NaN")
            if (a > 0).any():
                j = int(np.flatnonzero(a > 0)[0])
                raise InvalidInputError(f"logprobs[{i}][{j}] = {a[j]!r} is not a log-probability (must be <= 0)")
        counts = np.fromiter((len(a) for a in rows), dtype=np.uint64, count=len(rows)).reshape(-1, 1)
        nll = np.fromiter((-math.fsum(a) if len(a) else 0.0 for a in rows), dtype=np.float64, count=len(rows))
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, nll.reshape(-1, 1))

    def _score(self, stats: Stats) -> Score:
        tokens = int(stats.counts[0])
        if tokens == 0:
            raise InvalidInputError("perplexity of no tokens is undefined")
        nll = math.fsum(stats.sum_partials[0])
        mean = nll / tokens
        return Score(self.name, _pow(self.base, mean), self.signature(stats), stats, nll=nll, tokens=tokens, mean_nll=mean, base=self.base)

    # -- faces --------------------------------------------------------------------------
    def corpus_score(self, logprobs: Any, mask: Any = None) -> Score:  # type: ignore[override]
        seg = self.stats(logprobs, mask)
        s = self.score_stats(seg.total())
        per_text = self._sentence_scores(seg)
        finite = per_text[~np.isnan(per_text)]
        s.breakdown["mean_text_perplexity"] = s.mean_text_perplexity = float(np.mean(finite)) if len(finite) else math.nan
        return s

    def sentence_scores(self, logprobs: Any, mask: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(logprobs, mask))

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        t = seg.counts[:, 0].astype(np.float64)
        nll = seg.sums[:, 0]
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            mean = np.where(t > 0, nll / np.where(t > 0, t, 1), np.nan)
            return np.exp(mean) if self.base == "e" else np.power(BASES[self.base], mean)

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("perplexity has no pairwise form")

    def update(self, logprobs: Any, mask: Any = None) -> "Perplexity":  # type: ignore[override]
        total = self.stats(logprobs, mask).total()
        return self._accumulate(total)

    add_batch = update

    def compute(self, *, logprobs: Any = None, mask: Any = None, predictions: Any = None, references: Any = None) -> Score:  # type: ignore[override]
        if logprobs is not None:
            self.update(logprobs, mask)
        return self.score_stats(self._compute_state())


def perplexity(logprobs: Any, *, base: str | float = "e", mask: Any = None) -> Score:
    """Corpus perplexity (pooled tokens) of per-token log-probabilities."""
    return Perplexity(base=base).corpus_score(logprobs, mask)

