"""BLEU, ``nmt`` flavour: TensorFlow NMT's ``compute_bleu`` (``nmt/scripts/bleu.py``), the
BLEU of Hugging Face evaluate's ``bleu`` metric, exactly.

``BLEU(flavour="nmt", tokenize="13a", max_order=4, smooth=False)``. Differences from the
sacrebleu flavour:

- the reference length of a segment is its *shortest* reference (sacrebleu: closest);
- precisions ``correct_n / total_n`` (0.0 when ``total_n`` is 0); ``smooth=True`` is Lin
  and Och (2004)'s ``(correct_n + 1) / (total_n + 1)`` on every order;
- geometric mean ``exp(Σ (1/N)·ln p_n)`` (summed left to right), 0 when any precision is 0;
- brevity penalty 1 when ``ratio = hyp_len / ref_len > 1``, else ``exp(1 − 1/ratio)``;
- scale 0–1; the breakdown is evaluate's: ``precisions``, ``brevity_penalty``,
  ``length_ratio``, ``translation_length``, ``reference_length``.

``tokenize="13a"`` (default) is evaluate's ``Tokenizer13a`` (sacrebleu's mteval-v13a
tokenizer, whose tokens it splits; no lowercasing and no ``rstrip``); ``"none"`` splits on
whitespace (input tokenized already). Statistics per segment (integers, merge by sum):
``hyp_len, ref_len (shortest), correct_1..N, total_1..N``.

A corpus whose reference or hypothesis tokens total 0 has no length ratio: evaluate
divides by zero there; this raises :class:`~nlgmetrics.errors.InvalidInputError`.

Citation: Papineni et al. 2002; Lin and Och. ORANGE: a Method for Evaluating Automatic
Evaluation Metrics for Machine Translation. COLING 2004. Parity target: the
tensorflow/nmt script as evaluate's ``bleu`` runs it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _core
from .. import tokenizers as _tok
from ..errors import InvalidInputError, InvalidOptionError
from ..stats import SegmentStats, Stats
from .base import Score
from .bleu import BLEU

TOKENIZERS = ("13a", "none")


class NmtBLEUScore(Score):
    """evaluate's BLEU result: ``score`` (= ``bleu``) and its breakdown."""

    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        prec = "/".join(f"{p:.{width}f}" for p in self.precisions)
        return (f"BLEU(nmt) = {self.score:.{width}f} {prec} (BP = {self.brevity_penalty:.3f} ratio = {self.length_ratio:.3f} "
                f"hyp_len = {self.translation_length} ref_len = {self.reference_length})")


class NmtBLEU(BLEU):
    """TensorFlow NMT / evaluate's BLEU; see the module docstring.

    >>> from nlgmetrics import BLEU
    >>> s = BLEU(flavour="nmt").corpus_score(["hello there general kenobi", "foo bar foobar"],
    ...                                      [["hello there general kenobi", "hello there!"], ["foo bar foobar"]])
    >>> s.score, s.reference_length  # the shortest reference: "hello there !"
    (1.0, 6)
    """

    flavour = "nmt"

    def __init__(self, flavour: str = "nmt", *, tokenize: str = "13a", max_order: int = 4, smooth: bool = False, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r} for BLEU flavour 'nmt'; known: {', '.join(TOKENIZERS)}")
        if isinstance(max_order, bool) or not isinstance(max_order, int) or not 1 <= max_order <= 64:
            raise InvalidOptionError(f"max_order must be an integer in 1..64, got {max_order!r}")
        if not isinstance(smooth, (bool, np.bool_)):
            raise InvalidOptionError(f"smooth must be True or False, got {smooth!r}")
        self.tokenize = tokenize
        self.max_order = max_order
        self.smooth = bool(smooth)
        n = max_order
        self.count_fields = ("hyp_len", "ref_len", *(f"correct_{i}" for i in range(1, n + 1)), *(f"total_{i}" for i in range(1, n + 1)))

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": "nmt", "tok": self.tokenize, "order": self.max_order, "smooth": "lin-och" if self.smooth else "none", "ref": "shortest"}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "tok": "tok", "order": "n", "smooth": "s", "ref": "r"}

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        if self.tokenize == "13a":
            # the tokenizer alone (sacrebleu's BLEU would rstrip the line first; evaluate does not)
            predictions, references = _tok.pretokenize("13a", predictions, references, self.n_threads)
        counts = np.array(_core.bleu_stats(predictions, references, "none", False, self.max_order, self.n_threads), dtype=np.uint64)
        if len(predictions):
            if any(not rs for rs in references):
                raise InvalidInputError("BLEU flavour 'nmt': every prediction needs at least one reference")
            # shortest reference length (the core's column 1 is sacrebleu's closest)
            counts[:, 1] = [min(len(r.split()) for r in rs) for rs in references]
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        return None

    def _breakdown(self, counts: np.ndarray) -> dict[str, Any]:
        n = self.max_order
        hyp_len, ref_len = int(counts[0]), int(counts[1])
        correct = [int(x) for x in counts[2 : 2 + n]]
        total = [int(x) for x in counts[2 + n : 2 + 2 * n]]
        if self.smooth:
            precisions = [(c + 1.0) / (t + 1.0) for c, t in zip(correct, total)]
        else:
            precisions = [float(c) / t if t > 0 else 0.0 for c, t in zip(correct, total)]
        geo_mean = math.exp(sum((1.0 / n) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0.0
        if ref_len == 0 or hyp_len == 0:
            raise InvalidInputError(
                f"BLEU flavour 'nmt' needs tokens in both the predictions ({hyp_len}) and the shortest references "
                f"({ref_len}): the length ratio is undefined (the original divides by zero)"
            )
        ratio = float(hyp_len) / ref_len
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
        return {
            "bleu": geo_mean * bp,
            "precisions": precisions,
            "brevity_penalty": bp,
            "length_ratio": ratio,
            "translation_length": hyp_len,
            "reference_length": ref_len,
        }

    def _score(self, stats: Stats) -> NmtBLEUScore:
        d = self._breakdown(stats.counts)
        return NmtBLEUScore("BLEU", d.pop("bleu"), self.signature(stats), stats, **d)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        out = np.empty(len(seg), dtype=np.float64)
        for i, row in enumerate(seg.counts):
            try:
                out[i] = self._breakdown(row)["bleu"]
            except InvalidInputError:
                out[i] = math.nan
        return out

    def _scores_from_totals(self, counts: np.ndarray, sums: np.ndarray, n_segments: np.ndarray | None = None) -> np.ndarray:
        return self._sentence_scores(SegmentStats(self.key, self.count_fields, np.asarray(counts, dtype=np.uint64)))

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        out = np.empty((len(cands), len(refs)), dtype=np.float64)
        for j, r in enumerate(refs):
            out[:, j] = self._sentence_scores(self._segment_stats(cands, [[r]] * len(cands)))
        return out
