"""SARI (Xu et al. 2016) for text simplification: how well the output adds, keeps and
deletes n-grams (n = 1..4) of the *source*, judged against the references.

SARI reads three inputs: ``sources``, ``predictions`` and ``references`` (several per
segment, as many as each segment has). Sources are passed as ``sources=`` to every
scoring call, or bound once with ``SARI(sources=...)`` (the CLI's ``--source SRC``).

Flavours (the published implementations differ by several points on the same input):

- ``easse`` (default): EASSE's ``corpus_sari`` — the value simplification papers report.
  Text is lowercased (``lowercase=True``) and tokenized by sacrebleu's ``13a`` (or
  ``intl``), then split on whitespace. Per segment and n-gram order, nine integer counts
  (add/keep/delete × correct, system total, reference total; keep and delete counts are
  weighted by the number of references); the corpus **sums the counts** and then takes,
  per order, precision/recall/F1 of each operation (0 when undefined), averages the
  four orders, and reports ``(add + keep + del) / 3`` × 100 (F1 for deletion: EASSE's
  default, the Java implementation's). A sentence score is ``corpus_sari`` of one segment.
  ``legacy=True`` is EASSE's ``legacy`` mode (scores reported by earlier work: the
  sources are only split, not tokenized, and nothing is lowercased).
- ``evaluate``: Hugging Face evaluate's ``sari`` (tensor2tensor's ``SARIsent``): text
  lowercased and 13a-tokenized, split on ``' '``; per segment, per order keep F1,
  delete precision and add F1 with 0/0 = 1 and the keep-recall fix; the corpus value is
  the **mean of the sentence scores** × 100 (added in segment order, as evaluate does).
- ``xu2016``: the original ``SARI.py`` (cocoxu/simplification): raw text lowercased and
  split on ``' '`` (no tokenization), 0/0 = 0, keep recall as published; corpus value the
  mean of sentence scores × 100 (the script scores sentences only).

Statistics: ``easse`` keeps 36 counts per segment (merging by sum is exact);
``evaluate``/``xu2016`` keep the sentence ``keep``, ``del``, ``add``, ``sari`` (0-1) as
sums, with the ``sari`` values also in segment order (``Stats.sequence``) so the mean
is evaluate's own sum; past the sequence limit the mean is the exactly rounded one.

Citation: Wei Xu, Courtney Napoles, Ellie Pavlick, Quanze Chen, Chris Callison-Burch.
Optimizing Statistical Machine Translation for Text Simplification. TACL 4, 2016.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _core
from .._inputs import SegmentReferences, as_references, as_texts, check_all_text, check_orientation
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from ..stats import SegmentStats, Stats, sequential_column_sums
from .base import Metric, Score

FLAVOURS = ("easse", "evaluate", "xu2016")
_OPS = ("add", "keep", "del")
EASSE_FIELDS = tuple(f"{op}_{kind}_{n}" for op in _OPS for kind in ("correct", "sys", "ref") for n in range(1, 5))
SENTENCE_FIELDS = ("keep", "del", "add", "sari")


class SARI(Metric):
    """SARI for text simplification; see the module docstring.

    >>> from nlgmetrics import SARI
    >>> s = SARI("evaluate").corpus_score(["About 95 you now get in ."],
    ...     [["About 95 species are currently known .", "About 95 species are now accepted .", "95 species are now accepted ."]],
    ...     sources=["About 95 species are currently accepted ."])
    >>> s.score
    26.953601953601954
    """

    name = "SARI"

    def __init__(self, flavour: str = "easse", *, sources: Sequence[str] | str | None = None, tokenize: str = "13a",
                 lowercase: bool = True, legacy: bool = False, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown SARI flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        self.flavour = flavour
        if flavour == "easse":
            if tokenize not in ("13a", "intl"):
                raise InvalidOptionError(f"unknown tokenizer {tokenize!r} for EASSE SARI; known: 13a, intl")
            # legacy=True: EASSE's reproduction of the Java tool (sources only split, nothing lowercased)
            self.legacy = bool(legacy)
            self.tokenize, self.lowercase = tokenize, bool(lowercase) and not self.legacy
            self.count_fields, self.sum_fields = EASSE_FIELDS, ()
        else:
            fixed = "13a" if flavour == "evaluate" else "space"
            self.legacy = False
            if tokenize not in ("13a", fixed) or not lowercase or legacy:
                raise InvalidOptionError(f"SARI flavour {flavour!r} fixes its preprocessing (lowercase, tok {fixed}); options tokenize/lowercase/legacy are EASSE's")
            self.tokenize, self.lowercase = fixed, True
            self.count_fields, self.sum_fields = (), SENTENCE_FIELDS
        self._sources: list[str] | str | None = None
        if sources is not None:
            self._sources = sources if isinstance(sources, str) else as_texts(sources, "sources")

    def with_sources(self, sources: Sequence[str] | str) -> "SARI":
        """A copy bound to ``sources`` (one per segment, or one string shared by all)."""
        return SARI(self.flavour, sources=sources, tokenize=self.tokenize if self.flavour == "easse" else "13a",
                    lowercase=self.lowercase, legacy=self.legacy, n_threads=self.n_threads)

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    # -- identity -------------------------------------------------------------------------
    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": self.flavour, "tok": self.tokenize, "case": "lc" if self.lowercase else "mixed", "legacy": True if self.legacy else None}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "tok": "tok", "case": "c", "legacy": "legacy"}

    # -- inputs ---------------------------------------------------------------------------
    def _sources_for(self, n: int, sources: Any) -> list[str]:
        if sources is None:
            sources = self._sources
        if sources is None:
            raise InvalidInputError("SARI needs the sources: pass sources= (or bind them with SARI(sources=...); CLI: --source SRC)")
        if isinstance(sources, str):
            return [sources] * n
        srcs = as_texts(sources, "sources")
        if len(srcs) != n:
            raise LengthMismatchError(f"{n} predictions but {len(srcs)} sources")
        return srcs

    def stats(self, predictions: Sequence[str], references: Any, sources: Sequence[str] | str | None = None) -> SegmentStats:  # type: ignore[override]
        """Per-segment statistics (one row per prediction)."""
        preds = as_texts(predictions, "predictions")
        if self._plain_references(references, len(preds)):
            # a list of non-empty lists: the core converts it in one go and raises TypeError
            # on any entry that is not a string; then the general path below names it
            check_orientation(preds, references)
            try:
                return self._stats(preds, references, self._sources_for(len(preds), sources), plain=True)
            except TypeError:
                pass
        refs = as_references(references, len(preds), predictions=preds)
        return self._stats(preds, refs, self._sources_for(len(preds), sources))

    @staticmethod
    def _plain_references(references: Any, n: int) -> bool:
        return (type(references) is list and len(references) == n
                and all(type(r) is list and r for r in references))

    def _stats(self, preds: list[str], refs: list[list[str]], srcs: list[str], plain: bool = False) -> SegmentStats:
        ref_counts = np.fromiter((len(r) for r in refs), dtype=np.int64, count=len(refs))
        try:
            if self.flavour == "easse":
                counts = _core.sari_easse_stats(srcs, preds, refs, self.tokenize, self.lowercase, self.n_threads, self.legacy)
                return SegmentStats(key=self.key, count_fields=self.count_fields, counts=counts, ref_counts=ref_counts)
            sums = _core.sari_sentence_stats(srcs, preds, refs, self.flavour, self.n_threads)
        except (UnicodeEncodeError, TypeError) as e:
            if plain and isinstance(e, TypeError):
                raise  # stats() retries through as_references, which names the bad entry
            check_all_text(srcs, "sources")
            check_all_text(preds, "predictions")
            for i, r in enumerate(refs):
                check_all_text(r, f"references[{i}]")
            raise InputTypeError(str(e)) from None
        return SegmentStats(key=self.key, count_fields=(), counts=np.zeros((len(preds), 0), dtype=np.uint64),
                            sum_fields=self.sum_fields, sums=sums, ref_counts=ref_counts, sequence_field="sari")

    def corpus_score(self, predictions: Sequence[str], references: Any, sources: Sequence[str] | str | None = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(predictions, references, sources).total())

    def sentence_scores(self, predictions: Sequence[str], references: Any, sources: Sequence[str] | str | None = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(predictions, references, sources))

    def sentence_parts(self, predictions: Sequence[str], references: Any, sources: Sequence[str] | str | None = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(predictions, references, sources)
        if self.flavour == "easse":
            v = _core.sari_easse_scores(np.ascontiguousarray(seg.counts))
            return {"score": v[:, 0].copy(), "add": v[:, 1].copy(), "keep": v[:, 2].copy(), "del": v[:, 3].copy()}
        s = 100 * seg.sums
        return {"score": s[:, 3].copy(), "add": s[:, 2].copy(), "keep": s[:, 0].copy(), "del": s[:, 1].copy()}

    def update(self, predictions: Sequence[str], references: Any, sources: Sequence[str] | str | None = None) -> "SARI":  # type: ignore[override]
        return self._accumulate(self.stats(predictions, references, sources).total())

    def add_batch(self, *, predictions: Sequence[str], references: Any, sources: Sequence[str] | str | None = None) -> "SARI":  # type: ignore[override]
        return self.update(predictions, references, sources)

    def add(self, *, prediction: Any, reference: Any = None, source: str | None = None) -> "SARI":  # type: ignore[override]
        return self.update([prediction], [reference], None if source is None else [source])

    def compute(self, *, predictions: Sequence[str] | None = None, references: Any = None, sources: Any = None) -> Score:  # type: ignore[override]
        if predictions is not None or references is not None:
            if predictions is None or references is None:
                raise InputTypeError("compute() needs both predictions= and references=, or neither")
            self.update(predictions, references, sources)
        return self.score_stats(self._compute_state())

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if not isinstance(self._sources, str):
            raise InvalidInputError("SARI.pairwise needs one source for every candidate: bind it with SARI(sources='...')")
        preds = [c for c in cands for _ in refs]
        flat = [[r] for _ in cands for r in refs]
        if not preds:
            return np.zeros((len(cands), len(refs)))
        return self._sentence_scores(self.stats(preds, flat)).reshape(len(cands), len(refs))

    # -- scoring --------------------------------------------------------------------------
    def _score(self, stats: Stats) -> Score:
        if self.flavour == "easse":
            sari, add, keep, dele = (float(x) for x in _core.sari_easse_scores(stats.counts.reshape(1, -1).astype(np.uint64))[0])
            return Score("SARI", sari, self.signature(stats), stats, add=add, keep=keep, delete=dele)
        n = stats.n_segments
        if n == 0:
            raise InvalidInputError("SARI: no segment to score")
        if stats.sequence is not None and stats.sequence.shape == (n,):
            total = float(sequential_column_sums(stats.sequence))  # evaluate's running sum, bit for bit
        else:
            total = float(stats.sums[3])
        k, d, a = (100 * (float(v) / n) for v in stats.sums[:3])
        return Score("SARI", 100 * (total / n), self.signature(stats), stats, add=a, keep=k, delete=d)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        if len(seg) == 0:
            return np.zeros(0)
        if self.flavour == "easse":
            return _core.sari_easse_scores(np.ascontiguousarray(seg.counts))[:, 0].copy()
        return 100 * seg.sums[:, 3]


def sari(predictions: Sequence[str], references: Any, sources: Sequence[str] | str, **options: Any) -> Score:
    return SARI(**options).corpus_score(predictions, references, sources)
