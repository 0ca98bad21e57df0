"""Minimum Bayes risk (MBR) decoding: pick the candidate with the highest expected utility.

``select(candidates, pseudo_references, metric=...)`` scores every candidate against
every pseudo-reference (``metric.pairwise``: one call into the core, parallel over
rows), orients the scores as utilities and returns the candidate whose mean utility
over the pseudo-references is highest (Kumar & Byrne 2004; Eikema & Aziz 2020).
Pseudo-references default to the candidates themselves (sampling-based MBR).

Any object with ``pairwise(candidates, references) -> (N, M) array`` works (chrF,
BLEU, TER, ROUGE, CIDEr-D, BERTScore, ...). Direction: error rates (TER, WER, CER, MER,
WIL, PER) are lower-is-better, so their utility is the negated score; an object may
declare ``higher_is_better`` itself. The expected utility of a row is its exactly
rounded sum (``math.fsum``) divided by the number of pseudo-references (or the weighted
sum with ``weights``), so ties are exact and the choice does not depend on threads;
a tie goes to the lowest index.

Metric names: ``"chrf"``, ``"bleu"`` (sentence BLEU with ``effective_order=True``
unless given, as sacrebleu recommends for sentences), ``"ter"``, ``"rouge"`` (ROUGE-L
F-measure unless ``rouge_type`` is given; a ROUGE object gives its first type's F), ``"cider"`` (CIDEr-D with document
frequencies fitted on the pseudo-references, each one document, since one reference
alone gives every weight 0), or any registered name.

>>> from nlgmetrics.tasks.mbr import select
>>> r = select(["the cat sat", "a cat sat on the mat", "the cat sat on the mat"], metric="chrf")
>>> r.index, r.candidate
(2, 'the cat sat on the mat')
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .._inputs import as_texts
from ..errors import InvalidInputError, InvalidOptionError, LengthMismatchError

# Metrics whose scores are errors: lower is better.
LOWER_IS_BETTER = frozenset({"TER", "WER", "CER", "MER", "WIL", "PER"})


@dataclass
class MBRResult:
    """The chosen candidate, every candidate's expected utility and what it cost."""

    index: int
    candidate: str
    expected_utility: np.ndarray
    utility: np.ndarray = field(repr=False)
    metric: str
    higher_is_better: bool
    seconds: float
    n_pairs: int

    @property
    def seconds_per_pair(self) -> float:
        return self.seconds / self.n_pairs if self.n_pairs else 0.0


def higher_is_better(metric: Any) -> bool:
    """The direction of ``metric``'s scores (its own ``higher_is_better`` if it has one)."""
    own = getattr(metric, "higher_is_better", None)
    if isinstance(own, bool):
        return own
    return getattr(metric, "name", type(metric).__name__) not in LOWER_IS_BETTER


def resolve_metric(metric: Any, pseudo_references: Sequence[str], **options: Any) -> Any:
    """A metric object with ``pairwise`` from a name (see the module docstring) or an object."""
    if not isinstance(metric, str):
        if options:
            raise InvalidOptionError("options apply to metric names only; configure the metric object instead")
        if not callable(getattr(metric, "pairwise", None)):
            raise InvalidOptionError(f"the metric must have a pairwise(candidates, references) method, got {type(metric).__name__}")
        return metric
    name = metric.lower()
    if name == "bleu":
        options.setdefault("effective_order", True)
    if name == "rouge":  # ROUGE's pairwise matrix is the F-measure of its first type
        options.setdefault("rouge_types", [options.pop("rouge_type", "rougeL")])
    if name == "cider" and "df" not in options:
        from ..metrics.cider import CiderDF

        options["df"] = CiderDF.fit([[r] for r in pseudo_references], tokenize=options.get("tokenize", "ptb"), n=options.get("n", 4))
    from ..registry import load

    return load(name, **options)


def utility_matrix(candidates: Sequence[str], pseudo_references: Sequence[str], metric: Any) -> tuple[np.ndarray, bool]:
    """``U[i, j]``: the utility of candidate ``i`` if pseudo-reference ``j`` were right
    (the metric's score, negated for error rates), and whether higher scores are better."""
    scores = np.asarray(metric.pairwise(candidates, pseudo_references), dtype=np.float64)
    if scores.shape != (len(candidates), len(pseudo_references)):
        raise InvalidInputError(f"{type(metric).__name__}.pairwise returned shape {scores.shape}, expected {(len(candidates), len(pseudo_references))}")
    up = higher_is_better(metric)
    return (scores if up else -scores), up


def expected_utility(utility: np.ndarray, weights: Sequence[float] | None = None) -> np.ndarray:
    """Mean utility per row (weighted by ``weights`` over the columns when given), each
    exactly rounded."""
    n, m = utility.shape
    if weights is None:
        return np.array([math.fsum(row) / m for row in utility.tolist()], dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (m,):
        raise LengthMismatchError(f"{len(w)} weights for {m} pseudo-references")
    if not np.all(np.isfinite(w)) or (w < 0).any() or not w.sum() > 0:
        raise InvalidInputError("weights must be finite, non-negative and not all zero")
    total = math.fsum(w.tolist())
    return np.array([math.fsum((row * w).tolist()) / total for row in utility], dtype=np.float64)


def select(
    candidates: Sequence[str],
    pseudo_references: Sequence[str] | None = None,
    *,
    metric: Any = "chrf",
    weights: Sequence[float] | None = None,
    **options: Any,
) -> MBRResult:
    """The MBR choice among ``candidates`` (see the module docstring)."""
    cands = as_texts(candidates, "candidates")
    refs = cands if pseudo_references is None else as_texts(pseudo_references, "pseudo_references")
    if not cands or not refs:
        raise InvalidInputError("MBR needs at least one candidate and one pseudo-reference")
    m = resolve_metric(metric, refs, **options)
    start = time.perf_counter()
    utility, up = utility_matrix(cands, refs, m)
    seconds = time.perf_counter() - start
    if not np.all(np.isfinite(utility)):
        raise InvalidInputError(f"{getattr(m, 'name', type(m).__name__)} gave a non-finite utility")
    eu = expected_utility(utility, weights)
    best = int(np.argmax(eu))
    name = getattr(m, "name", type(m).__name__)
    return MBRResult(best, cands[best], eu, utility, name, up, seconds, len(cands) * len(refs))
