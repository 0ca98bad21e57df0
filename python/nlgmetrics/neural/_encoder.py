"""Contextual token embeddings for BERTScore: tokenization as bert_score does it, an
encoder cut after the chosen layer, and length-sorted batches.

Tokenization copies bert_score 0.3.13's ``sent_encode``: the text is stripped, an empty
text is the tokenizer's special tokens alone, GPT-2/RoBERTa (slow) tokenizers get a prefix
space, special tokens are added and the input is truncated to the tokenizer's
``model_max_length`` (capped by the model's position table when the tokenizer sets no
limit, where bert_score would crash instead).

Embeddings come from the encoder truncated to its first ``layer`` layers (its last hidden
state), as bert_score's ``get_model`` builds it. Sentences are embedded once each, in
batches of similar token length (less padding, and a sentence's vector does not depend on
which other sentences share its batch beyond float rounding), then L2-normalised.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError
from ._models import load_tokenizer, longest_first_batches, require_torch, torch_dtype

_UNLIMITED = 10**8


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
        try:
            config = transformers.AutoConfig.from_pretrained(str(model_dir), local_files_only=True)
            factory = transformers.T5EncoderModel if "t5" in config.model_type else transformers.AutoModel
            model = factory.from_pretrained(str(model_dir), local_files_only=True, dtype=torch_dtype(dtype))
        except (OSError, ValueError, KeyError) as e:
            raise InvalidOptionError(f"cannot load a model from {str(model_dir)!r}: {e}") from None
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

    def embed(self, id_lists: list[list[int]], batch_size: int) -> list[Any]:
        """One ``(tokens, dim)`` float32 tensor of unit vectors per id list, on the CPU."""
        torch, _ = require_torch()
        out: list[Any] = [None] * len(id_lists)
        with torch.inference_mode():
            for chunk in longest_first_batches(id_lists, batch_size):
                width = max(len(id_lists[i]) for i in chunk)
                ids = torch.full((len(chunk), width), self.pad_id, dtype=torch.long)
                mask = torch.zeros((len(chunk), width), dtype=torch.long)
                for row, i in enumerate(chunk):
                    ids[row, : len(id_lists[i])] = torch.tensor(id_lists[i], dtype=torch.long)
                    mask[row, : len(id_lists[i])] = 1
                hidden = self.model(ids.to(self.device), attention_mask=mask.to(self.device))[0]
                hidden = hidden.float().cpu()
                for row, i in enumerate(chunk):
                    emb = hidden[row, : len(id_lists[i])]
                    out[i] = emb / torch.norm(emb, dim=-1).unsqueeze(-1)
        return out


@functools.lru_cache(maxsize=4)
def encoder_for(model_dir: str, layer: int, device: str, dtype: str, use_fast: bool) -> ContextualEncoder:
    """Loaded models are reused across metric objects with the same configuration."""
    return ContextualEncoder(Path(model_dir), layer, device=device, dtype=dtype, use_fast=use_fast)
