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
- :func:`opencompass_jieba_rouge`: OpenCompass's ``JiebaRougeEvaluator`` (its
  ``general_postprocess``: text up to the first line break, ``.`` or ``,``, punctuation
  and English articles removed, whitespace collapsed; jieba words; empty texts replaced by
  placeholders; ``rouge_chinese.Rouge().get_scores(avg=True)`` F ×100).
- :func:`longbench_rouge`: LongBench's ``scorer`` for its ROUGE datasets (``rouge_score``:
  dureader and vcsum through ``rouge_zh_score``, jieba words; gov_report, qmsum,
  multi_news, samsum): PyPI ``rouge`` (pltrdy) ``get_scores([pred], [answer], avg=True)``
  rouge-l F, 0.0 where it raises (no sentence, or Python's recursion limit in its recursive
  LCS traceback: long unpunctuated texts), the best answer per example, then
  ``round(100 * total / n, 2)``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ... import _core
from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

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
    from ..rouge_pltrdy import jieba_join

    preds = _texts(predictions, "predictions")
    labs = _texts(labels, "labels")
    if len(preds) != len(labs):
        raise LengthMismatchError(f"predictions and labels: lengths differ ({len(preds)} vs {len(labs)})")
    from ...tokenizers import jieba_segmenter

    seg = jieba_segmenter()
    if seg is not None:  # jieba in the core, inside the same pass
        try:
            return _core.llamafactory_rows_jieba(preds, labs, seg, n_threads)
        except UnicodeError:  # a lone surrogate: Python jieba below
            pass
    return _core.llamafactory_rows(preds, labs, jieba_join(preds, n_threads), jieba_join(labs, n_threads), n_threads)


def llamafactory(predictions: Sequence[str], labels: Sequence[str], *, aggregate: str = "mean", n_threads: int = 0) -> dict[str, float]:
    """LLaMA-Factory 0.9.5's ``ComputeSimilarity`` result: ``{"rouge-1", "rouge-2",
    "rouge-l", "bleu-4"}`` on a 0–100 scale (``predict_`` prefixed in its
    ``predict_results.json``). ``aggregate="mean"`` is ``np.mean`` (the trainer),
    ``"sum"`` is ``sum(scores) / len(scores)`` (``scripts/eval_bleu_rouge.py``).

    >>> from nlgmetrics.metrics.llm.llm_presets import llamafactory
    >>> llamafactory(["今天天气很好"], ["今天天气不错"])
    {'rouge-1': 40.0, 'rouge-2': 0.0, 'rouge-l': 40.0, 'bleu-4': 50.8133}
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


def general_postprocess(text: str) -> str:
    """OpenCompass's ``general_postprocess`` text normalisation (Python ``re`` semantics)."""
    import re

    text = re.split(r"[\n.,]", text, maxsplit=1)[0]
    text = re.sub(r"[^\w\s]", "", text)
    text = re.sub(r"\b(a|an|the)\b", "", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip()


def opencompass_jieba_rouge(predictions: Sequence[str], references: Sequence[str], *, n_threads: int = 0) -> dict[str, float]:
    """OpenCompass's ``JiebaRougeEvaluator.score``: ``{"rouge1", "rouge2", "rougeL"}`` (0–100).

    >>> from nlgmetrics.metrics.llm.llm_presets import opencompass_jieba_rouge
    >>> round(opencompass_jieba_rouge(["今天天气很好。"], ["今天天气不错"])["rouge1"], 4)
    40.0
    """
    from ..rouge_pltrdy import ChineseROUGE, jieba_join

    preds = _texts(predictions, "predictions")
    refs = _texts(references, "references")
    if len(preds) != len(refs):
        raise LengthMismatchError(f"predictions and references: lengths differ ({len(preds)} vs {len(refs)})")
    if not preds:
        raise InvalidInputError("OpenCompass's JiebaRougeEvaluator of no example is undefined (division by zero)")
    p = [t or "__PREDPLACEHOLDER__" for t in jieba_join([general_postprocess(t) for t in preds], n_threads)]
    r = [t or "__REFRPLACEHOLDER__" for t in jieba_join([general_postprocess(t) for t in refs], n_threads)]
    s = ChineseROUGE(n_threads=n_threads).corpus_score(p, r)
    return {k: s.types[t].fmeasure * 100 for k, t in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l"))}


EVALSCOPE_ROUGE_KEYS = tuple(f"Rouge-{t}-{s}" for t in ("1", "2", "L") for s in ("R", "P", "F"))


def _has_cjk_unified(text: str) -> bool:
    """evalscope's ``is_contains_chinese``: a character in U+4E00..U+9FA5."""
    return any("\u4e00" <= c <= "\u9fa5" for c in text)


def evalscope_rouge_rows(predictions: Sequence[str], references: Sequence[str], *, n_threads: int = 0) -> np.ndarray:
    """Per pair evalscope 1.14's ``compute_rouge_score_one_sample_zh([pred], [ref])``
    (``evalscope/metrics/utils/rouge.py``), columns :data:`EVALSCOPE_ROUGE_KEYS` (0–1): each
    side is cut by jieba only if it holds a character in U+4E00..U+9FA5 (else split on
    whitespace as it stands), then ``rouge_chinese.Rouge().get_scores(p, r,
    ignore_empty=True)``; a pair with an empty side, or one the package raises on (no
    sentence), is all 0.0, as evalscope's mean of no scored pair."""
    from ..rouge_pltrdy import jieba_join

    preds = _texts(predictions, "predictions")
    refs = _texts(references, "references")
    if len(preds) != len(refs):
        raise LengthMismatchError(f"predictions and references: lengths differ ({len(preds)} vs {len(refs)})")

    def cut(texts: list[str]) -> list[str]:
        picked = [i for i, t in enumerate(texts) if _has_cjk_unified(t)]
        out = list(texts)
        for i, joined in zip(picked, jieba_join([texts[i] for i in picked], n_threads)):
            out[i] = joined
        return out

    hyps, gold = cut(preds), cut(refs)
    m = _core.rouge_pltrdy_stats(hyps, gold, ["rouge-1", "rouge-2", "rouge-l"], "rouge-chinese", True, n_threads)
    scored = (m[:, -1] > 0) & np.fromiter((bool(h) and bool(r) for h, r in zip(hyps, gold)), dtype=bool, count=len(hyps))
    prf = np.where(scored[:, None], m[:, :9], 0.0)
    return prf[:, [1, 0, 2, 4, 3, 5, 7, 6, 8]]  # the core's P, R, F per type -> evalscope's R, P, F


def evalscope_rouge(predictions: Sequence[str], references: Sequence[str], *, n_threads: int = 0) -> dict[str, float]:
    """evalscope 1.14's General QA ``Rouge`` numbers: per sample
    :func:`evalscope_rouge_rows`, then its ``mean`` aggregation (``sum(values) / len(values)``,
    the builtin sum) of each key; 0–1 scale, keys ``Rouge-1-R`` ... ``Rouge-L-F``.

    >>> from nlgmetrics.metrics.llm.llm_presets import evalscope_rouge
    >>> evalscope_rouge(["今天天气很好"], ["今天天气不错"])["Rouge-L-F"]
    0.39999999520000007
    """
    rows = evalscope_rouge_rows(predictions, references, n_threads=n_threads)
    if not len(rows):
        raise InvalidInputError("evalscope's mean of no sample: nothing to score")
    return {k: sum(rows[:, j].tolist()) / len(rows) for j, k in enumerate(EVALSCOPE_ROUGE_KEYS)}


LONGBENCH_ROUGE = {"dureader": True, "vcsum": True, "gov_report": False, "qmsum": False, "multi_news": False, "samsum": False}
# Frames below Rouge.get_scores when `python eval.py` runs LongBench's scorer: <module>,
# scorer, [rouge_zh_score,] rouge_score; and from get_scores down to the first _recon call:
# get_scores, _get_scores, the metric lambda, rouge_l_summary_level, _union_lcs, _recon_lcs.
_GET_SCORES_TO_RECON = 6


def longbench_rouge_rows(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[str]], *, recursion_limit: int = 1000, n_threads: int = 0) -> np.ndarray:
    """Per example the score LongBench's ``scorer`` adds (0–1): the best answer's
    ``rouge_score`` / ``rouge_zh_score``."""
    from ..rouge_pltrdy import jieba_join

    if dataset not in LONGBENCH_ROUGE:
        raise InvalidOptionError(f"LongBench dataset {dataset!r} is not scored by ROUGE; ROUGE datasets: {', '.join(LONGBENCH_ROUGE)}")
    preds = _texts(predictions, "predictions")
    answers = list(answers)
    if len(preds) != len(answers):
        raise LengthMismatchError(f"predictions and answers: lengths differ ({len(preds)} vs {len(answers)})")
    if dataset == "samsum":
        preds = [p.lstrip("\n").split("\n")[0] for p in preds]
    zh = LONGBENCH_ROUGE[dataset]
    owner, hyps, refs = [], [], []
    for i, gts in enumerate(answers):
        for gt in _texts(gts, f"answers[{i}]"):
            owner.append(i)
            hyps.append(preds[i])
            refs.append(gt)
    if zh:
        hyps, refs = jieba_join(hyps, n_threads), jieba_join(refs, n_threads)
    m = _core.rouge_pltrdy_stats(hyps, refs, ["rouge-l"], "pltrdy", True, n_threads)
    depth = np.asarray(_core.rouge_pltrdy_traceback_depths(hyps, refs, n_threads), dtype=np.int64)
    below = 4 if zh else 3
    f = np.where((m[:, -1] > 0) & (below + _GET_SCORES_TO_RECON + depth <= recursion_limit), m[:, 2], 0.0)
    out = np.zeros(len(preds))
    for i, v in zip(owner, f.tolist()):
        out[i] = max(out[i], v)
    return out


def longbench_rouge(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[str]], *, recursion_limit: int = 1000, n_threads: int = 0) -> float:
    """LongBench's ``scorer(dataset, predictions, answers, all_classes)`` for a ROUGE
    dataset: ``round(100 * total_score / len(predictions), 2)``. ``recursion_limit`` is
    CPython's (``sys.getrecursionlimit()``, 1000) for ``python eval.py`` on CPython 3.11."""
    rows = longbench_rouge_rows(dataset, predictions, answers, recursion_limit=recursion_limit, n_threads=n_threads)
    if not len(rows):
        raise InvalidInputError("LongBench's scorer of no example divides by zero")
    total = 0.0
    for v in rows.tolist():
        total += v
    return float(_core.py_round_array([100 * total / len(rows)], 2)[0])


# --- presets of `nlgmetrics score --preset NAME` --------------------------------------
def _llamafactory_preset(aggregate: str):
    def run(records: list[dict], path: str, n_threads: int) -> dict[str, float]:
        return llamafactory([r["predict"] for r in records], [r["label"] for r in records], aggregate=aggregate, n_threads=n_threads)

    return run


def _check_longbench_dataset(dataset: Any) -> str:
    from ..qa.longbench_qa import DATASETS as QA_DATASETS
    from ..qa.longbench_tasks import TASK_DATASETS

    if not isinstance(dataset, str) or (dataset not in QA_DATASETS and dataset not in LONGBENCH_ROUGE and dataset not in TASK_DATASETS):
        known = ", ".join([*QA_DATASETS, *LONGBENCH_ROUGE, *TASK_DATASETS])
        raise InvalidOptionError(f"{dataset!r} is not one of LongBench's datasets ({known})")
    return dataset


def _longbench_dataset(path: str) -> str:
    """eval.py's dataset name: the file name up to its first dot."""
    import os

    try:
        return _check_longbench_dataset(os.path.basename(path).split(".")[0])
    except InvalidOptionError as e:
        raise InvalidInputError(f"{path}: LongBench names the dataset by the file name; {e}") from None


def _longbench_classes(records: list[dict], path: str) -> Any:
    """eval.py's ``all_classes``: the last record's (each record's overwrites the one before)."""
    if not records:  # eval.py never sets all_classes: an empty file stops it (NameError)
        raise InvalidInputError(f"{path}: no example")
    return records[-1].get("all_classes")


def longbench_rows(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[Any]], all_classes: Sequence[str] | None = None,
                   *, code_sim: str = "difflib", n_threads: int = 0) -> np.ndarray:
    """Per example the score LongBench's ``scorer`` adds (0–1) for any LongBench v1 dataset
    (``eval.py``'s ``dataset2metric``): QA F1 (``LongBenchQA``), ROUGE
    (:func:`longbench_rouge_rows`), classification / retrieval / count / code similarity
    (``longbench_tasks``; ``code_sim`` names the ``fuzz.ratio`` flavour)."""
    from ..qa.longbench_qa import DATASETS as QA_DATASETS, LongBenchQA
    from ..qa.longbench_tasks import longbench_task_rows

    _check_longbench_dataset(dataset)
    if dataset in QA_DATASETS:
        return LongBenchQA(dataset=dataset, n_threads=n_threads).stats(_texts(predictions, "predictions"), list(answers)).sums[:, 0]
    if dataset in LONGBENCH_ROUGE:
        return longbench_rouge_rows(dataset, predictions, answers, n_threads=n_threads)
    return np.asarray(longbench_task_rows(dataset, predictions, answers, all_classes, flavour=code_sim), dtype=np.float64)


def longbench(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[Any]], all_classes: Sequence[str] | None = None,
              *, code_sim: str = "difflib", n_threads: int = 0) -> float:
    """LongBench's ``scorer(dataset, predictions, answers, all_classes)`` (``eval.py``) for any
    LongBench v1 dataset: ``round(100 * total_score / len(predictions), 2)``.

    >>> from nlgmetrics.metrics.llm.llm_presets import longbench
    >>> longbench("trec", ["Type: Date", "Other number or Date"], [["Date"], ["Date"]], ["Date", "Other number", "Number of something"])
    75.0
    """
    from ..qa.longbench_qa import DATASETS as QA_DATASETS, LongBenchQA
    from ..qa.longbench_tasks import longbench_task_score

    _check_longbench_dataset(dataset)
    if dataset in QA_DATASETS:
        return LongBenchQA(dataset=dataset, n_threads=n_threads).corpus_score(_texts(predictions, "predictions"), list(answers)).score
    if dataset in LONGBENCH_ROUGE:
        return longbench_rouge(dataset, predictions, answers, n_threads=n_threads)
    return longbench_task_score(dataset, predictions, answers, all_classes, flavour=code_sim)


def _longbench_preset(records: list[dict], path: str, n_threads: int) -> dict[str, float]:
    """LongBench's ``eval.py`` on one ``pred/<model>/<dataset>.jsonl``: the dataset is the
    file's name and ``all_classes`` the last record's, as there; every v1 dataset is covered."""
    dataset = _longbench_dataset(path)
    all_classes = _longbench_classes(records, path)
    preds, answers = [r["pred"] for r in records], [r["answers"] for r in records]
    try:
        return {dataset: longbench(dataset, preds, answers, all_classes, n_threads=n_threads)}
    except (InvalidInputError, InputTypeError) as e:  # the file is named in the one line
        raise type(e)(f"{path}: {e}") from None


def longbench_e(dataset: str, predictions: Sequence[str], answers: Sequence[Sequence[Any]], lengths: Sequence[Any], all_classes: Sequence[str] | None = None,
                *, code_sim: str = "difflib", n_threads: int = 0) -> dict[str, float]:
    """LongBench's ``scorer_e(dataset, predictions, answers, lengths, all_classes)`` (``eval.py
    --e``) for any LongBench dataset: each example's score (:func:`longbench_rows`) in the
    bucket of its ``length`` (``longbench_e_buckets``): ``{"0-4k": v, "4-8k": v, "8k+": v}``."""
    from ..qa.longbench_qa import longbench_e_buckets

    _check_longbench_dataset(dataset)
    preds = _texts(predictions, "predictions")
    answers = list(answers)
    lengths = list(lengths) if not isinstance(lengths, (str, bytes)) else lengths
    if len(preds) != len(answers) or len(preds) != len(lengths):
        raise LengthMismatchError(f"LongBench-E: {len(preds)} predictions, {len(answers)} answer lists, {len(lengths)} lengths")
    if not preds:
        return longbench_e_buckets([], [])  # eval.py: numpy's mean of nothing in every bucket
    rows = longbench_rows(dataset, preds, answers, all_classes, code_sim=code_sim, n_threads=n_threads)
    return longbench_e_buckets(rows.tolist(), lengths)


def _longbench_e_preset(records: list[dict], path: str, n_threads: int) -> dict[str, dict[str, float]]:
    """``eval.py --e`` on one ``pred_e/<model>/<dataset>.jsonl``: ``{dataset: {bucket: score}}``
    as in its ``result.json``; every record needs its ``length``."""
    dataset = _longbench_dataset(path)
    all_classes = _longbench_classes(records, path)
    for i, r in enumerate(records, 1):
        if "length" not in r:
            raise InvalidInputError(f"{path}: record {i} has no \"length\" (LongBench-E buckets examples by it)")
    try:
        return {dataset: longbench_e(dataset, [r["pred"] for r in records], [r["answers"] for r in records], [r["length"] for r in records], all_classes,
                                     n_threads=n_threads)}
    except (InvalidInputError, InvalidOptionError, InputTypeError) as e:
        raise (InputTypeError if isinstance(e, InputTypeError) else InvalidInputError)(f"{path}: {e}") from None


def _opencompass_preset(records: list[dict], path: str, n_threads: int) -> dict[str, float]:
    """OpenCompass's prediction records (``prediction``, ``gold``) through ``JiebaRougeEvaluator``."""
    return opencompass_jieba_rouge([r["prediction"] for r in records], [r["gold"] for r in records], n_threads=n_threads)


def _evalscope_preset(records: list[dict], path: str, n_threads: int) -> dict[str, float]:
    """evalscope's General QA ``Rouge`` of (``prediction``, ``answer``) records."""
    return evalscope_rouge([r["prediction"] for r in records], [r["answer"] for r in records], n_threads=n_threads)


# name -> ({field: type}, function(records, path, n_threads) -> dict)
PRESETS: dict[str, tuple[dict[str, type], Any]] = {
    "llamafactory": ({"predict": str, "label": str}, _llamafactory_preset("mean")),
    "llamafactory-script": ({"predict": str, "label": str}, _llamafactory_preset("sum")),
    "longbench": ({"pred": str, "answers": list}, _longbench_preset),
    "longbench-e": ({"pred": str, "answers": list}, _longbench_e_preset),
    "opencompass": ({"prediction": str, "gold": str}, _opencompass_preset),
    "evalscope": ({"prediction": str, "answer": str}, _evalscope_preset),
}
# name -> the framework, version and code each preset reproduces (`score --list-presets`)
PRESET_SOURCES: dict[str, str] = {
    "llamafactory": "LLaMA-Factory 0.9.5 ComputeSimilarity (src/llamafactory/train/sft/metric.py), np.mean: predict_results.json",
    "llamafactory-script": "LLaMA-Factory 0.9.5 scripts/eval_bleu_rouge.py, sum(scores) / len(scores)",
    "longbench": "LongBench (THUDM/LongBench, v1) eval.py scorer: every dataset, by file name (fuzzywuzzy 0.18 on difflib for lcc, repobench-p)",
    "longbench-e": "LongBench (THUDM/LongBench, v1) eval.py --e scorer_e: length buckets, every dataset, by file name",
    "opencompass": "OpenCompass 0.5.4 JiebaRougeEvaluator (icl_jieba_rouge_evaluator.py): rouge1/rouge2/rougeL x100",
    "evalscope": "evalscope 1.14.1 General QA Rouge (metrics/utils/rouge.py compute_rouge_score_one_sample_zh), mean over samples",
}
# the framework and version of each preset as a signature value
PRESET_FRAMEWORKS: dict[str, str] = {
    "llamafactory": "llamafactory-0.9.5", "llamafactory-script": "llamafactory-0.9.5", "longbench": "longbench-v1",
    "longbench-e": "longbench-v1", "opencompass": "opencompass-0.5.4", "evalscope": "evalscope-1.14.1",
}
