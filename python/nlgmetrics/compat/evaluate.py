"""``from nlgmetrics.compat import evaluate``: Hugging Face evaluate's ``load(name)`` with the
result dicts of evaluate's metric scripts, computed by nlgmetrics (offline, in memory).

Covered names: ``accuracy``, ``f1``, ``precision``, ``recall`` (scikit-learn's numbers,
from :mod:`nlgmetrics.classification`), ``rouge`` (rouge-score through
:mod:`nlgmetrics.compat.rouge_score`; with ``use_aggregator=True`` its bootstrap draws from
numpy's global generator, as evaluate's does), ``sacrebleu``, ``chrf``, ``ter``, ``wer``,
``cer`` (:mod:`nlgmetrics.evaluate`'s adapters). Other names raise
:class:`~nlgmetrics.errors.InvalidOptionError` saying what is not covered and what to use.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import evaluate as _native_evaluate
from ..errors import InvalidOptionError

__all__ = ["load", "EvaluationModule"]


def _accuracy(predictions, references, normalize=True, sample_weight=None) -> dict:
    from ..classification import accuracy_score

    return {"accuracy": float(accuracy_score(references, predictions, normalize=normalize, sample_weight=sample_weight))}


def _prf(name: str) -> Callable[..., dict]:
    def compute(predictions, references, labels=None, pos_label=1, average="binary", sample_weight=None, zero_division="warn") -> dict:
        from .. import classification

        fn = getattr(classification, f"{name}_score")
        kwargs: dict[str, Any] = {"labels": labels, "pos_label": pos_label, "average": average, "sample_weight": sample_weight}
        if name != "f1":
            kwargs["zero_division"] = zero_division
        score = fn(references, predictions, **kwargs)
        # evaluate's float(score) of a one-element array (average=None, one label) fails on
        # numpy 2; the one value is what it means
        return {name: float(np.ravel(score)[0]) if np.size(score) == 1 else score}

    return compute


def _rouge(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None) -> dict:
    from .rouge_score import rouge_scorer, scoring

    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    if tokenizer is not None:
        callable_tokenizer = tokenizer

        class _Tokenizer:
            def tokenize(self, text):
                return callable_tokenizer(text)

        tokenizer = _Tokenizer()
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    aggregator = scoring.BootstrapAggregator() if use_aggregator else None
    scores = []
    for ref, pred in zip(references, predictions):
        score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        if aggregator is not None:
            aggregator.add_scores(score)
        else:
            scores.append(score)
    if aggregator is not None:
        return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
    return {key: [s[key].fmeasure for s in scores] for key in scores[0]}


def _native(name: str) -> Callable[..., Any]:
    adapter = _native_evaluate._ADAPTERS[name]

    def compute(predictions, references, **options):
        refs = references
        if name in ("sacrebleu", "chrf", "ter"):  # evaluate's scripts check one reference count per prediction
            counts = {len(r) for r in refs if not isinstance(r, str)}
            if len(counts) > 1:
                raise ValueError("Sacrebleu requires the same number of references for each prediction")
        return adapter(list(predictions), refs, **options)

    return compute


_COMPUTE: dict[str, Callable[..., Any]] = {
    "accuracy": _accuracy,
    "f1": _prf("f1"),
    "precision": _prf("precision"),
    "recall": _prf("recall"),
    "rouge": _rouge,
    **{name: _native(name) for name in ("sacrebleu", "chrf", "ter", "wer", "cer")},
}

_NOT_COVERED = {
    "bleu": "evaluate's 'bleu' (the TensorFlow-NMT script, shortest reference length) is not covered yet; "
    "'sacrebleu' is, and nlgmetrics.load('bleu', flavour='nltk') is nltk's corpus_bleu",
    "google_bleu": "evaluate's 'google_bleu' (nltk's GLEU) is not covered yet",
    "meteor": "evaluate's 'meteor' (nltk over word_tokenize) is not covered yet; nlgmetrics.load('meteor', flavour='nltk') "
    "is nltk's meteor_score on whitespace tokens",
    "exact_match": "evaluate's 'exact_match' is not covered yet",
    "bertscore": "evaluate's 'bertscore' is not covered yet; see nlgmetrics.neural.bertscore (extra [neural])",
}


class EvaluationModule:
    """evaluate's calls: ``add``, ``add_batch``, ``compute`` (which consumes what was added)."""

    def __init__(self, name: str, compute: Callable[..., Any]):
        self.name = name
        self._compute = compute
        self._predictions: list[Any] = []
        self._references: list[Any] = []

    def add(self, *, prediction=None, reference=None, **kwargs) -> None:
        self._predictions.append(prediction)
        self._references.append(reference)

    def add_batch(self, *, predictions=None, references=None, **kwargs) -> None:
        self._predictions += list(predictions)
        self._references += list(references)

    def compute(self, *, predictions=None, references=None, **kwargs) -> Any:
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        preds, refs = self._predictions, self._references
        self._predictions, self._references = [], []
        return self._compute(preds, refs, **kwargs)

    def __repr__(self) -> str:
        return f'EvaluationModule(name: "{self.name}")'


def load(path: str, config_name: str | None = None, **kwargs: Any) -> EvaluationModule:
    """An evaluate metric by name (``evaluate.load("rouge")``); nothing is downloaded."""
    name = path.lower().rsplit("/", 1)[-1]
    if name in _NOT_COVERED:
        raise InvalidOptionError(_NOT_COVERED[name])
    if name not in _COMPUTE:
        raise InvalidOptionError(f"{path!r} is not available in nlgmetrics.compat.evaluate; covered: {', '.join(sorted(_COMPUTE))}")
    return EvaluationModule(name, _COMPUTE[name])
