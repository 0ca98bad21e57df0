"""TER, translation edit rate (Snover et al., 2006), sacrebleu 2.6 flavour.

``TER = 100 · Σ_s edits_s / Σ_s avg_ref_len_s`` where, per segment, ``edits`` is the
smallest number of edits (insertions, deletions, substitutions and phrase shifts, each
costing 1) over the references and ``avg_ref_len`` the mean length of **all** its
references. With a total reference length of 0 the score is 100 if there are edits,
else 0. Lower is better.

Semantics copied from sacrebleu's tercom-compatible implementation: the tercom
tokenizer (``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``; lowercase
by default), greedy shifting of phrases of at most 10 words by at most 50 positions,
stopped when no shift helps or after 1000 evaluated candidates per sentence, ranked by
gain, then phrase length, then earliest start, then earliest target; a banded edit
distance (±25 around the pseudo-diagonal, last row full); references tokenized twice
(sacrebleu's reference caching preprocesses them twice, which matters with
``normalized``). These limits move the number
in long sentences, so the signature records them after sacrebleu's own keys
(``shift``, ``dist``, ``beam``, ``cands``).

Statistics per segment: ``edits`` (uint64) and ``ref_length`` (float64 sum). The totals
also keep the average reference lengths in segment order (``Stats.sequence``) and the
corpus score adds them one after the other, as sacrebleu does, so it is sacrebleu's to the
last bit with any number of references; totals without the order use the exact sum.

Citation: Snover, Dorr, Schwartz, Micciulla, Makhoul. A Study of Translation Edit Rate
with Targeted Human Annotation. AMTA 2006. Post. A Call for Clarity in Reporting BLEU
Scores. WMT 2018.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._orientation import never, oriented
from .. import _core
from .._inputs import as_texts, check_all_text
from ..script_check import Segmentation
from ..stats import Stats, sequential_column_sums
from .base import Flavoured, Metric, Score

if TYPE_CHECKING:  # numpy on use: sacrebleu's face imports this module for BLEU alone
    import numpy as np

    from ..stats import SegmentStats

MAX_SHIFT_SIZE, MAX_SHIFT_DIST, BEAM_WIDTH, MAX_SHIFT_CANDIDATES = _core.TER_LIMITS


class TERScore(Score):
    """TER with ``num_edits`` (int) and ``ref_length`` (the summed average reference length)."""


class TER(Flavoured, Metric, default_flavour="sacrebleu"):
    """TER. ``TER(flavour="sacrebleu", **options)``; see the module docstring.

    Options (same names and defaults as ``sacrebleu.TER``): ``normalized=False``,
    ``no_punct=False``, ``asian_support=False``, ``case_sensitive=False``.

    >>> from nlgmetrics import TER
    >>> round(TER().corpus_score(["The cat sat on the mat."], [["The cat is sitting on the mat."]]).score, 2)
    28.57
    """

    name = "TER"


class SacreTER(TER):
    flavour = "sacrebleu"
    count_fields = ("edits",)
    sum_fields = ("ref_length",)

    def __init__(
        self,
        flavour: str = "sacrebleu",
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        self.normalized = bool(normalized)
        self.no_punct = bool(no_punct)
        self.asian_support = bool(asian_support)
        self.case_sensitive = bool(case_sensitive)

    def _signature_items(self) -> dict[str, Any]:
        return {
            "case": "mixed" if self.case_sensitive else "lc",
            "tok": "tercom",
            "norm": "yes" if self.normalized else "no",
            "punct": "yes" if not self.no_punct else "no",
            "asian": "yes" if self.asian_support else "no",
            "shift": MAX_SHIFT_SIZE,
            "dist": MAX_SHIFT_DIST,
            "beam": BEAM_WIDTH,
            "cands": MAX_SHIFT_CANDIDATES,
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as", "shift": "sh", "dist": "sd", "beam": "bw", "cands": "mc"}

    def _options(self) -> tuple[bool, bool, bool, bool]:
        return (self.normalized, self.no_punct, self.asian_support, self.case_sensitive)

    def tokenize(self, lines: list[str]) -> list[str]:
        """The tercom tokenization of each line under this metric's options.

        This is what hypotheses get. References get it twice, as in sacrebleu (whose
        reference caching preprocesses them twice; the normalizer is not idempotent:
        ``"his 40's,"`` → ``"his 40's ,"`` → ``"his 40 's ,"``).
        """
        texts = as_texts(lines, "lines")
        try:
            return list(_core.ter_tokenize(texts, *self._options(), self.n_threads))
        except UnicodeEncodeError:
            check_all_text(texts, "lines")
            raise

    def _segmentation(self) -> Segmentation:
        return Segmentation(
            "merges", "TER with these tercom options",
            "use TER(normalized=True, asian_support=True): tercom splits Chinese/Japanese characters only when normalizing, as sacrebleu does",
            lambda texts: list(_core.ter_tokenize(texts, *self._options(), 1)),
        )

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        import numpy as np

        from ..stats import SegmentStats

        edits, lengths = _core.ter_stats(predictions, references, *self._options(), self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=edits.reshape(-1, 1),
            sum_fields=self.sum_fields,
            sums=lengths.reshape(-1, 1),
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
            # sacrebleu adds the average reference lengths one segment after the other
            sequence_field="ref_length",
        )

    def _score(self, stats: Stats) -> TERScore:
        edits = int(stats.counts[0])
        if stats.sequence is not None and stats.sequence.shape == (stats.n_segments,):
            ref_length = float(sequential_column_sums(stats.sequence))  # sacrebleu's sum, bit for bit
        else:
            ref_length = float(stats.sums[0])
        import numpy as np

        value = float(_core.ter_scores(np.array([edits], dtype=np.uint64), np.array([ref_length]))[0])
        return TERScore("TER", value, self.signature(stats), stats, num_edits=edits, ref_length=ref_length)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        import numpy as np

        if len(seg) == 0:
            return np.zeros(0)
        return _core.ter_scores(np.ascontiguousarray(seg.counts[:, 0]), np.ascontiguousarray(seg.sums[:, 0]))

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        try:
            return _core.ter_pairwise(cands, refs, *self._options(), self.n_threads)
        except UnicodeEncodeError:
            check_all_text(cands, "candidates")
            check_all_text(refs, "references")
            raise


@oriented('sacrebleu', never)
def ter(predictions, references, **options: Any) -> TERScore:
    """Corpus TER: ``TER(**options).corpus_score(predictions, references)``."""
    return TER(**options).corpus_score(predictions, references)


@oriented('sacrebleu', never)
def sentence_ter(predictions, references, **options: Any) -> np.ndarray:
    """Sentence TER per prediction."""
    return TER(**options).sentence_scores(predictions, references)
