"""Perplexity of texts under a local Hugging Face causal language model.

Texts longer than the model's context are scored with the strided sliding window of the
transformers documentation ("Perplexity of fixed-length models"): windows of ``max_length``
tokens start every ``stride`` tokens, and each window scores only the tokens the previous
window did not reach, with up to ``max_length - stride`` tokens of left context. The first
token of a text has no context and is not scored (``add_start_token=True`` prepends the
model's BOS token so that it is).

The per-token log-probabilities (``log_softmax`` of the float32 logits: no overflow for any
logit) feed :class:`~nlgmetrics.metrics.perplexity.Perplexity`'s statistics (token count,
exactly summed NLL), so per-text and corpus perplexity aggregate exactly as there:
corpus perplexity pools the tokens of every text.

One difference from the documented loop, which is a bug there: it weights each window's
mean loss by ``trg_len - 1`` although windows after the first average over ``trg_len``
tokens; here every scored token counts once. Without overlap (``stride == max_length``) or
in a single window the two agree.

Windows of all texts are batched by length (right padding with an attention mask, which a
causal model's real positions do not see); ``batch_size=1`` runs the documented loop's
exact shapes.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np

from .._inputs import as_texts
from ..errors import InvalidOptionError
from ..metrics.base import Score
from ..metrics.perplexity import Perplexity
from ..signature import Signature
from ..stats import SegmentStats
from ._models import DTYPES, load_auto_model, load_tokenizer, parse_device, pick_device, require_torch, resolve_model_dir


def windows(n_tokens: int, max_length: int, stride: int) -> list[tuple[int, int, int]]:
    """``(begin, end, first_scored)`` of each window over a text of ``n_tokens`` tokens."""
    out = []
    prev_end = 0
    for begin in range(0, n_tokens, stride):
        end = min(begin + max_length, n_tokens)
        out.append((begin, end, max(prev_end, begin + 1)))
        prev_end = end
        if end == n_tokens:
            break
    return out


class HFPerplexity(Perplexity):
    """Perplexity of texts under a causal LM; see the module docstring.

    ``HFPerplexity("path/to/gpt2", stride=512).corpus_score(texts)``
    """

    name = "perplexity"

    def __init__(
        self,
        model: str | os.PathLike,
        *,
        stride: int | None = None,
        max_length: int | None = None,
        batch_size: int = 8,
        device: "str | int | Any | None" = None,
        dtype: str = "float32",
        add_start_token: bool = False,
        n_threads: int = 0,
    ):
        super().__init__(base="e", n_threads=n_threads)
        for name, value in (("stride", stride), ("max_length", max_length), ("batch_size", batch_size)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise InvalidOptionError(f"{name} must be a positive integer, got {value!r}")
        if dtype not in DTYPES:
            raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        self.model = str(model)
        self._max_length = max_length
        self._stride = stride
        self.batch_size = batch_size
        self.device = parse_device(device)
        self.dtype = dtype
        self.add_start_token = bool(add_start_token)
        self._loaded: tuple[Any, Any, str] | None = None
        self._loaded_key: tuple[str, str, str] | None = None

    # -- model --------------------------------------------------------------------------
    def _load(self) -> tuple[Any, Any, str]:
        from ._content import directory_key

        path = resolve_model_dir(self.model)
        device = pick_device(self.device)
        key = (str(path), directory_key(path), device)  # an edited or replaced model is read again
        if self._loaded is None or key != self._loaded_key:
            tokenizer = load_tokenizer(path, use_fast=True)
            model = load_auto_model(path, "AutoModelForCausalLM", device=device, dtype=self.dtype)
            self._loaded, self._loaded_key = (tokenizer, model, device), key
        return self._loaded

    @property
    def max_length(self) -> int:
        if self._max_length is not None:
            return self._max_length
        config = self._load()[1].config
        for attr in ("n_positions", "max_position_embeddings", "n_ctx"):
            if getattr(config, attr, None):
                return int(getattr(config, attr))
        raise InvalidOptionError("the model config gives no context length; pass max_length=")

    @property
    def stride(self) -> int:
        stride = self._stride if self._stride is not None else min(512, self.max_length)
        if stride > self.max_length:
            raise InvalidOptionError(f"stride ({stride}) must not exceed max_length ({self.max_length}): tokens would be skipped")
        return stride

    def _signature_items(self) -> dict[str, Any]:
        return {"base": self.base, "model": self.model, "stride": self._stride, "max_length": self._max_length, "bos": "yes" if self.add_start_token else "no", "dtype": self.dtype}

    def signature(self, stats: Any = None) -> Signature:
        return Signature(self._signature_items(), {"base": "b", "model": "m", "stride": "s", "max_length": "ml", "bos": "bos", "dtype": "dt"})

    # -- log-probabilities --------------------------------------------------------------
    def _ids(self, texts: list[str]) -> list[list[int]]:
        tokenizer = self._load()[0]
        ids = [list(x) for x in tokenizer(texts)["input_ids"]] if texts else []
        if self.add_start_token:
            bos = tokenizer.bos_token_id
            if bos is None:
                raise InvalidOptionError("add_start_token: the tokenizer has no BOS token")
            ids = [x if x[:1] == [bos] else [bos] + x for x in ids]
        return ids

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per text, the natural-log probability of each scored token (float64)."""
        torch, _ = require_torch()
        texts = as_texts(texts, "texts")
        _, model, device = self._load()
        ids = self._ids(texts)
        max_length, stride = self.max_length, self.stride
        jobs = [(i, *w) for i, x in enumerate(ids) for w in windows(len(x), max_length, stride)]
        jobs.sort(key=lambda j: j[1] - j[2])  # longest windows first (begin - end ascending)
        pieces: list[list[tuple[int, np.ndarray]]] = [[] for _ in texts]
        pad = model.config.pad_token_id if model.config.pad_token_id is not None else 0
        with torch.inference_mode():
            for start in range(0, len(jobs), self.batch_size):
                batch = jobs[start : start + self.batch_size]
                width = max(end - begin for _, begin, end, _ in batch)
                x = torch.full((len(batch), width), pad, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for row, (i, begin, end, _) in enumerate(batch):
                    x[row, : end - begin] = torch.tensor(ids[i][begin:end])
                    mask[row, : end - begin] = 1
                logits = model(input_ids=x.to(device), attention_mask=mask.to(device)).logits
                for row, (i, begin, end, first) in enumerate(batch):
                    if first >= end:
                        continue
                    # logits at window position k predict the token at position k + 1
                    rows = logits[row, first - begin - 1 : end - begin - 1].float()
                    target = x[row, first - begin : end - begin].to(rows.device)
                    lp = torch.log_softmax(rows, dim=-1).gather(1, target.unsqueeze(1)).squeeze(1)
                    pieces[i].append((first, lp.double().cpu().numpy()))
        return [np.concatenate([p for _, p in sorted(parts, key=lambda t: t[0])]) if parts else np.zeros(0) for parts in pieces]

    # -- faces --------------------------------------------------------------------------
    def stats(self, texts: Sequence[str], mask: Any = None) -> SegmentStats:  # type: ignore[override]
        """Per text: ``tokens`` scored and their ``nll``."""
        if mask is not None:
            raise InvalidOptionError("HFPerplexity scores texts; mask is for log-probability arrays")
        return super().stats(self.token_logprobs(texts))

    def corpus_score(self, texts: Sequence[str], mask: Any = None) -> Score:  # type: ignore[override]
        seg = self.stats(texts)
        s = self.score_stats(seg.total())
        per_text = self._sentence_scores(seg)
        finite = per_text[~np.isnan(per_text)]
        s.breakdown["mean_text_perplexity"] = s.mean_text_perplexity = float(np.mean(finite)) if len(finite) else float("nan")
        return s

    def sentence_scores(self, texts: Sequence[str], mask: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(texts))

    def update(self, texts: Sequence[str], mask: Any = None) -> "HFPerplexity":  # type: ignore[override]
        total = self.stats(texts).total()
        return self._accumulate(total)

    add_batch = update

    def compute(self, *, texts: Any = None, predictions: Any = None, **_: Any) -> Score:  # type: ignore[override]
        batch = texts if texts is not None else predictions
        if batch is not None:
            self.update(batch)
        return self.score_stats(self._compute_state())


def hf_perplexity(texts: Sequence[str], model: str | os.PathLike, **options: Any) -> Score:
    """Corpus perplexity (pooled tokens) of ``texts`` under a causal language model."""
    return HFPerplexity(model, **options).corpus_score(texts)
