"""Contextual token embeddings for BERTScore: tokenization as bert_score does it, an
encoder cut after the chosen layer, and batches of equal length.

Tokenization copies bert_score 0.3.13's ``sent_encode``: the text is stripped, an empty
text is the tokenizer's special tokens alone, GPT-2/RoBERTa (slow) tokenizers get a prefix
space, special tokens are added and the input is truncated to the tokenizer's
``model_max_length`` (capped by the model's position table when the tokenizer sets no
limit, where bert_score would crash instead).

Embeddings come from the encoder truncated to its first ``layer`` layers (its last hidden
state), as bert_score's ``get_model`` builds it, then L2-normalised. Each distinct token
sequence is embedded once, in batches of sequences of equal length: no padded position is
computed and no attention mask is needed (bert_score pads its length-sorted batches of 64,
about 13 % more tokens on MT-like text). That is with one torch thread on the CPU; with
more threads or on a GPU, batches are bert_score's (``embed``). A sequence's vector depends on the other
sequences of its batch, its padding and the thread count only through float rounding
(~3e-7 on a component: the matrix kernels change with the shapes).

Batches of vectors stay in a cache bounded by ``CACHE_BYTES`` (least recently used first
out), shared by every metric object using the same model, layer, device and dtype, and
keyed by the batch's sequences: the batches of a call depend only on its distinct
sequences, so a call over the same texts as an earlier one (an idf and a plain BERTScore,
``pairwise`` and ``sentence_scores`` of the same texts) runs no encoder and gets bitwise
the vectors recomputing would give at the same thread count (caching single vectors
instead would let a result depend, in its last bits, on which earlier call embedded them).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError
from ._models import equal_length_batches, load_tokenizer, longest_first_batches, require_torch, torch_dtype
from ._weights import load_config, load_pretrained

_UNLIMITED = 10**8
# Bytes of cached token vectors per encoder (float32 of the model's width per token).
CACHE_BYTES = 128 << 20


def _truncate(model: Any, layer: int) -> None:
    """Keep the first ``layer`` layers (bert_score's ``get_model`` for each family)."""
    torch, _ = require_torch()

    def check(n: int) -> None:
        if not 0 <= layer <= n:
            raise InvalidOptionError(f"layer must be between 0 and {n} for this model, got {layer}")

    if hasattr(model, "n_layers"):  # XLM
        check(model.n_layers)
        model.n_layers = layer
        return
    enc = getattr(model, "encoder", None)
    if enc is not None and hasattr(enc, "albert_layer_groups"):  # ALBERT shares its layers
        check(enc.config.num_hidden_layers)
        enc.config.num_hidden_layers = layer
        return
    for owner, attr in ((model, "layer"), (enc, "layer"), (enc, "block"), (getattr(model, "transformer", None), "layer"), (model, "layers"), (model, "block")):
        layers = getattr(owner, attr, None) if owner is not None else None
        if isinstance(layers, torch.nn.ModuleList):
            check(len(layers))
            setattr(owner, attr, torch.nn.ModuleList(list(layers)[:layer]))
            return
    raise InvalidOptionError(f"cannot find the layers of a {type(model).__name__} to keep the first {layer}")


class ContextualEncoder:
    """Tokenizer + truncated encoder of one model at one layer, on one device."""

    def __init__(self, model_dir: Path, layer: int, *, device: str, dtype: str, use_fast: bool):
        torch, transformers = require_torch()
        self.tokenizer = load_tokenizer(model_dir, use_fast=use_fast)
        config = load_config(model_dir)
        factory = transformers.T5EncoderModel if "t5" in config.model_type else transformers.AutoModel
        model = load_pretrained(factory, model_dir, unused=("pooler",), dtype=torch_dtype(dtype))  # BERTScore reads hidden states only
        if hasattr(model, "decoder") and hasattr(model, "encoder"):
            model = model.encoder
        _truncate(model, layer)
        self.model = model.eval().to(device)
        self.device = device
        slow_prefix = (transformers.GPT2Tokenizer, transformers.RobertaTokenizer)
        self.prefix_space = isinstance(self.tokenizer, slow_prefix)
        self.max_length = self._max_length(config)
        pad = self.tokenizer.pad_token_id
        self.pad_id = 0 if pad is None else pad
        self._cache: OrderedDict[tuple[tuple[int, ...], ...], Any] = OrderedDict()
        self._cache_bytes = 0
        self._lock = threading.Lock()

    def _max_length(self, config: Any) -> int:
        limit = int(self.tokenizer.model_max_length)
        if limit < _UNLIMITED:
            return limit
        positions = getattr(config, "max_position_embeddings", None)
        if positions is None:
            return limit
        # RoBERTa-style position tables start after the padding index.
        offset = (config.pad_token_id or 0) + 1 if "roberta" in config.model_type else 0
        return int(positions) - offset

    @property
    def special_ids(self) -> tuple[int | None, int | None]:
        return self.tokenizer.sep_token_id, self.tokenizer.cls_token_id

    def encode(self, text: str) -> list[int]:
        stripped = text.strip()
        if stripped == "":
            return list(self.tokenizer.build_inputs_with_special_tokens([]))
        options: dict[str, Any] = {"add_special_tokens": True, "max_length": self.max_length, "truncation": True}
        if self.prefix_space:
            options["add_prefix_space"] = True
        return list(self.tokenizer.encode(stripped, **options))

    def embed(self, id_lists: list[list[int]], batch_size: int, equal_lengths: bool | None = None) -> list[Any]:
        """One ``(tokens, dim)`` float32 tensor of unit vectors per id list, on the CPU.

        ``equal_lengths``: batches of equal length (no padding) or of ``batch_size``
        longest first (padded, masked); by default the first with one torch thread on the
        CPU, the second otherwise: with several threads every operation ends in a barrier,
        and many small batches multiply the barriers (on a loaded 2-core machine 105
        equal-length batches took 3.6× the CPU time of 4 padded ones), and a GPU wants
        full batches."""
        torch, _ = require_torch()
        if equal_lengths is None:
            equal_lengths = torch.get_num_threads() == 1 and str(self.device) == "cpu"
        keys = [tuple(ids) for ids in id_lists]
        positions: dict[tuple[int, ...], list[int]] = {}
        for i, key in enumerate(keys):
            positions.setdefault(key, []).append(i)
        distinct = list(positions)
        out: list[Any] = [None] * len(keys)
        batching = equal_length_batches([len(k) for k in distinct], batch_size) if equal_lengths else longest_first_batches(distinct, batch_size)
        with torch.inference_mode():
            for chunk in batching:
                batch = tuple(distinct[j] for j in chunk)
                hidden = self._cached(batch)
                if hidden is None:
                    hidden = self._forward(batch)
                    self._remember(batch, hidden)
                for row, key in enumerate(batch):
                    for i in positions[key]:
                        out[i] = hidden[row, : len(key)]
        return out

    def _forward(self, batch: tuple[tuple[int, ...], ...]) -> Any:
        """Unit vectors of a batch, ``(len(batch), longest, dim)`` float32 on the CPU;
        shorter sequences are padded and masked."""
        torch, _ = require_torch()
        width = max(len(k) for k in batch)
        ids = torch.tensor([k + (self.pad_id,) * (width - len(k)) for k in batch], dtype=torch.long)
        mask = None
        if any(len(k) < width for k in batch):
            mask = (torch.arange(width).unsqueeze(0) < torch.tensor([len(k) for k in batch]).unsqueeze(1)).long().to(self.device)
        hidden = self.model(ids.to(self.device), attention_mask=mask)[0].float()
        # bert_score's normalisation, on the batch
        return (hidden / torch.norm(hidden, dim=-1).unsqueeze(-1)).cpu()

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()
            self._cache_bytes = 0

    def _cached(self, batch: tuple[tuple[int, ...], ...]) -> Any:
        with self._lock:
            hidden = self._cache.get(batch)
            if hidden is not None:
                self._cache.move_to_end(batch)
            return hidden

    def _remember(self, batch: tuple[tuple[int, ...], ...], hidden: Any) -> None:
        size = hidden.numel() * hidden.element_size()
        if size > CACHE_BYTES:
            return
        with self._lock:
            if batch in self._cache:
                return
            self._cache[batch] = hidden
            self._cache_bytes += size
            while self._cache_bytes > CACHE_BYTES:
                _, old = self._cache.popitem(last=False)
                self._cache_bytes -= old.numel() * old.element_size()


@functools.lru_cache(maxsize=4)
def encoder_for(model_dir: str, content: str, layer: int, device: str, dtype: str, use_fast: bool) -> ContextualEncoder:
    """Loaded models are reused across metric objects with the same configuration and the
    same files (``content``: :func:`._content.directory_key` of ``model_dir``)."""
    return ContextualEncoder(Path(model_dir), layer, device=device, dtype=dtype, use_fast=use_fast)
