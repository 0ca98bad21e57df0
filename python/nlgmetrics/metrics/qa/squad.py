"""SQuAD exact match and token F1 as the official evaluation scripts compute them:
``SQuAD()`` is evaluate-v1.1.py, ``SQuADv2(na_prob_thresh=1.0)`` is evaluate-v2.0.py.

Both normalise an answer with the scripts' ``normalize_answer``: ``str.lower``, removal of
Python's ``string.punctuation`` (the 32 ASCII marks), ``re.sub(r'\\b(a|an|the)\\b', ' ', s)``
(Python's Unicode ``\\b``) and ``' '.join(s.split())``; the normalisation and the token
counting run in the Rust core over the whole batch. Per question, exact match and F1 are
each the maximum over its gold answers; ``F1 = 2PR / (P + R)`` with
``P = shared / len(prediction tokens)`` and ``R = shared / len(gold tokens)`` (shared tokens
counted as ``Counter & Counter``). Scale 0–100, as the scripts.

- ``squad`` (v1.1): ``exact_match`` and ``f1`` (``score`` is ``f1``). F1 is 0 when no token
  is shared, two empty answers included. A question needs a gold answer (the script fails
  on one without).
- ``squad_v2`` (v2.0): ``exact``, ``f1``, ``total``, ``HasAns_*`` and ``NoAns_*`` (the
  questions with and without gold answers) and, with no-answer probabilities, the
  threshold search ``best_exact``, ``best_exact_thresh``, ``best_f1``, ``best_f1_thresh``:
  the keys and values of the script's JSON (``score.official``; ``score`` is ``f1``). Gold
  answers that normalise to nothing are dropped; a question left without any (or given
  ``[]``: unanswerable) has the single gold answer ``""``; F1 is 1 when prediction and gold
  are both empty. A question whose no-answer probability exceeds ``na_prob_thresh`` scores
  1 if unanswerable, else 0.

A question without a prediction (``None``) scores 0 and counts in the total, as v1.1 does
(evaluate-v2.0.py prints ``Missing prediction for ...`` and then stops with a ``KeyError``).

Statistics: counts (exact matches, questions; per split for v2.0) merge by sum; the F1
values are float sums kept exactly, and the per-question values in order
(``Stats.sequence``) so that the corpus F1 is the script's own left-to-right ``sum`` (same
bits; merging concatenates, so in-order shards give the single-pass bits). Totals rebuilt
from sums alone (bootstrap resamples) take the exactly rounded sum instead, within 1 ulp
per question of it, and have no threshold search.
"""

from __future__ import annotations

import contextlib
import math
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, Sequence

import numpy as np

from ... import _core
from ..._numbers import real_array
from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, InvalidTextError, LengthMismatchError
from ...stats import SegmentStats, Stats, sequential_column_sums
from ..base import Metric, Score
from .squad_totals import gc_paused as _gc_paused, load_json, read_files as _read_files  # numpy-free: the CLI's plain run reads with them

V1_MISSING = "Unanswered question {} will receive score 0."
V2_MISSING = "Missing prediction for {}"


def normalize_answer(texts: Sequence[str], n_threads: int = 0) -> list[str]:
    """The official scripts' ``normalize_answer`` of each text (computed in the core).

    >>> normalize_answer(["The Eiffel  Tower!", "an apple, a day"])
    ['eiffel tower', 'apple day']
    """
    items = list(texts)
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise InputTypeError(f"texts[{i}] must be a str, got {type(t).__name__}")
    return _core.squad_normalize(items, n_threads)


def _gold_lists(references: Any, n: int) -> list[list[str]]:
    from ..._inputs import _is_table, as_references

    if _is_table(references):  # a DataFrame: its columns are gold answer streams
        return as_references(references, n)
    try:
        if isinstance(references, (str, bytes, dict)):
            raise TypeError
        references = list(references)
    except TypeError:
        raise InputTypeError("references must be a list with one list of gold answers per question") from None
    if len(references) != n:
        raise LengthMismatchError(f"predictions and references: lengths differ ({n} vs {len(references)})")
    out = []
    for i, r in enumerate(references):
        if isinstance(r, str):
            out.append([r])
            continue
        try:
            if isinstance(r, (bytes, dict)):
                raise TypeError
            golds = list(r)
        except TypeError:
            raise InputTypeError(f"references[{i}] must be a list of gold answer strings, got {type(r).__name__}") from None
        for j, g in enumerate(golds):
            if not isinstance(g, str):
                raise InputTypeError(f"references[{i}][{j}] must be a str, got {type(g).__name__}")
        out.append(golds)
    return out


def _from_dicts(predictions: Any, references: Any) -> tuple[list, list, list | None]:
    """evaluate's squad / squad_v2 shapes: ``{"id", "prediction_text"[, "no_answer_probability"]}``
    and ``{"id", "answers": {"text": [...], ...}}``, matched by id in reference order (a
    later prediction of an id replaces an earlier one, as a dict)."""
    preds: dict[Any, str] = {}
    probs: dict[Any, float] = {}
    for i, p in enumerate(predictions):
        if not isinstance(p, dict) or "id" not in p or "prediction_text" not in p:
            raise InputTypeError(f"predictions[{i}] must be a dict with 'id' and 'prediction_text'")
        preds[p["id"]] = p["prediction_text"]
        if "no_answer_probability" in p:
            probs[p["id"]] = p["no_answer_probability"]
    out_p, out_r, out_na = [], [], []
    for i, r in enumerate(references):
        if not isinstance(r, dict) or "id" not in r or not isinstance(r.get("answers"), dict) or "text" not in r["answers"]:
            raise InputTypeError(f"references[{i}] must be a dict with 'id' and 'answers': {{'text': [...]}}")
        qid = r["id"]
        out_p.append(preds.get(qid))
        out_r.append(list(r["answers"]["text"]))
        out_na.append(probs.get(qid))
    if probs and any(x is None for x, p in zip(out_na, out_p) if p is not None):
        raise InvalidInputError("no_answer_probability is given for some predictions only")
    return out_p, out_r, (out_na if probs else None)


class SquadScore(Score):
    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return ", ".join(f"{k} = {v:.{width}f}" if isinstance(v, float) else f"{k} = {v}" for k, v in self.official.items())


class _SquadBase(Metric):
    version = ""
    flavour_name = ""

    def __init__(self, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "norm": "norm", "thresh": "t"}

    # -- extraction -----------------------------------------------------------------------
    def _rows(self, predictions: Any, references: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[list[str]] | None]:
        """Core statistics ``(rows (n, 5), f1 (n,), ref counts)``; a missing prediction
        (``None``) scores 0."""
        if isinstance(predictions, (str, bytes)):
            raise InputTypeError("predictions must be a list of answer strings, not one string")
        if type(predictions) is list and type(references) is list and len(predictions) == len(references):
            got = _core.squad_stats(predictions, references, self.version, self.n_threads)
            if got is not None:
                return got
        try:
            preds = list(predictions)
        except TypeError:
            raise InputTypeError(f"predictions must be a list of answer strings, got {type(predictions).__name__}") from None
        golds = _gold_lists(references, len(preds))
        missing = []
        for i, p in enumerate(preds):
            if p is None:
                missing.append(i)
                preds[i] = ""
            elif not isinstance(p, str):
                raise InputTypeError(f"predictions[{i}] must be a str (or None: no prediction), got {type(p).__name__}")
        got = _core.squad_stats(preds, golds, self.version, self.n_threads)
        if got is None:  # a lone surrogate: named
            _check_texts(preds, golds, lambda i: f"predictions[{i}]", lambda i, j: f"references[{i}][{j}]")
            raise InputTypeError("predictions and references must be encodable text")
        rows, f1, ref_counts = got
        if missing:
            rows, f1 = rows.copy(), f1.copy()
            rows[missing] = (0, 0, 0, 1, 1)  # no exact match, F1 0; a non-empty wrong answer
            f1[missing] = 0.0
        return rows, f1, ref_counts

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self.stats(predictions, references)

    def _prepare_inputs(self, predictions: Any, references: Any, na_probs: Any) -> tuple[Any, Any, Any]:
        if isinstance(predictions, Sequence) and not isinstance(predictions, str) and len(predictions) and isinstance(predictions[0], dict):
            if na_probs is not None:
                raise InputTypeError("give na_probs either as an argument or in the prediction dicts, not both")
            if isinstance(references, (str, bytes, dict)) or not isinstance(references, Sequence):
                raise InputTypeError("references must be a list of {'id', 'answers'} dicts with the prediction dicts")
            return _from_dicts(predictions, references)
        return predictions, references, na_probs

    # -- faces ------------------------------------------------------------------------------
    def corpus_score(self, predictions: Any, references: Any, na_probs: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(predictions, references, na_probs).total())

    def sentence_scores(self, predictions: Any, references: Any, na_probs: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(predictions, references, na_probs))

    def update(self, predictions: Any, references: Any, na_probs: Any = None) -> "_SquadBase":  # type: ignore[override]
        return self._accumulate(self.stats(predictions, references, na_probs).total())

    def compute(self, *, predictions: Any = None, references: Any = None, na_probs: Any = None) -> Score:  # type: ignore[override]
        if predictions is not None or references is not None:
            if predictions is None or references is None:
                raise InputTypeError("compute() needs both predictions= and references=, or neither")
            self.update(predictions, references, na_probs)
        return self.score_stats(self._compute_state())

    def _check_total(self, total: int) -> None:
        if total == 0:  # the scripts divide by zero
            raise InvalidInputError(f"{self.name} of no questions is undefined: give at least one")


class SQuAD(_SquadBase):
    """SQuAD v1.1 (evaluate-v1.1.py): exact match and F1, 0–100; see the module docstring.

    >>> from nlgmetrics import SQuAD
    >>> s = SQuAD().corpus_score(["the Eiffel Tower", "in 1889"], [["Eiffel Tower", "the tower"], ["1887"]])
    >>> s.exact_match, s.f1
    (50.0, 50.0)
    """

    name = "squad"
    version = "1.1"
    count_fields = ("exact_match", "total")
    sum_fields = ("f1",)

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": "v1.1", "norm": "squad"}

    def stats(self, predictions: Any, references: Any, na_probs: Any = None) -> SegmentStats:  # type: ignore[override]
        """Per question: ``exact_match`` (0 or 1), ``total`` (1) and ``f1`` (0–1)."""
        predictions, references, na_probs = self._prepare_inputs(predictions, references, na_probs)
        if na_probs is not None:
            raise InvalidOptionError("SQuAD v1.1 has no no-answer probabilities: use squad_v2")
        return self._segments(*self._rows(predictions, references))

    def _segments(self, rows: np.ndarray, f1: np.ndarray, ref_counts: np.ndarray) -> SegmentStats:
        counts = np.empty((len(rows), 2), dtype=np.uint64)
        counts[:, 0] = rows[:, 0]
        counts[:, 1] = 1
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, f1.reshape(-1, 1), ref_counts=ref_counts, sequence_field="f1")

    def _score(self, stats: Stats) -> SquadScore:
        exact, total = (int(x) for x in stats.counts)
        self._check_total(total)
        if stats.sequence is not None and len(stats.sequence) == stats.n_segments:
            f1_sum = float(sequential_column_sums(stats.sequence))  # the script's f1 += ..., in order
        else:
            f1_sum = math.fsum(stats.sum_partials[0])
        official = {"exact_match": 100.0 * exact / total, "f1": 100.0 * f1_sum / total}
        s = SquadScore(self.name, official["f1"], self.signature(stats), stats, **official, total=total)
        s.official = official
        return s

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return 100.0 * seg.sums[:, 0]


# v2.0 per-question columns kept in order
_V2_SEQUENCE = ("f1_raw", "exact_raw", "has_ans", "pred_nonempty", "na_prob")


def v2_eval(f1_raw: np.ndarray, exact_raw: np.ndarray, has_ans: np.ndarray, pred_nonempty: np.ndarray, na_prob: np.ndarray,
            na_prob_thresh: float, with_best: bool, order: np.ndarray | None = None, thresh_values: Sequence[Any] | None = None) -> dict[str, Any]:
    """evaluate-v2.0.py's evaluation dictionary from per-question values in dataset order.

    ``order`` is the order of the threshold search (the script's stable sort of its
    no-answer probabilities; default: by probability, ties in dataset order);
    ``thresh_values[i]`` is the probability as the caller holds it (a JSON int stays an int).
    """
    n = len(f1_raw)
    if n == 0:
        raise InvalidInputError("squad_v2 of no questions is undefined: give at least one")
    has = has_ans.astype(bool)
    pred_na = _above(thresh_values, na_prob, na_prob_thresh)
    f1_t = np.where(pred_na, (~has).astype(np.float64), f1_raw)
    exact_t = np.where(pred_na, (~has).astype(np.float64), exact_raw)

    def block(mask: np.ndarray | None) -> dict[str, Any]:
        e, f = (exact_t, f1_t) if mask is None else (exact_t[mask], f1_t[mask])
        total = len(e)
        return {"exact": 100.0 * float(sequential_column_sums(e)) / total, "f1": 100.0 * float(sequential_column_sums(f)) / total, "total": total}

    out = block(None)
    if has.any():
        out.update({f"HasAns_{k}": v for k, v in block(has).items()})
    if (~has).any():
        out.update({f"NoAns_{k}": v for k, v in block(~has).items()})
    if with_best:
        if order is None:
            order = np.argsort(na_prob, kind="stable")
        nonempty = pred_nonempty.astype(bool)
        order = np.ascontiguousarray(order, dtype=np.int64)
        for name, scores in (("exact", exact_raw), ("f1", f1_raw)):
            best, at = _core.squad_best_threshold(np.ascontiguousarray(scores, dtype=np.float64), has, nonempty, order)
            out[f"best_{name}"] = 100.0 * best / n
            if at is None:
                out[f"best_{name}_thresh"] = 0.0
            else:
                out[f"best_{name}_thresh"] = thresh_values[at] if thresh_values is not None else float(na_prob[at])
    return out


class SQuADv2(_SquadBase):
    """SQuAD v2.0 (evaluate-v2.0.py); see the module docstring.

    ``na_probs`` (one probability per question, optional) adds the threshold search.

    >>> from nlgmetrics import SQuADv2
    >>> s = SQuADv2().corpus_score(["Paris", "", "1889"], [["Paris"], [], ["1887"]], na_probs=[0.1, 0.9, 0.6])
    >>> s.exact, s.HasAns_exact, s.NoAns_exact, s.best_exact, s.best_exact_thresh
    (66.66666666666667, 50.0, 100.0, 66.66666666666667, 0.1)
    """

    name = "squad_v2"
    version = "2.0"
    count_fields = ("exact", "total", "has_ans_exact", "has_ans_total", "no_ans_exact", "no_ans_total", "na_probs_given")
    sum_fields = ("f1", "has_ans_f1", "no_ans_f1", *_V2_SEQUENCE)

    def __init__(self, *, na_prob_thresh: float = 1.0, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if isinstance(na_prob_thresh, bool) or not isinstance(na_prob_thresh, (int, float)) or math.isnan(na_prob_thresh):
            raise InvalidOptionError(f"na_prob_thresh must be a number, got {na_prob_thresh!r}")
        self.na_prob_thresh = float(na_prob_thresh)

    def _signature_items(self) -> dict[str, Any]:
        return {"flavour": "v2.0", "norm": "squad", "thresh": self.na_prob_thresh}

    def stats(self, predictions: Any, references: Any, na_probs: Any = None) -> SegmentStats:  # type: ignore[override]
        """Per question: thresholded exact/F1 (overall and in its split), the raw values and
        flags the threshold search needs, and whether a no-answer probability was given."""
        predictions, references, na_probs = self._prepare_inputs(predictions, references, na_probs)
        return self._segments(*self._rows(predictions, references), na_probs)

    def _segments(self, rows: np.ndarray, f1: np.ndarray, ref_counts: np.ndarray, na_probs: Any) -> SegmentStats:
        n = len(rows)
        if na_probs is None:
            na = np.zeros(n, dtype=np.float64)
        else:
            if isinstance(na_probs, (str, bytes)) or not hasattr(na_probs, "__len__"):
                raise InputTypeError("na_probs must be a sequence of probabilities, one per question")
            try:  # booleans compare as 0/1 in the official script; complex numbers and strings are refused
                na = real_array(na_probs, "na_probs", ndim=(1,), allow_nan=True, allow_bool=True)
            except OverflowError:  # an int beyond float64: an infinity in this column, compared exactly below
                na = _float_column(na_probs)
            if len(na) != n:
                raise LengthMismatchError(f"predictions and na_probs: lengths differ ({n} vs {len(na)})")
            if np.isnan(na).any():
                raise InvalidInputError(f"na_probs[{int(np.flatnonzero(np.isnan(na))[0])}] is NaN")
        has = ref_counts > 0
        exact_raw = rows[:, 0].astype(np.float64)
        pred_na = _above(na_probs, na, self.na_prob_thresh)
        exact_t = np.where(pred_na, ~has, rows[:, 0].astype(bool)).astype(np.uint64)
        f1_t = np.where(pred_na, (~has).astype(np.float64), f1)
        one = np.ones(n, dtype=np.uint64)
        counts = np.stack([exact_t, one, exact_t * has, has.astype(np.uint64), exact_t * ~has, (~has).astype(np.uint64),
                           one if na_probs is not None else np.zeros(n, dtype=np.uint64)], axis=1)
        sums = np.stack([f1_t, f1_t * has, f1_t * ~has, f1, exact_raw, has.astype(np.float64), rows[:, 4].astype(np.float64), na], axis=1)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums, ref_counts=ref_counts, sequence_field=_V2_SEQUENCE)

    def _score(self, stats: Stats) -> SquadScore:
        c = dict(zip(self.count_fields, (int(x) for x in stats.counts)))
        total = c["total"]
        self._check_total(total)
        given = c["na_probs_given"]
        if 0 < given < total:
            raise InvalidInputError(f"no-answer probabilities were given for {given} of {total} questions: give them for all or none")
        seq = stats.sequence
        if seq is not None and len(seq) == stats.n_segments:
            cols = dict(zip(_V2_SEQUENCE, seq.T))
            official = v2_eval(cols["f1_raw"], cols["exact_raw"], cols["has_ans"], cols["pred_nonempty"], cols["na_prob"],
                               self.na_prob_thresh, with_best=given > 0)
        else:  # totals without the per-question values: exactly rounded sums, no threshold search
            f = [math.fsum(p) for p in stats.sum_partials[:3]]
            official = {"exact": 100.0 * c["exact"] / total, "f1": 100.0 * f[0] / total, "total": total}
            for prefix, e, t, fs in (("HasAns", c["has_ans_exact"], c["has_ans_total"], f[1]), ("NoAns", c["no_ans_exact"], c["no_ans_total"], f[2])):
                if t:
                    official.update({f"{prefix}_exact": 100.0 * e / t, f"{prefix}_f1": 100.0 * fs / t, f"{prefix}_total": t})
        s = SquadScore(self.name, official["f1"], self.signature(stats), stats, **official)
        s.official = official
        return s

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return 100.0 * seg.sums[:, 0]


# -- the official scripts' files ---------------------------------------------------------------
def _questions(dataset_json: Any, where: str) -> list[tuple[str, list[str]]]:
    """``(id, gold answer texts)`` of every question in a SQuAD dataset's ``data``, in order."""
    if not isinstance(dataset_json, dict) or not isinstance(dataset_json.get("data"), list):
        raise InvalidInputError(f"{where}: not a SQuAD dataset (a JSON object with a 'data' list)")
    out = []
    for a, article in enumerate(dataset_json["data"]):
        paragraphs = article.get("paragraphs") if isinstance(article, dict) else None
        if not isinstance(paragraphs, list):
            raise InvalidInputError(f"{where}: data[{a}] has no 'paragraphs' list")
        for p, paragraph in enumerate(paragraphs):
            qas = paragraph.get("qas") if isinstance(paragraph, dict) else None
            if not isinstance(qas, list):
                raise InvalidInputError(f"{where}: data[{a}].paragraphs[{p}] has no 'qas' list")
            for q, qa in enumerate(qas):
                at = f"data[{a}].paragraphs[{p}].qas[{q}]"
                if not isinstance(qa, dict) or not isinstance(qa.get("id"), str) or not isinstance(qa.get("answers"), list):
                    raise InvalidInputError(f"{where}: {at} needs a string 'id' and an 'answers' list")
                golds = []
                for j, ans in enumerate(qa["answers"]):
                    if not isinstance(ans, dict) or not isinstance(ans.get("text"), str):
                        raise InvalidInputError(f"{where}: {at}.answers[{j}] needs a string 'text'")
                    golds.append(ans["text"])
                out.append((qa["id"], golds))
    return out


def _fast_questions(dataset_json: Any) -> tuple[list[str], list[list[str]]] | None:
    """:func:`_questions` without its checks, as ``(ids, gold answer lists)``, or ``None``
    when a check would fail.

    The core reads the exact JSON shapes in place; other shapes take the Python walk."""
    with _gc_paused():
        got = _core.squad_dataset_questions(dataset_json.get("data") if isinstance(dataset_json, dict) else None)
        return got if got is not None else _walk(dataset_json)


def _walk(dataset_json: Any) -> tuple[list[str], list[list[str]]] | None:
    try:
        text = itemgetter("text")  # C-level per answer: a comprehension per question costs a frame
        qs = [(qa["id"], list(map(text, qa["answers"]))) for art in dataset_json["data"] for p in art["paragraphs"] for qa in p["qas"]]
    except (TypeError, KeyError, AttributeError):
        return None
    if not all(type(q) is str for q, _ in qs) or not all(type(t) is str for t in chain.from_iterable(g for _, g in qs)):
        return None
    return [q for q, _ in qs], [g for _, g in qs]


def dataset_version(dataset_json: Any) -> str:
    """``"1.1"`` or ``"2.0"`` from a dataset's ``version`` field (``"1.1"``, ``"v2.0"``, ...)."""
    v = str(dataset_json.get("version", "")) if isinstance(dataset_json, dict) else ""
    v = v[1:] if v.startswith("v") else v
    if v in ("1.1", "1.0"):
        return "1.1"
    if v.startswith("2"):
        return "2.0"
    raise InvalidInputError(f"cannot tell the SQuAD version from the dataset's version field {v!r}: give it (1.1 or 2.0)")


def evaluate_official(dataset_json: Any, predictions: Any, na_probs: Any = None, *, version: str | None = None,
                      na_prob_thresh: float = 1.0, n_threads: int = 0, warn: Any = None,
                      names: tuple[str, str, str] = ("dataset", "predictions", "na_probs")) -> dict[str, Any]:
    """The official script's evaluation dictionary from its inputs: the dataset JSON
    (``{"version", "data": [...]}``), predictions ``{id: text}`` and, for v2.0, no-answer
    probabilities ``{id: p}``. ``warn(message)`` receives the scripts' messages (a
    question without a prediction; default: ignored). The version defaults to the dataset's.

    v1.1 counts every question of the dataset (an id twice counts twice); v2.0 counts each
    id once, with the last question of that id at the place of the first (the script keys
    its scores by id). The threshold search runs in the order of the script: the
    probabilities sorted stably in their own order, and reports the threshold as given
    (``1``, not ``1.0``, when the file says ``1``).
    """
    with _gc_paused():
        return _evaluate_official(dataset_json, predictions, na_probs, version, na_prob_thresh, n_threads, warn, names)


def _evaluate_official(dataset_json: Any, predictions: Any, na_probs: Any, version: str | None, na_prob_thresh: float,
                       n_threads: int, warn: Any, names: tuple[str, str, str]) -> dict[str, Any]:
    warn = warn or (lambda message: None)
    data_name, pred_name, na_name = names
    version = version or dataset_version(dataset_json)
    if version not in ("1.1", "2.0"):
        raise InvalidOptionError(f"unknown SQuAD version {version!r}; known: 1.1, 2.0")
    if not isinstance(predictions, dict):
        raise InvalidInputError(f"{pred_name}: predictions must be a JSON object {{question id: answer text}}")
    data = dataset_json.get("data") if isinstance(dataset_json, dict) else None
    if version == "1.1" and na_probs is None:
        # the common case in one core call: every question answered, the exact JSON shapes
        got = _core.squad_dataset_v1(data, predictions, n_threads)
        if got is not None:
            if dataset_json.get("version") != "1.1":
                warn(f"Evaluation expects v-1.1, but got dataset with v-{dataset_json.get('version')}")
            metric = SQuAD(n_threads=n_threads)
            return dict(metric.score_stats(metric._segments(*got).total()).official)
    if version == "2.0" and (na_probs is None or isinstance(na_probs, dict)):
        # the common case in one core call: every question answered, the exact JSON shapes
        got = _core.squad_dataset_v2(data, predictions, n_threads)
        if got is not None:
            ids, stats = got
            metric = SQuADv2(na_prob_thresh=na_prob_thresh, n_threads=n_threads)
            raw_na = _raw_na(ids, repeat(""), na_probs, na_name)
            return _v2_from_dict(metric, metric._segments(*stats, raw_na if na_probs is not None else None), ids, raw_na, na_probs)
    questions = _fast_questions(dataset_json)
    if questions is None:
        checked = _questions(dataset_json, data_name)  # names what is wrong
        questions = ([q for q, _ in checked], [g for _, g in checked])
    ids, golds = questions
    if version == "1.1":
        if na_probs is not None:
            raise InvalidOptionError("no-answer probabilities are for SQuAD v2.0 (evaluate-v1.1.py has none)")
        if isinstance(dataset_json, dict) and dataset_json.get("version") != "1.1":
            warn(f"Evaluation expects v-1.1, but got dataset with v-{dataset_json.get('version')}")
        preds = list(map(predictions.get, ids))
        for i in [i for i, p in enumerate(preds) if type(p) is not str]:
            qid = ids[i]
            if qid in predictions:
                _prediction(predictions, qid, pred_name)  # not a string: names it
            warn(V1_MISSING.format(qid))
            golds[i] = golds[i] or [""]
        if not preds:
            raise InvalidInputError(f"{data_name}: no questions")
        for i in [i for i, g in enumerate(golds) if not g]:
            raise InvalidInputError(f"{data_name}: question {ids[i]} has no answers (evaluate-v1.1.py needs one: use --version 2.0)")
        with _texts_named(ids, preds, golds, names):
            return dict(SQuAD(n_threads=n_threads).corpus_score(preds, golds).official)
    by_id = dict(zip(ids, golds))  # a dict, as the script's: first place, last answers
    ids = list(by_id)
    if not ids:
        raise InvalidInputError(f"{data_name}: no questions")
    if na_probs is not None and not isinstance(na_probs, dict):
        raise InvalidInputError(f"{na_name}: no-answer probabilities must be a JSON object {{question id: probability}}")
    preds = list(map(predictions.get, ids))
    for i in [] if set(map(type, preds)) == {str} else [i for i, p in enumerate(preds) if type(p) is not str]:
        if ids[i] in predictions:
            _prediction(predictions, ids[i], pred_name)  # not a string: names it
        warn(V2_MISSING.format(ids[i]))
    raw_na = _raw_na(ids, preds, na_probs, na_name)
    metric = SQuADv2(na_prob_thresh=na_prob_thresh, n_threads=n_threads)
    with _texts_named(ids, preds, list(by_id.values()), names):
        seg = metric.stats(preds, list(by_id.values()), raw_na if na_probs is not None else None)
    return _v2_from_dict(metric, seg, ids, raw_na, na_probs)


def _v2_official(metric: "SQuADv2", seg: SegmentStats, order: np.ndarray | None = None, thresh_values: Any = None) -> dict[str, Any]:
    """evaluate-v2.0.py's dictionary from the questions' statistics (dataset order); with a
    search ``order`` (see :func:`_search_order`), the threshold search too."""
    cols = dict(zip(_V2_SEQUENCE, seg.sums[:, [metric.sum_fields.index(f) for f in _V2_SEQUENCE]].T))
    return v2_eval(cols["f1_raw"], cols["exact_raw"], cols["has_ans"], cols["pred_nonempty"], cols["na_prob"],
                   metric.na_prob_thresh, with_best=order is not None, order=order, thresh_values=thresh_values)


def _search_order(ids: list[str], na_probs: dict, values: np.ndarray, raw: Any = None) -> np.ndarray:
    """The order of the script's threshold search, ``sorted(na_probs, key=na_probs.get)``
    restricted to the questions ``ids``: by probability (``raw``: as given, compared as
    Python compares them), ties in the file's key order."""
    if list(na_probs) == ids:  # the file lists the questions in dataset order
        keys = np.arange(len(ids), dtype=np.int64)
    else:
        rank = dict(zip(na_probs, range(len(na_probs))))
        got = list(map(rank.get, ids))
        if None in got:  # ids without a probability (unanswered) come after, in dataset order
            late = len(rank)
            got = [late + i if k is None else k for i, k in enumerate(got)]
        keys = np.array(got, dtype=np.int64)
    if _inexact_ints(raw):
        return np.array(sorted(range(len(ids)), key=lambda i: (raw[i], keys[i])), dtype=np.int64)
    return np.lexsort((keys, np.asarray(values, dtype=np.float64)))


def _v2_from_dict(metric: "SQuADv2", seg: SegmentStats, ids: list[str], raw_na: list[Any], na_probs: dict | None) -> dict[str, Any]:
    order = None if na_probs is None else _search_order(ids, na_probs, seg.sums[:, metric.sum_fields.index("na_prob")], raw_na)
    return _v2_official(metric, seg, order, raw_na)


# -- numbers as Python compares them -------------------------------------------------------------
# The script compares and sorts the probabilities as json.loads gives them: an int past 2**53
# exactly, where its nearest float64 would tie with (or pass) a neighbour or the threshold.
EXACT_INT = 2**53


def _inexact_ints(raw: Any) -> bool:
    """Whether ``raw`` (a list of the numbers as given) holds an int that float64 cannot hold."""
    return isinstance(raw, (list, tuple)) and int in set(map(type, raw)) and any(type(p) is int and not -EXACT_INT < p < EXACT_INT for p in raw)


def _above(raw: Any, as_float: np.ndarray, thresh: float) -> np.ndarray:
    """``p > thresh`` for each probability, as Python compares ``raw``'s numbers."""
    if _inexact_ints(raw):
        return np.fromiter((p > thresh for p in raw), dtype=bool, count=len(raw))
    return as_float > thresh


def _as_float(p: Any) -> float:
    try:
        return float(p)
    except OverflowError:  # an int beyond float64's range
        return math.inf if p > 0 else -math.inf


def _float_column(raw: Any) -> np.ndarray:
    """The probabilities as float64, an int beyond its range as an infinity of its sign."""
    try:
        return np.array([_as_float(p) for p in raw], dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InputTypeError("na_probs must be numbers, one per question") from None


def _check_texts(preds: Sequence[Any], golds: Sequence[Sequence[str]], pred_name: Any, gold_name: Any) -> None:
    """An :class:`InvalidTextError` naming the first text with a lone surrogate
    (``pred_name(i)``, ``gold_name(i, j)``)."""
    for i, p in enumerate(preds):
        if isinstance(p, str):
            _encodable(p, lambda: pred_name(i))
    for i, g in enumerate(golds):
        for j, t in enumerate(g):
            if isinstance(t, str):
                _encodable(t, lambda: gold_name(i, j))


@contextlib.contextmanager
def _texts_named(ids: list[str], preds: list[Any], golds: list[list[str]], names: tuple[str, str, str]) -> Any:
    """A text that is not valid Unicode named by its file and question."""
    try:
        yield
    except InvalidTextError:
        data_name, pred_name, _ = names
        _check_texts(preds, golds, lambda i: f"{pred_name}: the prediction of question {ids[i]!r}",
                     lambda i, j: f"{data_name}: answer {j} of question {ids[i]!r}")
        raise


def _encodable(text: str, what: Any) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidTextError(f"{what()} is not valid Unicode (a lone surrogate {ascii(text[e.start])} at character {e.start})") from None


class _FileProbabilities:
    """The probabilities as the file holds them, by question: an int stays an int."""

    def __init__(self, values: np.ndarray, is_int: np.ndarray):
        self.values, self.is_int = values, is_int

    def __getitem__(self, i: int) -> float | int:
        return int(self.values[i]) if self.is_int[i] else float(self.values[i])


def _raw_na(ids: list[str], preds: list[Any], na_probs: dict | None, na_name: str) -> list[Any]:
    """The no-answer probability of each question as the file gives it (0.0 without a
    file, and for an unanswered question the file leaves out)."""
    if na_probs is None:
        return [0.0] * len(ids)
    raw = list(map(na_probs.get, ids))
    if set(map(type, raw)) <= {float, int}:  # the common case: every question has a number (bool's type is not int)
        try:
            if not np.isnan(np.asarray(raw, dtype=np.float64)).any():
                return raw
        except OverflowError:  # an int beyond float64: the loop below takes it as it is
            pass
    out = []
    for qid, pred, p in zip(ids, preds, raw):
        if qid in na_probs:
            if isinstance(p, bool) or not isinstance(p, (int, float)) or p != p:
                raise InvalidInputError(f"{na_name}: the probability of {qid} is not a number: {p!r}")
            out.append(p)
        elif pred is None:
            out.append(0.0)
        else:
            raise InvalidInputError(f"{na_name}: no probability for question {qid}")
    return out


def _prediction(predictions: dict, qid: str, where: str) -> str:
    p = predictions[qid]
    if not isinstance(p, str):
        raise InvalidInputError(f"{where}: the prediction of {qid} is not a string: {p!r}")
    return p


# -- the official scripts' files, read in the core ------------------------------------------------
def _stats_from_bytes(raw: tuple[bytes, bytes, bytes | None], version: str | None, n_threads: int) -> tuple[str, str, Any, Any] | None:
    """The core's reading of the dataset, predictions and (v2.0) probabilities files:
    ``(version, the dataset's version field, per-question statistics, the probabilities'
    column or None)``, or ``None`` when the files are not exactly the regular shapes with
    every question answered (the general path then reads them with ``json`` and reports,
    or warns about, what differs)."""
    if version not in (None, "auto", "1.1", "2.0"):
        return None
    return _core.squad_files(*raw, version or "auto", n_threads)


def _from_files(data_path: str, pred_path: str, na_prob_path: str | None, version: str | None, n_threads: int) -> tuple[str, str, Any, Any] | None:
    """:func:`_stats_from_bytes` of the files at these paths."""
    return _stats_from_bytes(_read_files(data_path, pred_path, na_prob_path), version, n_threads)


def _official_from_stats(got: tuple[str, str, Any, Any], na_prob_thresh: float, n_threads: int, warn: Any) -> dict[str, Any]:
    version, field, stats, na = got
    if version == "1.1":
        if field != "1.1":
            warn(f"Evaluation expects v-1.1, but got dataset with v-{field}")
        metric = SQuAD(n_threads=n_threads)
        return dict(metric.score_stats(metric._segments(*stats).total()).official)
    metric2 = SQuADv2(na_prob_thresh=na_prob_thresh, n_threads=n_threads)
    if na is None:
        return _v2_official(metric2, metric2._segments(*stats, None))
    values, is_int, order = na
    return _v2_official(metric2, metric2._segments(*stats, values), order, _FileProbabilities(values, is_int))


def evaluate_official_files(data_path: str, pred_path: str, na_prob_path: str | None = None, *, version: str | None = None,
                            na_prob_thresh: float = 1.0, n_threads: int = 0, warn: Any = None) -> dict[str, Any]:
    """The official script's evaluation dictionary from its files, as its ``main`` computes
    it (``json.load`` of each file, then ``evaluate``): the dataset JSON, the predictions JSON
    ``{id: text}`` and, for v2.0, the no-answer probabilities JSON ``{id: p}``. The version
    defaults to the dataset's; ``warn(message)`` receives the scripts' messages.

    The core reads the dataset and predictions files itself (no Python object per answer);
    any file that is not exactly the regular shape, or a question without a prediction,
    takes :func:`evaluate_official` on the parsed files: the same numbers, messages and errors.
    """
    warn = warn or (lambda message: None)
    with _gc_paused():
        # the bytes live until the score is made: freed mid-way, tens of megabytes went back
        # to the system and were faulted in again on every call
        raw = _read_files(data_path, pred_path, na_prob_path)
        got = _stats_from_bytes(raw, version, n_threads)
        if got is not None and not (got[0] == "1.1" and na_prob_path):
            out = _official_from_stats(got, na_prob_thresh, n_threads, warn)
            del raw
            return out
        del raw
    dataset = load_json(data_path, "the dataset")
    preds = load_json(pred_path, "the predictions")
    na = load_json(na_prob_path, "the no-answer probabilities") if na_prob_path else None
    return evaluate_official(dataset, preds, na, version=version, na_prob_thresh=na_prob_thresh, n_threads=n_threads, warn=warn,
                             names=(data_path, pred_path, na_prob_path or ""))
