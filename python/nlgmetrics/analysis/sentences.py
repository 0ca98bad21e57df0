"""Sentences bucketed by reference length, length difference or sentence score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import InvalidOptionError
from .._inputs import as_texts
from ._common import Cutoffs, Tokenizer, check_lengths, systems_of, token_lists

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
    tokenize: Tokenizer = "none",
) -> list[SentenceBucket]:
    """Bucket each system's segments and give the bucket's size or corpus score.

    ``by``: ``"length"`` (reference tokens), ``"lengthdiff"`` (output minus reference
    tokens) or ``"score"`` (the ``metric``'s sentence score; default cut-offs at tenths
    of the metric's 0-100 or 0-1 range). ``statistic``: ``"count"`` (segments in the
    bucket, compare-mt's ``count``) or ``"score"`` (the ``metric``'s corpus score over the
    bucket's segments). Lengths count the tokens of ``tokenize``; buckets are labelled as
    compare-mt labels them.
    """
    if by not in ("length", "lengthdiff", "score"):
        raise InvalidOptionError(f"by must be 'length', 'lengthdiff' or 'score', got {by!r}")
    if statistic not in ("count", "score"):
        raise InvalidOptionError(f"statistic must be 'count' or 'score', got {statistic!r}")
    references = as_texts(references, "references")
    names, outputs = systems_of(systems)
    check_lengths(references, outputs, names)
    scorer = _metric(metric) if (by == "score" or statistic == "score") else None
    refs = token_lists(references, tokenize, "references")
    results: list[SentenceBucket] = []
    for name, output in zip(names, outputs):
        if by == "score":
            values = [float(v) for v in scorer.sentence_scores(list(output), [[r] for r in references])]
            top = 100.0 if max(values, default=0.0) > 1.0 else 1.0
            buckets = Cutoffs(cutoffs if cutoffs is not None else [top * k / 10.0 for k in range(1, 10)], integers=False)
        else:
            outs = token_lists(output, tokenize, f"system {name!r}")
            values = [len(r) if by == "length" else len(o) - len(r) for r, o in zip(refs, outs)]
            buckets = Cutoffs(cutoffs if cutoffs is not None else DEFAULT_CUTOFFS[by], integers=True)
        members: list[list[int]] = [[] for _ in buckets.labels]
        for i, value in enumerate(values):
            members[buckets.bucket(value)].append(i)
        for label, segments in zip(buckets.labels, members):
            if statistic == "count":
                value = float(len(segments))
            elif segments:
                value = scorer.corpus_score([output[i] for i in segments], [[references[i]] for i in segments]).score
            else:
                value = 0.0
            results.append(SentenceBucket(name, label, tuple(segments), value))
    return results
