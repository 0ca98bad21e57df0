"""Multiple choice from per-choice log-likelihoods, exactly as lm-evaluation-harness 0.4.13's
``ConfigurableTask.process_results`` scores an ``output_type: multiple_choice`` task, and
the ``mean`` aggregation it reports.

Pure Python and numpy. Per document, with ``lls`` the choices' log-likelihoods (a float64
array, as lm-eval divides the tuple by numpy arrays) and ``choices`` their texts:

- ``acc``: ``np.argmax(lls)`` is the gold
- ``acc_norm``: ``np.argmax(lls / characters)`` (``len`` of each choice's text)
- ``acc_bytes``: ``np.argmax(lls / utf-8 bytes)``
- ``acc_mutual_info``: ``np.argmax(ll - ll_unconditional)`` (Python float subtraction), with
  the log-likelihoods of each choice after an empty context

``np.argmax`` takes the first maximum, so ties go to the earlier choice, a NaN wins over
any number (the first NaN), and an empty choice divides by zero as numpy does (``-inf`` for
a negative log-likelihood, NaN for 0 or ``-inf``). The gold is an index, the gold choice's
text (``choices.index``: its first occurrence) or a list of indices (lm-eval's
``multiple_target``: correct when the argmax is in it). A gold index out of range or a text
that is no choice is never correct (lm-eval warns and scores 0); ``gold_out_of_range``
counts those documents. One case where lm-eval has no number: ``acc_mutual_info`` with a
list of two or more golds raises numpy's ambiguous-truth-value error there; here it is
correct when the argmax is in the list, as for the other three.

``mean`` is ``sum(arr) / len(arr)`` over 0.0/1.0 values: an exact count divided by the
number of documents, which is what the statistics keep (counts, so merging is exact).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

REFERENCE = "lm-eval-0.4.13"
SCORES = ("acc", "acc_norm", "acc_bytes", "acc_mutual_info")
_NUMBER = (int, float, np.integer, np.floating)


class ChoiceResult(NamedTuple):
    """One document's values (1.0 or 0.0; ``acc_mutual_info`` None without unconditional
    log-likelihoods) and whether every gold names a choice."""

    acc: float
    acc_norm: float
    acc_bytes: float
    acc_mutual_info: float | None
    gold_in_range: bool


def _rows(values: Any, what: str) -> list:
    from ..._inputs import as_sequence

    if isinstance(values, (str, bytes)):
        raise InputTypeError(f"multiple_choice: {what} must be a sequence with one entry per document")
    if isinstance(values, np.ndarray) and values.ndim == 2:
        return list(values)
    return as_sequence(values, what)


def _loglikelihoods(value: Any, what: str) -> list[float]:
    """Floats from a list of numbers or of lm-eval's ``(loglikelihood, is_greedy)`` pairs."""
    if isinstance(value, (str, bytes, dict, set, frozenset)) or not hasattr(value, "__iter__"):
        raise InputTypeError(f"multiple_choice: {what} must be a list of log-likelihoods, one per choice")
    out = []
    for j, v in enumerate(value):
        if not isinstance(v, (*_NUMBER, str, bytes, dict)) and hasattr(v, "__len__") and len(v) == 2:
            v = v[0]  # lm-eval's (loglikelihood, is_greedy)
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, _NUMBER):
            raise InputTypeError(f"multiple_choice: {what}[{j}] must be a number, got {type(v).__name__}")
        if isinstance(v, (int, np.integer)) and abs(int(v)) >= 2**53:
            raise InvalidInputError(f"multiple_choice: {what}[{j}]: {int(v)} is past 2**53, where floats stop counting")
        out.append(float(v))
    return out


def _choices(value: Any, what: str) -> list[str]:
    if isinstance(value, (str, bytes, dict, set, frozenset)) or not hasattr(value, "__iter__"):
        raise InputTypeError(f"multiple_choice: {what} must be a list of the choices' texts")
    out = list(value)
    for j, c in enumerate(out):
        if not isinstance(c, str):
            raise InputTypeError(f"multiple_choice: {what}[{j}] must be a string, got {type(c).__name__}")
        try:
            c.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInputError(f"multiple_choice: {what}[{j}] has a lone surrogate: it has no UTF-8 bytes") from None
    return out


def _golds(gold: Any, choices: list[str], what: str) -> tuple[list[int], bool]:
    """The gold indices (a list: several golds count when the argmax is any of them) and
    whether all of them name a choice."""
    n = len(choices)
    if isinstance(gold, str):
        idx = [choices.index(gold) if gold in choices else -100]
    elif isinstance(gold, (bool, np.bool_)):
        raise InputTypeError(f"multiple_choice: {what} must be an index, a choice's text or a list of indices, got a bool")
    elif isinstance(gold, (int, np.integer)):
        idx = [int(gold)]
    elif isinstance(gold, (list, tuple, np.ndarray)):
        idx = []
        for g in gold:
            if isinstance(g, (bool, np.bool_)) or not isinstance(g, (int, np.integer)):
                raise InputTypeError(f"multiple_choice: {what} must hold indices, got {type(g).__name__}")
            idx.append(int(g))
    else:
        raise InputTypeError(f"multiple_choice: {what} must be an index, a choice's text or a list of indices, got {type(gold).__name__}")
    return idx, all(0 <= g < n for g in idx)


def score_document(loglikelihoods: Any, choices: Any, gold: Any, unconditional: Any = None, *, where: str = "document") -> ChoiceResult:
    """lm-eval's ``process_results`` for one multiple-choice document (see the module)."""
    lls = _loglikelihoods(loglikelihoods, f"{where}: loglikelihoods")
    texts = _choices(choices, f"{where}: choices")
    if len(lls) != len(texts):
        raise LengthMismatchError(f"multiple_choice: {where}: {len(lls)} log-likelihoods but {len(texts)} choices")
    if not texts:
        raise InvalidInputError(f"multiple_choice: {where} has no choices (lm-eval's argmax of nothing raises)")
    golds, in_range = _golds(gold, texts, f"{where}: gold")
    arr = np.array(lls, dtype=np.float64)
    chars = np.array([float(len(c)) for c in texts])
    nbytes = np.array([float(len(c.encode("utf-8"))) for c in texts])
    with np.errstate(divide="ignore", invalid="ignore"):
        preds = (int(np.argmax(arr)), int(np.argmax(arr / chars)), int(np.argmax(arr / nbytes)))
    acc, acc_norm, acc_bytes = (1.0 if p in golds else 0.0 for p in preds)
    mutual = None
    if unconditional is not None:
        unc = _loglikelihoods(unconditional, f"{where}: unconditional")
        if len(unc) != len(lls):
            raise LengthMismatchError(f"multiple_choice: {where}: {len(unc)} unconditional log-likelihoods but {len(lls)} choices")
        mutual = 1.0 if int(np.argmax([c - u for c, u in zip(lls, unc)])) in golds else 0.0
    return ChoiceResult(acc, acc_norm, acc_bytes, mutual, in_range)


def _plain(row: Any, kind: type) -> bool:
    return type(row) is list and all(type(v) is kind for v in row)


def _document_counts(lls: list, golds: list, choices: list, uncs: list) -> np.ndarray:
    """The statistics rows of :class:`MultipleChoice`: the whole batch at once where every
    document has the common shape (:mod:`._multiple_choice_batch`). Otherwise, documents in the common shape (lists
    of floats and of strings, an int gold) are scored together, one numpy ``argmax`` along
    the rows per number of choices (the same division and the same first-maximum rule per
    row as ``score_document``); any other goes through ``score_document`` and its checks."""
    from ._multiple_choice_batch import batch_counts

    batch = batch_counts(lls, golds, choices, uncs)
    if batch is not None:
        return batch
    counts = np.zeros((len(lls), 7), dtype=np.uint64)
    groups: dict[tuple[int, bool], list] = {}  # (choices, with unconditional) -> documents
    for i, (ll, g, c, u) in enumerate(zip(lls, golds, choices, uncs)):
        fast = (type(g) is int and _plain(ll, float) and _plain(c, str) and 0 <= g < len(c) == len(ll)
                and (u is None or (_plain(u, float) and len(u) == len(ll))))
        if fast:
            try:
                nbytes = [len(x.encode("utf-8")) for x in c]
            except UnicodeEncodeError:
                fast = False
        if not fast:
            r = score_document(ll, c, g, u, where=f"document {i}")
            counts[i] = (1, r.acc, r.acc_norm, r.acc_bytes, r.acc_mutual_info or 0.0,
                         r.acc_mutual_info is not None, not r.gold_in_range)
            continue
        groups.setdefault((len(c), u is not None), []).append((i, ll, [len(x) for x in c], nbytes, g, u))
    for (_, mutual), rows in groups.items():
        idx = np.array([r[0] for r in rows], dtype=np.intp)
        arr = np.array([r[1] for r in rows], dtype=np.float64)
        gold = np.array([r[4] for r in rows], dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            preds = [arr.argmax(axis=1),
                     (arr / np.array([r[2] for r in rows], dtype=np.float64)).argmax(axis=1),
                     (arr / np.array([r[3] for r in rows], dtype=np.float64)).argmax(axis=1)]
            if mutual:
                preds.append((arr - np.array([r[5] for r in rows], dtype=np.float64)).argmax(axis=1))
        counts[idx, 0] = 1
        for col, pred in enumerate(preds, start=1):
            counts[idx, col] = pred == gold
        counts[idx, 5] = mutual  # gold_out_of_range stays 0: such golds take score_document
    return counts


# -- the registry metric ----------------------------------------------------------------------
from ..base import Metric, Score  # noqa: E402


class MultipleChoice(Metric):
    """lm-eval's multiple-choice accuracies as a registry metric (``multiple_choice``).

    ``corpus_score(loglikelihoods, golds, choices, unconditional=None)``: per document the
    choices' log-likelihoods (numbers or lm-eval's ``(loglikelihood, is_greedy)`` pairs),
    the gold (index, text or list of indices), the choices' texts (for the character and
    byte lengths) and, for ``acc_mutual_info``, the unconditional log-likelihoods (``None``
    for a document without them). ``score=`` picks the headline value (``acc``, ``acc_norm``,
    ``acc_bytes`` or ``acc_mutual_info``); the breakdown has all that every document allows.

    >>> from nlgmetrics import MultipleChoice
    >>> s = MultipleChoice().corpus_score([[-1.0, -2.0], [-3.0, -3.0]], [0, 1], [["a", "bb"], ["x", "y"]])
    >>> s.score, s["acc_norm"]
    (0.5, 0.5)
    """

    name = "multiple_choice"
    count_fields = ("documents", "acc", "acc_norm", "acc_bytes", "acc_mutual_info", "mutual_info_documents", "gold_out_of_range")
    sum_fields = ()

    def __init__(self, score: str = "acc", *, n_threads: int = 0):
        from ._lighteval_mc import LIGHTEVAL_FIELDS, LIGHTEVAL_SCORES

        super().__init__(n_threads=n_threads)
        if not isinstance(score, str) or score not in SCORES + LIGHTEVAL_SCORES:
            raise InvalidOptionError(f"multiple_choice: score must be one of {', '.join(SCORES + LIGHTEVAL_SCORES)}, got {score!r}")
        self.score = score
        self.lighteval = score in LIGHTEVAL_SCORES  # lighteval's values (its own statistics) instead of lm-eval's
        if self.lighteval:
            self.count_fields = LIGHTEVAL_FIELDS

    def _signature_items(self) -> dict[str, Any]:
        if self.lighteval:
            from ._lighteval_mc import LIGHTEVAL_REFERENCE

            return {"score": self.score, "agg": "mean", "ref": LIGHTEVAL_REFERENCE}
        return {"score": self.score, "agg": "mean", "ref": REFERENCE}

    def _abbreviations(self) -> dict[str, str]:
        return {"score": "s", "agg": "agg", "ref": "ref"}

    # -- statistics -----------------------------------------------------------------------------
    def stats(self, loglikelihoods: Any, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
              token_counts: Any = None):
        """Per document: ``documents`` (1), the four 0/1 values, ``mutual_info_documents``
        (1 when unconditional log-likelihoods were given) and ``gold_out_of_range``; with a
        lighteval score, the five lighteval values, how many documents define each
        normalised one, and ``gold_out_of_range``. ``token_counts`` (each choice's number of
        tokens, per document) is read by ``lighteval_acc_norm_token`` only."""
        from ...stats import SegmentStats

        if golds is None or choices is None:
            raise InputTypeError("multiple_choice needs loglikelihoods, golds and choices (the choices' texts), one entry per document")
        lls = _rows(loglikelihoods, "loglikelihoods")
        gs = _rows(golds, "golds") if not isinstance(golds, str) else None
        if gs is None:
            raise InputTypeError("multiple_choice: golds must be a sequence with one gold per document")
        cs = _rows(choices, "choices")
        uncs = [None] * len(lls) if unconditional is None else _rows(unconditional, "unconditional")
        for name, seq in (("golds", gs), ("choices", cs), ("unconditional", uncs)):
            if len(seq) != len(lls):
                raise LengthMismatchError(f"multiple_choice: {len(lls)} documents of loglikelihoods but {len(seq)} of {name}")
        if self.lighteval:
            from ._lighteval_mc import lighteval_counts

            toks = [None] * len(lls) if token_counts is None else _rows(token_counts, "token_counts")
            if len(toks) != len(lls):
                raise LengthMismatchError(f"multiple_choice: {len(lls)} documents of loglikelihoods but {len(toks)} of token_counts")
            if token_counts is None and self.score == "lighteval_acc_norm_token":
                raise InputTypeError("multiple_choice: lighteval_acc_norm_token needs token_counts (each choice's number of tokens, per document)")
            def check(i: int, ll: Any, c: Any, u: Any) -> tuple:
                return (_loglikelihoods(ll, f"document {i}: loglikelihoods"), _choices(c, f"document {i}: choices"),
                        None if u is None else _loglikelihoods(u, f"document {i}: unconditional"))

            counts = lighteval_counts(lls, gs, cs, uncs, toks, self.score, check)
        else:
            counts = _document_counts(lls, gs, cs, uncs)
        return SegmentStats(self.key, self.count_fields, counts, (), np.zeros((len(lls), 0)))

    def _score(self, stats) -> Score:
        c = dict(zip(self.count_fields, (int(x) for x in stats.counts)))
        docs = c["documents"]
        if docs == 0:
            raise InvalidInputError("multiple_choice: no documents")
        if self.lighteval:
            return self._lighteval_score(stats, c)
        parts = {k: c[k] / docs for k in SCORES[:3]}  # lm-eval's sum(0/1 floats) / len: the same float
        if c["mutual_info_documents"] == docs:
            parts["acc_mutual_info"] = c["acc_mutual_info"] / docs
        elif self.score == "acc_mutual_info":
            raise InvalidInputError(
                f"multiple_choice: acc_mutual_info needs unconditional log-likelihoods for every document "
                f"({c['mutual_info_documents']} of {docs} have them)")
        return Score(self.name, parts[self.score], self.signature(stats), stats, **parts,
                     documents=docs, gold_out_of_range=c["gold_out_of_range"])

    def _lighteval_score(self, stats, c: dict) -> Score:
        """lighteval's ``np.mean`` of 0/1 ints: the count over the documents (exact below
        2**53). A normalised value is in the breakdown when every document defines it."""
        from ._lighteval_mc import DEFINED_FIELDS, LIGHTEVAL_SCORES

        docs = c["documents"]
        parts = {LIGHTEVAL_SCORES[0]: c[LIGHTEVAL_SCORES[0]] / docs}
        for name, defined in zip(LIGHTEVAL_SCORES[1:], DEFINED_FIELDS):
            if c[defined] == docs:
                parts[name] = c[name] / docs
        if self.score not in parts:
            raise InvalidInputError(f"multiple_choice: {self.score} is undefined for some documents "
                                    f"({c[DEFINED_FIELDS[LIGHTEVAL_SCORES.index(self.score) - 1]]} of {docs} define it)")
        return Score(self.name, parts[self.score], self.signature(stats), stats, **parts,
                     documents=docs, gold_out_of_range=c["gold_out_of_range"])

    def _defined_columns(self, seg) -> list[str]:
        """The lighteval values every document of ``seg`` defines."""
        from ._lighteval_mc import DEFINED_FIELDS, LIGHTEVAL_SCORES

        out = [LIGHTEVAL_SCORES[0]]
        for name, defined in zip(LIGHTEVAL_SCORES[1:], DEFINED_FIELDS):
            if bool((seg.counts[:, self.count_fields.index(defined)] == 1).all()):
                out.append(name)
        return out

    def _sentence_scores(self, seg) -> np.ndarray:
        col = self.count_fields.index(self.score)
        if self.lighteval:
            if self.score not in self._defined_columns(seg):
                raise InvalidInputError(f"multiple_choice: {self.score} is undefined for some documents")
            return seg.counts[:, col].astype(np.float64)
        if self.score == "acc_mutual_info" and not bool((seg.counts[:, 5] == 1).all()):
            raise InvalidInputError("multiple_choice: acc_mutual_info needs unconditional log-likelihoods for every document")
        return seg.counts[:, col].astype(np.float64)

    # -- faces ------------------------------------------------------------------------------------
    def corpus_score(self, loglikelihoods: Any, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
                     token_counts: Any = None) -> Score:
        return self.score_stats(self.stats(loglikelihoods, golds, choices, unconditional, token_counts).total())

    def sentence_scores(self, loglikelihoods: Any, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
                        token_counts: Any = None) -> np.ndarray:
        return self._sentence_scores(self.stats(loglikelihoods, golds, choices, unconditional, token_counts))

    def sentence_parts(self, loglikelihoods: Any, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
                       token_counts: Any = None) -> dict[str, np.ndarray]:
        seg = self.stats(loglikelihoods, golds, choices, unconditional, token_counts)
        out = {"score": self._sentence_scores(seg)}
        if self.lighteval:
            out.update({f: seg.counts[:, self.count_fields.index(f)].astype(np.float64) for f in self._defined_columns(seg)})
            return out
        out.update({f: seg.counts[:, j].astype(np.float64) for j, f in enumerate(self.count_fields[1:4], start=1)})
        if bool((seg.counts[:, 5] == 1).all()):
            out["acc_mutual_info"] = seg.counts[:, 4].astype(np.float64)
        return out

    def update(self, loglikelihoods: Any, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
               token_counts: Any = None) -> "MultipleChoice":
        return self._accumulate(self.stats(loglikelihoods, golds, choices, unconditional, token_counts).total())

    def add_batch(self, *, loglikelihoods: Any = None, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
                  predictions: Any = None, references: Any = None, token_counts: Any = None) -> "MultipleChoice":
        if loglikelihoods is None and golds is None:
            loglikelihoods, golds = predictions, references
        return self.update(loglikelihoods, golds, choices, unconditional, token_counts)

    def add(self, *, loglikelihoods: Any = None, gold: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
            prediction: Any = None, reference: Any = None, token_counts: Any = None) -> "MultipleChoice":
        if loglikelihoods is None and gold is None:
            loglikelihoods, gold = prediction, reference
        return self.update([loglikelihoods], [gold], [choices], None if unconditional is None else [unconditional],
                           None if token_counts is None else [token_counts])

    def compute(self, *, loglikelihoods: Any = None, golds: Any = None, choices: Any = None, unconditional: Any = None,  # type: ignore[override]
                predictions: Any = None, references: Any = None, token_counts: Any = None) -> Score:
        if loglikelihoods is None and golds is None:
            loglikelihoods, golds = predictions, references
        if loglikelihoods is not None or golds is not None:
            self.update(loglikelihoods, golds, choices, unconditional, token_counts)
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("multiple_choice has no pairwise form")


# -- lm-eval's samples files ------------------------------------------------------------------
class LmEvalSamples(NamedTuple):
    """A multiple-choice ``samples_*.jsonl`` read back: the inputs (ready for
    ``MultipleChoice().corpus_score(loglikelihoods, golds, choices, unconditional)``), the
    values lm-eval logged per document, the values recomputed here, and the documents where
    they differ as ``(doc_id, metric, logged, recomputed)``."""

    doc_ids: list
    loglikelihoods: list
    golds: list
    choices: list
    unconditional: list | None
    logged: dict
    recomputed: dict
    mismatches: list


def _float(v: Any, at: str) -> float:
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            raise InvalidInputError(f"{at}: {v!r} is not a log-likelihood") from None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InvalidInputError(f"{at}: {v!r} is not a log-likelihood")
    return float(v)


def _target(target: Any, at: str) -> Any:
    """lm-eval writes ``str(target)``: an index (``"2"``), a list of them (``"[0, 2]"``) or
    the gold choice's text; a digit string is an index as lm-eval's ``doc_to_target`` reads it."""
    import ast

    if isinstance(target, (int, list)) and not isinstance(target, bool):
        return target
    if not isinstance(target, str):
        raise InvalidInputError(f'{at}: "target" must be a string, got {target!r}')
    if target.isdigit():
        return int(target)
    if target.startswith("[") and target.endswith("]"):
        try:
            value = ast.literal_eval(target)
        except (ValueError, SyntaxError):
            return target
        if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return value
    return target


def _requests(rec: dict, at: str) -> tuple[list[tuple[str, str]], list[float]]:
    args = rec.get("arguments")
    if isinstance(args, dict):  # {"gen_args_0": {"arg_0": context, "arg_1": continuation}, ...}
        keys = sorted(args, key=lambda k: int(k.rpartition("_")[2]) if k.rpartition("_")[2].isdigit() else -1)
        pairs = [(args[k].get("arg_0"), args[k].get("arg_1")) if isinstance(args[k], dict) else (None, None) for k in keys]
    elif isinstance(args, list):  # older versions: [[context, continuation], ...]
        pairs = [tuple(a[:2]) if isinstance(a, list) and len(a) >= 2 else (None, None) for a in args]
    else:
        raise InvalidInputError(f'{at}: missing "arguments" (the requests\' context and continuation)')
    if not all(isinstance(c, str) and isinstance(t, str) for c, t in pairs):
        raise InvalidInputError(f'{at}: "arguments" must hold (context, continuation) strings')
    resps = rec.get("filtered_resps")
    if resps is None:
        resps = [r[0] if isinstance(r, list) and r else None for r in rec.get("resps") or []]
    if not isinstance(resps, list) or len(resps) != len(pairs):
        raise InvalidInputError(f'{at}: "filtered_resps" must hold one [loglikelihood, is_greedy] per request ({len(pairs)})')
    lls = []
    for j, r in enumerate(resps):
        if not isinstance(r, list) or len(r) != 2:
            raise InvalidInputError(f'{at}: filtered_resps[{j}] is not [loglikelihood, is_greedy]')
        lls.append(_float(r[0], f"{at}: filtered_resps[{j}]"))
    return pairs, lls


def read_lm_eval_samples(path: Any, *, target_delimiter: str = " ") -> LmEvalSamples:
    """Read lm-eval's ``samples_<task>_<date>.jsonl`` of a multiple-choice task and recompute
    ``acc`` / ``acc_norm`` / ``acc_bytes`` / ``acc_mutual_info`` per document, to compare
    with the values the file logs.

    The choices' texts are the logged continuations less ``target_delimiter`` (the task's,
    ``" "`` unless its config says otherwise; lm-eval measures the choices without it). With
    ``acc_mutual_info`` the second half of the requests (empty context) holds the
    unconditional log-likelihoods. Tasks whose choices are in the context (winogrande's
    ``multiple_input``) are not recoverable from the log: their mismatches say so."""
    from ...io.text import read_jsonl_records

    records = read_jsonl_records(path)
    return lm_eval_samples(records, str(path), target_delimiter=target_delimiter)


def lm_eval_samples(records: Any, where: str = "samples", *, target_delimiter: str = " ") -> LmEvalSamples:
    """:func:`read_lm_eval_samples` of records already parsed: ``(line number, record)`` pairs."""
    ids, lls_all, golds, choices, uncs = [], [], [], [], []
    logged: dict[str, list] = {m: [] for m in SCORES}
    recomputed: dict[str, list] = {m: [] for m in SCORES}
    mismatches = []
    for lineno, rec in records:
        at = f"{where}:{lineno}"
        if not isinstance(rec, dict):
            raise InvalidInputError(f"{at}: expected an object with doc_id, target, arguments and filtered_resps")
        if "target" not in rec:
            raise InvalidInputError(f'{at}: missing "target"')
        pairs, lls = _requests(rec, at)
        mutual = "acc_mutual_info" in (rec.get("metrics") or ()) or "acc_mutual_info" in rec
        unc = None
        if mutual:
            half = len(pairs) // 2
            if len(pairs) % 2 or any(ctx != "" for ctx, _ in pairs[half:]):
                raise InvalidInputError(f"{at}: acc_mutual_info without the unconditional requests (empty context) after the others")
            pairs, unc, lls = pairs[:half], lls[half:], lls[:half]
        texts = [t[len(target_delimiter):] if target_delimiter and t.startswith(target_delimiter) else t for _, t in pairs]
        gold = _target(rec["target"], at)
        r = score_document(lls, texts, gold, unc, where=at)
        ids.append(rec.get("doc_id", len(ids)))
        lls_all.append(lls)
        golds.append(gold)
        choices.append(texts)
        uncs.append(unc)
        for m, v in zip(SCORES, r[:4]):
            recomputed[m].append(v)
            lv = rec.get(m)
            logged[m].append(lv)
            if lv is not None and v is not None and lv != v:
                mismatches.append((rec.get("doc_id"), m, lv, v))
    if not ids:
        raise InvalidInputError(f"{where}: no samples")
    return LmEvalSamples(ids, lls_all, golds, choices, None if all(u is None for u in uncs) else uncs,
                         logged, recomputed, mismatches)
