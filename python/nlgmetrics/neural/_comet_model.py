"""The COMET networks, written against unbabel-comet's checkpoint tensors with plain torch.

- Encoder: ``transformers.XLMRobertaModel`` (no pooler) with the checkpoint's
  ``encoder.model.*`` weights; every hidden state (embeddings + each layer) is kept.
- Tokenization as unbabel-comet's ``Encoder.prepare_sample``: the fast XLM-R tokenizer,
  special tokens added, truncated to ``max_position_embeddings - 4`` tokens.
- Layer-wise attention (``layer: mix``): weights ``softmax(w)`` (``sparsemax(w)`` for
  ``layer_transformation: sparsemax``, entmax's algorithm), optionally each layer
  normalised over the unmasked positions of its sentence, times ``gamma``; otherwise one
  layer by index.
- Pooling (regression models): ``avg`` over unmasked tokens, ``max``, ``cls`` (first
  token of the mixed layers) or ``default`` (first token of the last layer).
- Estimator: the feed-forward head ``estimator.ff.*`` (Linear, activation, [dropout] ...,
  Linear, optional final activation; activations are ``torch.nn.<Name.title()>`` as in
  unbabel-comet).

Each step copies unbabel-comet's float32 operations; batches differ (we sort and group
differently), which moves only the last bits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import InvalidInputError, InvalidOptionError
from ._models import longest_first_batches, require_torch
from ._whole import check_state


def sparsemax(weights: Any) -> Any:
    """entmax 1.x ``sparsemax`` over a 1-D tensor (sort, threshold, clamp)."""
    torch, _ = require_torch()
    topk, _ = torch.sort(weights, dim=0, descending=True)
    cumsum = topk.cumsum(0) - 1
    rhos = torch.arange(1, weights.shape[0] + 1, device=weights.device, dtype=weights.dtype)
    support = rhos * topk > cumsum
    size = support.sum(dim=0).unsqueeze(0)
    tau = cumsum.gather(0, size - 1)
    tau = tau / size.to(weights.dtype)
    return torch.clamp(weights - tau, min=0)


def _activation(name: str) -> Any:
    torch, _ = require_torch()
    factory = getattr(torch.nn, str(name).title(), None)
    if factory is None:
        raise InvalidOptionError(f"COMET checkpoint uses an unknown activation {name!r}")
    return factory()


class CometNetwork:
    """One loaded COMET model: tokenizer, encoder, layer mix, pooling and estimator."""

    def __init__(self, hparams: dict[str, Any], state: dict[str, Any], encoder_dir: Path, *, device: str, dtype: Any,
                 where: str = "of the COMET checkpoint"):
        torch, transformers = require_torch()
        self.hparams = hparams
        self.kind = hparams["class_identifier"]
        self.joint = self.kind in ("unified_metric", "xcomet_metric")  # src/mt/ref encoded together
        self.device, self.dtype = device, dtype
        xl = hparams.get("encoder_model", "XLM-RoBERTa") == "XLM-RoBERTa-XL"  # XCOMET, CometKiwi-XL
        config_class = transformers.XLMRobertaXLConfig if xl else transformers.XLMRobertaConfig
        model_class = transformers.XLMRobertaXLModel if xl else transformers.XLMRobertaModel
        try:
            self.tokenizer = transformers.XLMRobertaTokenizerFast.from_pretrained(str(encoder_dir), local_files_only=True)
            config = config_class.from_pretrained(str(encoder_dir), local_files_only=True)
        except (OSError, ValueError, TypeError) as e:
            raise InvalidOptionError(f"cannot load the COMET encoder's tokenizer/config from {str(encoder_dir)!r}: {e}") from None
        self.max_positions = int(config.max_position_embeddings) - 2
        self.num_layers = int(config.num_hidden_layers) + 1
        self.pad_id = int(self.tokenizer.pad_token_id)
        self.vocab_size = int(config.vocab_size)
        model = model_class(config, add_pooling_layer=False)
        prefix = "encoder.model."
        # the encoder whole (every tensor of the architecture, its shape, floating point, nothing unknown in it)
        # (a pooler, which COMET never computes with, may be stored)
        check_state({k: v for k, v in state.items() if not k.startswith(prefix + "pooler.")},
                    {prefix + k: tuple(v.shape) for k, v in model.state_dict().items() if not k.endswith("position_ids")},
                    where, modules=(prefix,))
        weights = {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)}
        try:
            model.load_state_dict(weights, strict=False)
        except RuntimeError as e:
            raise InvalidOptionError(f"COMET checkpoint does not fit the encoder config in {str(encoder_dir)!r}: {e}") from None
        self.encoder = model.eval().to(device=device, dtype=dtype)
        self.where, self.width = where, int(config.hidden_size)
        self._mix_weights, self._gamma = self._layer_mix(hparams, state)
        self.estimator = self._estimator(hparams, state)
        self.tagger, self.word_layer = self._word_head(hparams, state)

    # -- loading the small parts ----------------------------------------------------------
    def _layer_mix(self, hparams: dict[str, Any], state: dict[str, Any]) -> tuple[Any, Any]:
        torch, _ = require_torch()
        layer = hparams.get("sent_layer", hparams.get("layer", "mix")) if self.joint else hparams.get("layer", "mix")
        self.layer = layer
        if layer != "mix":
            if not isinstance(layer, int) or not 0 <= layer < self.num_layers:
                raise InvalidOptionError(f"COMET checkpoint asks for layer {layer!r}; the encoder has {self.num_layers}")
            return None, None
        names = [f"layerwise_attention.scalar_parameters.{i}" for i in range(self.num_layers)]
        if any(n not in state for n in names) or "layerwise_attention.gamma" not in state:
            raise InvalidOptionError("COMET checkpoint has layer: mix but no layerwise_attention weights for every layer")
        # unbabel-comet's scalar parameters are in the model's dtype: float32, or float64 after
        # model.double(), where the softmax / sparsemax runs in float64 too
        mix_dtype = torch.float64 if self.dtype == torch.float64 else torch.float32
        weights = torch.cat([state[n].reshape(-1) for n in names]).to(device=self.device, dtype=mix_dtype)
        default = "sparsemax" if self.joint else "softmax"  # the classes' defaults
        transform = sparsemax if hparams.get("layer_transformation", default) == "sparsemax" else (lambda w: torch.softmax(w, dim=0))
        return transform(weights).to(self.dtype), state["layerwise_attention.gamma"].to(device=self.device, dtype=self.dtype)

    def _estimator(self, hparams: dict[str, Any], state: dict[str, Any]) -> Any:
        torch, _ = require_torch()
        hidden = list(hparams.get("hidden_sizes", [3072, 1024]))
        modules: list[Any] = []
        index = 0
        for _ in range(len(hidden) + 1):
            w, b = state.get(f"estimator.ff.{index}.weight"), state.get(f"estimator.ff.{index}.bias")
            if w is None or b is None:
                raise InvalidOptionError(f"COMET checkpoint lacks estimator.ff.{index} (hidden_sizes {hidden})")
            self._check_linear(f"estimator.ff.{index}", w, b, inputs=modules[-2].out_features if modules else None,
                               outputs=hidden[len(modules) // 2] if len(modules) // 2 < len(hidden) else None)
            linear = torch.nn.Linear(w.shape[1], w.shape[0])
            linear.load_state_dict({"weight": w, "bias": b})
            modules.append(linear)
            if len(modules) < 2 * len(hidden) + 1:
                modules.append(_activation(hparams.get("activations", "Tanh")))
                index += 3  # Linear, activation, Dropout
        if hparams.get("final_activation") is not None:
            modules.append(_activation(hparams["final_activation"]))
        return torch.nn.Sequential(*modules).eval().to(device=self.device, dtype=self.dtype)

    def _check_linear(self, name: str, w: Any, b: Any, *, inputs: int | None, outputs: int | None) -> None:
        """A linear layer of the heads is whole: floating point, a bias per output, the
        inputs its predecessor gives (the first takes a multiple of the encoder's width)."""
        for part, t in (("weight", w), ("bias", b)):
            if not t.is_floating_point():
                raise InvalidOptionError(f"the weights {self.where} hold {name}.{part} as {str(t.dtype).removeprefix('torch.')}, not a floating-point weight")
        ok = w.dim() == 2 and tuple(b.shape) == (w.shape[0],) and (outputs is None or w.shape[0] == outputs)
        ok = ok and (w.shape[1] == inputs if inputs is not None else w.shape[1] % self.width == 0)
        if not ok:
            raise InvalidOptionError(f"the weights {self.where} hold {name}.weight of shape {list(w.shape)} and bias {list(b.shape)}, "
                                     "which do not fit the model's layers")

    def _word_head(self, hparams: dict[str, Any], state: dict[str, Any]) -> tuple[Any, int | None]:
        """The word-level tagger (``hidden2tag`` on hidden state ``word_layer``) of XCOMET and
        of unified models trained with ``word_level_training``; ``(None, None)`` otherwise."""
        torch, _ = require_torch()
        if not (self.kind == "xcomet_metric" or (self.kind == "unified_metric" and hparams.get("word_level_training"))):
            return None, None
        w, b = state.get("hidden2tag.weight"), state.get("hidden2tag.bias")
        if w is None or b is None:
            raise InvalidOptionError("COMET checkpoint has word-level training but no hidden2tag weights")
        self._check_linear("hidden2tag", w, b, inputs=self.width, outputs=None)
        layer = hparams.get("word_layer", 36 if self.kind == "xcomet_metric" else 24)
        if not isinstance(layer, int) or isinstance(layer, bool) or not 0 <= layer < self.num_layers:
            raise InvalidOptionError(f"COMET checkpoint asks for word layer {layer!r}; the encoder has {self.num_layers}")
        linear = torch.nn.Linear(w.shape[1], w.shape[0])
        linear.load_state_dict({"weight": w, "bias": b})
        return linear.eval().to(device=self.device, dtype=self.dtype), layer

    # -- inputs ---------------------------------------------------------------------------
    def tokenize(self, texts: list[str]) -> list[list[int]]:
        """Token ids with special tokens, truncated as unbabel-comet's ``prepare_sample``."""
        if not texts:
            return []
        out = self.tokenizer([str(t) for t in texts], truncation=True, max_length=self.max_positions - 2)
        rows = [list(ids) for ids in out["input_ids"]]
        self.check_ids(texts, rows)
        return rows

    def check_ids(self, texts: list[str], rows: list[list[int]]) -> None:
        """An id past the embedding table (a tokenizer that does not match the checkpoint)
        is an InvalidInputError naming the text and the token, not an IndexError."""
        for text, ids in zip(texts, rows):
            if ids and max(ids) >= self.vocab_size:
                token = self.tokenizer.convert_ids_to_tokens(max(ids))
                raise InvalidInputError(
                    f"the text {str(text)[:60]!r} has the token {token!r} (id {max(ids)}), outside the encoder's "
                    f"{self.vocab_size} embeddings: the tokenizer and the checkpoint do not match"
                )

    def concat(self, parts: list[list[int]]) -> list[int]:
        """unbabel-comet's ``concat_sequences`` for one row: ``<s> a </s></s> b </s> ...``,
        cut to ``max_positions`` tokens when the pieces are too long together. As there,
        pad tokens (a literal ``<pad>`` in the text) are dropped from every piece first,
        before the pieces are joined and before the length test."""
        parts = [[t for t in p if t != self.pad_id] for p in parts]
        lengths = [len(p[1:-1]) for p in parts]
        sequence = parts[0]
        for nxt in parts[1:]:
            sequence = self.tokenizer.build_inputs_with_special_tokens(sequence[1:-1], nxt[1:-1])
        if sum(lengths) > self.max_positions - (1 + len(parts) * 2):
            sequence = sequence[: self.max_positions]
        return list(sequence)

    # -- forward --------------------------------------------------------------------------
    def _mixed(self, ids: Any, mask: Any, layers_out: list | None = None) -> tuple[Any, Any]:
        """(layer mix or chosen layer, last hidden state) of a padded batch (every hidden
        state is appended to ``layers_out`` when given)."""
        torch, _ = require_torch()
        out = self.encoder(input_ids=ids, attention_mask=mask, output_hidden_states=True, return_dict=False)
        last, layers = out[0], out[-1]
        if layers_out is not None:
            layers_out.extend(layers)
        if self._mix_weights is None:
            return layers[self.layer], last
        pieces = []
        norm = bool(self.hparams.get("layer_norm", True))
        if norm:
            mask_float = mask.float()
            broadcast = mask_float.unsqueeze(-1)
            batch, _, dim = layers[0].size()
            counted = mask_float.sum(1) * dim
        for i, tensor in enumerate(layers):
            if norm:
                masked = tensor * broadcast
                mean = (masked.view(batch, -1).sum(1) / counted).view(batch, 1, 1)
                variance = (((masked - mean) * broadcast) ** 2).view(batch, -1).sum(1) / counted
                tensor = (tensor - mean) / torch.sqrt(variance + 1e-12).view(batch, 1, 1)
            pieces.append(self._mix_weights[i : i + 1] * tensor)
        return self._gamma * sum(pieces), last

    def _batch(self, id_lists: list[list[int]]) -> tuple[Any, Any]:
        torch, _ = require_torch()
        width = max(len(x) for x in id_lists)
        ids = torch.full((len(id_lists), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(id_lists), width), dtype=torch.long)
        for row, x in enumerate(id_lists):
            ids[row, : len(x)] = torch.tensor(x, dtype=torch.long)
            mask[row, : len(x)] = 1
        return ids.to(self.device), mask.to(self.device)

    def padded_ids(self, id_lists: list[list[int]]) -> Any:
        """The ``(n, longest)`` id tensor of a batch, padded with ``<pad>`` (on the CPU)."""
        return self._batch(id_lists)[0].cpu()

    def _pool(self, ids: Any, mask: Any, embeddings: Any, last: Any) -> Any:
        pool = self.hparams.get("pool", "avg")
        padding = ids.eq(self.pad_id).unsqueeze(-1)
        if pool == "default":
            return last[:, 0, :]
        if pool == "cls":
            return embeddings[:, 0, :]
        if pool == "max":
            return embeddings.float().masked_fill(padding, float("-inf")).type_as(embeddings).max(dim=1)[0]
        if pool == "avg":
            summed = embeddings.float().masked_fill(padding, 0.0).type_as(embeddings).sum(1)
            return summed / mask.unsqueeze(-1).expand(embeddings.size()).float().sum(1)
        raise InvalidOptionError(f"COMET checkpoint uses an unknown pooling {pool!r}")

    def _in_batches(self, id_lists: list[list[int]], batch_size: int, step: Any) -> list[Any]:
        torch, _ = require_torch()
        out: list[Any] = [None] * len(id_lists)
        with torch.inference_mode():
            for chunk in longest_first_batches(id_lists, batch_size):
                rows = step(*self._batch([id_lists[i] for i in chunk]))
                for row, i in enumerate(chunk):
                    out[i] = rows[row]
        return out

    def embed_batch(self, id_lists: list[list[int]]) -> Any:
        """Pooled vectors ``(len(id_lists), hidden)`` of one padded batch (regression models)."""
        torch, _ = require_torch()
        with torch.inference_mode():
            ids, mask = self._batch(id_lists)
            return self._pool(ids, mask, *self._mixed(ids, mask))

    def sentence_embeddings(self, id_lists: list[list[int]], batch_size: int) -> list[Any]:
        """One pooled vector per id list (regression models)."""
        return self._in_batches(id_lists, batch_size, lambda ids, mask: self._pool(ids, mask, *self._mixed(ids, mask)))

    def joint_scores(self, id_lists: list[list[int]], batch_size: int) -> list[Any]:
        """The estimator on the first token of each joint sequence (unified models)."""
        return self._in_batches(id_lists, batch_size, lambda ids, mask: self.estimator(self._mixed(ids, mask.bool())[0][:, 0, :].to(self.dtype)).view(-1))

    def joint_forward(self, id_lists: list[list[int]]) -> tuple[Any, Any]:
        """One padded batch of joint sequences (unbabel-comet's ``UnifiedMetric.forward``):
        ``(scores (n,), word logits (n, width, labels))``."""
        torch, _ = require_torch()
        with torch.inference_mode():
            ids, mask = self._batch(id_lists)
            layers: list[Any] = []
            mixed = self._mixed(ids, mask.bool(), layers)[0]
            scores = self.estimator(mixed[:, 0, :].to(self.dtype)).view(-1)
            return scores, self.tagger(layers[self.word_layer])

    def regression_scores(self, mt: Any, src: Any, ref: Any | None) -> Any:
        """Stacked ``(n, hidden)`` embeddings -> ``(n,)`` scores (referenceless when ``ref`` is None)."""
        torch, _ = require_torch()
        with torch.inference_mode():
            if ref is None:
                features = torch.cat((mt, src, mt * src, torch.abs(mt - src)), dim=1)
            else:
                features = torch.cat((mt, ref, mt * ref, torch.abs(mt - ref), mt * src, torch.abs(mt - src)), dim=1)
            return self.estimator(features.to(self.dtype)).view(-1)
