"""CIDEr-D rewards for training loops (self-critical sequence training).

``CiderReward(df)`` scores a batch of sampled captions against their references with a
*fixed* document-frequency table, the setup of ruotianluo/self-critical.pytorch
(``CiderD(df='coco-train-idxs')``): the idf comes from the training references, never
from the batch (a batch df would make rewards depend on the batch composition, and a
one-image batch would score 0). Scores are per sample, on CIDEr-D's 0–10 scale, as a
float64 numpy array, computed in the Rust core with the GIL released.

Captions may be strings (split on whitespace, PTB-tokenized with ``tokenize="ptb"``, or
segmented by a named tokenizer: ``jieba``, ``zh``, ``char``, ``unicode``, ``ja-mecab``,
``ko-mecab`` for Chinese, Japanese and Korean; the df must be fitted with the same one,
``CiderDF.fit(train_refs, tokenize="jieba")``) or token-id sequences (lists, arrays, or one padded 2-D array). Id sequences are read up
to the first ``eos_id``; ``include_eos=True`` (default) keeps that id as a token, as
self-critical.pytorch's ``array_to_str`` does, so its df pickles can be reused
(``CiderDF.from_pickle``). An id stands for the token spelled by its decimal digits.

>>> from nlgmetrics.tasks.rewards import CiderDF, CiderReward
>>> train_refs = [[[5, 6, 7, 0], [5, 8, 0]], [[9, 6, 0]], [[9, 9, 7, 0]]]
>>> df = CiderDF.fit_token_ids(train_refs, eos_id=0)
>>> reward = CiderReward(df, eos_id=0)
>>> r = reward([[5, 6, 7, 0, 0], [9, 3, 0, 0, 0]], [train_refs[0], train_refs[1]])
>>> r.shape, bool(r[0] > r[1])
((2,), True)

The SCST advantage is ``reward(samples, refs) - reward(greedy, refs_of_greedy)``;
``CiderReward.advantage`` computes it in one call.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _core
from .._resources import n_threads_value
from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError
from .. import script_check
from ..metrics.cider import FLAVOURS, PRETOKENIZERS, TOKENIZERS, CIDEr, CiderDegenerateWarning, CiderDF, cider_score, tokenize_batch, unsegmented_check

__all__ = ["CIDEr", "CiderDF", "CiderDegenerateWarning", "CiderReward", "cider_score"]


def _is_text(x: Any) -> bool:
    return isinstance(x, str)


def _as_id_rows(batch: Any, what: str) -> list[list[int]]:
    if isinstance(batch, np.ndarray):
        if batch.ndim != 2 or batch.dtype.kind not in "iu":
            raise InputTypeError(f"{what} as an array must be 2-D integer (samples x length), got {batch.dtype} with shape {batch.shape}")
        return batch.tolist()
    rows = []
    for i, seq in enumerate(batch):
        if isinstance(seq, np.ndarray):
            seq = seq.tolist()
        try:
            rows.append([int(x) for x in seq])
        except (TypeError, ValueError):
            raise InputTypeError(f"{what}[{i}] must be a sequence of token ids") from None
    return rows


class CiderReward:
    """Per-sample CIDEr-D (or CIDEr) with a fixed df; see the module docstring.

    ``CiderReward(df, *, flavour="cider-d", sigma=6.0, tokenize="none", eos_id=None,
    include_eos=True, n_threads=0)``; call it as ``reward(samples, references)`` where
    ``references[i]`` are the references of ``samples[i]``.
    """

    def __init__(self, df: CiderDF, *, flavour: str = "cider-d", sigma: float = 6.0, tokenize: str = "none", eos_id: int | None = None, include_eos: bool = True, n_threads: int = 0):
        if not isinstance(df, CiderDF):
            raise InvalidOptionError(f"CiderReward needs a CiderDF (CiderDF.fit / fit_token_ids / load / from_pickle), got {type(df).__name__}")
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown CIDEr flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        if tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r}; known: {', '.join(TOKENIZERS)}")
        if df.tokenize in PRETOKENIZERS or tokenize in PRETOKENIZERS:
            # A table of (say) jieba words scores nothing but jieba words; "ptb" tables
            # keep serving pre-tokenized "none" captions, the COCO recipe.
            df.check_tokenizer(tokenize)
        if df.n_docs == 0:
            raise InvalidOptionError("the df counts no documents; fit it on the training references")
        self.df = df
        self.flavour = flavour
        self.sigma = float(sigma)
        self.tokenize = tokenize
        self.eos_id = eos_id
        self.include_eos = include_eos
        self.n_threads = n_threads_value(n_threads)

    def __call__(self, samples: Any, references: Sequence[Any]) -> np.ndarray:
        return self.scores(samples, references)

    def scores(self, samples: Any, references: Sequence[Any]) -> np.ndarray:
        """One reward per sample (float64)."""
        n = len(samples)
        if len(references) != n:
            raise LengthMismatchError(f"{n} samples but {len(references)} reference sets: references[i] must hold the references of samples[i]")
        if n == 0:
            return np.zeros(0)
        first = samples[0]
        if _is_text(first):
            preds = [s for s in samples]
            if not all(isinstance(s, str) for s in preds):
                raise InputTypeError("samples mix strings and token-id sequences")
            refs = [[r] if isinstance(r, str) else list(r) for r in references]
            script_check.check(unsegmented_check(self.tokenize, "CiderReward"), preds, refs)
            preds, refs = tokenize_batch(preds, refs, self.tokenize, self.n_threads)
            return _core.cider_scores(preds, refs, self.flavour, self.df.n, self.sigma, "none", self.df._native, self.n_threads)
        hyps = _as_id_rows(samples, "samples")
        args = (self.df._native, self.flavour, self.sigma, self.eos_id, self.include_eos, self.n_threads)
        try:
            # Lists of integer lists go to the core as they are (no Python loop per id);
            # anything it cannot read is converted, or rejected with a precise error, below.
            return _core.cider_scores_ids(hyps, references if isinstance(references, list) else list(references), *args)
        except TypeError:
            refs_ids = [_as_id_rows(r, f"references[{i}]") for i, r in enumerate(references)]
            return _core.cider_scores_ids(hyps, refs_ids, *args)

    def advantage(self, samples: Any, baseline: Any, references: Sequence[Any], baseline_references: Sequence[Any] | None = None) -> np.ndarray:
        """``reward(samples) - reward(baseline)`` (e.g. greedy decoding), per sample."""
        base_refs = references if baseline_references is None else baseline_references
        return self.scores(samples, references) - self.scores(baseline, base_refs)

    def __repr__(self) -> str:
        return f"CiderReward({self.df!r}, flavour={self.flavour!r}, eos_id={self.eos_id!r})"
