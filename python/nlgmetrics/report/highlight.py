"""Word n-gram matches between a hypothesis and its references, for display.

Tokens are whitespace-separated words, compared exactly (case-sensitive): this is a reading
aid, not any metric's tokenization. Each hypothesis word is marked with the longest n
(up to ``max_n``) of an n-gram that contains it and also occurs in some reference, so long
shared phrases stand out from isolated shared words.
"""

from __future__ import annotations

import html
from typing import Sequence

MAX_N = 4


def _ngrams(tokens: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


def match_orders(hypothesis: str, references: Sequence[str], max_n: int = MAX_N) -> list[tuple[str, int]]:
    """``(word, n)`` for each hypothesis word; ``n`` = 0 when no reference shares it."""
    hyp = hypothesis.split()
    refs = [r.split() for r in references]
    orders = [0] * len(hyp)
    for n in range(1, max_n + 1):
        shared: set[tuple[str, ...]] = set()
        for r in refs:
            shared |= _ngrams(r, n)
        for i in range(len(hyp) - n + 1):
            if tuple(hyp[i:i + n]) in shared:
                for j in range(i, i + n):
                    orders[j] = n
    return list(zip(hyp, orders))


def highlighted_html(hypothesis: str, references: Sequence[str], max_n: int = MAX_N) -> str:
    """The hypothesis as HTML, each matched word in a ``<span class="mN">``."""
    parts = []
    for word, n in match_orders(hypothesis, references, max_n):
        w = html.escape(word)
        parts.append(f'<span class="m{n}">{w}</span>' if n else w)
    return " ".join(parts) if parts else '<span class="empty">(empty)</span>'
