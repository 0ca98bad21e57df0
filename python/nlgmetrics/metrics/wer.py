"""WER, CER, MER, WIL and WIP, exactly as jiwer 4.0.0 computes them.

Statistics per segment: ``hits, substitutions, deletions, insertions`` of one alignment
of the reference (source) onto the prediction. Several alignments are optimal; the one
used is the one RapidFuzz's ``Levenshtein.opcodes`` returns (common prefix/suffix
stripped, Hirschberg split for long inputs, backtrace preferring delete > insert >
diagonal), so H/S/D/I equal jiwer's. Corpus measures pool the counts (jiwer sums them;
it does *not* average sentence rates). With ``N_ref = H+S+D`` and ``N_hyp = H+S+I``:

- ``WER = (S+D+I) / N_ref``; ``CER`` is WER over characters (every code point, spaces
  included, after stripping the ends);
- ``MER = (S+D+I) / (H+S+D+I)``;
- ``WIP = (H/N_ref)·(H/N_hyp)`` (0 if ``N_hyp = 0``), ``WIL = 1 − WIP``.

jiwer's empty-reference rule is kept: if the references hold no word at all,
``WER = #insertions`` (a count, not a rate), ``MER = 0, WIP = 1`` when the predictions are
empty too, else ``MER = 1, WIP = 0``.

Transforms (``transform=``): ``default`` = jiwer ``wer_default`` (collapse runs of
two or more whitespace characters, strip, split on spaces; no lowercasing);
``standardize`` = jiwer ``wer_standardize`` (lowercase, expand English contractions,
drop ``<...>``/``[...]`` non-words, ASCII whitespace to spaces, then ``default``).

Orientation: nlgmetrics takes ``(predictions, references)``; jiwer takes the reference
first. Several references per segment: ``multi_ref="error"`` (default; jiwer has one
reference) raises :class:`InvalidInputError`; ``multi_ref="best"`` uses, per segment,
the reference with the fewest errors S+D+I (ties: the first).

Citation: Morris, Maier, Green. From WER and RIL to MER and WIL: improved evaluation
measures for connected speech recognition. Interspeech 2004. jiwer (jitsi/jiwer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import numpy as np

from .._orientation import always, oriented
from .. import _core
from ..errors import InvalidOptionError
from ..script_check import Segmentation
from ..stats import SegmentStats, Stats
from .base import Metric, Score

TRANSFORMS = ("default", "standardize")
MULTI_REF = ("error", "best")
_TAGS = ("equal", "substitute", "insert", "delete")


@dataclass(frozen=True)
class AlignmentChunk:
    """One block of an alignment, like jiwer's ``AlignmentChunk`` (half-open ranges)."""

    type: str
    ref_start: int
    ref_end: int
    hyp_start: int
    hyp_end: int


class EditScore(Score):
    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return (
            f"{self.name} = {self.score:.{width}f} (H = {self.hits} S = {self.substitutions} "
            f"D = {self.deletions} I = {self.insertions})"
        )


class _EditMetric(Metric):
    """Shared machinery; subclasses fix the measure and the unit (words or characters)."""

    measure: ClassVar[str] = "wer"
    unit: ClassVar[str] = "word"
    flavour = "jiwer"
    count_fields = ("hits", "substitutions", "deletions", "insertions")

    def __init__(self, flavour: str = "jiwer", *, transform: str = "default", multi_ref: str = "error", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if flavour != "jiwer":
            raise InvalidOptionError(f"unknown {self.name} flavour {flavour!r}; known: jiwer")
        if self.unit == "char":
            if transform not in ("default", "cer_default"):
                raise InvalidOptionError(f"CER supports transform='default' (jiwer cer_default) only, got {transform!r}")
            transform = "default"
        elif transform not in TRANSFORMS:
            raise InvalidOptionError(f"unknown transform {transform!r}; known: {', '.join(TRANSFORMS)}")
        if multi_ref not in MULTI_REF:
            raise InvalidOptionError(f"unknown multi_ref {multi_ref!r}; known: {', '.join(MULTI_REF)}")
        self.transform = transform
        self.multi_ref = multi_ref

    @property
    def _core_transform(self) -> str:
        return "cer_default" if self.unit == "char" else self.transform

    def _signature_items(self) -> dict[str, Any]:
        return {
            "flavour": self.flavour,
            "unit": self.unit,
            "transform": "cer_default" if self.unit == "char" else f"wer_{self.transform}",
            "multiref": self.multi_ref,
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "unit": "u", "transform": "t", "multiref": "mr"}

    def _segmentation(self) -> Segmentation | None:
        if self.unit == "char":
            return None
        return Segmentation(
            "merges", f"{self.name} (words split on whitespace)",
            "use CER (character error rate, the convention for Mandarin and Japanese ASR) or segment the words first "
            "(nlgmetrics.tokenizers.tokenize('jieba' or 'ja-mecab', texts); see docs/cjk.md)",
        )

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        got = _core.edit_stats_lists(predictions, references, self._core_transform, self.multi_ref, self.n_threads)
        if got is None:
            return None
        counts, ref_counts = got
        return SegmentStats(key=self.key, count_fields=self.count_fields, counts=counts, ref_counts=ref_counts)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        counts = _core.edit_stats(predictions, references, self._core_transform, self.multi_ref, self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> EditScore:
        h, s, d, i = (int(x) for x in stats.counts)
        wer, mer, wil, wip = _core.edit_measures([h, s, d, i])
        values = {"wer": wer, "mer": mer, "wil": wil, "wip": wip}
        return EditScore(
            self.name,
            values[self.measure],
            self.signature(stats),
            stats,
            hits=h,
            substitutions=s,
            deletions=d,
            insertions=i,
            **({"cer": wer} if self.unit == "char" else values),
        )

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return _core.edit_scores(np.ascontiguousarray(seg.counts), self.measure)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        return _core.edit_pairwise(cands, refs, self._core_transform, self.measure, self.n_threads)

    def alignments(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> list[list[AlignmentChunk]]:
        """The alignment of every segment as jiwer's chunks (``substitute`` for replace)."""
        preds, refs = self._prepare(predictions, references)
        rows, _chosen = _core.edit_alignments(preds, refs, self._core_transform, self.multi_ref)
        out: list[list[AlignmentChunk]] = [[] for _ in preds]
        for seg, tag, r0, r1, h0, h1 in rows.tolist():
            out[seg].append(AlignmentChunk(_TAGS[tag], r0, r1, h0, h1))
        return out


class WER(_EditMetric):
    """Word error rate (jiwer 4.0.0); see the module docstring.

    >>> from nlgmetrics import WER
    >>> s = WER().corpus_score(["the cat sit on mat", "hello big world"], ["the cat sat on the mat", "hello world"])
    >>> s.score, s.hits, s.substitutions, s.deletions, s.insertions
    (0.375, 6, 1, 1, 1)
    """

    name = "WER"
    measure = "wer"


class MER(_EditMetric):
    """Match error rate ``(S+D+I)/(H+S+D+I)`` (jiwer 4.0.0)."""

    name = "MER"
    measure = "mer"


class WIL(_EditMetric):
    """Word information lost ``1 − WIP`` (jiwer 4.0.0)."""

    name = "WIL"
    measure = "wil"


class WIP(_EditMetric):
    """Word information preserved ``(H/N_ref)·(H/N_hyp)`` (jiwer 4.0.0)."""

    name = "WIP"
    measure = "wip"


class CER(_EditMetric):
    """Character error rate (jiwer 4.0.0 ``cer``: strip, then every character, spaces too)."""

    name = "CER"
    measure = "wer"
    unit = "char"


@oriented('jiwer', always)
def wer(predictions, references, **options: Any) -> EditScore:
    return WER(**options).corpus_score(predictions, references)


@oriented('jiwer', always)
def cer(predictions, references, **options: Any) -> EditScore:
    return CER(**options).corpus_score(predictions, references)


@oriented('jiwer', always)
def mer(predictions, references, **options: Any) -> EditScore:
    return MER(**options).corpus_score(predictions, references)


@oriented('jiwer', always)
def wil(predictions, references, **options: Any) -> EditScore:
    return WIL(**options).corpus_score(predictions, references)


@oriented('jiwer', always)
def wip(predictions, references, **options: Any) -> EditScore:
    return WIP(**options).corpus_score(predictions, references)


__all__ = ["AlignmentChunk", "CER", "MER", "WER", "WIL", "WIP", "cer", "mer", "wer", "wil", "wip"]
