"""ROUGE-L as pycocoevalcap 1.2 computes it for captions: ``ROUGE(flavour="coco")``.

``tokenize="ptb"`` (default) runs the COCO pipeline's PTB tokenizer first (lowercase,
punctuation removed; references in one run, hypotheses in another), as ``COCOEvalCap``
does before calling ``Rouge``, so raw captions give COCOEvalCap's number, like
``BLEU(flavour="coco")`` and ``CIDEr()``. With ``tokenize="none"`` (what
``Rouge.compute_score`` itself receives) tokens are ``text.split(" ")`` (⚠ a doubled
space yields an empty token). For each reference ``j``,
``lcs_j`` is the LCS length, ``P = max_j lcs_j/|cand|`` and ``R = max_j lcs_j/|ref_j|``
are maximised *independently*, and ``score = (1+β²)PR / (R + β²P)`` with ``β = 1.2``
(0 when P or R is 0). The corpus score is ``Rouge.compute_score``'s ``np.mean`` of the
per-image scores, the same bits: the totals keep the per-image scores in order
(``Stats.sequence``, 8 bytes an image; merging concatenates) and reduce them with numpy's
pairwise sum (:func:`~nlgmetrics.stats.ordered_mean`). Totals rebuilt from sums alone
(bootstrap resamples) take the exactly rounded mean, within 4 ulps of it. The mean
precision and recall are exactly rounded means. Scale 0–1.

Citation: Chen et al. Microsoft COCO Captions: Data Collection and Evaluation Server.
arXiv:1504.00325, 2015 (pycocoevalcap); Lin 2004 (ROUGE-L).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ..stats import SegmentStats, Stats, ordered_mean
from ..script_check import Segmentation
from .cider import TOKENIZERS, tokenize_batch
from .rouge import PRF, ROUGE, RougeScore


class CocoRouge(ROUGE):
    """pycocoevalcap ``Rouge`` (ROUGE-L with β = 1.2). ``score`` = mean per-image score.

    >>> from nlgmetrics import ROUGE
    >>> round(ROUGE("coco").corpus_score(["a man riding a horse"], [["a man rides a horse", "a horse"]]).score, 6)
    0.907063
    """

    flavour = "coco"

    def __init__(self, flavour: str = "coco", *, beta: float = 1.2, tokenize: str = "ptb", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r} for coco ROUGE; known: {', '.join(TOKENIZERS)}")
        self.tokenize = tokenize
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta < float("inf"):
            raise InvalidOptionError(f"beta must be a finite number >= 0, got {beta!r}")
        if beta > 1.3407807929942596e154:  # beta**2 overflows: pycocoevalcap raises OverflowError, the core would give NaN
            raise InvalidOptionError(f"beta must be at most 1.34e154 (beta**2 must be a finite float), got {beta!r}")
        self.beta = float(beta)
        self.rouge_types = ("rougeL",)
        self.sum_fields = ("rougeL_precision", "rougeL_recall", "rougeL_score")

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": "coco", "types": "rougeL", "beta": self.beta, "tok": "ptb" if self.tokenize == "ptb" else "split-space", "agg": "mean"}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "types": "t", "beta": "b", "tok": "tok", "agg": "a"}

    def _segmentation(self) -> Segmentation:
        return Segmentation(
            "merges", "ROUGE flavour 'coco' (tokens split on spaces)",
            "segment the captions first (nlgmetrics.tokenizers.tokenize('jieba' or 'char', texts)) "
            "or use ROUGE(tokenizer='unicode' or 'jieba') (see docs/cjk.md)",
        )

    def _segment_matrix(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        predictions, references = tokenize_batch(predictions, references, self.tokenize, self.n_threads)
        return _core.rouge_coco_stats(predictions, references, self.beta, self.n_threads)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return dataclasses.replace(super()._segment_stats(predictions, references), sequence_field="rougeL_score")

    def _score(self, stats: Stats) -> RougeScore:
        if stats.n_segments == 0:
            raise InvalidInputError("ROUGE of an empty corpus is undefined: give at least one prediction")
        p, r, s = (float(x) for x in stats.sums / stats.n_segments)
        if stats.sequence is not None and len(stats.sequence) == stats.n_segments:
            s = ordered_mean(stats.sequence)  # pycocoevalcap's np.mean, bit for bit
        # "fmeasure" here is the mean of pycocoevalcap's per-image F_beta scores.
        return RougeScore(self.name, s, self.signature(stats), stats, types={"rougeL": PRF(p, r, s)})
