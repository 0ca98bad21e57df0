"""Google BLEU (GLEU; Wu et al. 2016) as nltk 3.10's ``corpus_gleu`` computes it, which is
Hugging Face evaluate's ``google_bleu``: ``GLEU(tokenize="13a", min_len=1, max_len=4)``.

For each segment and each reference, the n-grams of orders ``min_len..max_len`` of both
sides are counted; ``tp`` is the clipped overlap and ``n_all = max(|hyp n-grams|,
|ref n-grams|)`` (so ``tp / n_all = min(precision, recall)``). The reference with the
largest ``tp / n_all`` (the first on ties; references with ``n_all = 0`` skipped) gives
the segment's ``(n_match, n_all)``. The corpus score is ``Σ n_match / Σ n_all`` (0.0 when
``Σ n_all`` is 0); a sentence score is the same ratio for one segment (nltk's
``sentence_gleu``). Scale 0–1. Statistics per segment: the two integers, merged by sum.

``tokenize="13a"`` (default) is evaluate's tokenizer (sacrebleu's mteval-v13a, tokens
split; no lowercasing); ``"none"`` splits on whitespace (nltk's input tokenized already).

Citation: Wu et al. Google's Neural Machine Translation System: Bridging the Gap between
Human and Machine Translation. arXiv:1609.08144, 2016. Parity target: nltk 3.10
``nltk.translate.gleu_score``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import numpy as np

from .. import tokenizers as _tok
from .._inputs import check_all_text
from ..errors import InvalidOptionError
from ..stats import SegmentStats, Stats
from .base import Metric, Score

TOKENIZERS = ("13a", "none")


def _ngrams(tokens: list[str], lo: int, hi: int) -> Counter:
    grams: Counter = Counter()
    for n in range(lo, min(hi, len(tokens)) + 1):
        grams.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return grams


class GLEUScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"GLEU = {self.score:.{width}f} ({self.matches}/{self.total})"


class GLEU(Metric):
    """Google BLEU; see the module docstring.

    >>> from nlgmetrics.metrics.gleu import GLEU
    >>> s = GLEU().corpus_score(["he read the book because he was interested in world history"],
    ...                         [["he was interested in world history because he read the book"]])
    >>> s.matches, s.total, round(s.score, 6)
    (30, 38, 0.789474)
    """

    name = "GLEU"
    count_fields = ("matches", "total")
    flavours: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *, tokenize: str = "13a", min_len: int = 1, max_len: int = 4, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r} for GLEU; known: {', '.join(TOKENIZERS)}")
        for name, value in (("min_len", min_len), ("max_len", max_len)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidOptionError(f"{name} must be a positive integer, got {value!r}")
        self.tokenize = tokenize
        self.min_len = min_len
        self.max_len = max_len

    def _signature_items(self) -> dict[str, Any]:
        return {"tok": self.tokenize, "n": f"{self.min_len}-{self.max_len}"}

    def _abbreviations(self) -> dict[str, str]:
        return {"tok": "tok", "n": "n"}

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        check_all_text(predictions, "predictions")
        if self.tokenize == "13a":
            predictions, references = _tok.pretokenize("13a", predictions, references, self.n_threads)
        lo, hi = self.min_len, self.max_len
        counts = np.zeros((len(predictions), 2), dtype=np.uint64)
        for i, (hyp, refs) in enumerate(zip(predictions, references)):
            hyp_grams = _ngrams(hyp.split(), lo, hi)
            tpfp = sum(hyp_grams.values())
            best = None
            for ref in refs:
                ref_grams = _ngrams(ref.split(), lo, hi)
                n_all = max(tpfp, sum(ref_grams.values()))
                if n_all > 0:
                    tp = sum((ref_grams & hyp_grams).values())
                    # the first reference with the largest tp / n_all (as the float nltk compares)
                    if best is None or tp / n_all > best[0] / best[1]:
                        best = (tp, n_all)
            if best is not None:
                counts[i] = best
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> GLEUScore:
        matches, total = (int(x) for x in stats.counts)
        value = 0.0 if total == 0 else matches / total
        return GLEUScore("GLEU", value, self.signature(stats), stats, matches=matches, total=total)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        m = seg.counts[:, 0].astype(np.float64)
        t = seg.counts[:, 1].astype(np.float64)
        out = np.zeros(len(seg), dtype=np.float64)
        np.divide(m, t, out=out, where=t > 0)
        return out
