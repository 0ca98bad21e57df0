"""BLEURT (Sellam et al., ACL 2020) from a local checkpoint in the bleurt-pytorch format.

Each (reference, candidate) pair is encoded as BLEURT does: ``[CLS] reference [SEP]
candidate [SEP]`` with segment ids 0 then 1, cut to the checkpoint's sequence length
(``max_position_embeddings``, or ``max_length=``) by dropping tokens from the end of the
longer of the two texts, the candidate on a tie (BLEURT's ``_truncate_seq_pair``). The
score is the regression head's output on the pooled first token. Pairs are batched
(default 16, BLEURT's) in order of length; padding is masked out.

The checkpoint is a directory with ``config.json`` (``model_type: bleurt``), the weights
(``model.safetensors`` or ``pytorch_model.bin``) and the tokenizer files (WordPiece
``vocab.txt`` or a SentencePiece model); it is read without bleurt-pytorch (see
``_bleurt_model``). Several references: the maximum over them. The corpus score is the mean.
``n_threads=k`` runs torch with ``k`` threads during the forward pass (0: torch's own
setting), so runs with the same ``k`` give the same bits wherever they run (docs/scale.md).
"""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import InvalidOptionError
from ..metrics.base import Metric, Score
from ..stats import SegmentStats, Stats
from ._models import DTYPES, parse_device, pick_device, require_torch, resolve_model_dir, torch_dtype, torch_threads


def _load_tokenizer(directory: Path) -> Any:
    _, transformers = require_torch()
    try:
        return transformers.BertTokenizerFast.from_pretrained(str(directory), local_files_only=True)
    except (OSError, TypeError, ValueError, ImportError):
        pass  # not WordPiece: BLEURT-20's checkpoints use SentencePiece
    try:
        return transformers.DebertaV2Tokenizer.from_pretrained(str(directory), local_files_only=True)
    except (OSError, TypeError, ValueError, ImportError) as e:
        raise InvalidOptionError(f"no WordPiece or SentencePiece tokenizer in {str(directory)!r}: {e}") from None


@functools.lru_cache(maxsize=2)
def _checkpoint(directory: str, content: str, device: str, dtype: str) -> tuple[Any, Any]:
    """(tokenizer, network) of a checkpoint directory whose files' content key is ``content``."""
    from ._bleurt_model import BleurtNetwork

    path = Path(directory)
    network = BleurtNetwork(path, device=device, dtype=torch_dtype(dtype))  # checks the config first
    return _load_tokenizer(path), network


def truncate_pair(ref: list[int], cand: list[int], budget: int) -> tuple[list[int], list[int]]:
    """Drop tokens from the end of the longer list (the candidate on a tie) until both fit."""
    ref, cand = list(ref), list(cand)
    while len(ref) + len(cand) > budget:
        if len(ref) > len(cand):
            ref.pop()
        else:
            cand.pop()
    return ref, cand


class BLEURT(Metric):
    """BLEURT; see the module docstring. ``BLEURT("path/to/BLEURT-20-D12").corpus_score(hyps, refs)``"""

    name = "bleurt"
    count_fields = ("segments",)
    sum_fields = ("score",)

    def __init__(
        self,
        checkpoint: str | os.PathLike,
        *,
        batch_size: int = 16,
        max_length: int | None = None,
        device: "str | int | Any | None" = None,
        dtype: str = "float32",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        for name, value in (("batch_size", batch_size), ("max_length", max_length)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise InvalidOptionError(f"{name} must be a positive integer, got {value!r}")
        if max_length is not None and max_length < 4:
            raise InvalidOptionError("max_length must leave room for [CLS], [SEP], [SEP] and one token")
        if dtype not in DTYPES:
            raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        self.checkpoint = str(checkpoint)
        self.batch_size = batch_size
        self._max_length = max_length
        self.device = parse_device(device)
        self.dtype = dtype

    def _signature_items(self) -> dict[str, Any]:
        return {"checkpoint": Path(self.checkpoint).name or self.checkpoint, "max_length": self._max_length, "dtype": self.dtype}

    def _abbreviations(self) -> dict[str, str]:
        return {"checkpoint": "c", "max_length": "ml", "dtype": "dt"}

    def _loaded(self) -> tuple[Any, Any]:
        from ._content import directory_key

        directory = resolve_model_dir(self.checkpoint)
        return _checkpoint(str(directory), directory_key(directory), pick_device(self.device), self.dtype)

    def encode(self, reference: str, candidate: str) -> tuple[list[int], list[int]]:
        """``(input_ids, token_type_ids)`` of one pair, truncated as BLEURT does."""
        tokenizer, net = self._loaded()
        limit = min(self._max_length or net.max_positions, net.max_positions)
        ref = tokenizer.encode(reference, add_special_tokens=False)
        cand = tokenizer.encode(candidate, add_special_tokens=False)
        ref, cand = truncate_pair(ref, cand, limit - 3)
        ids = tokenizer.build_inputs_with_special_tokens(ref, cand)
        types = tokenizer.create_token_type_ids_from_sequences(ref, cand)
        return list(ids), list(types)

    def pair_scores(self, references: Sequence[str], candidates: Sequence[str]) -> np.ndarray:
        """One BLEURT score per (reference, candidate) pair, float32 as the model gives it."""
        torch, _ = require_torch()
        tokenizer, net = self._loaded()
        encoded = [self.encode(r, c) for r, c in zip(references, candidates)]
        order = sorted(range(len(encoded)), key=lambda i: -len(encoded[i][0]))
        pad = tokenizer.pad_token_id or 0
        out = np.empty(len(encoded), dtype=np.float32)
        with torch_threads(self.n_threads), torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                width = max(len(encoded[i][0]) for i in chunk)
                ids = torch.full((len(chunk), width), pad, dtype=torch.long)
                types = torch.zeros((len(chunk), width), dtype=torch.long)
                mask = torch.zeros((len(chunk), width), dtype=torch.long)
                for row, i in enumerate(chunk):
                    n = len(encoded[i][0])
                    ids[row, :n] = torch.tensor(encoded[i][0])
                    types[row, :n] = torch.tensor(encoded[i][1])
                    mask[row, :n] = 1
                scores = net(ids.to(net.device), types.to(net.device), mask.to(net.device))
                out[chunk] = scores.float().cpu().numpy()
        return out

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        flat_refs = [r for group in references for r in group]
        flat_cands = [p for p, group in zip(predictions, references) for _ in group]
        scores = self.pair_scores(flat_refs, flat_cands)
        best = np.empty((len(predictions), 1), dtype=np.float64)
        start = 0
        for i, group in enumerate(references):
            best[i, 0] = scores[start : start + len(group)].max()
            start += len(group)
        counts = np.ones((len(predictions), 1), dtype=np.uint64)
        ref_counts = np.array([len(r) for r in references], dtype=np.int64)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, best, ref_counts=ref_counts)

    def _score(self, stats: Stats) -> Score:
        n = int(stats.counts[0])
        mean = math.fsum(stats.sum_partials[0]) / n if n else math.nan
        return Score(self.name, mean, self.signature(stats), stats, segments=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return seg.sums[:, 0].copy()

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if not cands or not refs:
            return np.zeros((len(cands), len(refs)))
        scores = self.pair_scores([r for _ in cands for r in refs], [c for c in cands for _ in refs])
        return scores.astype(np.float64).reshape(len(cands), len(refs))


def bleurt(predictions: Sequence[str], references: Sequence[str | Sequence[str]], checkpoint: str | os.PathLike, **options: Any) -> Score:
    """Mean BLEURT score of the predictions."""
    return BLEURT(checkpoint, **options).corpus_score(predictions, references)
