"""PER, the position-independent word error rate (Tillmann et al. 1997), as Moses MERT
``PerScorer`` (``mert/PerScorer.cpp``) defines it.

Statistics per segment: ``correct, hyp_len, ref_len`` with
``correct = Σ_w min(count_hyp(w), count_ref(w))`` (the bag-of-words intersection).
The corpus score sums the statistics first (as Moses does), then

    PER = 1 − (correct − max(0, hyp_len − ref_len)) / ref_len
        = (max(ref_len, hyp_len) − correct) / ref_len.

Moses reports ``1 − PER`` (to maximise) in float32; nlgmetrics reports PER in float64.
With no reference word Moses scores ``1 − PER = 0``, so PER is 1.0 here.
Tokens: ``tokenize="space"`` (default) splits on the space character only, as Moses'
``TokenizeAndEncode`` does (a tab stays inside a token); any named tokenizer
(``none``, ``13a``, ...) can be used instead. Case is kept (as Moses) unless
``lowercase=True`` (an nlgmetrics extension: Python ``str.lower``). Moses takes one reference: ``multi_ref="error"`` (default)
raises on several; ``multi_ref="best"`` uses the reference with the fewest errors
``max(ref, hyp) − correct`` (ties: the first).

Citation: Tillmann, Vogel, Ney, Zubiaga, Sawaf. Accelerated DP based search for
statistical translation. Eurospeech 1997.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._orientation import never, oriented
from .. import _core
from .. import tokenizers as _tok
from ..errors import InvalidOptionError
from ..script_check import Segmentation
from ..stats import SegmentStats, Stats
from .base import Metric, Score
from .wer import MULTI_REF


class PER(Metric):
    """Position-independent error rate (Moses ``PerScorer``); see the module docstring.

    >>> from nlgmetrics import PER
    >>> round(PER().corpus_score(["c b a d"], ["a b c"]).score, 6)
    0.333333
    """

    name = "PER"
    flavour = "moses"
    count_fields = ("correct", "hyp_len", "ref_len")

    def __init__(self, flavour: str = "moses", *, tokenize: str = "space", lowercase: bool = False, multi_ref: str = "error", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if flavour != "moses":
            raise InvalidOptionError(f"unknown PER flavour {flavour!r}; known: moses")
        if tokenize != "space" and tokenize not in _tok.CORE_TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenizer {tokenize!r} for PER; known: space, {', '.join(_tok.CORE_TOKENIZERS)}")
        if multi_ref not in MULTI_REF:
            raise InvalidOptionError(f"unknown multi_ref {multi_ref!r}; known: {', '.join(MULTI_REF)}")
        self.tokenize = tokenize
        self.lowercase = bool(lowercase)
        self.multi_ref = multi_ref

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": self.flavour, "tok": self.tokenize, "case": "lc" if self.lowercase else "mixed", "multiref": self.multi_ref}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "tok": "tok", "case": "c", "multiref": "mr"}

    def _segmentation(self) -> Segmentation | None:
        return _tok.unsegmented_check(self.tokenize, "PER", names=("zh", "char", "unicode"))

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        counts = _core.per_stats(predictions, references, self.tokenize, self.lowercase, self.multi_ref, self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> Score:
        value = float(_core.per_scores(stats.counts.reshape(1, 3).astype(np.uint64))[0])
        c, h, r = (int(x) for x in stats.counts)
        return Score("PER", value, self.signature(stats), stats, correct=c, hyp_len=h, ref_len=r)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return _core.per_scores(np.ascontiguousarray(seg.counts))

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        return _core.per_pairwise(cands, refs, self.tokenize, self.lowercase, self.n_threads)


@oriented('Moses', never)
def per(predictions, references, **options: Any) -> Score:
    return PER(**options).corpus_score(predictions, references)
