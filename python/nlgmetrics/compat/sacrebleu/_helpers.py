"""sacrebleu's small public helpers (``metrics.helpers``, ``utils.my_log``, ``utils.sum_of_lists``),
which users import to inspect the n-grams a score counted. They take and return sacrebleu's
shapes (``Counter`` keyed by word tuples, joined words or character strings); the metrics
themselves never call them: the scores come from the Rust core."""

from __future__ import annotations

import math
from collections import Counter
from typing import List, Sequence, Tuple

__all__ = ["extract_all_word_ngrams", "extract_word_ngrams", "extract_char_ngrams", "extract_all_char_ngrams", "my_log",
           "sum_of_lists"]


def _windows(seq: Sequence, n: int) -> list:
    return [seq[i:i + n] for i in range(len(seq) - n + 1)]


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> Tuple[Counter, int]:
    """Word n-grams of orders ``min_order..max_order`` (tuples of tokens split on whitespace),
    and the line's token count."""
    tokens = line.split()
    grams = Counter()
    for n in range(min_order, max_order + 1):
        grams.update(tuple(w) for w in _windows(tokens, n))
    return grams, len(tokens)


def extract_word_ngrams(tokens: List[str], n: int) -> Counter:
    """Word n-grams of order ``n`` of a token list, each the tokens joined by one space."""
    return Counter(" ".join(w) for w in _windows(tokens, n))


def _chars(line: str, include_whitespace: bool) -> str:
    # chrF drops whitespace unless asked to keep it
    return line if include_whitespace else "".join(line.split())


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter:
    """Character n-grams of order ``n``."""
    return Counter(_windows(_chars(line, include_whitespace), n))


def extract_all_char_ngrams(line: str, max_order: int, include_whitespace: bool = False) -> List[Counter]:
    """Character n-grams of orders ``1..max_order``, one ``Counter`` per order."""
    chars = _chars(line, include_whitespace)
    return [Counter(_windows(chars, n)) for n in range(1, max_order + 1)]


def my_log(num: float) -> float:
    """``log(num)``, with sacrebleu's floor ``-9999999999`` for zero."""
    return -9999999999 if num == 0.0 else math.log(num)


def sum_of_lists(lists):
    """Element-wise sum of equal-length numeric lists, in the type of the first element."""
    if len(lists) == 1:
        return lists[0]
    zero = type(lists[0][0])(0.0)
    total = [zero] * len(lists[0])
    for row in lists:
        for i, value in enumerate(row):
            total[i] += value
    return total
