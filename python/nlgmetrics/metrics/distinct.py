"""Distinct-n (Li, Galley, Brockett, Gao, Dolan. A Diversity-Promoting Objective Function
for Neural Conversation Models. NAACL 2016): how many different n-grams the generated
responses use. Reference-free; ``references`` are accepted and ignored.

Three conventions are in use and give different numbers, so the mode is explicit and all
three are in the breakdown (``U`` = distinct n-grams over *all* responses):

- ``corpus`` (default): ``U / Σ_i max(0, |y_i| - n + 1)`` — unique over total n-grams.
- ``paper``: ``U / Σ_i |y_i|`` — the paper's wording, "scaled by the total number of
  generated tokens".
- ``mean``: ``mean_i |set(ngrams(y_i))| / |y_i|`` (0 for an empty response), the
  ``neural-dialogue-metrics/Distinct-N`` package's ``distinct_n_corpus_level``.

A corpus without n-grams (or tokens) scores 0, as the reference does for an empty response.

Tokens (``tokenize=``): ``none`` (default, ``str.split()``, the reference's) or any named
tokenizer (:mod:`nlgmetrics.tokenizers`): ``char``/``unicode``/``zh`` count Chinese and
Japanese by character, ``jieba``/``ja-mecab``/``ko-mecab`` by word. Chinese dialogue papers
report distinct-n over characters or segmented words; whitespace splitting keeps a whole
unsegmented response as one token (distinct-2 of one-token responses is 0), so the
whitespace-like tokenizers warn (:class:`~nlgmetrics.script_check.TokenizationWarning`)
on such input instead of changing the default that English numbers rely on.
Mode ``mean`` needs no corpus union, so it skips it (``corpus``/``paper`` are ``None``).

Statistics: per response ``tokens, ngrams, unique_in_response`` (u64) and the response's
own ratio (float sum). ``U`` needs the union of n-gram sets, kept in ``Stats.tables``:

- ``sketch=None`` (exact): an :class:`NgramUnion` — the sorted distinct n-grams as one
  compact byte string (no Python object per n-gram) whose ``+`` is set union, so tables
  merging by key-wise addition give the exact ``U`` for any sharding.
- ``sketch="hll"``: a HyperLogLog sketch (Flajolet et al. 2007) with ``2**hll_precision``
  registers, stored as the set of ``(register, rank)`` pairs seen; union of those sets
  then max per register is exactly HyperLogLog's merge. Relative standard error
  ``1.04 / sqrt(2**p)`` (0.81 % at the default p = 14), memory bounded by the register
  count whatever the corpus size; the hash is fixed, so sketches from different
  processes merge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .. import _core, script_check
from .. import tokenizers as _tok
from .._inputs import as_texts, check_all_text, check_option_applies
from ..errors import IncompatibleStatsError, InputTypeError, InvalidOptionError
from ..stats import SegmentStats, Stats
from .base import Metric, Score

MODES = ("corpus", "paper", "mean")


class NgramUnion:
    """An exact set of n-grams: sorted keys (tokens joined by U+001F) joined by newlines.

    ``a + b`` is the set union (merged in Rust), ``0 + a == a``, equality is set equality,
    and it pickles as bytes. A union made from a batch that was just counted knows its
    size and spells its keys only when they are needed (a merge with another union,
    equality, hashing, pickling): a corpus score reads the size alone.
    """

    __slots__ = ("_keys", "size", "_spell")

    def __init__(self, keys: bytes | None = b"", size: int = 0, spell: Callable[[], tuple[bytes, int]] | None = None):
        self._keys = keys
        self.size = size
        self._spell = spell

    @classmethod
    def deferred(cls, size: int, spell: Callable[[], tuple[bytes, int]]) -> "NgramUnion":
        """A union of ``size`` n-grams whose keys ``spell()`` returns on first use."""
        return cls(None, size, spell)

    @property
    def keys(self) -> bytes:
        if self._keys is None:
            keys, size = self._spell()
            if size != self.size:
                raise AssertionError(f"n-gram union: {size} keys spelled, {self.size} counted")
            self._keys, self._spell = keys, None
        return self._keys

    def __add__(self, other: Any) -> "NgramUnion":
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, NgramUnion):
            return NotImplemented
        return NgramUnion(*_core.distinct_key_union(self.keys, other.keys))

    __radd__ = __add__

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NgramUnion) and self.keys == other.keys

    def __hash__(self) -> int:
        return hash(self.keys)

    def __getstate__(self):
        return (self.keys, self.size)

    def __setstate__(self, state) -> None:
        (self._keys, self.size), self._spell = state, None

    def __repr__(self) -> str:
        return f"NgramUnion({self.size} n-grams)"


@dataclass(frozen=True)
class DistinctSegmentStats(SegmentStats):
    """Per-response rows plus the responses themselves, so the corpus n-gram union of any
    subset (``take``) or concatenation is computed from the right texts."""

    texts: tuple[str, ...] = ()
    union: Callable[[list[str], int | None], dict[str, dict[Any, int]]] | None = None
    # the number of distinct n-grams of exactly ``texts`` when already counted (else None)
    union_size: int | None = None

    def total(self) -> Stats:
        # As SegmentStats.total, with the exact float sum computed in Rust (the
        # Python-level partials loop dominates on 100k responses).
        sums = self.sums if self.sums is not None else np.zeros((len(self), 1))
        return Stats(
            key=self.key,
            count_fields=self.count_fields,
            counts=self.counts.sum(axis=0, dtype=np.uint64) if len(self) else np.zeros(len(self.count_fields), np.uint64),
            sum_fields=self.sum_fields,
            sum_partials=tuple(tuple(_core.exact_partials(np.ascontiguousarray(sums[:, j]))) for j in range(sums.shape[1])),
            n_segments=len(self),
            tables=self.union(list(self.texts), self.union_size) if self.union else {},
        )

    def take(self, indices: Sequence[int] | np.ndarray) -> "DistinctSegmentStats":
        idx = np.asarray(indices, dtype=np.intp)
        base = super().take(idx)
        return DistinctSegmentStats(**_fields(base), texts=tuple(self.texts[i] for i in idx), union=self.union)

    def __add__(self, other: "SegmentStats") -> "DistinctSegmentStats":
        if not isinstance(other, DistinctSegmentStats):
            raise IncompatibleStatsError("distinct-n segment statistics concatenate only with each other")
        base = super().__add__(other)
        return DistinctSegmentStats(**_fields(base), texts=self.texts + other.texts, union=self.union)


def _fields(s: SegmentStats) -> dict[str, Any]:
    return {k: getattr(s, k) for k in ("key", "count_fields", "counts", "sum_fields", "sums", "ref_counts", "tails")}


class DistinctScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        if self.unique is None:
            return f"{self.name} = {self.score:.{width}f} (mean per response; ngrams = {self.ngrams} tokens = {self.tokens})"
        return (
            f"{self.name} = {self.score:.{width}f} (corpus {self.corpus:.{width}f}, paper {self.paper:.{width}f}, "
            f"mean {self.mean:.{width}f}; unique = {self.unique:g} ngrams = {self.ngrams} tokens = {self.tokens})"
        )


class Distinct(Metric):
    """Distinct-n; see the module docstring.

    ``Distinct(n=2, mode="corpus", tokenize="none", lowercase=False, sketch=None,
    hll_precision=14)``. ``tokenize`` is any nlgmetrics tokenizer (``none`` = ``str.split()``;
    ``char``, ``unicode``, ``jieba``, ``ja-mecab``, ``ko-mecab`` for CJK text).

    >>> from nlgmetrics import Distinct
    >>> s = Distinct(n=2).corpus_score(["i do not know", "i do not know", "i like cats a lot"])
    >>> s.score, round(s.paper, 4), round(s.mean, 4)
    (0.7, 0.5385, 0.7667)
    """

    count_fields = ("tokens", "ngrams", "unique_in_response")
    sum_fields = ("response_distinct",)

    def __init__(
        self,
        n: int = 2,
        *,
        mode: str = "corpus",
        tokenize: str = "none",
        lowercase: bool = False,
        sketch: str | None = None,
        hll_precision: int = 14,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 64:
            raise InvalidOptionError(f"n must be an integer in 1..64, got {n!r}")
        if mode not in MODES:
            raise InvalidOptionError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
        if tokenize not in _tok.TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenizer {tokenize!r}; known: {', '.join(_tok.TOKENIZERS)}")
        if sketch not in (None, "exact", "hll"):
            raise InvalidOptionError(f"unknown sketch {sketch!r}; known: exact (None), hll")
        if isinstance(hll_precision, bool) or not isinstance(hll_precision, int) or not 4 <= hll_precision <= 18:
            raise InvalidOptionError(f"hll_precision must be an integer in 4..18, got {hll_precision!r}")
        check_option_applies("hll_precision", hll_precision, 14, sketch == "hll", "without sketch='hll'")
        self.n = n
        self.mode = mode
        self.tokenize = tokenize
        # Python-side tokenizers (jieba, MeCab) run first; the core then splits on spaces.
        self._core_tokenize = tokenize if tokenize in _tok.CORE_TOKENIZERS else "none"
        self._tok_signature = _tok.signature_name(tokenize)
        self.lowercase = bool(lowercase)
        self.sketch = "hll" if sketch == "hll" else "exact"
        self.hll_precision = hll_precision
        self.name = f"distinct-{n}"

    # -- identity -----------------------------------------------------------------------
    def _signature_items(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "mode": self.mode,
            "tok": self._tok_signature,
            "case": "lc" if self.lowercase else "mixed",
            "union": "exact" if self.sketch == "exact" else f"hll-p{self.hll_precision}",
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"n": "n", "mode": "m", "tok": "tok", "case": "c", "union": "u"}

    @property
    def _table(self) -> str:
        return f"ngrams_{self.n}" if self.sketch == "exact" else f"hll_{self.n}_p{self.hll_precision}"

    # -- statistics ---------------------------------------------------------------------
    def _union(self, texts: list[str], size: int | None = None) -> dict[str, dict[Any, int]]:
        args = (texts, self._core_tokenize, self.lowercase, self.n)
        if self.mode == "mean":
            return {}
        if self.sketch == "exact":
            if size is None:
                return {self._table: {"union": NgramUnion(*_core.distinct_key_list(*args, self.n_threads))}}
            n_threads = self.n_threads
            return {self._table: {"union": NgramUnion.deferred(size, lambda: _core.distinct_key_list(*args, n_threads))}}
        regs = _core.distinct_hll(*args, self.hll_precision, self.n_threads)
        nz = np.flatnonzero(regs)
        return {self._table: {int(i) * 64 + int(regs[i]): 1 for i in nz}}

    def stats(self, predictions: Sequence[str], references: Any = None) -> DistinctSegmentStats:
        # a plain list goes to the core as it is (the core reads the strings in place and
        # refuses any other item; the validating path then names it)
        plain = type(predictions) is list and self._core_tokenize == self.tokenize
        preds = predictions if plain else as_texts(predictions, "predictions")
        script_check.check(_tok.unsegmented_check(self.tokenize, "Distinct"), preds)
        if self._core_tokenize != self.tokenize:
            check_all_text(preds, "predictions")
            preds = _tok.tokenize(self.tokenize, preds)
        size = None
        try:
            if self.mode != "mean" and self.sketch == "exact":
                # rows and the corpus union's size in one pass; the keys wait until a merge needs them
                rows, size = _core.distinct_stats_and_unique(preds, self._core_tokenize, self.lowercase, self.n, self.n_threads)
            else:
                rows = _core.distinct_stats(preds, self._core_tokenize, self.lowercase, self.n, self.n_threads)
        except UnicodeEncodeError:
            check_all_text(preds, "predictions")
            raise
        except TypeError:
            if plain:
                as_texts(predictions, "predictions")  # raises InputTypeError naming the item
            raise
        tokens = rows[:, 0].astype(np.float64)
        ratio = np.divide(rows[:, 2].astype(np.float64), tokens, out=np.zeros(len(preds)), where=tokens > 0)
        return DistinctSegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=rows,
            sum_fields=self.sum_fields,
            sums=ratio.reshape(-1, 1),
            texts=tuple(preds),
            union=self._union,
            union_size=size,
        )

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self.stats(predictions)

    def _unique(self, stats: Stats) -> float:
        table = stats.tables.get(self._table, {})
        if self.sketch == "exact":
            return float(len(table.get("union", ())))
        regs = np.zeros(1 << self.hll_precision, dtype=np.uint8)
        for key in table:
            i, rank = divmod(int(key), 64)
            regs[i] = max(regs[i], rank)
        return float(_core.hll_estimate(regs)) if table else 0.0

    def _score(self, stats: Stats) -> DistinctScore:
        tokens, ngrams, _ = (int(x) for x in stats.counts)
        unique = corpus = paper = None
        if self.mode != "mean":
            unique = self._unique(stats)
            if self.sketch == "hll":
                # an estimate, clamped to what it estimates: between 1 (any n-gram at all)
                # and the number of n-grams, so both ratios stay in [0, 1]
                unique = min(max(unique, 1.0 if ngrams else 0.0), float(ngrams))
            corpus = unique / ngrams if ngrams else 0.0
            paper = unique / tokens if tokens else 0.0
        mean = float(stats.sums[0]) / stats.n_segments if stats.n_segments else 0.0
        value = {"corpus": corpus, "paper": paper, "mean": mean}[self.mode]
        return DistinctScore(
            self.name, value, self.signature(stats), stats,
            corpus=corpus, paper=paper, mean=mean, unique=unique, ngrams=ngrams, tokens=tokens,
            responses=stats.n_segments, estimated=self.sketch == "hll",
        )

    # -- faces without references -------------------------------------------------------
    def corpus_score(self, predictions: Sequence[str], references: Any = None) -> DistinctScore:
        return self.score_stats(self.stats(predictions).total())

    def sentence_scores(self, predictions: Sequence[str], references: Any = None) -> np.ndarray:
        """Per response: ``unique / ngrams`` (mode ``corpus``) or ``unique / tokens``."""
        return self._sentence_scores(self.stats(predictions))

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        if self.mode == "corpus":
            den = seg.counts[:, 1].astype(np.float64)
            return np.divide(seg.counts[:, 2].astype(np.float64), den, out=np.zeros(len(seg)), where=den > 0)
        return seg.sums[:, 0].copy()

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("distinct-n is reference-free: pairwise() is not defined")

    def update(self, predictions: Sequence[str], references: Any = None) -> "Distinct":
        total = self.stats(predictions).total()
        return self._accumulate(total)

    add_batch = update

    def compute(self, *, predictions: Sequence[str] | None = None, references: Any = None) -> DistinctScore:
        if predictions is not None:
            self.update(predictions)
        return self.score_stats(self._compute_state())


def distinct(predictions: Sequence[str], n: int = 2, **options: Any) -> DistinctScore:
    """Distinct-n of a list of responses: ``Distinct(n, **options).corpus_score(predictions)``."""
    if isinstance(predictions, (str, bytes)):
        raise InputTypeError("predictions must be a sequence of strings, not a single string")
    return Distinct(n, **options).corpus_score(predictions)
