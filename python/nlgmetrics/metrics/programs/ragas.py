"""ragas 0.4's deterministic (non-LLM) metrics, equal to ragas 0.4.3 given the same inputs.

Two registry metrics, by input shape:

- ``ragas_string`` (response = prediction, reference = its one reference), flavours
  ``exact_match`` (``float(reference == response)``), ``string_presence``
  (``float(reference in response)``), ``non_llm_string_similarity`` (``1 - rapidfuzz
  normalized_distance(reference, response)`` with ``distance_measure`` levenshtein
  (default), hamming, jaro or jaro_winkler, computed here without rapidfuzz:
  :mod:`._ragas_distances`), ``bleu_score`` (sacrebleu ``corpus_bleu`` of the response's
  ``". "``-split sentences against the reference's ``". "``-split sentences, each its own
  reference stream, ``/ 100``: our sacrebleu-flavour BLEU) and ``rouge_score``
  (rouge-score's ``RougeScorer([rouge_type], use_stemmer=True).score(reference, response)``,
  ``rouge_type`` rougeL (default) or rouge1, ``mode`` fmeasure/precision/recall: our
  rouge-score-flavour ROUGE).
- ``ragas_context`` (``update(retrieved, reference)``: per sample a list of retrieved
  contexts or ids and a list of reference contexts or ids), flavours
  ``non_llm_context_precision_with_reference`` (each retrieved context is relevant when its
  best similarity to a reference context is ``>= threshold``; then ragas' average precision
  ``Σ_i precision@i·v_i / (Σ v + 1e-10)``), ``non_llm_context_recall`` (each reference
  context is found when its best similarity to a retrieved context is ``> threshold``;
  found / references), ``id_based_context_precision`` and ``id_based_context_recall``
  (the ids compared as ``str(id)`` sets).

The corpus value is the mean over samples as ragas' result reports it (``nanmean``: samples
for which ragas gives NaN, i.e. no reference ids for ``id_based_context_recall`` and no
retrieved ids for ``id_based_context_precision``, are left out and counted in ``undefined``).
A sample ragas cannot score at all (its ``max`` of an empty list: no reference contexts for
the precision, no retrieved contexts for the recall) is an :class:`InvalidInputError`
naming it. ``sentence_scores`` refuses undefined samples for the same reason.

``tool_call_f1`` (ragas' ``ToolCallF1``) is :func:`tool_call_f1`: the F1 of the sets of
(name, args) calls, rounded to 4 digits as ragas does.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError
from ...stats import SegmentStats
from ._ragas_distances import MEASURES, normalized_distance
from ..base import Metric, Score

STRING_FLAVOURS = ("exact_match", "string_presence", "non_llm_string_similarity", "bleu_score", "rouge_score")
CONTEXT_FLAVOURS = ("non_llm_context_precision_with_reference", "non_llm_context_recall",
                    "id_based_context_precision", "id_based_context_recall")
RAGAS_VERSION = "ragas-0.4.3"


def string_similarity(reference: str, response: str, distance_measure: str = "levenshtein") -> float:
    """``NonLLMStringSimilarity``: ``1 - normalized_distance(reference, response)``."""
    return 1 - normalized_distance(distance_measure, reference, response)


def average_precision(verdicts: Sequence[int]) -> float:
    """ragas' ``_calculate_average_precision`` (Python sums, its 1e-10 denominator)."""
    denominator = sum(verdicts) + 1e-10
    numerator = sum([(sum(verdicts[: i + 1]) / (i + 1)) * verdicts[i] for i in range(len(verdicts))])
    return numerator / denominator


def _hashable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return frozenset((k, _hashable(v)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return tuple(_hashable(i) for i in obj)
    if isinstance(obj, set):
        return frozenset(_hashable(i) for i in obj)
    return obj


def tool_call_f1(actual: Sequence[tuple[str, dict]], expected: Sequence[tuple[str, dict]]) -> float:
    """ragas ``ToolCallF1`` of one conversation: ``actual`` = the (name, args) of every tool
    call of its AI messages, ``expected`` = the reference tool calls; set F1, ``round(f1, 4)``."""
    exp = {(name, _hashable(args)) for name, args in expected}
    act = {(name, _hashable(args)) for name, args in actual}
    tp, fp, fn = len(act & exp), len(act - exp), len(exp - act)
    precision = tp / (tp + fp) if (tp + fp) > 0 else 0.0
    recall = tp / (tp + fn) if (tp + fn) > 0 else 0.0
    f1 = 2 * precision * recall / (precision + recall) if (precision + recall) > 0 else 0.0
    return round(f1, 4)


class RagasScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        extra = f", {self.undefined} undefined (NaN in ragas)" if self.undefined else ""
        return f"{self.name} {self.metric} = {self.score:.{width}f} ({self.samples} samples{extra})"


class _RagasValues:
    """Per-sample values (NaN: undefined, as ragas) as statistics, and ragas' nanmean."""

    count_fields = ("defined", "undefined")
    sum_fields = ("value",)

    def _rows(self, values: list[float]) -> SegmentStats:
        vals = np.array(values, dtype=np.float64)
        defined = ~np.isnan(vals)
        counts = np.stack([defined, ~defined], axis=1).astype(np.uint64)
        sums = np.where(defined, vals, 0.0).reshape(-1, 1)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums,
                            ref_counts=np.ones(len(values), dtype=np.int64), sequence_field="value")

    def _score(self, stats) -> RagasScore:
        defined, undefined = (int(x) for x in stats.counts)
        if defined == 0:
            raise InvalidInputError(f"{self.name} {self.flavour}: no sample with a value (ragas gives NaN for "
                                    f"{undefined} samples)" if undefined else f"{self.name}: no samples")
        seq = stats.sequence
        if seq is not None and len(seq) == stats.n_segments:
            # ragas' safe_nanmean: numpy's nanmean sums the list with NaN replaced by 0
            # (stored so here), pairwise in sample order, and divides by the defined count
            value = float(np.sum(np.ascontiguousarray(seq, dtype=np.float64))) / defined
        else:
            value = math.fsum(stats.sum_partials[0]) / defined
        return RagasScore(self.name, value, self.signature(stats), stats, metric=self.flavour, samples=defined + undefined,
                          undefined=undefined)

    def _sentence_scores(self, seg) -> np.ndarray:
        bad = np.flatnonzero(seg.counts[:, 1])
        if len(bad):
            raise InvalidInputError(f"{self.name} {self.flavour}: sample {int(bad[0])} has no value (ragas gives NaN)")
        return seg.sums[:, 0].copy()


class RagasString(_RagasValues, Metric):
    """ragas 0.4.3 string metrics of (response, reference) pairs; see the module docstring.

    >>> from nlgmetrics import RagasString
    >>> RagasString("non_llm_string_similarity").sentence_scores(["kitten"], ["sitting"]).tolist()
    [0.5714285714285714]
    """

    name = "ragas_string"
    FLAVOURS = STRING_FLAVOURS

    def __init__(self, flavour: str | None = None, *, distance_measure: str = "levenshtein", rouge_type: str = "rougeL",
                 mode: str = "fmeasure", multi_ref: str = "error", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        flavour = "exact_match" if flavour is None else flavour
        if not isinstance(flavour, str) or flavour not in STRING_FLAVOURS:
            raise InvalidOptionError(f"unknown flavour {flavour!r}; known: {', '.join(STRING_FLAVOURS)}")
        if distance_measure not in MEASURES:
            raise InvalidOptionError(f"unknown distance_measure {distance_measure!r}; known: {', '.join(MEASURES)}")
        if rouge_type not in ("rouge1", "rougeL"):
            raise InvalidOptionError(f"unknown rouge_type {rouge_type!r}; known: rouge1, rougeL")
        if mode not in ("fmeasure", "precision", "recall"):
            raise InvalidOptionError(f"unknown mode {mode!r}; known: fmeasure, precision, recall")
        if multi_ref not in ("error", "first", "best"):
            raise InvalidOptionError(f"unknown multi_ref {multi_ref!r}; known: error, first, best")
        self.multi_ref = multi_ref
        self.flavour = flavour
        self.distance_measure = distance_measure
        self.rouge_type = rouge_type
        self.mode = mode

    def _signature_items(self) -> dict[str, Any]:
        items: dict[str, Any] = {"flavour": self.flavour, "ref": RAGAS_VERSION}
        if self.flavour == "non_llm_string_similarity":
            items["dist"] = self.distance_measure
        if self.flavour == "rouge_score":
            items["rouge"] = f"{self.rouge_type}-{self.mode}-stem"
        if self.multi_ref != "error":
            items["multiref"] = self.multi_ref
        return items

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        for i, r in enumerate(references):
            if len(r) != 1 and (self.multi_ref == "error" or not r):
                raise InvalidInputError(f"ragas_string: sample {i} has {len(r)} references; ragas takes one reference string "
                                        "(multi_ref='first' scores against the first, 'best' takes the best)")
        if self.multi_ref != "best":
            return self._rows(self._values(predictions, [r[0] for r in references]))
        # the best over a sample's references (not ragas' own: it takes one reference)
        flat_p = [p for p, r in zip(predictions, references) for _ in r]
        flat_r = [x for r in references for x in r]
        flat = self._values(flat_p, flat_r)
        values, at = [], 0
        for r in references:
            values.append(max(flat[at:at + len(r)]))
            at += len(r)
        return self._rows(values)

    def _values(self, responses: list[str], refs: list[str]) -> list[float]:
        f = self.flavour
        if f == "exact_match":
            return [float(r == p) for p, r in zip(responses, refs)]
        if f == "string_presence":
            return [float(r in p) for p, r in zip(responses, refs)]
        if f == "non_llm_string_similarity":
            return [string_similarity(r, p, self.distance_measure) for p, r in zip(responses, refs)]
        if f == "bleu_score":
            from ..bleu import BLEU

            bleu = BLEU()  # sacrebleu's defaults, as ragas' BleuScore(kwargs={})
            return [self._bleu(bleu, p, r) for p, r in zip(responses, refs)]
        from ..rouge import ROUGE

        if not responses:
            return []
        parts = ROUGE(rouge_types=[self.rouge_type], use_stemmer=True).sentence_parts(responses, [[r] for r in refs])
        return parts[f"{self.rouge_type}_{self.mode}"].tolist()

    @staticmethod
    def _bleu(bleu: Any, response: str, reference: str) -> float:
        from ..._inputs import references_by_segment

        # ragas passes [[s] for s in reference sentences]: n one-line streams, which
        # sacrebleu transposes into ONE segment with n references and zips with the
        # hypotheses, so only the response's first ". "-sentence is scored (no error)
        first, ref_sents = response.split(". ")[0], reference.split(". ")
        return bleu.corpus_score([first], references_by_segment([ref_sents])).score / 100


class RagasContext(_RagasValues, Metric):
    """ragas 0.4.3 context metrics of (retrieved, reference) lists per sample; see the
    module docstring. ``update(retrieved, reference)``.

    >>> from nlgmetrics import RagasContext
    >>> RagasContext("id_based_context_recall").corpus_score([[1, 2]], [[2, 3]]).score
    0.5
    """

    name = "ragas_context"
    FLAVOURS = CONTEXT_FLAVOURS

    def __init__(self, flavour: str | None = None, *, distance_measure: str = "levenshtein", threshold: float = 0.5,
                 n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        flavour = "non_llm_context_precision_with_reference" if flavour is None else flavour
        if not isinstance(flavour, str) or flavour not in CONTEXT_FLAVOURS:
            raise InvalidOptionError(f"unknown flavour {flavour!r}; known: {', '.join(CONTEXT_FLAVOURS)}")
        if distance_measure not in MEASURES:
            raise InvalidOptionError(f"unknown distance_measure {distance_measure!r}; known: {', '.join(MEASURES)}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
            raise InvalidOptionError(f"threshold must be a finite number, got {threshold!r}")
        self.flavour = flavour
        self.distance_measure = distance_measure
        self.threshold = float(threshold)

    def _signature_items(self) -> dict[str, Any]:
        items: dict[str, Any] = {"flavour": self.flavour, "ref": RAGAS_VERSION}
        if self.flavour.startswith("non_llm"):
            items["dist"] = self.distance_measure
            items["threshold"] = repr(self.threshold)
        return items

    def stats(self, predictions: Any, references: Any) -> SegmentStats:
        retrieved = _lists(predictions, "retrieved")
        reference = _lists(references, "reference")
        if len(retrieved) != len(reference):
            raise InvalidInputError(f"ragas_context: {len(retrieved)} retrieved lists but {len(reference)} reference lists")
        ids = self.flavour.startswith("id_based")
        values = []
        for i, (ret, ref) in enumerate(zip(retrieved, reference)):
            if not ids:
                for what, items in (("retrieved", ret), ("reference", ref)):
                    if not all(isinstance(x, str) for x in items):
                        raise InputTypeError(f"ragas_context: sample {i}'s {what} contexts must be strings")
            values.append(self._value(i, ret, ref))
        return self._rows(values)

    def _value(self, i: int, ret: list, ref: list) -> float:
        f = self.flavour
        if f == "id_based_context_precision":
            got, want = {str(x) for x in ret}, {str(x) for x in ref}
            return sum(1 for x in got if x in want) / len(got) if got else math.nan
        if f == "id_based_context_recall":
            got, want = {str(x) for x in ret}, {str(x) for x in ref}
            return sum(1 for x in want if x in got) / len(want) if want else math.nan
        if f == "non_llm_context_precision_with_reference":
            if not ref and ret:
                raise InvalidInputError(f"ragas_context: sample {i} has no reference contexts (ragas' max() of an empty list fails)")
            best = [max(string_similarity(rc, r, self.distance_measure) for r in ref) for rc in ret]
            return average_precision([1 if s >= self.threshold else 0 for s in best])
        if not ret and ref:
            raise InvalidInputError(f"ragas_context: sample {i} has no retrieved contexts (ragas' max() of an empty list fails)")
        best = [max(string_similarity(rc, r, self.distance_measure) for rc in ret) for r in ref]
        found = [1 if s > self.threshold else 0 for s in best]
        return sum(found) / len(found) if found else math.nan

    def _segment_stats(self, predictions, references):  # stats() reads the lists itself
        return self.stats(predictions, [r for r in references])

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("ragas_context scores (retrieved, reference) lists per sample: pairwise() is not defined")


def _lists(values: Any, what: str) -> list[list]:
    if isinstance(values, (str, bytes, dict)) or not isinstance(values, Sequence):
        raise InputTypeError(f"ragas_context: {what} must be a sequence of lists (one list per sample)")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, (str, bytes, dict)) or not isinstance(v, Sequence):
            raise InputTypeError(f"ragas_context: {what}[{i}] must be a list of contexts or ids, got {type(v).__name__}")
        for x in v:
            if not isinstance(x, (str, int)) or isinstance(x, bool):
                raise InputTypeError(f"ragas_context: {what}[{i}] holds a {type(x).__name__}; contexts are strings, ids strings or ints")
            if isinstance(x, str):
                try:
                    x.encode("utf-8")
                except UnicodeEncodeError:
                    raise InputTypeError(f"ragas_context: {what}[{i}] holds a lone surrogate") from None
        out.append(list(v))
    return out
