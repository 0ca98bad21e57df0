"""PARENT (Dhingra et al. 2019): precision and recall of generated text against both the
table and the references, for data-to-text generation.

Numbers equal those of the reference implementation, ``table_text_eval.py`` in
google-research/language (``parent(...)`` with the word-overlap entailment model), per
segment and on the corpus. For each reference and n = 1..``max_order``:

- entailed precision: a predicted n-gram counts fully if the reference has it, otherwise
  with the probability that the table entails it (the share of its tokens among the
  table's values);
- entailed recall: reference n-grams weighted by that probability;
- geometric means over the orders (a zero at order >= 2 becomes ``smoothing``; a zero
  unigram precision makes the precision 0, a zero unigram recall makes the reference
  recall ``smoothing``);
- table recall: the mean over entries of LCS(value, prediction) / |value| (0 becomes
  ``smoothing``);
- recall ``= ref_recall^(1-λ) · table_recall^λ``, with ``lambda_weight=λ`` fixed or, when
  ``None``, λ = 1 − the table recall of the reference itself;
- F = 2PR / (P + R + 1e-8).

``lambda_weight`` defaults to 0.5, the default of the reference's ``parent()`` function;
its command-line script defaults to ``None`` (``nlgmetrics score --parent-lambda auto``).
Only the word-overlap entailment model is implemented (the reference's co-occurrence model
needs corpus-specific count files).

The reference with the best F (first maximum) gives the segment's precision, recall and
F; the corpus values are their means (as the reference, which averages per segment).

Tables: one per prediction, each a list of ``(attribute, value)`` pairs or of ``(head,
relation, tail)`` triples (the value, or head and tail, is what is matched), a dict
``{attribute: value}``, or an E2E meaning representation string (:func:`parse_mr`).
Texts and tables are lowercased (``lowercase=True``, as the reference's file readers do)
and split on whitespace; tokenize beforehand if the data is not, or name a tokenizer
(``tokenize="jieba"``, ``"char"``, ``"zh"``, ``"ja-mecab"``, ... for Chinese, Japanese
and Korean: predictions, references and every table string are segmented alike, then
scored as the reference scores space-separated tokens). With the default ``"none"``,
unsegmented Chinese/Japanese warns (:class:`~nlgmetrics.script_check.TokenizationWarning`).

Statistics per segment: the five values and a segment count (exact float sums), so
PARENT merges across shards and streams.

Citation: Dhingra, Faruqui, Parikh, Chang, Das, Cohen. Handling Divergent Reference Texts
when Evaluating Table-to-Text Generation. ACL 2019.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Sequence

import numpy as np

from .. import _core, script_check
from .. import tokenizers as _tok
from .._inputs import as_references, as_texts, check_all_text, unordered_reason
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from ..stats import SegmentStats, Stats
from .base import Metric, Score
from .coverage import parse_mr

FIELDS = ("precision", "recall", "f", "reference_recall", "table_recall")


class ParentScore(Score):
    """PARENT F with ``precision``, ``recall``, ``reference_recall``, ``table_recall``."""


def as_table(table: Any, i: int) -> list[list[str]]:
    """One table as a list of records of 2 or 3 strings."""
    if isinstance(table, str):
        return [list(p) for p in parse_mr(table)]
    if isinstance(table, Mapping):
        table = list(table.items())
    try:
        records = list(table)
    except TypeError:
        raise InputTypeError(f"tables[{i}] must be a list of records or an E2E meaning representation") from None
    out = []
    for j, rec in enumerate(records):
        if isinstance(rec, str) or not isinstance(rec, Sequence) or len(rec) not in (2, 3):
            raise InputTypeError(f"tables[{i}][{j}] must be an (attribute, value) pair or a (head, relation, tail) triple")
        if not all(isinstance(m, str) for m in rec):
            raise InputTypeError(f"tables[{i}][{j}] must hold strings")
        out.append(list(rec))
    return out


def _real(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (low <= value <= high):
        raise InvalidOptionError(f"{name} must be a number in [{low}, {high}], got {value!r}")
    return float(value)


class Parent(Metric):
    """PARENT; see the module docstring. Every face takes ``tables`` after ``references``.

    >>> from nlgmetrics import Parent
    >>> s = Parent().corpus_score(["Blue Spice is a coffee shop."],
    ...                           [["Blue Spice is a coffee shop in the city centre."]],
    ...                           ["name[Blue Spice], eatType[coffee shop], area[city centre]"])
    >>> round(s.score, 4), round(s.precision, 4)
    (0.5879, 0.8274)
    """

    name = "PARENT"
    count_fields = ("segments",)
    sum_fields = FIELDS
    needs_tables = True  # the CLI reads a "table" per segment

    def __init__(self, *, lambda_weight: float | None = 0.5, smoothing: float = 0.00001, max_order: int = 4,
                 lowercase: bool = True, tokenize: str = "none", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if tokenize not in _tok.TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenizer {tokenize!r}; known: {', '.join(_tok.TOKENIZERS)}")
        self.tokenize = tokenize
        self.lambda_weight = None if lambda_weight is None else _real(lambda_weight, "lambda_weight", 0.0, 1.0)
        # above 1 the smoothed precisions exceed 1 and PARENT leaves [0, 1]
        self.smoothing = _real(smoothing, "smoothing", 0.0, 1.0)
        if isinstance(max_order, bool) or not isinstance(max_order, numbers.Integral) or not 1 <= max_order <= 64:
            raise InvalidOptionError(f"max_order must be an integer in 1..64, got {max_order!r}")
        self.max_order = int(max_order)
        self.lowercase = bool(lowercase)

    def _signature_items(self) -> dict[str, Any]:
        return {
            "entail": "overlap",
            "lambda": "auto" if self.lambda_weight is None else self.lambda_weight,
            "smooth": self.smoothing,
            "order": self.max_order,
            "case": "lc" if self.lowercase else "mixed",
            "tok": None if self.tokenize == "none" else _tok.signature_name(self.tokenize),
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"entail": "e", "lambda": "l", "smooth": "s", "order": "o", "case": "c", "tok": "tok"}

    def _segmentation(self) -> script_check.Segmentation | None:
        return _tok.unsegmented_check(self.tokenize, "PARENT")

    def _segmented(self, preds: list[str], refs: list[list[str]], tabs: list[list[list[str]]]) -> tuple:
        """Predictions, references and table strings as space-joined tokens of ``tokenize``."""
        if self.tokenize == "none":
            return preds, refs, tabs
        cells = [m for t in tabs for rec in t for m in rec]
        flat = iter(_tok.tokenize(self.tokenize, cells, self.n_threads))
        tabs = [[[next(flat) for _ in rec] for rec in t] for t in tabs]
        preds, refs = _tok.pretokenize(self.tokenize, preds, refs, self.n_threads)
        return preds, refs, tabs

    # -- the faces, with tables -----------------------------------------------------------
    def stats(self, predictions: Sequence[str], references: Any, tables: Sequence[Any] | None = None) -> SegmentStats:  # type: ignore[override]
        """Per segment: precision, recall, F, reference recall, table recall."""
        preds = as_texts(predictions, "predictions")
        refs = as_references(references, len(preds), predictions=preds)
        if tables is None:
            raise InputTypeError("PARENT needs tables: stats(predictions, references, tables)")
        if isinstance(tables, (str, bytes)) or not hasattr(tables, "__iter__"):
            raise InputTypeError(f"tables must be a sequence (one table per prediction), not {type(tables).__name__}")
        why = unordered_reason(tables)
        if why:
            raise InputTypeError(f"tables must be a sequence (one table per prediction), not {why}")
        entries = list(tables)
        if len(entries) != len(preds):
            raise LengthMismatchError(f"{len(preds)} predictions but {len(entries)} tables")
        tabs = [as_table(t, i) for i, t in enumerate(entries)]
        script_check.check(self._segmentation(), preds, refs)
        preds, refs, tabs = self._segmented(preds, refs, tabs)
        try:
            sums = _core.parent_stats(preds, refs, tabs, self.lambda_weight, self.smoothing, self.max_order,
                                      self.lowercase, self.n_threads)
        except UnicodeEncodeError:
            check_all_text(preds, "predictions")
            for i, r in enumerate(refs):
                check_all_text(r, f"references[{i}]")
            for i, t in enumerate(tabs):
                for rec in t:
                    check_all_text(rec, f"tables[{i}]")
            raise
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=np.ones((len(preds), 1), dtype=np.uint64),
            sum_fields=self.sum_fields,
            sums=sums,
            ref_counts=np.fromiter((len(r) for r in refs), dtype=np.int64, count=len(refs)),
        )

    def corpus_score(self, predictions: Sequence[str], references: Any, tables: Sequence[Any] | None = None) -> ParentScore:  # type: ignore[override]
        return self.score_stats(self.stats(predictions, references, tables).total())  # type: ignore[return-value]

    def sentence_scores(self, predictions: Sequence[str], references: Any, tables: Sequence[Any] | None = None) -> np.ndarray:  # type: ignore[override]
        """The F of every segment (the reference's ``all_f_scores``)."""
        return self._sentence_scores(self.stats(predictions, references, tables))

    def update(self, predictions: Sequence[str], references: Any, tables: Sequence[Any] | None = None) -> "Parent":  # type: ignore[override]
        total = self.stats(predictions, references, tables).total()
        return self._accumulate(total)

    add_batch = update

    def compute(self, *, predictions: Sequence[str] | None = None, references: Any = None, tables: Any = None) -> Score:  # type: ignore[override]
        if predictions is not None or references is not None or tables is not None:
            if predictions is None or references is None or tables is None:
                raise InputTypeError("compute() needs predictions=, references= and tables=, or none of them")
            self.update(predictions, references, tables)
        return super().compute()

    def pairwise(self, candidates: Sequence[str], references: Sequence[str]) -> np.ndarray:
        raise InvalidOptionError("PARENT scores a text against its own table: pairwise matrices are not defined")

    # -- scoring ----------------------------------------------------------------------------
    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        if seg.sums is None or len(seg) == 0:
            return np.zeros(0)
        return np.asarray(seg.sums[:, FIELDS.index("f")], dtype=np.float64).copy()

    def _score(self, stats: Stats) -> ParentScore:
        n = int(stats.counts[0])
        if n == 0:
            raise InvalidInputError("PARENT of no segments is undefined")
        means = {k: float(v) / n for k, v in zip(FIELDS, stats.sums)}
        return ParentScore("PARENT", means["f"], self.signature(stats), stats,
                           precision=means["precision"], recall=means["recall"], f=means["f"],
                           reference_recall=means["reference_recall"], table_recall=means["table_recall"],
                           segments=n)

    def _scores_from_totals(self, counts: np.ndarray, sums: np.ndarray) -> np.ndarray:
        return sums[:, FIELDS.index("f")] / counts[:, 0]


def parent(predictions, references, tables, **options: Any) -> ParentScore:
    """Corpus PARENT: ``Parent(**options).corpus_score(predictions, references, tables)``."""
    return Parent(**options).corpus_score(predictions, references, tables)
