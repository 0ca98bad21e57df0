"""Word n-gram matches between a hypothesis and its references, for display.

Tokens are whitespace-separated words, compared exactly (case-sensitive): this is a reading
aid, not any metric's tokenization. Each hypothesis word is marked with the longest n
(up to ``max_n``) of an n-gram that contains it and also occurs in some reference, so long
shared phrases stand out from isolated shared words. Given another system's output, the
words that differ from it (outside the longest matching blocks of the two word sequences,
as :mod:`difflib` aligns them) are marked too, so two outputs can be read side by side.
"""

from __future__ import annotations

import difflib
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


def differing_words(hypothesis: str, other: str) -> list[bool]:
    """For each word of ``hypothesis``: whether it lies outside the blocks it shares with ``other``."""
    words, others = hypothesis.split(), other.split()
    differs = [True] * len(words)
    matcher = difflib.SequenceMatcher(None, words, others, autojunk=False)  # no popularity heuristic on long segments
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            differs[i] = False
    return differs


def highlighted_html(hypothesis: str, references: Sequence[str], max_n: int = MAX_N, other: str | None = None) -> str:
    """The hypothesis as HTML, each matched word in a ``<span class="mN">``; with ``other``,
    each word that differs from it also has class ``d``."""
    differs = differing_words(hypothesis, other) if other is not None else None
    parts = []
    for k, (word, n) in enumerate(match_orders(hypothesis, references, max_n)):
        classes = ([f"m{n}"] if n else []) + (["d"] if differs is not None and differs[k] else [])
        w = html.escape(word)
        parts.append(f'<span class="{" ".join(classes)}">{w}</span>' if classes else w)
    return " ".join(parts) if parts else '<span class="empty">(empty)</span>'
