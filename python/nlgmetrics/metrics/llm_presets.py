"""Whole-pipeline numbers of LLM fine-tuning and evaluation toolchains, from their own
prediction files.

- :func:`llamafactory`: LLaMA-Factory 0.9.5's ``ComputeSimilarity``
  (``src/llamafactory/train/sft/metric.py``; ``predict_bleu-4``, ``predict_rouge-1/2/l``
  of ``predict_results.json``), also ChatGLM-6B's ``ptuning/main.py``. Per example: jieba
  words (``jieba.cut``, default mode) joined by spaces into ``rouge_chinese.Rouge().get_scores``
  (F of rouge-1, rouge-2, rouge-l; 0.0 when a side has no word), and nltk ``sentence_bleu``
  of the characters (``[list(label)]``, ``list(predict)``) with
  ``SmoothingFunction().method3``; every value ``round(v * 100, 4)``; the result is
  ``float(np.mean(...))`` of each list (numpy's pairwise sum, bit for bit).
  ``aggregate="sum"`` takes ``sum(scores) / len(scores)`` instead, as LLaMA-Factory's
  ``scripts/eval_bleu_rouge.py`` does on ``generated_predictions.jsonl``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _core
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

LLAMAFACTORY_KEYS = ("rouge-1", "rouge-2", "rouge-l", "bleu-4")


def _texts(values: Any, what: str) -> list[str]:
    if isinstance(values, (str, bytes)):
        raise InputTypeError(f"{what} must be a list of strings, not one string")
    out = list(values)
    for i, v in enumerate(out):
        if not isinstance(v, str):
            raise InputTypeError(f"{what}[{i}] must be a string, got {type(v).__name__}")
    return out


def llamafactory_rows(predictions: Sequence[str], labels: Sequence[str], *, n_threads: int = 0) -> np.ndarray:
    """Per example ``[rouge-1, rouge-2, rouge-l, bleu-4]`` as LLaMA-Factory's
    ``ComputeSimilarity`` appends them (×100, rounded to 4 digits); shape (n, 4)."""
    from .rouge_pltrdy import jieba_join

    preds = _texts(predictions, "predictions")
    labs = _texts(labels, "labels")
    if len(preds) != len(labs):
        raise LengthMismatchError(f"predictions and labels: lengths differ ({len(preds)} vs {len(labs)})")
    return _core.llamafactory_rows(preds, labs, jieba_join(preds), jieba_join(labs), n_threads)


def llamafactory(predictions: Sequence[str], labels: Sequence[str], *, aggregate: str = "mean", n_threads: int = 0) -> dict[str, float]:
    """LLaMA-Factory 0.9.5's ``ComputeSimilarity`` result: ``{"rouge-1", "rouge-2",
    "rouge-l", "bleu-4"}`` on a 0–100 scale (``predict_`` prefixed in its
    ``predict_results.json``). ``aggregate="mean"`` is ``np.mean`` (the trainer),
    ``"sum"`` is ``sum(scores) / len(scores)`` (``scripts/eval_bleu_rouge.py``).

    >>> from nlgmetrics.metrics.llm_presets import llamafactory
    >>> llamafactory(["今天天气很好"], ["今天天气不错"])["rouge-1"]
    66.6667
    """
    if aggregate not in ("mean", "sum"):
        raise InvalidOptionError(f"aggregate must be 'mean' or 'sum', got {aggregate!r}")
    rows = llamafactory_rows(predictions, labels, n_threads=n_threads)
    if not len(rows):
        raise InvalidInputError("LLaMA-Factory's scores of no example are undefined (np.mean of an empty list)")
    if aggregate == "mean":
        return {k: float(np.mean(np.ascontiguousarray(rows[:, j]))) for j, k in enumerate(LLAMAFACTORY_KEYS)}
    # the builtin sum, as the script: plain on Python 3.11, compensated from 3.12
    return {k: sum(rows[:, j].tolist()) / len(rows) for j, k in enumerate(LLAMAFACTORY_KEYS)}


# --- presets of `nlgmetrics score --preset NAME` --------------------------------------
# name -> (prediction field, reference field, function(preds, refs, n_threads) -> dict)
PRESETS: dict[str, tuple[str, str, Any]] = {
    "llamafactory": ("predict", "label", lambda p, r, t: llamafactory(p, r, n_threads=t)),
    "llamafactory-script": ("predict", "label", lambda p, r, t: llamafactory(p, r, aggregate="sum", n_threads=t)),
}
