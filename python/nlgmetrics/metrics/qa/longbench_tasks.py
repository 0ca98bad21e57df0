"""LongBench's (THUDM/LongBench v1 ``metrics.py``) scores of its non-QA, non-ROUGE datasets
and ``eval.py``'s scorer over them:

- ``code_sim_score`` (lcc, repobench-p): the first line of the prediction (after leading
  line breaks) holding none of ````` ``, ``#``, ``//`` (else ``""``), then fuzzywuzzy's
  ``fuzz.ratio(line, answer) / 100``. LongBench's requirements pin ``fuzzywuzzy`` without
  python-Levenshtein, so ``fuzz.ratio`` is difflib's ``SequenceMatcher`` (flavour
  ``difflib``, the default); with python-Levenshtein installed (or thefuzz/rapidfuzz) it is
  the Indel ratio ``2 * LCS / (len(a) + len(b))`` (flavour ``levenshtein``): a different
  number. Both: equal strings 100, one empty side 0, ``int(round(100 * ratio))``.
- ``classification_score`` (trec, lsht): the class names of ``all_classes`` found in the
  prediction, less those that are a substring of (but not equal to) the answer, in
  LongBench's own loop (a ``for`` over the list it removes from, so the name after a removed
  one is not looked at); ``1 / len(matched)`` when the answer is among them, else 0.
- ``retrieval_score`` / ``retrieval_zh_score`` (passage_retrieval_en / _zh): the number of
  ``Paragraph (\\d+)`` / ``段落(\\d+)`` in the answer; the share of the prediction's numbers
  (``\\d+``, Unicode digits, compared as strings) equal to it.
- ``count_score`` (passage_count): the share of the prediction's numbers equal to the answer.

``eval.py`` keeps only the prediction's first line for trec and lsht (and triviaqa, samsum).
"""
from __future__ import annotations

import difflib
import re
from typing import Any, Sequence

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

CODE_SIM_FLAVOURS = ("difflib", "levenshtein")
# dataset -> LongBench's metric for it (eval.py's dataset2metric)
TASK_DATASETS = {"trec": "classification", "lsht": "classification", "passage_retrieval_en": "retrieval",
                 "passage_retrieval_zh": "retrieval_zh", "passage_count": "count", "lcc": "code_sim", "repobench-p": "code_sim"}
FIRST_LINE = frozenset({"trec", "lsht"})
_NUMBER = re.compile(r"\d+")
_PARAGRAPH = {"retrieval": re.compile(r"Paragraph (\d+)"), "retrieval_zh": re.compile(r"段落(\d+)")}


def _indel_ratio(a: str, b: str) -> float:
    """``Levenshtein.ratio`` / rapidfuzz's Indel normalised similarity: ``1 - (len(a) + len(b)
    - 2 * LCS) / (len(a) + len(b))``; the LCS by the bit-parallel recurrence (Allison–Dix)."""
    if len(a) < len(b):
        a, b = b, a
    masks: dict[str, int] = {}
    for i, ch in enumerate(a):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for ch in b:
        u = v & masks.get(ch, 0)
        v = ((v + u) | (v - u)) & full
    lcs = len(a) - bin(v).count("1")
    total = len(a) + len(b)
    return 1.0 - (total - 2 * lcs) / total


def fuzz_ratio(s1: str, s2: str, flavour: str = "difflib") -> int:
    """fuzzywuzzy 0.18's ``fuzz.ratio``: 100 for equal strings, 0 when one is empty, else
    ``int(round(100 * ratio))`` with difflib's ``SequenceMatcher(None, s1, s2).ratio()``
    (``difflib``) or the Indel ratio of python-Levenshtein / thefuzz (``levenshtein``)."""
    if flavour not in CODE_SIM_FLAVOURS:
        raise InvalidOptionError(f"unknown fuzz.ratio flavour {flavour!r}; known: {', '.join(CODE_SIM_FLAVOURS)}")
    if s1 == s2:
        return 100
    if not s1 or not s2:
        return 0
    r = difflib.SequenceMatcher(None, s1, s2).ratio() if flavour == "difflib" else _indel_ratio(s1, s2)
    return int(round(100 * r))


def code_line(prediction: str) -> str:
    """The line ``code_sim_score`` compares: the first without a backtick, ``#`` or ``//``."""
    for line in prediction.lstrip("\n").split("\n"):
        if "`" not in line and "#" not in line and "//" not in line:
            return line
    return ""


def code_sim_score(prediction: str, ground_truth: str, flavour: str = "difflib") -> float:
    return fuzz_ratio(code_line(prediction), ground_truth, flavour) / 100


def classification_score(prediction: str, ground_truth: str, all_classes: Sequence[str]) -> float:
    matched = [c for c in all_classes if c in prediction]
    i = 0
    while i < len(matched):  # LongBench removes from the list its for-loop walks: the next name is skipped
        term = matched[i]
        if term in ground_truth and term != ground_truth:
            matched.remove(term)  # the first equal name, as list.remove
        i += 1
    return 1.0 / len(matched) if ground_truth in matched else 0.0


def _share_equal(prediction: str, target: str) -> float:
    numbers = _NUMBER.findall(prediction)
    if not numbers:
        return 0.0
    return float(sum(1 for n in numbers if n == target) / len(numbers))


def retrieval_score(prediction: str, ground_truth: str, *, zh: bool = False) -> float:
    found = _PARAGRAPH["retrieval_zh" if zh else "retrieval"].findall(ground_truth)
    if not found:
        raise InvalidInputError(f"LongBench's retrieval{'_zh' if zh else ''}_score: the answer {ground_truth[:60]!r} names no "
                                f"{'段落N' if zh else 'Paragraph N'} (LongBench stops on an IndexError)")
    return _share_equal(prediction, found[0])


def count_score(prediction: str, ground_truth: str | int) -> float:
    return _share_equal(prediction, str(ground_truth))


def _check_classes(all_classes: Any) -> list[str]:
    if all_classes is None:
        raise InvalidInputError("LongBench's classification_score needs all_classes (the records' \"all_classes\" list)")
    if isinstance(all_classes, (str, bytes)) or not all(isinstance(c, str) for c in all_classes):
        raise InputTypeError("LongBench: all_classes must be a list of class-name strings")
    return list(all_classes)


def longbench_task_rows(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[Any]], all_classes: Sequence[str] | None = None,
                        *, flavour: str = "difflib") -> list[float]:
    """Per example the score LongBench's ``scorer`` adds (0–1): the first line where ``eval.py``
    keeps it, then the best answer (``max`` from ``0.``)."""
    if not isinstance(dataset, str) or dataset not in TASK_DATASETS:
        raise InvalidOptionError(f"{dataset!r} is not a LongBench classification, retrieval, count or code dataset; known: {', '.join(TASK_DATASETS)}")
    if flavour not in CODE_SIM_FLAVOURS:
        raise InvalidOptionError(f"unknown code_sim flavour {flavour!r}; known: {', '.join(CODE_SIM_FLAVOURS)}")
    if isinstance(predictions, (str, bytes)) or isinstance(answers, (str, bytes)):
        raise InputTypeError("LongBench: predictions and answers must be lists")
    predictions, answers = list(predictions), list(answers)
    if len(predictions) != len(answers):
        raise LengthMismatchError(f"LongBench {dataset}: {len(predictions)} predictions but {len(answers)} answer lists")
    kind = TASK_DATASETS[dataset]
    classes = _check_classes(all_classes) if kind == "classification" else None
    rows = []
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not isinstance(pred, str) or isinstance(golds, (str, bytes)) or not isinstance(golds, Sequence):
            raise InputTypeError(f"LongBench {dataset}: example {i}: a prediction string and a list of answers are required")
        for g in golds:
            ok = isinstance(g, str) or (kind == "count" and isinstance(g, int) and not isinstance(g, bool))
            if not ok:
                raise InputTypeError(f"LongBench {dataset}: example {i}: an answer must be a string{' or an integer' if kind == 'count' else ''}, got {type(g).__name__}")
        if dataset in FIRST_LINE:
            pred = pred.lstrip("\n").split("\n")[0]
        score = 0.0
        for g in golds:
            if kind == "classification":
                s = classification_score(pred, g, classes)
            elif kind == "count":
                s = count_score(pred, g)
            elif kind == "code_sim":
                s = code_sim_score(pred, g, flavour)
            else:
                try:
                    s = retrieval_score(pred, g, zh=kind == "retrieval_zh")
                except InvalidInputError as e:
                    raise InvalidInputError(f"example {i}: {e}") from None
            score = max(score, s)
        rows.append(score)
    return rows


def longbench_task_score(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[Any]], all_classes: Sequence[str] | None = None,
                         *, flavour: str = "difflib") -> float:
    """LongBench ``eval.py``'s ``scorer(dataset, predictions, answers, all_classes)``:
    ``round(100 * total_score / len(predictions), 2)``, ``total_score += score`` in order.

    >>> longbench_task_score("passage_count", ["3", "There are 3 or 4"], [["3"], ["3"]])
    75.0
    """
    from .longbench_qa import scorer_mean

    return scorer_mean(longbench_task_rows(dataset, predictions, answers, all_classes, flavour=flavour))
