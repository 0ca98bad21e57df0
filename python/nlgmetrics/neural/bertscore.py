"""BERTScore (Zhang et al., ICLR 2020) with bert_score 0.3.13's numbers.

Per segment: greedy cosine matching of contextual token embeddings (see ``_greedy``) gives
precision, recall and F1; with several references each of P, R and F is the maximum over
the references separately (they may come from different references), then, with
``rescale_with_baseline``, ``(x - b) / (1 - b)`` with the baseline row of the layer. The
corpus score is the mean of the per-segment values: the statistics are their float sums
and the segment count, so shards merge exactly.

- ``idf=True`` weights tokens by ``ln((M+1)/(c+1))`` over the ``M`` references of the call
  (multi-reference lists flattened, as bert_score does), so two calls have two tables:
  to score shards with one table pass ``idf=metric.idf_table(all_references)``.
  ``idf=False`` weights every token 1 except [CLS] and [SEP].
- Models load only from local files (``nlgmetrics.neural._models``); ``layer`` defaults to
  bert_score's tuned layer for the known models.
- Baselines: ``baseline_path`` or bert_score's file for ``lang`` and ``model``; a missing
  file is an error (bert_score's ``score()`` only warns and returns unscaled numbers).
- ``reference_batching=True`` matches pairs in bert_score's batches (input order, chunks of
  ``batch_size``) with its zero padding in the maxima, so numbers equal bert_score's even
  where a token's real similarities are all negative (unrelated sentences, MBR matrices);
  those numbers then depend on batch size and order, as bert_score's do. The default
  masks padding out: each pair's score is its own.
- Tolerance: torch float32. The embeddings and matching run the same float32 operations as
  bert_score; batches of other shapes can move the last bits (about 1e-7), so parity is
  tested to 1e-6.
- Speed (``_encoder``): each distinct text is embedded once, in batches of equal token
  length (no padding computed), and a call over the texts of an earlier call reuses its
  batches. ``n_threads=k`` runs torch with ``k`` threads during the call; 0 leaves torch's
  setting.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputTypeError, InvalidOptionError
from ..metrics.base import Metric, Score
from ..stats import SegmentStats, Stats
from . import bertscore_tables as tables
from ._greedy import IdfTable, greedy_match, idf_from_references, idf_weights
from ._models import DTYPES, parse_device, pick_device, resolve_model_dir, torch_threads


class BERTScoreWarning(UserWarning):
    """A BERTScore value is NaN by bert_score's own arithmetic (e.g. all idf weights 0)."""


class BERTScore(Metric):
    """BERTScore; see the module docstring.

    ``BERTScore(model="all-MiniLM-L6-v2", layer=6).corpus_score(hyps, refs)``
    """

    name = "bertscore"
    count_fields = ("segments",)
    sum_fields = ("precision", "recall", "f1")

    def __init__(
        self,
        model: str | os.PathLike | None = None,
        *,
        layer: int | None = None,
        lang: str | None = None,
        idf: bool | Mapping[int, float] | tuple = False,
        rescale_with_baseline: bool = False,
        baseline_path: str | os.PathLike | None = None,
        batch_size: int = 64,
        device: "str | int | Any | None" = None,
        dtype: str = "float32",
        use_fast_tokenizer: bool = False,
        reference_batching: bool = False,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if model is None and lang is None:
            raise InvalidOptionError("BERTScore needs model= (a local path or cached name) or lang=")
        self.model = str(model) if model is not None else tables.model_for_lang(lang)  # type: ignore[arg-type]
        self.layer = tables.default_layer(self.model) if layer is None else layer
        if not isinstance(self.layer, int) or isinstance(self.layer, bool) or self.layer < 0:
            raise InvalidOptionError(f"layer must be a non-negative integer, got {self.layer!r}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise InvalidOptionError(f"batch_size must be a positive integer, got {batch_size!r}")
        if dtype not in DTYPES:
            raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        self.lang = lang
        self.batch_size = batch_size
        self.device = parse_device(device)
        self.dtype = dtype
        self.use_fast_tokenizer = bool(use_fast_tokenizer)
        self.reference_batching = bool(reference_batching)
        self._fixed_idf = _as_idf_table(idf)
        self.idf = bool(idf) if self._fixed_idf is None else True
        self.rescale_with_baseline = bool(rescale_with_baseline)
        self.baseline_path = None if baseline_path is None else str(baseline_path)
        self.baseline = self._baseline() if self.rescale_with_baseline else None

    # -- configuration ------------------------------------------------------------------
    def _baseline(self) -> tuple[float, float, float]:
        if self.baseline_path is not None:
            return tables.read_baseline(self.baseline_path, self.layer)
        if self.lang is None:
            raise InvalidOptionError("rescale_with_baseline needs lang= (or baseline_path=)")
        path = tables.bert_score_baseline_file(self.lang.lower(), self.model)
        if not path.is_file():
            raise InvalidOptionError(f"no baseline file for {self.model!r} in {self.lang!r} (looked for {path}); pass baseline_path=")
        return tables.read_baseline(path, self.layer)

    def _signature_items(self) -> dict[str, Any]:
        rescale = "no"
        if self.rescale_with_baseline:
            rescale = "custom" if self.baseline_path is not None else "yes"
        return {
            "model": self.model,
            "layer": self.layer,
            "idf": ("given" if self._fixed_idf is not None else "yes") if self.idf else "no",
            "rescale": rescale,
            "tok": "fast" if self.use_fast_tokenizer else "slow",
            "dtype": self.dtype,
            "batching": f"bert_score-{self.batch_size}" if self.reference_batching else None,
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"model": "m", "layer": "L", "idf": "idf", "rescale": "rs", "tok": "tok", "dtype": "dt", "batching": "bt"}

    @property
    def encoder(self):
        from ._content import directory_key
        from ._encoder import encoder_for

        device = pick_device(self.device)
        directory = resolve_model_dir(self.model)
        return encoder_for(str(directory), directory_key(directory), self.layer, device, self.dtype, self.use_fast_tokenizer)

    def idf_table(self, references: Sequence[str | Sequence[str]]) -> IdfTable:
        """The idf table of ``references`` (flattened), to reuse across calls or shards."""
        flat = [r for group in _groups(references) for r in group]
        enc = self.encoder
        ids = [frozenset(enc.encode(r)) for r in flat]
        return idf_from_references(ids, [1] * len(ids))

    # -- the computation ----------------------------------------------------------------
    def _prf(self, cands: list[str], refs: list[str], pairs: list[tuple[int, int]], idf_refs: list[tuple[int, int]] | None) -> np.ndarray:
        """(P, R, F) float32 per pair of (index into cands, index into refs).

        ``idf_refs``: (index into refs, multiplicity) of the reference documents of the idf
        table, when it is computed from this call's references.
        """
        enc = self.encoder
        texts = sorted(set(cands) | set(refs))
        ids = {t: enc.encode(t) for t in texts}
        idf: IdfTable | None = self._fixed_idf
        if self.idf and idf is None:
            assert idf_refs is not None
            idf = idf_from_references([frozenset(ids[refs[j]]) for j, _ in idf_refs], [k for _, k in idf_refs])
        special = enc.special_ids
        weights = {t: idf_weights(ids[t], idf, special) for t in texts}
        with torch_threads(self.n_threads):  # the forward pass and the matching: both reduce in torch
            embedded = dict(zip(texts, enc.embed([ids[t] for t in texts], self.batch_size)))
            cand_emb = [embedded[c] for c in cands]
            ref_emb = [embedded[r] for r in refs]
            return greedy_match(
                cand_emb, [weights[c] for c in cands], ref_emb, [weights[r] for r in refs], pairs, self.batch_size, enc.device,
                pad_zero=self.reference_batching,
            )

    def _rescale(self, prf: np.ndarray) -> np.ndarray:
        if self.baseline is None:
            return prf
        b = np.asarray(self.baseline, dtype=np.float32)
        return ((prf - b) / (np.float32(1) - b)).astype(np.float32)

    def _segment_prf(self, preds: list[str], refs: list[list[str]]) -> np.ndarray:
        flat_refs = [r for group in refs for r in group]
        pairs, k = [], 0
        for i, group in enumerate(refs):
            for _ in group:
                pairs.append((i, k))
                k += 1
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        idf_refs = [(j, 1) for j in range(len(flat_refs))]
        prf = self._prf(preds, flat_refs, pairs, idf_refs)
        best = np.empty((len(preds), 3), dtype=np.float32)
        start = 0
        for i, group in enumerate(refs):
            best[i] = prf[start : start + len(group)].max(axis=0)
            start += len(group)
        out = self._rescale(best)
        if np.isnan(out).any():
            warnings.warn("BERTScore is NaN for some segments (all their idf weights are 0)", BERTScoreWarning, stacklevel=4)
        return out

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        prf = self._segment_prf(predictions, references).astype(np.float64)
        counts = np.ones((len(predictions), 1), dtype=np.uint64)
        ref_counts = np.array([len(r) for r in references], dtype=np.int64)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, prf, ref_counts=ref_counts)

    def _score(self, stats: Stats) -> Score:
        n = int(stats.counts[0])
        p, r, f = (math.fsum(parts) / n if n else math.nan for parts in stats.sum_partials)
        return Score(self.name, f, self.signature(stats), stats, precision=p, recall=r, f1=f, segments=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return seg.sums[:, 2].copy()

    # -- faces --------------------------------------------------------------------------
    def prf(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-segment ``(P, R, F)`` arrays, like ``bert_score.score``."""
        seg = self.stats(predictions, references)
        return seg.sums[:, 0].copy(), seg.sums[:, 1].copy(), seg.sums[:, 2].copy()

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        """F1 of every candidate against every reference, each text embedded once.

        With ``idf=True`` the table is that of ``sentence_scores`` on all the pairs: every
        reference counted once per candidate.
        """
        if not cands or not refs:
            return np.zeros((len(cands), len(refs)))
        pairs = [(i, j) for i in range(len(cands)) for j in range(len(refs))]
        idf_refs = [(j, len(cands)) for j in range(len(refs))]
        prf = self._rescale(self._prf(cands, refs, pairs, idf_refs))
        return prf[:, 2].astype(np.float64).reshape(len(cands), len(refs))


def _groups(references: Any) -> list[list[str]]:
    from .._inputs import as_references

    return as_references(references)


def _as_idf_table(idf: Any) -> IdfTable | None:
    """``False``/``True`` -> no fixed table; a mapping (bert_score's ``idf_dict``) or an
    ``(table, default)`` pair from :meth:`BERTScore.idf_table` -> that table."""
    if isinstance(idf, bool):
        return None
    if isinstance(idf, tuple) and len(idf) == 2 and isinstance(idf[0], Mapping):
        return {int(k): float(v) for k, v in idf[0].items()}, float(idf[1])
    if isinstance(idf, Mapping):
        factory = getattr(idf, "default_factory", None)
        default = float(factory()) if factory is not None else None
        return {int(k): float(v) for k, v in idf.items()}, default
    raise InputTypeError(f"idf must be a bool, a mapping of token id to weight, or an idf_table(), got {type(idf).__name__}")


def bertscore(predictions: Sequence[str], references: Sequence[str | Sequence[str]], **options: Any) -> Score:
    """Corpus BERTScore (mean F1, with mean precision and recall in the breakdown)."""
    return BERTScore(**options).corpus_score(predictions, references)
