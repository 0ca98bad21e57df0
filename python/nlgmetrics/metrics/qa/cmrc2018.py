"""CMRC 2018's official F1 / EM (ymcui/cmrc2018 ``squad-style-data/cmrc2018_evaluate.py``, v5).

Pure Python (no native code). Text is lowercased and stripped; ``mixed_segmentation`` emits
each CJK character (U+4E00–U+9FA5) and each listed punctuation character as a token and runs
of other characters through nltk's ``word_tokenize`` (the English Punkt model, read offline:
see ``nltk_word_tokenize``); with ``rm_punc`` the listed punctuation is dropped. F1 per answer
is from the longest common contiguous token run (``find_lcs``), max over answers; EM compares
the texts with that punctuation removed. Corpus values are ``100.0 * sum / total`` with the
script's sequential ``+=``. The script is Python 2; the listed ``'……'`` is two characters, so
(as there) it never matches a single character.
"""
from __future__ import annotations

import re
from typing import Sequence

from ...errors import InputTypeError, InvalidInputError, LengthMismatchError

_SP_CHAR = ['-', ':', '_', '*', '^', '/', '\\', '~', '`', '+', '=',
            '，', '。', '：', '？', '！', '“', '”', '；', '’', '《', '》', '……', '·', '、',
            '「', '」', '（', '）', '－', '～', '『', '』']
_CJK = re.compile("[\u4e00-\u9fa5]")


def mixed_segmentation(in_str: str, rm_punc: bool = False) -> list[str]:
    from ..nltk_word_tokenize import word_tokenize as tok  # nltk imported only for text that needs it

    in_str = in_str.lower().strip()
    out: list[str] = []
    temp = ""
    for char in in_str:
        if rm_punc and char in _SP_CHAR:
            continue
        if _CJK.search(char) or char in _SP_CHAR:
            if temp != "":
                out.extend(tok(temp))
                temp = ""
            out.append(char)
        else:
            temp += char
    if temp != "":
        out.extend(tok(temp))
    return out


def remove_punctuation(in_str: str) -> str:
    return "".join(ch for ch in in_str.lower().strip() if ch not in _SP_CHAR)


def find_lcs(s1: Sequence[str], s2: Sequence[str]) -> tuple[Sequence[str], int]:
    """The script's ``find_lcs`` (longest common contiguous run, its first end position in
    row-major order), without its ``len(s1) x len(s2)`` table: each row keeps only the cells
    where the tokens match (the same cells, visited in the same order), so memory follows the
    matches and time the matches plus ``len(s1)``."""
    positions: dict[str, list[int]] = {}
    for j, tok in enumerate(s2):
        positions.setdefault(tok, []).append(j)
    prev: dict[int, int] = {}
    mmax = p = 0
    for i, tok in enumerate(s1):
        cur: dict[int, int] = {}
        for j in positions.get(tok, ()):
            v = prev.get(j, 0) + 1
            cur[j + 1] = v
            if v > mmax:
                mmax = v
                p = i + 1
        prev = cur
    return s1[p - mmax:p], mmax


def calc_f1_score(answers: Sequence[str], prediction: str) -> float:
    scores = []
    for ans in answers:
        ans_segs = mixed_segmentation(ans, rm_punc=True)
        pred_segs = mixed_segmentation(prediction, rm_punc=True)
        _, n = find_lcs(ans_segs, pred_segs)
        if n == 0:
            scores.append(0)
            continue
        precision = 1.0 * n / len(pred_segs)
        recall = 1.0 * n / len(ans_segs)
        scores.append((2 * precision * recall) / (precision + recall))
    return max(scores)


def calc_em_score(answers: Sequence[str], prediction: str) -> int:
    p = remove_punctuation(prediction)
    return int(any(remove_punctuation(a) == p for a in answers))


def cmrc2018(predictions: Sequence[str], answers: Sequence[Sequence[str]]) -> dict[str, float]:
    """``{"f1", "em", "average"}`` as the script computes them (unrounded; it prints ``%.3f``):
    the :class:`CMRC2018` metric's values."""
    if isinstance(predictions, str) or isinstance(answers, str):
        raise InputTypeError("cmrc2018: predictions and answers must be lists")
    predictions, answers = list(predictions), list(answers)
    if len(predictions) != len(answers):
        raise LengthMismatchError(f"cmrc2018: {len(predictions)} predictions but {len(answers)} answer lists")
    if not predictions:
        raise InvalidInputError("cmrc2018: no questions (the script divides by zero)")
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not isinstance(pred, str) or isinstance(golds, str) or not all(isinstance(g, str) for g in golds):
            raise InputTypeError(f"cmrc2018: question {i}: a prediction string and a list of answer strings are required")
        if not golds:
            raise InvalidInputError(f"cmrc2018: question {i} has no gold answer (the script's max() of nothing)")
    s = CMRC2018().corpus_score(predictions, [list(g) for g in answers])
    return {"f1": s.f1, "em": s.em, "average": s.average}


# -- the registry metric ----------------------------------------------------------------------
from typing import Any  # noqa: E402

from ..base import Metric, Score  # noqa: E402

UNANSWERED = "Unanswered question: {}"


def _question_rows(predictions: Sequence[str | None], answers: Sequence[Sequence[str]]) -> tuple[list[float], list[int], list[int]]:
    """Per question: F1 (0–1), EM (0/1) and skipped (1 for a missing prediction, ``None``:
    the script's ``Unanswered question``, scored 0 and counted in the total)."""
    f1s, ems, skips = [], [], []
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not golds:
            raise InvalidInputError(f"cmrc2018: question {i} has no gold answer (the script's max() of nothing)")
        if pred is None:
            f1s.append(0.0)
            ems.append(0)
            skips.append(1)
            continue
        f1s.append(float(calc_f1_score(golds, pred)))
        ems.append(calc_em_score(golds, pred))
        skips.append(0)
    return f1s, ems, skips


def _official(f1_sum: float, em: int, total: int, skip: int) -> tuple[float, float, float, dict[str, Any]]:
    """``(F1, EM, AVERAGE, the script's JSON values)`` from the questions' F1 sum (0–1
    each) and counts, with the script's arithmetic."""
    f1 = 100.0 * f1_sum / total
    em_score = 100.0 * em / total
    average = (em_score + f1) * 0.5
    return f1, em_score, average, {"AVERAGE": "%.3f" % average, "F1": "%.3f" % f1, "EM": "%.3f" % em_score, "TOTAL": total, "SKIP": skip}


class CMRC2018Score(Score):
    def format(self, width: int = 3, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"cmrc2018 F1 = {self.f1:.{width}f}, EM = {self.em:.{width}f}, AVERAGE = {self.average:.{width}f} (total {self.total}, skip {self.skip})"


class CMRC2018(Metric):
    """CMRC 2018's official F1 / EM (``cmrc2018_evaluate.py`` v5) as a registry metric.

    Statistics per question: ``em`` (0/1), ``total`` (1), ``skip`` (1 for a missing
    prediction, ``None``) and ``f1`` (0–1; kept in order so the corpus F1 is the script's
    own ``f1 += ...``). The score is ``F1`` (0–100); the breakdown has ``f1``, ``em``,
    ``average`` (``(EM + F1) * 0.5``), ``total``, ``skip`` and ``official``: the script's
    JSON values (``AVERAGE``, ``F1``, ``EM`` as ``'%.3f'`` strings, ``TOTAL``, ``SKIP``).

    >>> from nlgmetrics import CMRC2018
    >>> s = CMRC2018().corpus_score(["天安门广场", "1949年"], [["天安门广场", "天安门"], ["1949年10月1日"]])
    >>> round(s.f1, 3), s.em
    (75.0, 50.0)
    """

    name = "cmrc2018"
    count_fields = ("em", "total", "skip")
    sum_fields = ("f1",)

    def __init__(self, *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        from ..nltk_word_tokenize import word_tokenizer

        word_tokenizer()  # a missing nltk names its extra when the metric is built, not mid-corpus

    def _signature_items(self) -> dict[str, Any]:
        return {"tok": "mixed-nltk", "ref": "cmrc2018_evaluate.py-v5"}

    def _abbreviations(self) -> dict[str, str]:
        return {"tok": "tok", "ref": "ref"}

    def stats(self, predictions: Any, references: Any):  # type: ignore[override]
        """Per question statistics; a prediction may be ``None`` (unanswered)."""
        import numpy as np

        from ..._inputs import as_references, as_sequence
        from ...stats import SegmentStats

        if isinstance(predictions, (str, bytes)):
            raise InputTypeError("cmrc2018: predictions must be a sequence of strings, not a single string")
        preds = as_sequence(predictions, "predictions")
        for i, p in enumerate(preds):
            if p is not None and not isinstance(p, str):
                raise InputTypeError(f"cmrc2018: predictions[{i}] must be a string (or None: unanswered), got {type(p).__name__}")
        texts = [p for p in preds if p is not None]
        refs = as_references(references, len(preds), predictions=texts if len(texts) == len(preds) else None)
        try:
            f1s, ems, skips = _question_rows(preds, refs)
        except UnicodeEncodeError as e:  # a lone surrogate through nltk's regexes is fine; guard anyway
            raise InputTypeError(f"cmrc2018: text is not encodable: {e}") from None
        counts = np.empty((len(preds), 3), dtype=np.uint64)
        counts[:, 0] = ems
        counts[:, 1] = 1
        counts[:, 2] = skips
        ref_counts = np.fromiter((len(r) for r in refs), dtype=np.int64, count=len(refs))
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, np.asarray(f1s, dtype=np.float64).reshape(-1, 1),
                            ref_counts=ref_counts, sequence_field="f1")

    def _segment_stats(self, predictions, references):
        return self.stats(predictions, references)

    def _score(self, stats) -> Score:
        import math

        from ...stats import sequential_column_sums

        em, total, skip = (int(x) for x in stats.counts)
        if total == 0:
            raise InvalidInputError("cmrc2018: no questions (the script divides by zero)")
        if stats.sequence is not None and len(stats.sequence) == stats.n_segments == total:
            f1_sum = float(sequential_column_sums(stats.sequence))
        else:
            f1_sum = math.fsum(stats.sum_partials[0])
        f1, em_score, average, official = _official(f1_sum, em, total, skip)
        s = CMRC2018Score(self.name, f1, self.signature(stats), stats, f1=f1, em=em_score, average=average, total=total, skip=skip)
        s.official = official
        return s

    def _sentence_scores(self, seg):
        return 100.0 * seg.sums[:, 0]


def evaluate_official(dataset_json: Any, predictions: Any, warn: Any = None) -> dict[str, Any]:
    """The script's result from its inputs: the SQuAD-style dataset JSON and the predictions
    ``{id: answer}``; ``warn(message)`` receives ``Unanswered question: ID`` lines. Ids are
    ``strip()``-ed as the script does; a non-string prediction is ``str()``-ed as there."""
    warn = warn or (lambda message: None)
    if not isinstance(dataset_json, dict) or not isinstance(dataset_json.get("data"), list):
        raise InvalidInputError("cmrc2018: the dataset is not SQuAD-style JSON (an object with a 'data' list)")
    if not isinstance(predictions, dict):
        raise InvalidInputError("cmrc2018: predictions must be a JSON object {question id: answer}")
    preds: list[str | None] = []
    golds: list[list[str]] = []
    try:
        for instance in dataset_json["data"]:
            for para in instance["paragraphs"]:
                for qa in para["qas"]:
                    qid = qa["id"].strip()
                    answers = [x["text"] for x in qa["answers"]]
                    if not all(isinstance(a, str) for a in answers):
                        raise InvalidInputError(f"cmrc2018: question {qid}: answer texts must be strings")
                    if not answers:
                        raise InvalidInputError(f"cmrc2018: question {qid} has no gold answer (the script's max() of nothing)")
                    golds.append(answers)
                    if qid not in predictions:
                        warn(UNANSWERED.format(qid))
                        preds.append(None)
                        continue
                    p = predictions[qid]
                    preds.append(p if isinstance(p, str) else json_str(p))
    except (KeyError, TypeError, AttributeError) as e:
        raise InvalidInputError(f"cmrc2018: the dataset is not SQuAD-style JSON ({type(e).__name__}: {e})") from None
    CMRC2018()  # a missing nltk names its extra before any question is scored
    if not preds:
        raise InvalidInputError("cmrc2018: no questions (the script divides by zero)")
    try:
        f1s, ems, skips = _question_rows(preds, golds)
    except UnicodeEncodeError as e:
        raise InputTypeError(f"cmrc2018: text is not encodable: {e}") from None
    from .squad_totals import in_order

    # the script's f1 += ..., in order, without numpy (the CLI's plain run)
    return _official(in_order(f1s), sum(ems), len(preds), sum(skips))[3]


def json_str(value: Any) -> str:
    """The script's ``str()`` of a JSON integer prediction (the same in Python 2 and 3);
    any other non-string is refused (Python 2 prints floats to 12 digits, ``None`` as
    ``'None'``: scoring those texts would be an accident)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise InvalidInputError(f"cmrc2018: a prediction must be a string, got {value!r}")
