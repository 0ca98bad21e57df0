"""``from nlgmetrics.compat import evaluate``: Hugging Face evaluate's ``load(name)`` with the
result dicts of evaluate's metric scripts, computed by nlgmetrics (offline, in memory).

Covered names: ``accuracy``, ``f1``, ``precision``, ``recall`` (scikit-learn's numbers,
from :mod:`nlgmetrics.classification`), ``rouge`` (rouge-score through
:mod:`nlgmetrics.compat.rouge_score`; with ``use_aggregator=True`` its bootstrap draws from
numpy's global generator, as evaluate's does), ``sacrebleu``, ``chrf``, ``ter``, ``wer``,
``cer`` (:mod:`nlgmetrics.integrations.evaluate`'s adapters), ``bleu`` (evaluate's TensorFlow-NMT BLEU:
``BLEU(flavour="nmt")``), ``google_bleu`` (nltk's GLEU: the registered ``google_bleu``),
``exact_match`` (``ExactMatch(flavour="evaluate")``: evaluate's numpy steps), ``meteor`` (nltk's ``meteor_score`` over
nltk's ``word_tokenize``: ``METEOR(flavour="nltk", tokenize="nltk")``, WordNet 3.0 and the
English Punkt model installed, never downloaded), ``sari`` (``SARI(flavour="evaluate")``;
``sources=`` as evaluate takes them) and ``bertscore`` (the registered
``bertscore``, extra ``[neural]``, models from local files). Every name resolves through
the one registry (:func:`nlgmetrics.load`); this module only adapts the arguments and the
result dicts. Other names raise :class:`~nlgmetrics.errors.InvalidOptionError` saying what
is not covered and what to use.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from ..integrations import evaluate as _native_evaluate
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from ..registry import load as _load_metric

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


def _per_prediction(references: Any) -> list:
    """evaluate's scripts: a plain string reference means one reference per prediction."""
    refs = list(references)
    if refs and isinstance(refs[0], str):
        return [[r] for r in refs]
    return [list(r) for r in refs]


def _tokenized(tokenizer: Any, predictions: list, references: list) -> tuple[str, list, list]:
    """The ``tokenize`` option for evaluate's ``tokenizer=``: the default (its 13a
    tokenizer) is the metric's ``13a``; a callable's tokens are joined by spaces for the
    metric's ``none``, which needs tokens without whitespace."""
    if tokenizer is None or type(tokenizer).__name__ == "Tokenizer13a":
        return "13a", predictions, references
    if not callable(tokenizer):
        raise InvalidOptionError(f"tokenizer must be a callable returning a list of tokens, got {tokenizer!r}")

    def joined(text: str) -> str:
        tokens = list(tokenizer(text))
        for t in tokens:
            if not isinstance(t, str) or not t or t != "".join(t.split()):
                raise InvalidOptionError(f"tokenizer returned the token {t!r}: tokens must be non-empty strings without whitespace")
        return " ".join(tokens)

    return "none", [joined(p) for p in predictions], [[joined(r) for r in rs] for rs in references]


def _bleu(predictions, references, tokenizer=None, max_order=4, smooth=False) -> dict:
    refs = _per_prediction(references)
    tokenize, preds, refs = _tokenized(tokenizer, list(predictions), refs)
    s = _load_metric("bleu", flavour="nmt", tokenize=tokenize, max_order=max_order, smooth=bool(smooth)).corpus_score(preds, refs)
    return {"bleu": s.score, "precisions": s.precisions, "brevity_penalty": s.brevity_penalty, "length_ratio": s.length_ratio,
            "translation_length": s.translation_length, "reference_length": s.reference_length}


def _google_bleu(predictions, references, tokenizer=None, min_len=1, max_len=4) -> dict:
    refs = _per_prediction(references)
    tokenize, preds, refs = _tokenized(tokenizer, list(predictions), refs)
    return {"google_bleu": _load_metric("google_bleu", tokenize=tokenize, min_len=min_len, max_len=max_len).corpus_score(preds, refs).score}


def _exact_match(predictions, references, regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False, ignore_numbers=False) -> dict:
    preds = list(predictions)
    if not preds:  # numpy's mean of no flags
        return {"exact_match": np.float64("nan")}
    metric = _load_metric("exact_match", flavour="evaluate", regexes_to_ignore=regexes_to_ignore, ignore_case=bool(ignore_case),
                          ignore_punctuation=bool(ignore_punctuation), ignore_numbers=bool(ignore_numbers))
    return {"exact_match": np.float64(metric.corpus_score(preds, [[r] for r in references]).score)}


def _meteor(predictions, references, alpha=0.9, beta=3, gamma=0.5) -> dict:
    """evaluate's ``meteor`` (nltk ≥ 3.6.5): nltk's ``meteor_score`` of ``word_tokenize``'d
    texts, one reference per prediction unless ``references[0]`` is a list; the mean."""
    preds = list(predictions)
    if not preds:
        raise InvalidInputError("meteor needs at least one prediction (evaluate's script reads references[0])")
    refs = [list(r) for r in references] if isinstance(references[0], list) else [[r] for r in references]
    metric = _load_metric("meteor", flavour="nltk", tokenize="nltk", alpha=alpha, beta=beta, gamma=gamma)
    # the metric's corpus score is np.mean of nltk's segment scores, bit for bit
    return {"meteor": np.float64(metric.corpus_score(preds, refs).score)}


def _bertscore(predictions, references, lang=None, model_type=None, num_layers=None, verbose=False, idf=False, device=None,
               batch_size=64, nthreads=4, all_layers=False, rescale_with_baseline=False, baseline_path=None,
               use_fast_tokenizer=False) -> dict:
    if all_layers:
        raise InvalidOptionError("bertscore: all_layers=True is not covered; pass num_layers= for one layer")
    if model_type is None and lang is None:
        raise ValueError("Either 'lang' (e.g. 'en') or 'model_type' (e.g. 'microsoft/deberta-xlarge-mnli') must be specified")
    # bert_score's own batching (reference_batching): evaluate's numbers, batch for batch
    metric = _load_metric("bertscore", model=model_type, layer=num_layers, lang=lang, idf=bool(idf), device=device, batch_size=batch_size,
                          rescale_with_baseline=bool(rescale_with_baseline), baseline_path=baseline_path,
                          use_fast_tokenizer=bool(use_fast_tokenizer), reference_batching=True)
    p, r, f = metric.prf(list(predictions), _per_prediction(references))
    return {"precision": p.tolist(), "recall": r.tolist(), "f1": f.tolist(), "hashcode": _bertscore_hash(metric, model_type, idf, baseline_path)}


# bert_score 0.3.13 (whose numbers nlgmetrics.neural.bertscore gives) still says 0.3.12 in
# its __version__, which is what its hash strings carry
_BERT_SCORE_VERSION = "0.3.12"


def _bertscore_hash(metric: Any, model_type: Any, idf: bool, baseline_path: Any) -> str:
    """bert_score's ``get_hash`` string, as evaluate returns it."""
    import transformers

    msg = f"{model_type if model_type is not None else metric.model}_L{metric.layer}{'_idf' if idf else '_no-idf'}_version={_BERT_SCORE_VERSION}(hug_trans={transformers.__version__})"
    if metric.rescale_with_baseline:
        msg += "-custom-rescaled" if baseline_path is not None else "-rescaled"
    if metric.use_fast_tokenizer:
        msg += "_fast-tokenizer"
    return msg


def _sari(predictions, references, sources=None) -> dict:
    """evaluate's ``sari``: ``SARI(flavour="evaluate")``, the mean of tensor2tensor's SARIsent."""
    if sources is None:
        raise InvalidInputError("sari needs sources= (add_batch(sources=..., predictions=..., references=...))")
    if not (len(sources) == len(predictions) == len(references)):
        raise ValueError("Sources length must match predictions and references lengths.")
    return {"sari": _load_metric("sari", flavour="evaluate").corpus_score(list(predictions), list(references), sources=list(sources)).score}


def _native(name: str) -> Callable[..., Any]:
    adapter = _native_evaluate._ADAPTERS[name]

    def compute(predictions, references, **options):
        refs = references
        if name in ("sacrebleu", "chrf", "ter"):  # evaluate's scripts check one reference count per prediction
            counts = {len(r) for r in refs if not isinstance(r, str)}
            if len(counts) > 1:
                raise ValueError("Sacrebleu requires the same number of references for each prediction")
        return adapter(list(predictions), refs, **options)

    # the adapter's options, so that a misspelt one is refused before anything is consumed
    compute.__signature__ = inspect.signature(adapter)  # type: ignore[attr-defined]
    return compute


_COMPUTE: dict[str, Callable[..., Any]] = {
    "accuracy": _accuracy,
    "f1": _prf("f1"),
    "precision": _prf("precision"),
    "recall": _prf("recall"),
    "rouge": _rouge,
    **{name: _native(name) for name in ("sacrebleu", "chrf", "ter", "wer", "cer")},
    "bleu": _bleu,
    "google_bleu": _google_bleu,
    "exact_match": _exact_match,
    "meteor": _meteor,
    "bertscore": _bertscore,
    "sari": _sari,
}


class EvaluationModule(_native_evaluate.EvaluationModule):
    """evaluate's calls: ``add``, ``add_batch``, ``compute`` (which consumes what was added).

    The native face's module (:class:`nlgmetrics.integrations.evaluate.EvaluationModule`) with evaluate's
    result dicts: options are checked before anything is consumed, the examples are
    forgotten only by a ``compute`` that succeeded, and one lock keeps predictions and
    references aligned when several threads add. As in evaluate, ``compute()`` on a module
    to which nothing was added raises ``ValueError``; an explicit empty batch
    (``compute(predictions=[], references=[])``) is scored as evaluate's script scores it.
    """

    _empty_batches_scored = True

    def __init__(self, name: str, compute: Callable[..., Any], options: dict[str, Any] | None = None):
        super().__init__(name, compute, dict(options or {}))
        self._sources: list[Any] = []  # the third input column of the metrics that read sources (sari)

    def _batch(self, predictions: Any, references: Any) -> tuple[list[Any], list[Any]]:
        # evaluate takes any array-like (2-D label arrays included): rows, as given
        if predictions is None:
            raise InvalidInputError(f"{self.name}: add_batch() needs predictions=")
        try:
            preds = list(predictions)
            refs = [None] * len(preds) if references is None else list(references)
        except TypeError as e:
            raise InputTypeError(f"{self.name}: predictions and references must be sequences ({e})") from None
        if len(refs) != len(preds):
            raise LengthMismatchError(f"{len(preds)} predictions but {len(refs)} references")
        return preds, refs

    def add(self, *, prediction=None, reference=None, **kwargs) -> None:
        if kwargs.get("source") is None:
            return super().add(prediction=prediction, reference=reference)
        with self._lock:  # the three columns grow together
            self._predictions.append(prediction)
            self._references.append(reference)
            self._sources.append(kwargs["source"])
            self._added = True

    def add_batch(self, *, predictions=None, references=None, **kwargs) -> None:
        if kwargs.get("sources") is None:
            return super().add_batch(predictions=predictions, references=references)
        preds, refs = self._batch(predictions, references)
        srcs = self._source_list(kwargs["sources"], len(preds))
        with self._lock:
            self._predictions += preds
            self._references += refs
            self._sources += srcs
            self._added = True

    def _source_list(self, sources: Any, n: int) -> list[Any]:
        try:
            srcs = list(sources)
        except TypeError as e:
            raise InputTypeError(f"{self.name}: sources must be a sequence ({e})") from None
        if len(srcs) != n:
            raise LengthMismatchError(f"{n} predictions but {len(srcs)} sources")
        return srcs

    def compute(self, *, predictions=None, references=None, **kwargs) -> Any:
        sources = kwargs.pop("sources", None)
        with self._lock:
            bound = bool(self._sources)
        if sources is None and not bound:
            return super().compute(predictions=predictions, references=references, **kwargs)
        options = {**self._options, **kwargs}
        self._check_options(options)
        extra_preds: list[Any] = []
        extra_refs: list[Any] = []
        if predictions is not None or references is not None:
            extra_preds, extra_refs = self._batch(predictions, references)
        extra_srcs = self._source_list(sources, len(extra_preds)) if sources is not None else []
        with self._lock:
            n, k = len(self._predictions), len(self._sources)
            preds = self._predictions[:n] + extra_preds
            refs = self._references[:n] + extra_refs
            srcs = self._sources[:k] + extra_srcs
        if len(srcs) != len(preds):
            raise LengthMismatchError(f"{len(preds)} predictions but {len(srcs)} sources (give a source with every example)")
        result = self._compute(preds, refs, sources=srcs, **options)
        with self._lock:  # examples added by other threads meanwhile stay for the next compute
            del self._predictions[:n]
            del self._references[:n]
            del self._sources[:k]
            self._added = bool(self._predictions)
        return result

    def __repr__(self) -> str:
        return f'EvaluationModule(name: "{self.name}")'


def load(path: str, config_name: str | None = None, **kwargs: Any) -> EvaluationModule:
    """An evaluate metric by name (``evaluate.load("rouge")``); nothing is downloaded."""
    name = path.lower().rsplit("/", 1)[-1]
    if name not in _COMPUTE:
        raise InvalidOptionError(f"{path!r} is not available in nlgmetrics.compat.evaluate; covered: {', '.join(sorted(_COMPUTE))}")
    return EvaluationModule(name, _COMPUTE[name])
