"""LongBench's ``qa_f1_score`` / ``qa_f1_zh_score`` (THUDM/LongBench ``metrics.py``) and its
``eval.py`` scorer: max over the gold answers per example, then
``round(100 * total_score / len(predictions), 2)``. Pure Python (no native code); the Chinese
flavour segments with jieba (``pip install nlgmetrics[zh]``), ``cut_all=False``.

LongBench's scorer keeps only the first line of the prediction
(``prediction.lstrip('\\n').split('\\n')[0]``) for triviaqa (and trec, samsum, lsht):
pass ``first_line=True`` for triviaqa.
"""
from __future__ import annotations

import re
import string
from collections import Counter
from typing import Any, Sequence

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, MissingExtraError

_CN_PUNCT = ("！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】"
             "〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘’‛“”„‟…‧﹏.")
_EN_PUNCT = frozenset(string.punctuation)
_ALL_PUNCT = frozenset(string.punctuation + _CN_PUNCT)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(s: str) -> str:
    s = "".join(ch for ch in s.lower() if ch not in _EN_PUNCT)
    return " ".join(_ARTICLES.sub(" ", s).split())


def normalize_zh_answer(s: str) -> str:
    return "".join("".join(ch for ch in s.lower() if ch not in _ALL_PUNCT).split())


def _f1(prediction: list[str], ground_truth: list[str]) -> float:
    num_same = sum((Counter(prediction) & Counter(ground_truth)).values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction)
    recall = 1.0 * num_same / len(ground_truth)
    return (2 * precision * recall) / (precision + recall)


def qa_f1_score(prediction: str, ground_truth: str) -> float:
    return _f1(normalize_answer(prediction).split(), normalize_answer(ground_truth).split())


def _jieba():
    try:
        import jieba
    except ImportError:
        raise MissingExtraError("qa_f1_zh_score needs jieba: pip install nlgmetrics[zh]") from None
    jieba.setLogLevel(60)  # its dictionary-loading messages are not ours to print
    return jieba


def qa_f1_zh_score(prediction: str, ground_truth: str) -> float:
    # jieba.cut(text, cut_all=False), in the core's copy of jieba (nlgmetrics.tokenizers.jieba_cut)
    from ...tokenizers import jieba_cut

    pw, gw = jieba_cut([prediction, ground_truth])
    p = [t for t in (normalize_zh_answer(t) for t in pw) if len(t) > 0]
    g = [t for t in (normalize_zh_answer(t) for t in gw) if len(t) > 0]
    return _f1(p, g)


def longbench_qa_f1_rows(predictions: Sequence[str], answers: Sequence[Sequence[str]], *, zh: bool = False, first_line: bool = False) -> list[float]:
    """Per example: max over its gold answers (LongBench's ``score = max(score, ...)`` from 0.0)."""
    if isinstance(predictions, str) or isinstance(answers, str):
        raise InputTypeError("longbench qa_f1: predictions and answers must be lists")
    predictions, answers = list(predictions), list(answers)
    if len(predictions) != len(answers):
        raise LengthMismatchError(f"longbench qa_f1: {len(predictions)} predictions but {len(answers)} answer lists")
    fn = qa_f1_zh_score if zh else qa_f1_score
    rows = []
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not isinstance(pred, str) or isinstance(golds, str) or not all(isinstance(g, str) for g in golds):
            raise InputTypeError(f"longbench qa_f1: example {i}: a prediction string and a list of answer strings are required")
        if first_line:
            pred = pred.lstrip("\n").split("\n")[0]
        score = 0.0
        for g in golds:
            score = max(score, fn(pred, g))
        rows.append(score)
    return rows


def longbench_qa_f1(predictions: Sequence[str], answers: Sequence[Sequence[str]], *, zh: bool = False, first_line: bool = False) -> float:
    """LongBench ``eval.py``'s ``scorer``: ``round(100 * total_score / len(predictions), 2)``."""
    return scorer_mean(longbench_qa_f1_rows(predictions, answers, zh=zh, first_line=first_line))


def scorer_mean(rows: Sequence[float]) -> float:
    """``eval.py``'s ``round(100 * total_score / len(predictions), 2)``, the total added in order."""
    if not rows:
        raise InvalidInputError("LongBench's scorer of no example divides by zero")
    total = 0.0
    for v in rows:
        total += v
    return round(100 * total / len(rows), 2)


# -- the registry metric ----------------------------------------------------------------------
from ..base import Metric, Score  # noqa: E402


def np_bool() -> type:
    import numpy as np

    return np.bool_

FLAVOURS = ("en", "zh")
# LongBench's QA datasets (eval.py's dataset2metric): the flavour each is scored with; eval.py
# keeps the prediction's first line for triviaqa (and the non-QA trec, samsum, lsht)
DATASETS = {"narrativeqa": "en", "qasper": "en", "multifieldqa_en": "en", "multifieldqa_zh": "zh", "hotpotqa": "en",
            "2wikimqa": "en", "musique": "en", "triviaqa": "en"}
FIRST_LINE = frozenset({"triviaqa"})


class LongBenchQA(Metric):
    """LongBench's QA F1 as a registry metric (``longbench_qa``): flavour ``en`` is
    ``qa_f1_score`` (narrativeqa, qasper, multifieldqa_en, hotpotqa, 2wikimqa, musique,
    triviaqa), ``zh`` is ``qa_f1_zh_score`` (multifieldqa_zh; jieba). ``first_line=True`` keeps
    the prediction's first line, as ``eval.py`` does for triviaqa.

    Statistics per example: ``f1`` (max over its gold answers, 0–1, kept in order so the
    corpus value is ``eval.py``'s own ``total_score += score``) and ``total`` (1). The score
    is ``round(100 * total_score / len(predictions), 2)``; ``unrounded`` is the value before
    ``round``.

    >>> from nlgmetrics import LongBenchQA
    >>> LongBenchQA().corpus_score(["The Eiffel Tower", "in 1889"], [["Eiffel Tower"], ["1887", "in 1889"]]).score
    100.0
    """

    name = "longbench_qa"
    count_fields = ("total",)
    sum_fields = ("f1",)

    def __init__(self, flavour: str | None = None, *, first_line: bool | None = None, dataset: str | None = None, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if dataset is not None:
            if not isinstance(dataset, str) or dataset not in DATASETS:
                raise InvalidOptionError(f"{dataset!r} is not a LongBench QA dataset; known: {', '.join(DATASETS)}")
            if flavour is not None and flavour != DATASETS[dataset]:
                raise InvalidOptionError(f"LongBench scores {dataset} with flavour {DATASETS[dataset]!r}, not {flavour!r}")
            if first_line is not None and bool(first_line) != (dataset in FIRST_LINE):
                raise InvalidOptionError(f"LongBench's eval.py {'keeps' if dataset in FIRST_LINE else 'does not keep'} only the first line for {dataset}")
            flavour, first_line = DATASETS[dataset], dataset in FIRST_LINE
        flavour = "en" if flavour is None else flavour
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown longbench_qa flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        if first_line is not None and not isinstance(first_line, (bool, np_bool())):
            raise InvalidOptionError(f"LongBenchQA: first_line must be True or False, got {first_line!r}")
        self.flavour = flavour
        self.first_line = bool(first_line)
        self.dataset = dataset
        if flavour == "zh":
            _jieba()  # a missing extra is named when the metric is built, not mid-corpus

    def _signature_items(self) -> dict[str, Any]:
        jieba = getattr(_jieba(), "__version__", "unknown") if self.flavour == "zh" else None
        return {"dataset": self.dataset, "flavour": self.flavour, "first_line": "yes" if self.first_line else "no", "jieba": jieba, "ref": "longbench-eval.py"}

    def _abbreviations(self) -> dict[str, str]:
        return {"dataset": "ds", "flavour": "f", "first_line": "fl", "jieba": "jieba", "ref": "ref"}

    def _segment_stats(self, predictions: list[str], references: list[list[str]]):
        import numpy as np

        from ...stats import SegmentStats

        rows = longbench_qa_f1_rows(predictions, references, zh=self.flavour == "zh", first_line=self.first_line)
        counts = np.ones((len(rows), 1), dtype=np.uint64)
        ref_counts = np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references))
        sums = np.asarray(rows, dtype=np.float64).reshape(-1, 1)
        return SegmentStats(self.key, self.count_fields, counts, self.sum_fields, sums, ref_counts=ref_counts, sequence_field="f1")

    def _score(self, stats) -> Score:
        import math

        from ...stats import sequential_column_sums

        n = int(stats.counts[0])
        if n == 0:
            raise InvalidInputError("LongBench's scorer of no example divides by zero")
        if stats.sequence is not None and len(stats.sequence) == stats.n_segments == n:
            total = float(sequential_column_sums(stats.sequence))  # total_score += score, in order
        else:  # totals rebuilt from sums (bootstrap): the exactly rounded sum
            total = math.fsum(stats.sum_partials[0])
        unrounded = 100 * total / n
        return Score(self.name, round(unrounded, 2), self.signature(stats), stats, unrounded=unrounded, total=n)

    def _sentence_scores(self, seg):
        return 100.0 * seg.sums[:, 0]


# -- LongBench-E: eval.py --e (scorer_e) ------------------------------------------------------
# eval.py's scorer_e puts each example's score in one bucket by the jsonl's "length" field:
# length < 4000, else length < 8000, else the rest; then round(100 * np.mean(bucket), 2) per
# bucket (numpy's pairwise sum and numpy's round of the np.float64), NaN for an empty bucket.
LONGBENCH_E_BUCKETS = ("0-4k", "4-8k", "8k+")


def longbench_e_bucket(length: Any) -> str:
    """The bucket ``scorer_e`` puts an example of this ``length`` in."""
    import math

    if isinstance(length, bool) or not isinstance(length, (int, float)):
        raise InputTypeError(f"LongBench-E: a length must be a number, got {type(length).__name__}")
    if isinstance(length, float) and math.isnan(length):
        raise InvalidInputError("LongBench-E: a length is NaN")
    if length < 4000:
        return "0-4k"
    if length < 8000:
        return "4-8k"
    return "8k+"


def longbench_e_buckets(scores: Sequence[float], lengths: Sequence[Any]) -> dict[str, float]:
    """``scorer_e``'s result from per-example scores (0–1: ``longbench_qa_f1_rows``, the
    ``f1`` column of ``LongBenchQA().stats(...)``, ``longbench_rouge_rows``) and the examples'
    ``length`` fields: ``{"0-4k": v, "4-8k": v, "8k+": v}``, each ``round(100 * np.mean(...), 2)``
    as eval.py computes it, ``nan`` for a bucket without an example (numpy's mean of nothing).

    >>> longbench_e_buckets([1.0, 0.5, 0.0], [3999, 4000, 12000])
    {'0-4k': 100.0, '4-8k': 50.0, '8k+': 0.0}
    """
    import numpy as np

    if isinstance(scores, (str, bytes)) or isinstance(lengths, (str, bytes)):
        raise InputTypeError("LongBench-E: scores and lengths must be sequences")
    scores, lengths = list(scores), list(lengths)
    if not all(isinstance(v, (float, int, np.floating, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in scores):
        raise InputTypeError("LongBench-E: each score must be a number")
    values = np.asarray(scores, dtype=np.float64)
    if len(values) != len(lengths):
        raise LengthMismatchError(f"LongBench-E: {len(values)} scores but {len(lengths)} lengths")
    keys = [longbench_e_bucket(n) for n in lengths]
    out = {}
    for b in LONGBENCH_E_BUCKETS:
        picked = values[np.asarray([k == b for k in keys], dtype=bool)]
        out[b] = float(round(100 * np.mean(picked), 2)) if len(picked) else float("nan")
    return out
