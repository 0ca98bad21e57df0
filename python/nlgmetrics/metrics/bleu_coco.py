"""BLEU, ``coco`` flavour: pycocoevalcap 1.2 ``Bleu(4)`` exactly.

``BLEU(flavour="coco", tokenize="ptb", n=4)``. Differences from the sacrebleu flavour
(reference-semantics §1.3):

- BLEU-1..4 are all reported (``bleu_1``..``bleu_4``; ``score`` is BLEU-4), on a 0–1
  scale, each the geometric mean of the first k precisions.
- Precisions carry pycocoevalcap's epsilons: ``(correct + 1e-15) / (guess + 1e-9)``, so
  an order without matches gives a tiny positive score, never exactly 0.
- Brevity penalty ``exp(1 − 1/ratio)`` whenever ``ratio = (testlen + 1e-15) /
  (reflen + 1e-9) < 1`` — an exact length match still pays about 1e-9/reflen.
- Closest reference length per image, ties to the shorter.
- The corpus score comes from the summed statistics (pycocoevalcap's ``score``), not
  from the mean of the per-image scores (its ``scores``, our ``sentence_scores``).

``tokenize="ptb"`` (default) runs the COCO pipeline's PTB tokenizer (lowercase,
punctuation removed) first; ``tokenize="none"`` splits on whitespace, for input that is
already tokenized (what ``Bleu.compute_score`` itself receives).

Citation: Papineni et al. 2002; Chen et al. Microsoft COCO Captions: Data Collection and
Evaluation Server, 2015 (the coco-caption code). Parity target: pycocoevalcap 1.2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .. import tokenizers as _tok
from ..script_check import Segmentation
from ..errors import InvalidOptionError
from ..stats import SegmentStats, Stats
from .base import Score
from .bleu import BLEU

# jieba (the AI Challenger captions' BLEU), zh, char, unicode, ja-mecab, ko-mecab segment
# Chinese/Japanese/Korean captions first; the scorer then splits on whitespace.
PRETOKENIZERS = ("jieba", "zh", "char", "unicode", "ja-mecab", "ko-mecab")
TOKENIZERS = ("ptb", "none") + PRETOKENIZERS


class CocoBLEUScore(Score):
    """BLEU-4 with BLEU-1..4, the length ratio and the lengths."""

    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        parts = " ".join(f"B{k + 1}={b:.{width}f}" for k, b in enumerate(self.bleus))
        return f"BLEU(coco) = {self.score:.{width}f} ({parts} ratio = {self.ratio:.4f} testlen = {self.testlen} reflen = {self.reflen})"


class CocoBLEU(BLEU):
    """pycocoevalcap's BLEU; see the module docstring.

    >>> from nlgmetrics import BLEU
    >>> s = BLEU(flavour="coco").corpus_score(["A man riding a horse."], [["A man is riding a horse.", "A person rides a horse"]])
    >>> round(s.bleu_1, 6), round(s.bleu_4, 6)  # no 4-gram matches: tiny, not 0
    (1.0, 0.000106)
    """

    flavour = "coco"

    def __init__(self, flavour: str = "coco", *, tokenize: str = "ptb", n: int = 4, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r} for coco BLEU; known: {', '.join(TOKENIZERS)}")
        if not isinstance(n, int) or not 1 <= n <= 64:
            raise InvalidOptionError(f"n must be an integer in 1..64, got {n!r}")
        self.tokenize = tokenize
        self._tok_signature = _tok.signature_name(tokenize) if tokenize in PRETOKENIZERS else tokenize
        self.n = n
        self.count_fields = ("testlen", "reflen", *(f"guess_{k}" for k in range(1, n + 1)), *(f"correct_{k}" for k in range(1, n + 1)))

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": "coco", "tok": self._tok_signature, "n": self.n, "reflen": "closest", "eps": "1e-15/1e-9"}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "tok": "tok", "n": "n", "reflen": "r", "eps": "eps"}

    def _segmentation(self) -> Segmentation | None:
        return _tok.unsegmented_check(self.tokenize, "BLEU flavour 'coco'", names=PRETOKENIZERS)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        tokenize = self.tokenize
        if tokenize in PRETOKENIZERS:
            (predictions, references), tokenize = _tok.pretokenize(tokenize, predictions, references, self.n_threads), "none"
        counts = _core.bleu_coco_stats(predictions, references, tokenize, self.n, self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> CocoBLEUScore:
        bleus, ratio = _core.bleu_coco_score(stats.counts, self.n)
        c = stats.counts
        n = self.n
        breakdown = {f"bleu_{k + 1}": b for k, b in enumerate(bleus)}
        return CocoBLEUScore(
            "BLEU",
            bleus[-1],
            self.signature(stats),
            stats,
            bleus=list(bleus),
            ratio=ratio,
            testlen=int(c[0]),
            reflen=int(c[1]),
            guess=[int(x) for x in c[2 : 2 + n]],
            correct=[int(x) for x in c[2 + n : 2 + 2 * n]],
            **breakdown,
        )

    def sentence_scores_all(self, predictions, references) -> np.ndarray:
        """Per-image BLEU-1..N: shape ``(n_images, n)`` (pycocoevalcap's ``scores``, transposed)."""
        return _core.bleu_coco_scores(self.stats(predictions, references).counts, self.n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return _core.bleu_coco_scores(seg.counts, self.n)[:, -1].copy()

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        preds = [c for c in cands for _ in refs]
        flat = [[r] for _ in cands for r in refs]
        if not preds:
            return np.zeros((len(cands), len(refs)))
        return self._sentence_scores(self._segment_stats(preds, flat)).reshape(len(cands), len(refs))
