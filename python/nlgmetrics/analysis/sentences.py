"""Sentences bucketed by reference length, length difference or sentence score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import InvalidOptionError
from .._inputs import as_texts
from ._common import Cutoffs, Tokenizer, check_lengths, checked_token_rows, systems_of, token_lists

DEFAULT_CUTOFFS = {
    "length": (10, 20, 30, 40, 50, 60),
    "lengthdiff": (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21),
}


@dataclass(frozen=True)
class SentenceBucket:
    """One bucket of one system: its segment indices and the statistic over them."""

    system: str
    bucket: str
    segments: tuple[int, ...]
    value: float

    @property
    def count(self) -> int:
        return len(self.segments)


def compare_mt_bleu(references: Sequence[Sequence[str]], outputs: Sequence[Sequence[str]]) -> float:
    """compare-mt 0.2.10's ``BleuScorer().score_corpus`` of token lists (one reference each),
    step for step: per sentence each order's matches and ``max(1, n-grams)``, summed; 0 when
    no unigram matches; an order whose precision is 0 adds ``log 1`` (compare-mt skips the
    log); ``BP = min(1, exp(1 - r/c))``; times 100. Not sacrebleu's BLEU: no smoothing,
    the floor of 1 per sentence, and zero precisions ignored."""
    import math
    from collections import Counter

    references, outputs = checked_token_rows(references, outputs, "compare_mt_bleu")
    if not outputs:
        return 0.0
    num = [0, 0, 0, 0]
    den = [0, 0, 0, 0]
    ref_len = out_len = 0
    for r, o in zip(references, outputs):
        ref_len += len(r)
        out_len += len(o)
        for n in range(1, 5):
            out_cnt = Counter(tuple(o[i : i + n]) for i in range(len(o) - n + 1))
            ref_cnt = Counter(tuple(r[i : i + n]) for i in range(len(r) - n + 1))
            num[n - 1] += sum(min(c, ref_cnt[g]) for g, c in out_cnt.items())
            den[n - 1] += max(1, sum(out_cnt.values()))
    if num[0] == 0:
        return 0.0
    prec: float = 0
    for i in range(4):
        p = num[i] / den[i] if den[i] != 0 else 0
        p = math.log(p) if p > 0 else 0
        prec += p * 0.25
    bp = min(1, math.exp(1 - ref_len / out_len)) if out_len != 0 else 0
    return float(100.0 * bp * math.exp(prec))


def compare_mt_sacrebleu(references: Sequence[Sequence[str]], outputs: Sequence[Sequence[str]]) -> float:
    """compare-mt 0.2.10's ``SacreBleuScorer().score_corpus`` of token lists (one reference
    each): sacrebleu's default corpus BLEU (13a, exp smoothing) of each sentence's tokens
    joined by a space, so it scores the tokens compare-mt read, not the untokenized text;
    0 for no sentences."""
    from ..registry import load

    references, outputs = checked_token_rows(references, outputs, "compare_mt_sacrebleu")
    if not outputs:
        return 0.0
    return float(load("sacrebleu").corpus_score([" ".join(o) for o in outputs], [[" ".join(r)] for r in references]).score)


# compare-mt's score measures that share a registered name: a bucket's score is compare-mt's
# scorer over the bucket's tokens (the split of ``tokenize``), as compare-mt computes it.
COMPARE_MT_MEASURES = {"bleu": compare_mt_bleu, "sacrebleu": compare_mt_sacrebleu}


def _metric(metric: Any) -> Any:
    if isinstance(metric, str):
        from ..registry import load

        return load(metric)
    if not hasattr(metric, "sentence_scores") or not hasattr(metric, "corpus_score"):
        raise InvalidOptionError("metric: pass a registered name or a metric object with sentence_scores and corpus_score")
    return metric


def sentence_buckets(
    references: Sequence[str],
    systems: Sequence[Sequence[str]] | dict[str, Sequence[str]],
    *,
    by: str = "length",
    statistic: str = "count",
    metric: Any = "bleu",
    cutoffs: Sequence[float] | None = None,
    tokenize: Tokenizer = "compare-mt",
) -> list[SentenceBucket]:
    """Bucket each system's segments and give the bucket's size or corpus score.

    ``by``: ``"length"`` (reference tokens), ``"lengthdiff"`` (output minus reference
    tokens) or ``"score"`` (the ``metric``'s sentence score; default cut-offs at tenths
    of the metric's 0-100 or 0-1 range). ``statistic``: ``"count"`` (segments in the
    bucket, compare-mt's ``count``) or ``"score"`` (the ``metric``'s corpus score over the
    bucket's segments). Lengths count the tokens of ``tokenize``; buckets are labelled as
    compare-mt labels them.

    With ``statistic="score"`` and ``metric="bleu"`` (the default, compare-mt's
    ``score_measure=bleu``) a bucket's score is compare-mt's own corpus BLEU of the
    bucket's ``tokenize`` tokens (:func:`compare_mt_bleu`), as compare-mt computes it;
    ``metric="sacrebleu"`` (``score_measure=sacrebleu``) is sacrebleu's corpus BLEU of
    those tokens joined by spaces (:func:`compare_mt_sacrebleu`), as compare-mt computes
    it. A metric object (``BLEU()``, ``CHRF()``...) or another name gives that metric's
    corpus score of the untokenized texts instead. Bucketing ``by="score"`` uses the
    metric's sentence scores.
    """
    if by not in ("length", "lengthdiff", "score"):
        raise InvalidOptionError(f"by must be 'length', 'lengthdiff' or 'score', got {by!r}")
    if statistic not in ("count", "score"):
        raise InvalidOptionError(f"statistic must be 'count' or 'score', got {statistic!r}")
    references = as_texts(references, "references")
    names, outputs = systems_of(systems)
    check_lengths(references, outputs, names)
    scorer = _metric(metric) if (by == "score" or statistic == "score") else None
    compare_mt = COMPARE_MT_MEASURES.get(metric.lower()) if statistic == "score" and isinstance(metric, str) else None
    refs = token_lists(references, tokenize, "references")
    results: list[SentenceBucket] = []
    for name, output in zip(names, outputs):
        outs = token_lists(output, tokenize, f"system {name!r}")
        if by == "score":
            values = [float(v) for v in scorer.sentence_scores(list(output), [[r] for r in references])]
            top = 100.0 if max(values, default=0.0) > 1.0 else 1.0
            buckets = Cutoffs(cutoffs if cutoffs is not None else [top * k / 10.0 for k in range(1, 10)], integers=False)
        else:
            values = [len(r) if by == "length" else len(o) - len(r) for r, o in zip(refs, outs)]
            buckets = Cutoffs(cutoffs if cutoffs is not None else DEFAULT_CUTOFFS[by], integers=True)
        members: list[list[int]] = [[] for _ in buckets.labels]
        for i, value in enumerate(values):
            members[buckets.bucket(value)].append(i)
        for label, segments in zip(buckets.labels, members):
            if statistic == "count":
                value = float(len(segments))
            elif compare_mt:
                value = compare_mt([refs[i] for i in segments], [outs[i] for i in segments])
            elif segments:
                value = scorer.corpus_score([output[i] for i in segments], [[references[i]] for i in segments]).score
            else:
                value = 0.0
            results.append(SentenceBucket(name, label, tuple(segments), value))
    return results
