"""Data-to-text input-item coverage by string matching.

``coverage = (1/|D|) Σ_d |{i ∈ items_d : match(i, output_d)}| / |items_d|`` — the average
proportion of input items (attribute values of a meaning representation, recipe
ingredients, table cells) that the generated text mentions, as in Kiddon, Zettlemoyer &
Choi (EMNLP 2016, "% given items"). Their code is not public, so this implements the
common re-implementation with every matching rule explicit, and claims no parity with
their numbers. The pooled (micro) proportion ``Σ matched / Σ items`` is in the breakdown.

Matching rules (all in the signature):

- ``normalize``: Unicode normalization of both sides (``NFKC`` default, or ``None``);
  runs of whitespace always collapse to one space;
- ``lowercase``: case-insensitive (``str.casefold``, default ``True``);
- ``match``:
  ``substring`` — the item string occurs anywhere in the text (``"bar"`` matches
  ``"barbecue"``);
  ``token_sequence`` — the item's tokens occur contiguously in the text's tokens (word
  boundaries respected);
  ``token_subset`` — every token of the item occurs somewhere in the text.
  Tokens are runs of word characters (``\\w+``) or single other non-space characters;
  a Han or kana character is a token by itself (Chinese and Japanese have no spaces
  between words, so an item matches at character boundaries, as ``substring`` does).

Items per document are strings, ``(attribute, value)`` pairs (the value is matched), or an
E2E meaning representation string ``name[Blue Spice], eatType[coffee shop]`` parsed by
:func:`parse_mr`. Duplicate items count once per occurrence, as listed. A document with no
items is an error (its proportion is undefined).

Statistics per document: ``items, matched`` (u64) and the document's proportion (exact
float sum), so coverage merges across shards and streams.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Sequence

import numpy as np

from .._inputs import as_texts
from ..script_check import UNSPACED_RANGES
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from ..stats import SegmentStats, Stats
from .base import Metric, Score

MATCHES = ("substring", "token_sequence", "token_subset")
_MR_ITEM = re.compile(r"\s*([^\[\],]+?)\s*\[([^\]]*)\]\s*(?:,|$)")
_TOKEN = re.compile(f"[{UNSPACED_RANGES}]|(?:(?![{UNSPACED_RANGES}])\\w)+|[^\\w\\s]")
_SPACE = re.compile(r"\s+")


def parse_mr(mr: str) -> list[tuple[str, str]]:
    """``"name[Blue Spice], eatType[coffee shop]"`` -> ``[("name", "Blue Spice"), ("eatType", "coffee shop")]``."""
    if not isinstance(mr, str):
        raise InputTypeError(f"a meaning representation must be a string, got {type(mr).__name__}")
    items, pos = [], 0
    text = mr.strip()
    while pos < len(text):
        m = _MR_ITEM.match(text, pos)
        if not m:
            raise InvalidInputError(f"cannot parse meaning representation near {text[pos:pos + 30]!r}")
        items.append((m.group(1), m.group(2)))
        pos = m.end()
    return items


class Coverage(Metric):
    """Input-item coverage; see the module docstring.

    >>> from nlgmetrics import Coverage
    >>> Coverage().corpus_score(["Blue Spice is a coffee shop."], ["name[Blue Spice], eatType[coffee shop], area[riverside]"]).score
    0.6666666666666666
    """

    name = "coverage"
    count_fields = ("items", "matched")
    sum_fields = ("document_coverage",)

    def __init__(self, *, match: str = "substring", lowercase: bool = True, normalize: str | None = "NFKC", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if match not in MATCHES:
            raise InvalidOptionError(f"unknown match {match!r}; known: {', '.join(MATCHES)}")
        if normalize not in (None, "NFC", "NFD", "NFKC", "NFKD"):
            raise InvalidOptionError(f"normalize must be None, NFC, NFD, NFKC or NFKD, got {normalize!r}")
        self.match = match
        self.lowercase = bool(lowercase)
        self.normalize = normalize

    def _signature_items(self) -> dict[str, Any]:
        return {"match": self.match, "case": "insensitive" if self.lowercase else "sensitive", "norm": self.normalize or "none"}

    def _abbreviations(self) -> dict[str, str]:
        return {"match": "m", "case": "c", "norm": "nf"}

    def _norm(self, s: str) -> str:
        if self.normalize:
            s = unicodedata.normalize(self.normalize, s)
        if self.lowercase:
            s = s.casefold()
        return _SPACE.sub(" ", s).strip()

    def _items(self, entry: Any, i: int) -> list[str]:
        if isinstance(entry, str):
            return [v for _, v in parse_mr(entry)]
        try:
            raw = list(entry)
        except TypeError:
            raise InputTypeError(f"items[{i}] must be a list of items or an E2E meaning representation") from None
        out = []
        for j, it in enumerate(raw):
            if isinstance(it, str):
                out.append(it)
            elif isinstance(it, (tuple, list)) and len(it) == 2 and isinstance(it[1], str):
                out.append(it[1])
            else:
                raise InputTypeError(f"items[{i}][{j}] must be a string or an (attribute, value) pair")
        return out

    def _matches(self, item: str, text: str, text_tokens: list[str], token_set: set[str]) -> bool:
        item = self._norm(item)
        if not item:
            raise InvalidInputError("an item is empty after normalization")
        if self.match == "substring":
            return item in text
        toks = _TOKEN.findall(item)
        if self.match == "token_subset":
            return all(t in token_set for t in toks)
        k = len(toks)
        return any(text_tokens[s:s + k] == toks for s in range(len(text_tokens) - k + 1))

    def stats(self, predictions: Sequence[str], items: Sequence[Any]) -> SegmentStats:  # type: ignore[override]
        """Per document: number of items, number matched, and their proportion."""
        preds = as_texts(predictions, "predictions")
        if isinstance(items, (str, bytes)):
            raise InputTypeError("items must be a sequence (one entry per prediction)")
        try:
            entries = list(items)
        except TypeError:
            raise InputTypeError(f"items must be a sequence (one entry per prediction), got {type(items).__name__}") from None
        if len(entries) != len(preds):
            raise LengthMismatchError(f"{len(preds)} predictions but {len(entries)} item lists")
        counts = np.zeros((len(preds), 2), dtype=np.uint64)
        ratio = np.zeros((len(preds), 1), dtype=np.float64)
        for i, (text, entry) in enumerate(zip(preds, entries)):
            its = self._items(entry, i)
            if not its:
                raise InvalidInputError(f"items[{i}] is empty: coverage of no items is undefined")
            t = self._norm(text)
            toks = _TOKEN.findall(t)
            hit = sum(self._matches(it, t, toks, set(toks)) for it in its)
            counts[i] = (len(its), hit)
            ratio[i, 0] = hit / len(its)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, ratio)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self.stats(predictions, references)

    def _score(self, stats: Stats) -> Score:
        n_items, matched = (int(x) for x in stats.counts)
        if stats.n_segments == 0:
            raise InvalidInputError("coverage of no documents is undefined")
        macro = float(stats.sums[0]) / stats.n_segments
        return Score(self.name, macro, self.signature(stats), stats, micro=matched / n_items, items=n_items, matched=matched, documents=stats.n_segments)

    def corpus_score(self, predictions: Sequence[str], items: Sequence[Any]) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(predictions, items).total())

    def sentence_scores(self, predictions: Sequence[str], items: Sequence[Any]) -> np.ndarray:  # type: ignore[override]
        return self.stats(predictions, items).sums[:, 0].copy()

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("coverage has no pairwise form")

    def update(self, predictions: Sequence[str], items: Sequence[Any]) -> "Coverage":  # type: ignore[override]
        total = self.stats(predictions, items).total()
        return self._accumulate(total)

    add_batch = update


def coverage(predictions: Sequence[str], items: Sequence[Any], **options: Any) -> Score:
    """Average proportion of input items mentioned: ``Coverage(**options).corpus_score(...)``."""
    return Coverage(**options).corpus_score(predictions, items)


# ---------------------------------------------------------------------------------------
# Wiseman, Shieber & Rush (EMNLP 2017) content selection and content ordering


def osa_distance(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Damerau–Levenshtein distance, restricted form (optimal string alignment): what
    ``pyxdameraulevenshtein`` computes (``"ca"`` -> ``"abc"`` is 3, not 2)."""
    n, m = len(a), len(b)
    prev2: list[int] = []
    prev = list(range(m + 1))
    for i in range(1, n + 1):
        cur = [i] + [0] * m
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
        prev2, prev = prev, cur
    return prev[m]


def _dedup(records: list[tuple], same) -> list[tuple]:
    """Drop every record that matches an earlier one (``dedup_triples``)."""
    out: list[tuple] = []
    for r in records:
        if not any(same(r, q) for q in out):
            out.append(r)
    return out


class ContentSelectionOrdering(Metric):
    """Wiseman et al. 2017 CS and CO, given records already extracted from the outputs
    (their RG/IE extractor is a trained model and is not part of this).

    Per document, predicted and gold records (tuples, e.g. ``(entity, value, type)``) are
    first de-duplicated in order (a record matching an earlier one is dropped).

    - CS precision/recall (micro): ``tp = #pred records matching some gold record``;
      ``P = Σ tp / Σ #pred``, ``R = Σ tp / Σ #gold``.
    - CO: each predicted record gets a symbol; each gold record takes the symbol of the
      first predicted record it matches, or a fresh one; ``CO_d = 1 - DL(s_pred, s_gold) /
      max(len)`` with the restricted Damerau–Levenshtein distance of ``pyxdameraulevenshtein``
      (1 when both are empty); ``CO`` = mean over documents.

    ``match`` decides when two records are the same (default: equal tuples). Wiseman's
    ROTOWIRE rule also treats team/city names of one team as the same entity; pass it as
    ``match`` to reproduce that. Statistics ``tp, predicted, gold`` (u64) and the CO sum
    merge across shards.

    >>> m = ContentSelectionOrdering()
    >>> s = m.corpus_score([[("a", 1), ("b", 2)]], [[("b", 2), ("a", 1), ("c", 3)]])
    >>> round(s.score, 4), round(s.precision, 4), round(s.recall, 4), round(s.ordering, 4)
    (1.0, 1.0, 0.6667, 0.3333)
    """

    name = "content-selection"
    count_fields = ("tp", "predicted", "gold")
    sum_fields = ("ordering",)

    def __init__(self, *, match=None, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        import operator

        if match is not None and not callable(match):
            raise InvalidOptionError(f"match must be a function of two records returning a bool (or None for equality), got {match!r}")
        self.match = match or operator.eq  # picklable (worker processes), unlike a lambda
        self._match_name = "equal" if match is None else getattr(match, "__name__", "custom")

    def _signature_items(self) -> dict[str, Any]:
        return {"match": self._match_name, "dl": "osa"}

    def _records(self, docs: Any, what: str) -> list[list[tuple]]:
        if isinstance(docs, (str, bytes)):
            raise InputTypeError(f"{what} must be a sequence of record lists")
        try:
            docs = list(docs)
        except TypeError:
            raise InputTypeError(f"{what} must be a sequence of record lists, got {type(docs).__name__}") from None
        out = []
        for i, d in enumerate(docs):
            try:
                out.append([tuple(r) for r in d])
            except TypeError:
                raise InputTypeError(f"{what}[{i}] must be a list of records (tuples)") from None
        return out

    def stats(self, predicted: Any, gold: Any) -> SegmentStats:  # type: ignore[override]
        pred, gold_ = self._records(predicted, "predicted"), self._records(gold, "gold")
        if len(pred) != len(gold_):
            raise LengthMismatchError(f"{len(pred)} predicted record lists but {len(gold_)} gold record lists")
        counts = np.zeros((len(pred), 3), dtype=np.uint64)
        co = np.zeros((len(pred), 1))
        for i, (p, g) in enumerate(zip(pred, gold_)):
            p, g = _dedup(p, self.match), _dedup(g, self.match)
            tp = sum(any(self.match(x, y) for y in g) for x in p)
            counts[i] = (tp, len(p), len(g))
            s_gold = []
            fresh = len(p)
            for y in g:
                k = next((k for k, x in enumerate(p) if self.match(y, x)), None)
                if k is None:
                    k, fresh = fresh, fresh + 1
                s_gold.append(k)
            longest = max(len(p), len(s_gold))
            co[i, 0] = 1.0 - (osa_distance(list(range(len(p))), s_gold) / longest if longest else 0.0)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, co)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self.stats(predictions, references)

    def _score(self, stats: Stats) -> Score:
        tp, n_pred, n_gold = (int(x) for x in stats.counts)
        if stats.n_segments == 0:
            raise InvalidInputError("no documents to score")
        precision = tp / n_pred if n_pred else 0.0
        recall = tp / n_gold if n_gold else 0.0
        ordering = float(stats.sums[0]) / stats.n_segments
        return Score(self.name, precision, self.signature(stats), stats, precision=precision, recall=recall, ordering=ordering, tp=tp, predicted=n_pred, gold=n_gold)

    def corpus_score(self, predicted: Any, gold: Any) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(predicted, gold).total())

    def sentence_scores(self, predicted: Any, gold: Any) -> np.ndarray:  # type: ignore[override]
        """CO per document."""
        return self.stats(predicted, gold).sums[:, 0].copy()

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("content selection has no pairwise form")
