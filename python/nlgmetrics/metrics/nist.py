"""NIST (Doddington 2002): information-weighted n-gram precision with a length penalty.

Information weights come from the references of the *whole corpus*:
``info(w1..wn) = log2(count(w1..wn−1) / count(w1..wn))`` (a unigram's prefix count is
the number of reference words). NIST is therefore two-phase: the reference n-gram
table (:meth:`NIST.reference_table`, a :class:`Stats` whose ``tables["ngrams"]`` merge
by key-wise addition) comes first, segment statistics second. A single
``corpus_score``/``stats`` call builds the table from its own references, as both
reference tools do. To stream or shard, build the table first (merge the shards'
tables with ``+``) and pass it: ``NIST(info_table=table)``; statistics computed with
different tables never merge (the table's digest is part of the key). Statistics of
separate ``stats`` calls without a table carry a fingerprint of the references their
weights came from (two count fields, as CIDEr-D's): their sum is refused with an
:class:`IncompatibleStatsError` rather than scored with mixed weights.

Flavours:

- ``mteval`` (default; mteval-v13a.pl): 13a tokenization as the script applies it to the
  raw text written into its SGML input with ``& < >`` escaped (a literal ``&amp;``,
  ``&quot;`` or ``<skipped>`` stays text, a literal ``&lt;``/``&gt;`` becomes ``<``/``>``,
  Perl's whitespace keeps U+001C..U+001F inside tokens), ASCII lowercasing unless
  ``case_sensitive=True`` (mteval's ``-c``); hypothesis n-gram counts clipped by their
  maximum count over all references; ``NIST = Σ_{n≤N} Σinfo_n / max(#hyp n-grams, 1)
  × BP(hyp words / average reference length)``, ``BP(r) = exp(−β ln² r)`` for
  ``r < 1`` with ``β = −ln 0.5 / ln² 1.5``. The average reference length is
  ``reference words / (references per segment)``: mteval-v13a's ``/ #refsets`` when
  every segment has the same number of references (pass empty strings to pad, as
  mteval's reference sets do), and mteval-v13a-sig's (the E2E challenge scorer's)
  average number of references present when it varies. ⚠ Copied quirk: mteval tests
  the prefix string of an n-gram for Perl truth, so a bigram starting with the token
  ``0`` is weighted as if it were a unigram (prefix count = all reference words). Segment scores use the corpus weights (as
  mteval's ``-d 2``). References without any word are an error (mteval divides by zero).
- ``nltk`` (nltk 3.10 ``corpus_nist``): whitespace tokens (no lowercasing); per order
  and segment, the reference with the largest ``(precision, numerator, denominator,
  length)`` is used, and lengths are accumulated once per order. nltk raises
  ZeroDivisionError when some order has no hypothesis n-gram in the corpus (hypotheses
  shorter than ``n``) or no reference word; nlgmetrics raises
  :class:`InvalidInputError` there, or with ``zero_division="zero"`` scores such an
  order's precision (and a zero-length penalty) as 0. The totals keep each segment's
  numerators in order (``Stats.sequence``) and add them one after the other, as
  ``corpus_nist`` does, so the corpus score is nltk's to the last bit; totals without the
  order use exact sums. Sentence scores follow nltk's
  ``sentence_nist`` (weights from the segment's own references) unless ``info_table``
  is given.

Citation: Doddington. Automatic evaluation of machine translation quality using n-gram
co-occurrence statistics. HLT 2002.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

import numpy as np

from .._orientation import flavour_in, oriented
from .. import _core
from .. import script_check
from .. import tokenizers as _tok
from .._inputs import as_references, check_option_applies
from ..errors import IncompatibleStatsError, InvalidInputError, InvalidOptionError
from ..script_check import Segmentation
from ..stats import SegmentStats, Stats, sequential_column_sums
from .base import Metric, Score, segment_error

FLAVOURS = ("mteval", "nltk")
# Every segment's statistics carry the fingerprint f of the weights they were computed
# with, and f²: a sum of n segments used one table iff (Σf)² = n·Σf² (Cauchy-Schwarz).
_WEIGHT_FIELDS = ("weights_fp", "weights_fp2")


def _fingerprint(text: str) -> int:
    """20 bits, as CIDEr-D's: squares summed over 2**24 segments fit uint64."""
    h = int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
    return h % ((1 << 20) - 3) + 1


def _refs_fingerprint(references: list[list[str]] | list[str | list[str] | tuple[str, ...]]) -> int:
    """A segment's references are a list, a tuple or (one reference) a str."""
    total = 0
    for refs in references:
        joined = refs if isinstance(refs, str) else "\x1f".join(refs)
        total += int.from_bytes(hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
    return total % ((1 << 20) - 3) + 1


class NISTScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        prec = "/".join(f"{p:.4f}" for p in self.precisions)
        return f"NIST = {self.score:.{width}f} {prec} (penalty = {self.penalty:.4f})"


def _digest(table: dict[str, int], total: int) -> str:
    h = hashlib.sha1(str(total).encode())
    for k in sorted(table):
        h.update(f"\x00{k}\x01{table[k]}".encode())
    return h.hexdigest()[:12]


class NIST(Metric):
    """NIST; ``NIST(flavour="mteval", n=5, ...)``. See the module docstring.

    >>> from nlgmetrics import NIST
    >>> round(NIST().corpus_score(["a b c"], [["a b c"]]).score, 6)
    1.584963
    """

    name = "NIST"

    def __init__(
        self,
        flavour: str = "mteval",
        *,
        n: int = 5,
        case_sensitive: bool = False,
        tokenize: str | None = None,
        lowercase: bool = False,
        zero_division: str = "error",
        info_table: Stats | None = None,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown NIST flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
            raise InvalidOptionError(f"NIST n must be an integer in 1..64, got {n!r}")
        if zero_division not in ("error", "zero"):
            raise InvalidOptionError(f"zero_division must be 'error' or 'zero', got {zero_division!r}")
        if tokenize is None:
            tokenize = "13a" if flavour == "mteval" else "none"
        if tokenize not in _tok.CORE_TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenizer {tokenize!r} for NIST; known: {', '.join(_tok.CORE_TOKENIZERS)}")
        self.flavour = flavour
        self.n = n
        self.tokenize = tokenize
        # mteval lowercases unless -c; nltk only when asked
        check_option_applies("lowercase", lowercase, False, flavour == "nltk", "with flavour='mteval' (it lowercases unless case_sensitive=True)")
        check_option_applies("case_sensitive", case_sensitive, False, flavour == "mteval", "with flavour='nltk' (it keeps case unless lowercase=True)")
        self.lowercase = (not case_sensitive) if flavour == "mteval" else bool(lowercase)
        self.case_sensitive = bool(case_sensitive)
        self.zero_division = zero_division
        if info_table is not None and (not isinstance(info_table, Stats) or info_table.key != self._table_key):
            raise IncompatibleStatsError("info_table must come from reference_table() of a NIST metric with the same flavour, tokenizer, case and n")
        self.info_table = info_table
        if flavour == "mteval":
            self.count_fields = (*(f"tst_{i}" for i in range(1, n + 1)), "ref_words", "n_refs", *_WEIGHT_FIELDS)
            self.sum_fields = tuple(f"info_{i}" for i in range(1, n + 1))
        else:
            self.count_fields = (*(f"den_{i}" for i in range(1, n + 1)), "l_ref", "l_sys", *_WEIGHT_FIELDS)
            self.sum_fields = tuple(f"num_{i}" for i in range(1, n + 1))

    # -- phase one -------------------------------------------------------------------
    @property
    def _table_key(self) -> str:
        return f"NIST-table|flavour:{self.flavour}|tok:{self.tokenize}|lc:{self.lowercase}|n:{self.n}"

    def reference_table(self, references: Sequence[str | Sequence[str]]) -> Stats:
        """Reference n-gram counts of a corpus (or a shard): merge shards with ``+``."""
        refs = as_references(references)
        keys, counts, total = _core.nist_table(refs, self.flavour, self.tokenize, self.lowercase, self.n)
        return Stats(
            key=self._table_key,
            count_fields=("ref_words",),
            counts=np.array([total], dtype=np.uint64),
            n_segments=len(refs),
            tables={"ngrams": dict(zip(keys, counts))},
        )

    def fit(self, references: Sequence[str | Sequence[str]]) -> "NIST":
        """Fix the information weights to those of ``references`` (for streaming)."""
        self.info_table = self.reference_table(references)
        return self

    def _table_arg(self) -> tuple[list[str], list[int], int] | None:
        if self.info_table is None:
            return None
        t = self.info_table.tables.get("ngrams", {})
        return list(t.keys()), list(t.values()), int(self.info_table.counts[0])

    # -- identity --------------------------------------------------------------------
    def _signature_items(self) -> dict[str, Any]:
        if self.info_table is None:
            weights = "refs"
        else:
            # the digest hashes the whole table: compute it once per table (tables are immutable)
            cached = self.__dict__.get("_weights_digest")
            if cached is None or cached[0] is not self.info_table:
                t = self.info_table.tables.get("ngrams", {})
                cached = (self.info_table, "table-" + _digest(t, int(self.info_table.counts[0])))
                self._weights_digest = cached
            weights = cached[1]
        items: dict[str, Any] = {"flavour": self.flavour, "n": self.n, "tok": self.tokenize, "case": "lc" if self.lowercase else "mixed", "weights": weights}
        if self.flavour == "nltk":
            items["zerodiv"] = self.zero_division
        return items

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "n": "n", "tok": "tok", "case": "c", "weights": "w", "zerodiv": "z"}

    # -- phase two -------------------------------------------------------------------
    def _stats_with(self, predictions: list[str], references: list[list[str]], table, batch_table: bool = False) -> SegmentStats:
        counts, sums = _core.nist_stats(predictions, references, self.flavour, self.tokenize, self.lowercase, self.n, table, self.n_threads, batch_table)
        ref_counts = np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references))
        return self._segment_stats_of(counts, sums, ref_counts, references, table, batch_table)

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        # plain lists read in place by the core (no per-string copy, no Python-level validation)
        table = self._table_arg()
        got = _core.nist_stats_lists(predictions, references, self.flavour, self.tokenize, self.lowercase, self.n, table, self.n_threads, True)
        if got is None:
            return None
        counts, sums, ref_counts = got
        return self._segment_stats_of(counts, sums, ref_counts, references, table, True)

    def _segment_stats_of(self, counts, sums, ref_counts, references, table, batch_table: bool) -> SegmentStats:
        fp = _fingerprint(self._signature_items()["weights"]) if table is not None else _refs_fingerprint(references)
        if not batch_table and table is None:
            fp = 0  # sentence scores: each segment's own weights, never summed into a corpus score
        extra = np.empty((counts.shape[0], 2), dtype=np.uint64)
        extra[:, 0], extra[:, 1] = fp, fp * fp
        counts = np.hstack([np.asarray(counts, dtype=np.uint64).reshape(-1, self.n + 2), extra])
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            sum_fields=self.sum_fields,
            sums=sums,
            ref_counts=ref_counts,
            # nltk adds the segments' numerators one after the other: keep them in order
            sequence_field=self.sum_fields if self.flavour == "nltk" else None,
        )

    def _segmentation(self) -> Segmentation | None:
        return _tok.unsegmented_check(self.tokenize, "NIST", names=("zh", "char", "unicode"))

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        # without a fixed table: the weights of this call's references (corpus semantics)
        return self._stats_with(predictions, references, self._table_arg(), batch_table=True)

    def update(self, predictions, references) -> "NIST":
        if self.info_table is None:
            raise InvalidInputError(
                "NIST information weights are corpus-wide: build them first with fit(references) "
                "(or reference_table() per shard, merged with +), then stream"
            )
        return super().update(predictions, references)

    def compute(self, *, predictions=None, references=None) -> NISTScore:
        # the one-shot keyword call needs no fixed table: the weights come from these references
        if self.info_table is None and self._state is None and predictions is not None and references is not None:
            return self.corpus_score(predictions, references)
        return super().compute(predictions=predictions, references=references)

    def _score(self, stats: Stats) -> NISTScore:
        fp, fp2 = (int(x) for x in stats.counts[-2:])
        if fp * fp != stats.n_segments * fp2:
            raise IncompatibleStatsError(
                "these NIST statistics come from stats() calls with different information weights (each call "
                "weights n-grams by its own references); fix the weights first: NIST(info_table=reference_table(all "
                "references)) or NIST().fit(references), or score the pieces with nlgmetrics.engines.streaming.score_chunks"
            )
        counts = np.ascontiguousarray(stats.counts[:-2], dtype=np.uint64)
        sums = np.ascontiguousarray(stats.sums, dtype=np.float64)
        seq = stats.sequence
        if self.flavour == "nltk" and seq is not None and seq.ndim == 2 and seq.shape == (stats.n_segments, len(self.sum_fields)):
            sums = np.ascontiguousarray(sequential_column_sums(seq))  # corpus_nist's sums, bit for bit
        if self.flavour == "mteval":
            d = _core.nist_score("mteval", counts, sums, stats.n_segments, False)
        else:
            d = _core.nist_score("nltk", counts, sums, stats.n_segments, self.zero_division == "zero")
        return NISTScore("NIST", d.pop("score"), self.signature(stats), stats, **d)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        counts, sums = np.ascontiguousarray(seg.counts[:, :-2]), np.ascontiguousarray(seg.sums)
        lenient = self.zero_division == "zero"
        try:
            return _core.nist_scores(self.flavour, counts, sums, lenient)
        except InvalidInputError as e:
            # the core stops at the first unscorable row: find it, and name it (only on failure)
            for i in range(len(counts)):
                try:
                    _core.nist_scores(self.flavour, counts[i : i + 1], sums[i : i + 1], lenient)
                except InvalidInputError as row_error:
                    raise segment_error(i, InvalidInputError(str(row_error).replace(" in the corpus", " in the segment"))) from None
            raise e

    def sentence_scores(self, predictions, references) -> np.ndarray:
        if self.flavour == "nltk" and self.info_table is None:
            script_check.check(self._segmentation(), predictions, references)
            preds, refs = self._prepare(predictions, references)
            return self._sentence_scores(self._stats_with(preds, refs, None))
        return super().sentence_scores(predictions, references)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        preds = [c for c in cands for _ in refs]
        flat = [[r] for _ in cands for r in refs]
        if not preds:
            return np.zeros((len(cands), len(refs)))
        # each pair alone: the weights of that one reference (unless a table is fixed)
        seg = self._stats_with(preds, flat, self._table_arg())
        return self._sentence_scores(seg).reshape(len(cands), len(refs))


@oriented("nltk's corpus_nist", flavour_in("mteval", "nltk"))
def nist(predictions, references, **options: Any) -> NISTScore:
    return NIST(**options).corpus_score(predictions, references)
