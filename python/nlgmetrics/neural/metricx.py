"""MetricX-23 and MetricX-24 (Juraska et al., WMT 2023 and 2024) from a local checkpoint.

MetricX is an mT5 encoder-decoder fine-tuned as a regressor; its inference code is the
google-research/metricx repository (``metricx23/`` and ``metricx24/``: ``models.py``,
``predict.py``), reproduced here step by step:

- the input is one string: MetricX-24 ``"source: S candidate: H reference: R"`` (QE:
  ``"source: S candidate: H"``); MetricX-23 ``"candidate: H reference: R"`` (QE:
  ``"candidate: H source: S"``);
- it is tokenized with the tokenizer (mT5's; ``tokenizer=`` names its directory when the
  checkpoint has none), cut to ``max_input_length`` tokens (README: 1536 for MetricX-24,
  1024 for MetricX-23) with the closing ``</s>`` kept, and then that last token dropped;
- the encoder reads it, the decoder takes one step from token 0, and the score is the
  logit of token 250089 (``<extra_id_10>``) at that step (after the ``d_model ** -0.5``
  rescaling when the checkpoint ties its embeddings), clipped to [0, 25].

Scores are error scores: **lower is better** (0 perfect, 25 worst); ``higher_is_better``
is ``False``, so MBR picks the lowest expected score, and paired tests, ``compare`` and
``report`` read deltas with that sign.

The checkpoint is a transformers directory (``config.json`` of ``model_type: mt5`` and
``model.safetensors`` or ``pytorch_model.bin``), read offline. MetricX-24 loads in the
checkpoint's own dtype (``torch_dtype="auto"``: the bfloat16 checkpoints stay bfloat16),
MetricX-23 in float32, as each ``predict.py`` does; ``dtype=`` overrides.

Statistics: each segment's score (float64 of the model's float32) and the count; the
corpus score is their mean. Identical inputs are encoded once per call (systems that
share outputs, ``score_systems``). The default ``batch_size=1`` runs the shapes of the
README's ``--batch_size 1`` and gives its scores exactly; a larger ``batch_size`` batches
rows of equal token length (nothing is padded), faster on a GPU, and moves the last bits
of a float32 score (measured up to 6.7e-5 on [0, 25], tens of float32 ulps; tests bound it by 2.5e-4).
"""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .._inputs import as_references, as_texts
from ..errors import InvalidInputError, InvalidOptionError, InvalidTextError, MissingReferenceError
from ..metrics.base import Metric, Score
from ..stats import SegmentStats, Stats
from ._models import DTYPES, equal_length_batches, pick_device, require_torch, resolve_model_dir, torch_dtype, torch_threads
from ._sources import BoundSources, per_row
from ._weights import load_config, load_pretrained

HEAD_TOKEN = 250089  # <extra_id_10> in mT5's vocabulary: the regression head's logit
VERSIONS = {"24": "metricx-24", "23": "metricx-23"}
DEFAULT_MAX_INPUT_LENGTH = {"24": 1536, "23": 1024}


def _version(value: Any) -> str:
    key = str(value).lower().removeprefix("metricx").lstrip("-_")
    if key not in VERSIONS:
        raise InvalidOptionError(f"MetricX version must be one of metricx-24, metricx-23, got {value!r}")
    return key


def format_input(version: str, hypothesis: str, reference: str | None, source: str | None) -> str:
    """The one input string of a row, as the repository's ``predict.py`` builds it."""
    if version == "24":
        text = "source: " + (source or "") + " candidate: " + hypothesis
        return text if reference is None else text + " reference: " + reference
    if reference is None:
        return "candidate: " + hypothesis + " source: " + (source or "")
    return "candidate: " + hypothesis + " reference: " + reference


class MetricXNetwork:
    """An mT5 checkpoint read as MetricX reads it: encoder, one decoder step, one logit."""

    def __init__(self, directory: Path, *, device: str, dtype: str | None):
        require_torch()
        config = load_config(directory)
        if config.model_type not in ("mt5", "t5"):
            raise InvalidOptionError(f"{str(directory)!r} is not an mT5 checkpoint (model_type {config.model_type!r})")
        if config.vocab_size <= HEAD_TOKEN:
            raise InvalidOptionError(f"{str(directory)!r} has {config.vocab_size} output rows; the MetricX head reads row {HEAD_TOKEN}")
        _, transformers = require_torch()
        # MT5ForRegression never ties its head to the embeddings (whatever
        # tie_word_embeddings says, which only switches the rescaling on): read lm_head as stored
        model = load_pretrained(
            transformers.MT5ForConditionalGeneration, directory, config_overrides={"tie_word_embeddings": False},
            dtype=torch_dtype(dtype) if dtype else "auto",
        )
        model = model.eval().to(device)
        self.encoder = model.encoder
        self.decoder = model.decoder
        self.dtype = model.dtype
        self.device = device
        self.scale = config.d_model**-0.5 if config.tie_word_embeddings else None
        self.head = model.lm_head.weight
        self.config = config

    def __call__(self, input_ids: Any) -> Any:
        """Clipped scores of a batch of equal-length rows (float32 tensor)."""
        torch, _ = require_torch()
        mask = torch.ones_like(input_ids)
        hidden = self.encoder(input_ids=input_ids, attention_mask=mask, return_dict=True).last_hidden_state
        start = torch.zeros((input_ids.shape[0], 1), dtype=torch.long, device=input_ids.device)
        out = self.decoder(input_ids=start, encoder_hidden_states=hidden, encoder_attention_mask=mask, use_cache=False, return_dict=True)
        seq = out.last_hidden_state
        if self.scale is not None:
            seq = seq * self.scale
        # the whole vocabulary's logits, then the one: a product with the head's row alone
        # sums in another order and moves the last bits
        logits = torch.nn.functional.linear(seq, self.head)[:, 0, HEAD_TOKEN]
        return torch.clamp(logits, 0, 25).float()


@functools.lru_cache(maxsize=2)
def _load(directory: Path, tok_dir: Path, content: str, device: str, dtype: str | None) -> tuple[Any, Any, str]:
    """(network, tokenizer, weights digest) of one checkpoint, shared by metric objects
    while its files and the tokenizer's keep their content (``content``)."""
    _, transformers = require_torch()
    tokenizer = None if tok_dir == directory else tok_dir
    try:
        tok = transformers.AutoTokenizer.from_pretrained(str(tok_dir), local_files_only=True, trust_remote_code=False)
    except (OSError, ValueError, TypeError) as e:
        hint = "" if tokenizer else " (MetricX checkpoints ship without one: pass tokenizer= the mT5 tokenizer's directory, CLI --metricx-tokenizer)"
        raise InvalidOptionError(f"cannot load a tokenizer from {str(tok_dir)!r}{hint}: {e}") from None
    network = MetricXNetwork(directory, device=device, dtype=dtype)
    return network, tok, _digest(directory)


def _digest(directory: Path) -> str:
    import hashlib

    for name in ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json", "pytorch_model.bin.index.json"):
        path = directory / name
        if path.is_file():
            h = hashlib.sha256()
            with open(path, "rb") as f:
                h.update(f.read(1 << 20))
            h.update(str(path.stat().st_size).encode())
            return h.hexdigest()[:8]
    return "unknown"


class MetricX(Metric):
    """MetricX-24 / MetricX-23; see the module docstring.

    ``MetricX("metricx-24-hybrid-large-v2p6/", tokenizer="mt5-large/").corpus_score(hyps, refs, sources=srcs)``
    """

    name = "metricx"
    higher_is_better = False
    count_fields = ("segments",)
    sum_fields = ("score",)

    def __init__(
        self,
        model: str | os.PathLike,
        *,
        version: str = "metricx-24",
        qe: bool = False,
        tokenizer: str | os.PathLike | None = None,
        max_input_length: int | None = None,
        sources: Sequence[str] | str | None = None,
        source_references: Sequence[str] | None = None,
        batch_size: int = 1,
        device: str | None = None,
        dtype: str | None = None,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        self.version = _version(version)
        if not isinstance(qe, bool):
            raise InvalidOptionError(f"qe must be True or False, got {qe!r}")
        for option, value in (("batch_size", batch_size), ("max_input_length", max_input_length)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise InvalidOptionError(f"{option} must be a positive integer, got {value!r}")
        if dtype is not None and dtype not in DTYPES:
            raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        if not isinstance(model, (str, os.PathLike)):
            raise InvalidOptionError(f"MetricX model must be a path, got {type(model).__name__}")
        if tokenizer is not None and not isinstance(tokenizer, (str, os.PathLike)):
            raise InvalidOptionError(f"tokenizer must be a path, got {type(tokenizer).__name__}")
        self.model = str(model)
        self.qe = qe
        self.tokenizer = None if tokenizer is None else str(tokenizer)
        self.max_input_length = max_input_length or DEFAULT_MAX_INPUT_LENGTH[self.version]
        self.batch_size = batch_size
        self.device = device
        self.dtype = dtype
        self._bound = BoundSources(sources, source_references)

    # -- identity -------------------------------------------------------------------------
    def _loaded(self) -> tuple[Any, Any, str]:
        # MetricX-24's predict loads with torch_dtype="auto" (the checkpoint's dtype), MetricX-23's in float32
        dtype = self.dtype or (None if self.version == "24" else "float32")
        from ._content import directory_key

        directory = resolve_model_dir(self.model)
        tok = self.tokenizer
        tok_dir = directory if tok is None else resolve_model_dir(tok) if (Path(tok) / "config.json").is_file() else Path(tok)
        content = directory_key(directory) + (directory_key(tok_dir) if tok_dir != directory and tok_dir.is_dir() else "")
        return _load(directory, tok_dir, content, pick_device(self.device), dtype)

    def _signature_items(self) -> dict[str, Any]:
        net, _, digest = self._loaded()
        label = Path(self.model).name or self.model
        return {"flavour": VERSIONS[self.version], "qe": "yes" if self.qe else "no", "model": f"{label}@{digest}",
                "max_input_length": self.max_input_length, "dtype": str(net.dtype).removeprefix("torch.")}

    def _stats_items(self) -> dict[str, Any]:
        return {"model": self.model, "version": self.version, "qe": self.qe, "max_input_length": self.max_input_length, "dtype": self.dtype}

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "qe": "qe", "model": "m", "max_input_length": "ml", "dtype": "dt"}

    # -- inputs ---------------------------------------------------------------------------
    def _inputs(self, predictions: Any, references: Any, sources: Any) -> tuple[list[str], np.ndarray]:
        """(model input strings, reference counts) of the rows."""
        preds = as_texts(predictions, "predictions")
        ref_counts = np.zeros(len(preds), dtype=np.int64)
        refs: list[str] | None = None
        firsts: list[str] | None = None
        if references is not None:
            groups = as_references(references, len(preds))
            ref_counts = np.array([len(g) for g in groups], dtype=np.int64)
            firsts = [g[0] if g else "" for g in groups]
            if not self.qe:
                for i, g in enumerate(groups):
                    if len(g) > 1:
                        raise InvalidInputError(f"MetricX takes one reference per segment; segment {i} has {len(g)}")
                    if not g:
                        raise MissingReferenceError(f"segment {i} has no reference")
                refs = [g[0] for g in groups]
        if not self.qe and refs is None:
            raise MissingReferenceError("reference-based MetricX needs references (qe=True scores with sources only)")
        srcs = self._bound.rows(len(preds), firsts) if sources is None else per_row(sources, len(preds))
        if srcs is None and self.qe:
            raise InvalidInputError("MetricX QE needs the sources: pass sources= (CLI: --source SRC)")
        texts = [
            format_input(self.version, h, None if refs is None else refs[i], None if srcs is None else srcs[i])
            for i, h in enumerate(preds)
        ]
        return texts, ref_counts

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of model input strings: cut to ``max_input_length`` with ``</s>``, then
        the last token dropped (the repository's ``_remove_eos``)."""
        _, tok, _ = self._loaded()
        if not texts:
            return []
        for i, t in enumerate(texts):
            try:
                t.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidTextError(f"row {i} is not valid Unicode (a lone surrogate): the tokenizer cannot read it") from None
        ids = tok(list(texts), max_length=self.max_input_length, truncation=True, padding=False)["input_ids"]
        return [list(row[:-1]) for row in ids]

    # -- the computation ------------------------------------------------------------------
    def input_scores(self, texts: Sequence[str]) -> np.ndarray:
        """Clipped float32 scores of model input strings (``format_input``)."""
        torch, _ = require_torch()
        net, _, _ = self._loaded()
        distinct = list(dict.fromkeys(texts))
        ids = self.encode(distinct)
        if any(len(row) == 0 for row in ids):  # only when max_input_length is 1
            raise InvalidOptionError("max_input_length leaves no token once </s> is dropped: use 2 or more")
        scores = np.empty(len(distinct), dtype=np.float32)
        with torch_threads(self.n_threads), torch.inference_mode():
            for batch in equal_length_batches([len(r) for r in ids], self.batch_size):
                x = torch.tensor([ids[i] for i in batch], dtype=torch.long, device=net.device)
                scores[batch] = net(x).cpu().numpy()
        where = {t: i for i, t in enumerate(distinct)}
        return scores[[where[t] for t in texts]] if texts else scores

    def _segments(self, scores: np.ndarray, ref_counts: np.ndarray) -> SegmentStats:
        counts = np.ones((len(scores), 1), dtype=np.uint64)
        sums = scores.astype(np.float64).reshape(-1, 1)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums, ref_counts=ref_counts)

    # -- faces ----------------------------------------------------------------------------
    def stats(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> SegmentStats:
        """Per-segment statistics; ``references`` may be ``None`` with ``qe=True``."""
        texts, ref_counts = self._inputs(predictions, references, sources)
        return self._segments(self.input_scores(texts), ref_counts)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self.stats(predictions, references)

    def corpus_score(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> Score:
        return self.score_stats(self.stats(predictions, references, sources).total())

    def sentence_scores(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> np.ndarray:
        return self._sentence_scores(self.stats(predictions, references, sources))

    def update(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> "MetricX":
        return self._accumulate(self.stats(predictions, references, sources).total())  # the locked, key-checked path

    def score_systems(self, sources: Sequence[str] | None, references: Any, systems: Mapping[str, Sequence[str]]) -> dict[str, Score]:
        """``{name: Score}`` for several systems on one test set in one pass (rows that
        several systems share are encoded once)."""
        rows = {n: self._inputs(systems[n], references, sources) for n in systems}
        scores = self.input_scores([t for texts, _ in rows.values() for t in texts])
        out, start = {}, 0
        for name, (texts, ref_counts) in rows.items():
            out[name] = self.score_stats(self._segments(scores[start : start + len(texts)], ref_counts).total())
            start += len(texts)
        return out

    def pairwise(self, candidates: Sequence[str], references: Sequence[str], sources: Sequence[str] | str | None = None) -> np.ndarray:
        """``M[i, j]``: candidate ``i`` scored with ``references[j]`` as its reference and
        ``sources`` (one string for all, or one per candidate; default: the bound ones)."""
        cands = as_texts(candidates, "candidates")
        refs = as_texts(references, "references")
        if not cands or not refs:
            return np.zeros((len(cands), len(refs)))
        per_cand = self._bound.rows(len(cands), None) if sources is None else per_row(sources, len(cands), "candidates")
        if self.qe:
            raise InvalidOptionError("pairwise scoring compares candidates with pseudo-references: use a reference-based MetricX (qe=False)")
        texts = [format_input(self.version, c, r, None if per_cand is None else per_cand[i]) for i, c in enumerate(cands) for r in refs]
        return self.input_scores(texts).astype(np.float64).reshape(len(cands), len(refs))

    def _score(self, stats: Stats) -> Score:
        n = int(stats.counts[0])
        mean = math.fsum(stats.sum_partials[0]) / n if n else math.nan
        return Score(self.name, mean, self.signature(stats), stats, segments=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return seg.sums[:, 0].copy()


def metricx(predictions: Sequence[str], references: Any, model: str | os.PathLike, sources: Sequence[str] | None = None, **options: Any) -> Score:
    """Mean MetricX score of the predictions (lower is better)."""
    return MetricX(model, **options).corpus_score(predictions, references, sources)
