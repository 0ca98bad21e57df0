"""COMET (Rei et al., EMNLP 2020; WMT22) from an unbabel-comet checkpoint, without unbabel-comet.

``COMET(path)`` reads a model directory (``hparams.yaml`` + ``checkpoints/model.ckpt``,
see ``_comet_checkpoint``) and scores as unbabel-comet's ``predict`` does (``_comet_model``):

- ``regression_metric`` (wmt22-comet-da, wmt20-comet-da): source, translation and
  reference are embedded separately; the head reads
  ``[mt, ref, mt*ref, |mt-ref|, mt*src, |mt-src|]``.
- ``referenceless_regression_metric`` (wmt20/21 QE): ``[mt, src, mt*src, |mt-src|]``.
- ``unified_metric`` (wmt22-cometkiwi-da): translation and source (and reference, when
  the model takes one) are encoded together and the head reads the first token; with
  source and reference it averages the (mt, src), (mt, ref) and (mt, src, ref) scores.

Inputs: predictions, one reference per segment (``None`` for reference-free models) and
the sources (``sources=``, or bound once with ``COMET(path, sources=...)`` so that every
face taking ``(predictions, references)`` works: ``paired_test``, ``compare``, ``report``,
the CLI). Bound sources align by position when the lengths agree, otherwise through the
references (a Dask partition, a subset), which must then name one source each.

Statistics: each segment's score (float64 of the model's output: float32, or float64 with
``dtype="float64"``) and the count; the corpus score is their mean, as unbabel-comet's
``system_score``. ``update`` goes through the shared ``Metric._accumulate`` (thread-safe).
Work is shared (regression models): each column (translations, sources, references) is
embedded in batches that depend only on the column's set of texts, and whole batches are
kept between calls (``cache_size`` texts), so scoring several systems on one test set
encodes its sources and references once, and a score never depends on what the object
scored before (the same inputs give the same bits). ``pairwise(candidates,
pseudo_references, sources=...)`` embeds each candidate once (COMET-MBR).

Tolerance: float32 torch as unbabel-comet; batches group rows differently, which moves
the last bits, so parity is tested to 1e-6 (tests/test_comet.py).
"""

from __future__ import annotations

import functools
import math
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .._inputs import as_references, as_texts, check_all_text
from .._locking import state_lock
from ..errors import InvalidInputError, InvalidOptionError, MissingReferenceError
from ..metrics.base import Metric, Score
from ..stats import SegmentStats, Stats
from ._models import DTYPES, parse_device, pick_device, require_torch, torch_dtype, torch_threads
from ._sources import BoundSources, per_row

_ROWS_PER_HEAD_CALL = 4096


@functools.lru_cache(maxsize=2)
def _load(model: str, encoder: str | None, content: str, device: str, dtype: str, classes: tuple[str, ...] | None = None) -> tuple[Any, str]:
    """(network, weights digest) of one checkpoint, shared by metric objects while its
    files keep their content (``content``: :func:`_content_key`)."""
    from . import _comet_checkpoint as ckpt
    from ._comet_model import CometNetwork

    files = ckpt.locate(model)
    data = ckpt.read_checkpoint(files.checkpoint)
    hparams = ckpt.hyper_parameters(files, data, classes or ckpt.SUPPORTED_CLASSES)
    enc = ckpt.encoder_dir(files, str(hparams.get("pretrained_model", "xlm-roberta-large")), encoder)
    network = CometNetwork(hparams, data["state_dict"], enc, device=device, dtype=torch_dtype(dtype), where=repr(str(files.checkpoint)))
    return network, ckpt.file_digest(files.checkpoint)


def _content_key(model: str, encoder: str | None) -> str:
    """The content of what loading reads: the checkpoint, hparams.yaml, the files beside
    them and the encoder directory given (an edited or replaced file is read again)."""
    from . import _comet_checkpoint as ckpt
    from ._content import directory_key, files_key

    files = ckpt.locate(model)
    key = files_key([files.checkpoint, files.hparams]) + directory_key(files.directory)
    if encoder is not None and Path(encoder).is_dir():
        key += directory_key(Path(encoder))
    return key


def _check_files(model: str, encoder: str | None, classes: tuple[str, ...] | None = None) -> None:
    """What loading needs, checked when the metric is made (no torch): the checkpoint,
    hparams.yaml with a supported class and the encoder's config and tokenizer; each
    missing piece is an InvalidOptionError naming it."""
    from . import _comet_checkpoint as ckpt

    files = ckpt.locate(model)
    declared = ckpt.read_yaml(files.hparams)
    identifier = declared.get("class_identifier")
    classes = classes or ckpt.SUPPORTED_CLASSES
    if identifier not in classes:
        hint = {"xcomet_metric": " (an XCOMET model: use nlgmetrics.XCOMET, CLI -m xcomet)"}.get(str(identifier), "")
        if identifier in ckpt.SUPPORTED_CLASSES:
            hint = " (use nlgmetrics.COMET, CLI -m comet)"
        raise InvalidOptionError(
            f"COMET model class {identifier!r} (class_identifier in {str(files.hparams)!r}) is not supported{hint}; "
            f"supported: {', '.join(classes)}"
        )
    ckpt.encoder_dir(files, str(declared.get("pretrained_model", "xlm-roberta-large")), encoder)


class COMET(Metric):
    """COMET; see the module docstring. ``COMET("wmt22-comet-da/").corpus_score(hyps, refs, sources=srcs)``"""

    name = "comet"
    count_fields = ("segments",)
    sum_fields = ("score",)
    _classes: tuple[str, ...] | None = None  # class_identifier values read (None: COMET's)

    def __init__(
        self,
        model: str | os.PathLike,
        *,
        encoder: str | os.PathLike | None = None,
        sources: Sequence[str] | str | None = None,
        source_references: Sequence[str] | None = None,
        batch_size: int = 16,
        cache_size: int = 20000,
        device: "str | int | Any | None" = None,
        dtype: str = "float32",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        for option, value, least in (("batch_size", batch_size, 1), ("cache_size", cache_size, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise InvalidOptionError(f"{option} must be an integer >= {least}, got {value!r}")
        if dtype not in DTYPES:
            raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        if not isinstance(model, (str, os.PathLike)):
            raise InvalidOptionError(f"COMET model must be a path or a model name, got {type(model).__name__}")
        self.model = str(model)
        self.encoder = None if encoder is None else str(encoder)
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.device = parse_device(device)
        self.dtype = dtype
        self._bound = BoundSources(sources, source_references)
        _check_files(self.model, self.encoder, self._classes)
        self._cache: OrderedDict[tuple[str, ...], Any] = OrderedDict()  # whole batches of vectors
        self._cached_texts = 0
        self._ids: OrderedDict[str, list[int]] = OrderedDict()  # token ids of recent texts

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_cache": OrderedDict(), "_cached_texts": 0, "_ids": OrderedDict()}

    def with_sources(self, sources: Sequence[str] | str, references: Sequence[str] | None = None) -> "COMET":
        """A copy bound to ``sources`` (a test set's sources, or one source shared by all
        rows); with their ``references``, subsets of the test set find their sources too."""
        return type(self)(self.model, encoder=self.encoder, sources=sources, source_references=references, batch_size=self.batch_size,
                     cache_size=self.cache_size, device=self.device, dtype=self.dtype, n_threads=self.n_threads)

    # -- identity -------------------------------------------------------------------------
    def _network(self) -> tuple[Any, str]:
        key = _content_key(self.model, self.encoder)
        if key != getattr(self, "_vectors_key", None):  # vectors of other weights are not these weights' vectors
            with state_lock(self):
                self._cache.clear()
                self._ids.clear()
                self._cached_texts = 0
                self._vectors_key = key
        return _load(self.model, self.encoder, key, pick_device(self.device), self.dtype, self._classes)

    @property
    def network(self) -> Any:
        return self._network()[0]

    def _signature_items(self) -> dict[str, Any]:
        path = Path(self.model)
        label = path.parent.parent.name if path.suffix == ".ckpt" else (path.name or self.model)
        digest = self._network()[1]
        return {"model": f"{label}@{digest}", "batch": self.batch_size, "dtype": self.dtype}

    def _stats_items(self) -> dict[str, Any]:
        return {"model": self.model, "dtype": self.dtype}

    def _abbreviations(self) -> dict[str, str]:
        return {"model": "m", "batch": "b", "dtype": "dt"}

    # -- inputs ---------------------------------------------------------------------------
    def _uses(self) -> tuple[bool, bool]:
        """(takes sources, takes references) for this model's class."""
        hp = self.network.hparams
        kind = hp["class_identifier"]
        if kind == "regression_metric":
            return True, True
        if kind == "referenceless_regression_metric":
            return True, False
        segments = list(hp.get("input_segments", ["mt", "src", "ref"]))
        return "src" in segments, "ref" in segments

    def _inputs(self, predictions: Any, references: Any, sources: Any) -> tuple[list[str], list[str] | None, list[str] | None, np.ndarray]:
        preds = as_texts(predictions, "predictions")
        wants_src, wants_ref = self._uses()
        refs: list[str] | None = None
        firsts: list[str] | None = None  # align bound sources, also for reference-free models
        ref_counts = np.zeros(len(preds), dtype=np.int64)
        if references is not None:
            groups = as_references(references, len(preds))
            ref_counts = np.array([len(g) for g in groups], dtype=np.int64)
            firsts = [g[0] if g else "" for g in groups]
            if wants_ref:
                for i, g in enumerate(groups):
                    if len(g) > 1:
                        raise InvalidInputError(f"COMET takes one reference per segment; segment {i} has {len(g)}")
                    if not g:
                        raise MissingReferenceError(f"segment {i} has no reference")
                refs = [g[0] for g in groups]
        srcs = self._bound.rows(len(preds), firsts) if sources is None else per_row(sources, len(preds))
        kind = self.network.hparams["class_identifier"]
        if wants_src and srcs is None and (not self.network.joint or refs is None):
            raise InvalidInputError(f"this COMET model ({kind}) needs the sources: pass sources= (CLI: --source SRC)")
        if wants_ref and refs is None and (kind == "regression_metric" or srcs is None or not wants_src):
            raise MissingReferenceError(f"this COMET model ({kind}) needs references")
        # the tokenizer's raw TypeError on an unpaired surrogate, as a typed error naming the text
        for texts, what in ((preds, "predictions"), (refs, "references"), (srcs if wants_src else None, "sources")):
            if texts is not None:
                check_all_text(texts, what)
        return preds, refs, (srcs if wants_src else None), ref_counts

    # -- the computation ------------------------------------------------------------------
    def _token_ids(self, texts: list[str]) -> dict[str, list[int]]:
        """Token ids of distinct ``texts``; recent ones are kept (``cache_size`` texts)."""
        with state_lock(self):
            found = {t: self._ids[t] for t in texts if t in self._ids}
            for t in found:
                self._ids.move_to_end(t)
        missing = [t for t in texts if t not in found]
        if missing:
            found.update(zip(missing, self.network.tokenize(missing)))
            if self.cache_size:
                with state_lock(self):
                    self._ids.update((t, found[t]) for t in missing)
                    while len(self._ids) > self.cache_size:
                        self._ids.popitem(last=False)
        return found

    def _embeddings(self, texts: list[str]) -> dict[str, Any]:
        """Pooled vectors of one column's distinct ``texts``.

        The batches are a function of the set of texts alone (sorted by token length, then
        by token ids, cut every ``batch_size``), and the cache holds whole batches keyed by
        their texts: a vector is always computed in the same batch, so a score never
        depends on what the object scored before (a vector computed in another batch
        differs in the last bits). A test set's sources and references form the same
        batches for every system, so they are encoded once."""
        net = self.network
        ids = self._token_ids(list(dict.fromkeys(texts)))
        distinct = sorted(ids, key=lambda t: (-len(ids[t]), ids[t], t))
        found: dict[str, Any] = {}
        for start in range(0, len(distinct), self.batch_size):
            batch = tuple(distinct[start : start + self.batch_size])
            with state_lock(self):
                vectors = self._cache.get(batch)
                if vectors is not None:
                    self._cache.move_to_end(batch)  # least recently used goes first: a test set's sources stay
            if vectors is None:
                vectors = net.embed_batch([ids[t] for t in batch])
                if self.cache_size:
                    with state_lock(self):
                        if batch not in self._cache:
                            self._cache[batch] = vectors
                            self._cached_texts += len(batch)
                        while self._cached_texts > self.cache_size and self._cache:
                            self._cached_texts -= len(self._cache.popitem(last=False)[0])
            found.update(zip(batch, vectors))
        return found

    def _regression(self, mts: list[str], refs: list[str] | None, srcs: list[str]) -> np.ndarray:
        torch, _ = require_torch()
        columns = {"mt": mts, "src": srcs, "ref": refs or []}
        vectors = {name: self._embeddings(col) for name, col in columns.items()}
        out = np.empty(len(mts), dtype=np.float64)
        for start in range(0, len(mts), _ROWS_PER_HEAD_CALL):
            end = start + _ROWS_PER_HEAD_CALL

            def stack(name: str) -> Any:
                return torch.stack([vectors[name][t] for t in columns[name][start:end]])

            scores = self.network.regression_scores(stack("mt"), stack("src"), None if refs is None else stack("ref"))
            out[start : start + len(scores)] = scores.double().cpu().numpy()
        return out

    def _unified(self, mts: list[str], refs: list[str] | None, srcs: list[str] | None) -> np.ndarray:
        torch, _ = require_torch()
        net = self.network
        texts = list(dict.fromkeys(mts + (srcs or []) + (refs or [])))
        ids = dict(zip(texts, net.tokenize(texts)))
        if srcs is not None and refs is not None:
            combos = [("src",), ("ref",), ("src", "ref")]
        else:
            combos = [("src",)] if srcs is not None else [("ref",)]
        columns = {"src": srcs, "ref": refs}
        sequences = [[tuple(net.concat([ids[mt]] + [ids[columns[c][i]] for c in combo])) for i, mt in enumerate(mts)] for combo in combos]
        distinct = list(dict.fromkeys(s for seqs in sequences for s in seqs))
        scored = dict(zip(distinct, net.joint_scores([list(s) for s in distinct], self.batch_size)))
        with torch.inference_mode():
            per_combo = [torch.stack([scored[s] for s in seqs]) if seqs else torch.zeros(0) for seqs in sequences]
            scores = per_combo[0] if len(per_combo) == 1 else torch.stack(per_combo, dim=0).mean(dim=0)
        return scores.double().cpu().numpy()  # exact for every dtype (float64 stays float64)

    def _row_scores(self, mts: list[str], refs: list[str] | None, srcs: list[str] | None) -> np.ndarray:
        """Scores of the rows, with torch's intra-op threads set to ``n_threads`` (0: torch's
        own setting; float32 kernels round differently with other thread counts)."""
        with torch_threads(self.n_threads):
            return self._compute(mts, refs, srcs)

    def _compute(self, mts: list[str], refs: list[str] | None, srcs: list[str] | None) -> np.ndarray:
        if not mts:
            return np.zeros(0, dtype=np.float64)
        kind = self.network.hparams["class_identifier"]
        if kind == "unified_metric":
            return self._unified(mts, refs, srcs)
        assert srcs is not None
        return self._regression(mts, refs if kind == "regression_metric" else None, srcs)

    def _segments(self, scores: np.ndarray, ref_counts: np.ndarray) -> SegmentStats:
        counts = np.ones((len(scores), 1), dtype=np.uint64)
        sums = np.asarray(scores, dtype=np.float64).reshape(-1, 1)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums, ref_counts=ref_counts)

    # -- faces ----------------------------------------------------------------------------
    def stats(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> SegmentStats:
        """Per-segment statistics; ``references`` may be ``None`` for reference-free models."""
        preds, refs, srcs, ref_counts = self._inputs(predictions, references, sources)
        return self._segments(self._row_scores(preds, refs, srcs), ref_counts)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self.stats(predictions, references)

    def corpus_score(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> Score:
        return self.score_stats(self.stats(predictions, references, sources).total())

    def sentence_scores(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> np.ndarray:
        return self._sentence_scores(self.stats(predictions, references, sources))

    def update(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> "COMET":
        """Add a batch to the running state (safe to call from several threads)."""
        return self._accumulate(self.stats(predictions, references, sources).total())

    def score_systems(self, sources: Sequence[str] | None, references: Any, systems: Mapping[str, Sequence[str]]) -> dict[str, Score]:
        """``{name: Score}`` for several systems on one test set. Each system is scored as
        ``corpus_score`` scores it (the same bits); the sources and references form the same
        batches every time, so (with ``cache_size`` > 0) they are encoded once."""
        return {name: self.corpus_score(hyps, references, sources) for name, hyps in systems.items()}

    def pairwise(self, candidates: Sequence[str], references: Sequence[str], sources: Sequence[str] | str | None = None) -> np.ndarray:
        """``M[i, j]``: candidate ``i`` scored with ``references[j]`` as its reference and
        ``sources`` (one string for all, or one per candidate; default: the bound ones)."""
        cands = as_texts(candidates, "candidates")
        refs = as_texts(references, "references")
        if sources is None:
            sources = self._bound.rows(len(cands), None)
        if not cands or not refs:
            return np.zeros((len(cands), len(refs)))
        mts = [c for c in cands for _ in refs]
        srcs = None
        if sources is not None:
            srcs = [s for s in per_row(sources, len(cands), "candidates") for _ in refs]
        _, _, srcs, _ = self._inputs(mts, [[r] for _ in cands for r in refs], srcs)
        flat_refs = [r for _ in cands for r in refs]
        return self._row_scores(mts, flat_refs, srcs).reshape(len(cands), len(refs))

    def _score(self, stats: Stats) -> Score:
        n = int(stats.counts[0])
        mean = math.fsum(stats.sum_partials[0]) / n if n else math.nan
        return Score(self.name, mean, self.signature(stats), stats, segments=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return seg.sums[:, 0].copy()


def comet(predictions: Sequence[str], references: Any, sources: Sequence[str], model: str | os.PathLike, **options: Any) -> Score:
    """Mean COMET score of the predictions."""
    return COMET(model, **options).corpus_score(predictions, references, sources)
