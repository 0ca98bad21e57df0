"""Which n-grams one system gets right (or over- or under-produces) more often than another."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..errors import InvalidOptionError
from ._common import Tokenizer, checked_token_rows, paired_token_lists


@dataclass(frozen=True)
class NgramDifference:
    """An n-gram, compare-mt's smoothed share of system A, and both systems' counts."""

    ngram: tuple[str, ...]
    score: float
    count_a: int
    count_b: int


def _ngrams(words: list[str], min_n: int, max_n: int) -> list[tuple[str, ...]]:
    return [tuple(words[i : i + n]) for n in range(min_n, max_n + 1) for i in range(len(words) - n + 1)]


def ngram_counts(references: list[list[str]], output: list[list[str]], min_n: int, max_n: int) -> dict[str, Counter]:
    """compare-mt's ``compare_ngrams``: per n-gram, output total, matched, over- and under-produced."""
    references, output = checked_token_rows(references, output, "ngram_counts")
    for name, value in (("min_n", min_n), ("max_n", max_n)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidOptionError(f"ngram_counts: {name} must be an integer >= 1, got {value!r}")
    if min_n > max_n:
        raise InvalidOptionError(f"ngram_counts: min_n ({min_n}) is larger than max_n ({max_n})")
    total, match, over, under = Counter(), Counter(), Counter(), Counter()
    for reference, out in zip(references, output):
        ref_ngrams = _ngrams(reference, min_n, max_n)
        remaining = Counter(ref_ngrams)
        for gram in _ngrams(out, min_n, max_n):
            total[gram] += 1
            if remaining[gram] > 0:
                match[gram] += 1
                remaining[gram] -= 1
            else:
                over[gram] += 1
        for gram in reversed(ref_ngrams):
            if remaining[gram] > 0:
                under[gram] += 1
                remaining[gram] -= 1
    return {"total": total, "match": match, "over": over, "under": under}


def ngram_differences(
    references: Sequence[str],
    system_a: Sequence[str],
    system_b: Sequence[str],
    *,
    compare: str = "match",
    min_n: int = 1,
    max_n: int = 4,
    alpha: float = 1.0,
    top: int | None = 50,
    tokenize: Tokenizer = "compare-mt",
    case_insensitive: bool = False,
) -> tuple[list[NgramDifference], list[NgramDifference]]:
    """The n-grams most characteristic of A and of B (compare-mt's n-gram report).

    Each n-gram's score is ``(a + alpha) / (a + b + 2 alpha)`` over the counts of
    ``compare`` (``"match"``: n-grams matching the reference; ``"over"``/``"under"``:
    over- and under-produced). Returns the ``top`` n-grams with the highest score (A's
    strengths) and with the lowest (B's), ties in compare-mt's order.
    """
    if compare not in ("match", "over", "under"):
        raise InvalidOptionError(f"compare must be 'match', 'over' or 'under', got {compare!r}")
    if not (isinstance(min_n, int) and isinstance(max_n, int) and 1 <= min_n <= max_n):
        raise InvalidOptionError(f"n-gram orders: need integers 1 <= min_n <= max_n, got {min_n}, {max_n}")
    if not alpha > 0:
        raise InvalidOptionError(f"alpha must be > 0, got {alpha!r}")
    if top is not None and (not isinstance(top, int) or top < 0):
        raise InvalidOptionError(f"top must be a non-negative integer or None, got {top!r}")
    refs, outs = paired_token_lists(references, system_a, system_b, tokenize)
    if case_insensitive:
        refs = [[w.lower() for w in s] for s in refs]
        outs = [[[w.lower() for w in s] for s in o] for o in outs]
    # no n-gram is longer than the longest sentence: a larger max_n changes nothing
    max_n = min(max_n, max(min_n, max((len(s) for s in [*refs, *outs[0], *outs[1]]), default=0)))
    a = ngram_counts(refs, outs[0], min_n, max_n)[compare]
    b = ngram_counts(refs, outs[1], min_n, max_n)[compare]
    # compare-mt iterates a set of the keys, then sorts by score only (a stable sort): its
    # order among equal scores is the set's. Order ties by the n-gram so results are stable.
    keys = sorted(set(a) | set(b))
    ranked = sorted(
        (NgramDifference(k, (a[k] + alpha) / (a[k] + b[k] + 2 * alpha), a[k], b[k]) for k in keys),
        key=lambda d: d.score,
        reverse=True,
    )
    n = len(ranked) if top is None else top
    return ranked[:n], list(reversed(ranked))[:n]
