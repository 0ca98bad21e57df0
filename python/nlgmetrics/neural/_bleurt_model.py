"""The BLEURT network, read from a checkpoint in the bleurt-pytorch format.

That format is a BERT encoder (``bleurt.embeddings.*``, ``bleurt.encoder.layer.<i>.*``),
with an optional projection from a smaller embedding size (``embedding_size`` in the
config, ``bleurt.encoder.embedding_projection``), a tanh pooler over the first token and a
linear regression head (``classifier``). The forward pass below is written against those
tensor names with plain torch functions, in the same float32 operations as the port's
modules, so only the checkpoint (not the port's code) is needed at run time.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError
from ._models import require_torch


def _activation(name: str) -> Any:
    torch, _ = require_torch()
    if name == "gelu":
        return torch.nn.functional.gelu
    if name == "relu":
        return torch.relu
    if name in ("gelu_new", "gelu_pytorch_tanh"):
        return lambda x: 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
    raise InvalidOptionError(f"BLEURT checkpoint uses an unsupported activation {name!r}")


def declared(config: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every tensor the bleurt-pytorch architecture of ``config`` holds, with its shape."""
    hidden, inner = int(config.get("hidden_size", 768)), int(config.get("intermediate_size", 3072))
    width = int(config["embedding_size"]) if config.get("embedding_size") is not None else hidden
    e = "bleurt.embeddings."
    shapes: dict[str, tuple[int, ...]] = {
        e + "word_embeddings.weight": (int(config.get("vocab_size", 0)), width),
        e + "position_embeddings.weight": (int(config.get("max_position_embeddings", 512)), width),
        e + "token_type_embeddings.weight": (int(config.get("type_vocab_size", 2)), width),
        e + "LayerNorm.weight": (width,), e + "LayerNorm.bias": (width,),
        "bleurt.pooler.dense.weight": (hidden, hidden), "bleurt.pooler.dense.bias": (hidden,),
        "classifier.weight": (1, hidden), "classifier.bias": (1,),
    }
    if config.get("embedding_size") is not None:
        shapes["bleurt.encoder.embedding_projection.weight"] = (hidden, width)
        shapes["bleurt.encoder.embedding_projection.bias"] = (hidden,)
    for i in range(int(config.get("num_hidden_layers", 12))):
        p = f"bleurt.encoder.layer.{i}."
        for name, shape in (("attention.self.query", (hidden, hidden)), ("attention.self.key", (hidden, hidden)),
                            ("attention.self.value", (hidden, hidden)), ("attention.output.dense", (hidden, hidden)),
                            ("intermediate.dense", (inner, hidden)), ("output.dense", (hidden, inner))):
            shapes[p + name + ".weight"], shapes[p + name + ".bias"] = shape, shape[:1]
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            shapes[p + norm + ".weight"] = shapes[p + norm + ".bias"] = (hidden,)
    return shapes


class BleurtNetwork:
    """Weights and config of one checkpoint; ``__call__`` gives one score per row."""

    def __init__(self, directory: Path, *, device: str, dtype: Any):
        try:
            self.config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise InvalidOptionError(f"cannot read the BLEURT config in {str(directory)!r}: {e}") from None
        if not isinstance(self.config, dict) or self.config.get("model_type") != "bleurt":
            raise InvalidOptionError(f"{str(directory)!r} is not a BLEURT checkpoint (model_type {self.config.get('model_type') if isinstance(self.config, dict) else None!r})")
        from ._whole import check_state, read_state

        weights, where = read_state(directory)
        try:
            shapes = declared(self.config)
        except (TypeError, ValueError) as e:
            raise InvalidOptionError(f"the BLEURT config in {str(directory)!r} has a malformed size: {e}") from None
        check_state(weights, shapes, where, modules=("bleurt.", "classifier."))
        # bleurt-pytorch's from_pretrained builds float32 modules and casts the file's tensors into them
        self.w = {k: weights[k].to(device=device, dtype=dtype) for k in shapes}
        self.layers = int(self.config.get("num_hidden_layers", 12))
        self.heads = int(self.config.get("num_attention_heads", 12))
        self.eps = float(self.config.get("layer_norm_eps", 1e-12))
        self.act = _activation(self.config.get("hidden_act", "gelu"))
        self.max_positions = int(self.config.get("max_position_embeddings", 512))
        self.dtype = dtype
        self.device = device

    def _linear(self, x: Any, name: str) -> Any:
        torch, _ = require_torch()
        return torch.nn.functional.linear(x, self.w[name + ".weight"], self.w.get(name + ".bias"))

    def _norm(self, x: Any, name: str) -> Any:
        torch, _ = require_torch()
        return torch.nn.functional.layer_norm(x, (x.shape[-1],), self.w[name + ".weight"], self.w[name + ".bias"], self.eps)

    def __call__(self, input_ids: Any, token_type_ids: Any, attention_mask: Any) -> Any:
        torch, _ = require_torch()
        F = torch.nn.functional
        e = "bleurt.embeddings."
        batch, length = input_ids.shape
        positions = torch.arange(length, device=input_ids.device).unsqueeze(0)
        x = F.embedding(input_ids, self.w[e + "word_embeddings.weight"])
        x = x + F.embedding(token_type_ids, self.w[e + "token_type_embeddings.weight"])
        x = x + F.embedding(positions, self.w[e + "position_embeddings.weight"])
        x = self._norm(x, e + "LayerNorm")
        if "bleurt.encoder.embedding_projection.weight" in self.w:
            x = self._linear(x, "bleurt.encoder.embedding_projection")
        # Masked keys get the dtype's most negative value added, as transformers does.
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        hidden = x.shape[-1]
        size = hidden // self.heads
        for i in range(self.layers):
            p = f"bleurt.encoder.layer.{i}."

            def heads(t: Any) -> Any:
                return t.view(batch, length, self.heads, size).permute(0, 2, 1, 3)

            q = heads(self._linear(x, p + "attention.self.query"))
            k = heads(self._linear(x, p + "attention.self.key"))
            v = heads(self._linear(x, p + "attention.self.value"))
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(size) + bias
            context = torch.matmul(F.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).contiguous().view(batch, length, hidden)
            attended = self._norm(self._linear(context, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            inner = self.act(self._linear(attended, p + "intermediate.dense"))
            x = self._norm(self._linear(inner, p + "output.dense") + attended, p + "output.LayerNorm")
        pooled = torch.tanh(self._linear(x[:, 0], "bleurt.pooler.dense"))
        return self._linear(pooled, "classifier")[:, 0]
