"""Hugging Face ``evaluate``-style face: ``load(name)`` then ``add`` / ``add_batch`` /
``compute(predictions=..., references=..., **options)``, returning the result the
evaluate metric of that name returns (same keys, same numbers).

>>> from nlgmetrics.integrations import evaluate
>>> sacrebleu = evaluate.load("sacrebleu")
>>> sacrebleu.add_batch(predictions=["the cat sat on the mat"], references=[["the cat is on the mat"]])
>>> round(sacrebleu.compute(lowercase=True)["score"], 4)
37.9918

Differences from ``evaluate`` that users can rely on:

- nothing is downloaded and nothing is written: examples are kept in memory (no Arrow
  cache files, no file locks), so it works offline and in any number of processes;
- like evaluate, options are given to ``compute`` (or to ``load`` as defaults), the
  examples added so far are consumed by ``compute``, and a prediction's references are a
  string or a list of strings; unlike evaluate, options are checked first and the
  examples are consumed only by a ``compute`` that succeeds (a typo such as
  ``compute(lowercse=True)`` raises :class:`~nlgmetrics.errors.UnknownOptionError` and
  loses nothing), and modules may be shared between threads;
- ``rouge`` with ``use_aggregator=True`` takes a ``seed`` (default 0): evaluate's
  bootstrap draws from numpy's global generator, so its numbers change from run to run;
  with ``seed=s`` they equal evaluate's after ``numpy.random.seed(s)``;
- names whose evaluate metric is a different implementation than nlgmetrics' metric of
  the same name (``bleu``: the TensorFlow-NMT script, nlgmetrics' ``BLEU(flavour="nmt")``;
  ``meteor``: nltk with ``word_tokenize``) are refused with a message naming the
  equivalent, rather than giving other numbers under the same name; the drop-in
  :mod:`nlgmetrics.compat.evaluate` returns evaluate's own dicts for them. Every other registered metric
  (``nlgmetrics.available()``) returns ``{"score": ..., <its breakdown>}``.

The metric objects themselves (``nlgmetrics.load(name)``) have the same ``add`` /
``add_batch`` / ``compute(predictions=..., references=...)`` calls and return
:class:`~nlgmetrics.Score` objects; unlike evaluate they keep their state after
``compute`` (call ``reset()``), because their state is mergeable statistics.
"""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable

from .._inputs import as_sequence
from ..errors import InvalidInputError, InvalidOptionError, LengthMismatchError, UnknownOptionError
from ..registry import load as load_metric


def _plain(value: Any) -> Any:
    """numpy arrays and scalars as lists and Python numbers, as evaluate returns them."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def _sacrebleu(preds, refs, *, smooth_method="exp", smooth_value=None, force=False, lowercase=False,
               tokenize=None, use_effective_order=False) -> dict:
    # ``force`` only silences sacrebleu's warning about tokenized input: nothing to do
    # evaluate's scripts hand their flags to sacrebleu, which reads them by truth value
    metric = load_metric("bleu", smooth_method=smooth_method, smooth_value=smooth_value, lowercase=bool(lowercase),
                         tokenize=tokenize, effective_order=bool(use_effective_order))
    s = metric.corpus_score(preds, refs)
    return {"score": s.score, **{k: _plain(getattr(s, k)) for k in ("counts", "totals", "precisions", "bp", "sys_len", "ref_len")}}


def _chrf(preds, refs, *, char_order=6, word_order=0, beta=2, lowercase=False, whitespace=False,
          eps_smoothing=False) -> dict:
    s = load_metric("chrf", char_order=char_order, word_order=word_order, beta=beta, lowercase=bool(lowercase),
                    whitespace=bool(whitespace), eps_smoothing=bool(eps_smoothing)).corpus_score(preds, refs)
    return {"score": s.score, "char_order": s.char_order, "word_order": s.word_order, "beta": s.beta}


def _ter(preds, refs, *, normalized=False, ignore_punct=False, support_zh_ja_chars=False, case_sensitive=False) -> dict:
    s = load_metric("ter", normalized=bool(normalized), no_punct=bool(ignore_punct), asian_support=bool(support_zh_ja_chars),
                    case_sensitive=bool(case_sensitive)).corpus_score(preds, refs)
    return {"score": s.score, "num_edits": s.num_edits, "ref_length": s.ref_length}


def _edit_rate(name: str) -> Callable[..., float]:
    def compute(preds, refs, *, concatenate_texts=False) -> float:
        # evaluate's two paths both pool the counts over all pairs: one number either way
        return load_metric(name).corpus_score(preds, refs).score

    return compute


def _rouge(preds, refs, *, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None, seed=0) -> dict:
    if tokenizer is not None:
        raise InvalidOptionError("rouge: a custom tokenizer callable is not supported; see ROUGE(tokenizer=...) for the named ones")
    types = list(rouge_types) if rouge_types is not None else ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    metric = load_metric("rouge", rouge_types=types, use_stemmer=bool(use_stemmer))
    if use_aggregator:
        agg = metric.bootstrap(preds, refs, seed=seed)
        return {t: agg[t].mid.fmeasure for t in types}
    seg = metric.stats(preds, refs).sums
    # columns per type: precision, recall, fmeasure
    return {t: seg[:, 3 * k + 2].tolist() for k, t in enumerate(types)}


_ADAPTERS: dict[str, Callable[..., Any]] = {
    "sacrebleu": _sacrebleu,
    "chrf": _chrf,
    "ter": _ter,
    "wer": _edit_rate("wer"),
    "cer": _edit_rate("cer"),
    "rouge": _rouge,
}

_DIFFERENT = {
    "bleu": "evaluate's 'bleu' is the TensorFlow-NMT script (shortest reference length), which is "
    "nlgmetrics.load('bleu', flavour='nmt') and nlgmetrics.compat.evaluate.load('bleu'); here use "
    "load('bleu', flavour='nmt') for it, 'sacrebleu', or flavour='nltk'|'coco' for those conventions",
    "meteor": "evaluate's 'meteor' is nltk's meteor_score over word_tokenize tokens, which is "
    "nlgmetrics.load('meteor', flavour='nltk', tokenize='nltk') and nlgmetrics.compat.evaluate.load('meteor'); "
    "METEOR 1.5 (the default) is another metric",
    "sari": "evaluate's 'sari' is tensor2tensor's SARIsent averaged over sentences, which is "
    "nlgmetrics.load('sari', flavour='evaluate') and nlgmetrics.compat.evaluate.load('sari'); EASSE's "
    "corpus_sari (the default) gives other numbers: name flavour='easse'|'evaluate'|'xu2016'",
}


def _generic(name: str) -> Callable[..., dict]:
    def compute(preds, refs, **options) -> dict:
        metric = load_metric(name, **options)
        s = metric.corpus_score(preds, refs)
        out = {"score": s.score}
        out.update({k: _plain(v) for k, v in s.breakdown.items()})
        out["signature"] = s.signature.format()
        return out

    return compute


class EvaluationModule:
    """One metric with evaluate's calling conventions; see the module docstring.

    Every check (options, input shapes) runs before anything is added or consumed, and
    the examples are forgotten only once ``compute`` has succeeded: an error never loses
    what was added. One lock guards the examples, so threads may add concurrently.
    """

    # evaluate's drop-in (nlgmetrics.compat.evaluate) scores an explicit empty batch as its
    # scripts do; here an empty corpus is refused
    _empty_batches_scored = False

    def __init__(self, name: str, compute: Callable[..., Any], options: dict[str, Any]):
        self.name = name
        self._added = False
        self._compute = compute
        self._lock = threading.Lock()
        self._check_options(options)
        self._options = options
        self._predictions: list[Any] = []
        self._references: list[Any] = []

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _check_options(self, options: dict[str, Any]) -> None:
        sig = inspect.signature(self._compute)
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
            load_metric(self.name, **options)  # the metric's constructor names a bad option
            return
        try:
            sig.bind(None, None, **options)
        except TypeError as e:
            known = [p.name for p in list(sig.parameters.values())[2:] if p.kind is not inspect.Parameter.VAR_POSITIONAL]
            raise UnknownOptionError(f"{self.name}: {e}; its options are: {', '.join(known)}") from None

    def _batch(self, predictions: Any, references: Any) -> tuple[list[Any], list[Any]]:
        if predictions is None:
            raise InvalidInputError(f"{self.name}: add_batch() needs predictions=")
        preds = as_sequence(predictions, "predictions")
        refs = [None] * len(preds) if references is None else as_sequence(references, "references")
        if len(refs) != len(preds):
            raise LengthMismatchError(f"{len(preds)} predictions but {len(refs)} references")
        return preds, refs

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        """Add one example."""
        with self._lock:
            self._predictions.append(prediction)
            self._references.append(reference)
            self._added = True

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        """Add a batch; references may be omitted only for reference-free metrics."""
        preds, refs = self._batch(predictions, references)
        with self._lock:
            # one lock for both lists: concurrent batches stay aligned
            self._predictions += preds
            self._references += refs
            self._added = True

    def compute(self, *, predictions: Any = None, references: Any = None, **options: Any) -> Any:
        """Score everything added (plus ``predictions``/``references``), then forget it."""
        options = {**self._options, **options}
        self._check_options(options)
        extra_preds: list[Any] = []
        extra_refs: list[Any] = []
        if predictions is not None or references is not None:
            extra_preds, extra_refs = self._batch(predictions, references)
        with self._lock:
            n = len(self._predictions)
            preds = self._predictions[:n] + extra_preds
            refs = self._references[:n] + extra_refs
            added = self._added
        if not preds and not (self._empty_batches_scored and (added or predictions is not None)):
            # evaluate raises ValueError here too ("call `add` or `add_batch` at least once")
            raise InvalidInputError(f"{self.name}: nothing to compute; call add() or add_batch() first, or pass predictions=")
        result = self._compute(preds, refs, **options)
        with self._lock:
            # examples added by other threads meanwhile stay for the next compute
            del self._predictions[:n]
            del self._references[:n]
            self._added = bool(self._predictions)
        return result

    def __repr__(self) -> str:
        return f"EvaluationModule({self.name!r})"


def load(path: str, **options: Any) -> EvaluationModule:
    """An evaluate-style metric by name; ``options`` become defaults of ``compute``."""
    name = path.lower()
    if name in _DIFFERENT and "flavour" not in options:  # a flavour names the convention asked for
        raise InvalidOptionError(_DIFFERENT[name])
    if name in _ADAPTERS:
        return EvaluationModule(name, _ADAPTERS[name], options)
    load_metric(name)  # unknown names fail here, listing the known ones
    return EvaluationModule(name, _generic(name), options)
