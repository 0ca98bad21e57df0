# Stubs of the native module nlgmetrics._core (only the functions listed here are typed).
from typing import Sequence

import numpy as np
import numpy.typing as npt

# nltk BLEU flavour -------------------------------------------------------------------
def nltk_bleu_stats_text(hyps: Sequence[str], refs: Sequence[Sequence[str]], n_orders: int, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """Rows ``[hyp_len, ref_len, num_1..N, den_1..N, tail_len, tail_num5, tail_den5]``; strings split like ``str.split()``."""

def nltk_bleu_stats_tokens(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], n_orders: int, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """As :func:`nltk_bleu_stats_text` for token lists (nltk's layout)."""

def nltk_bleu_score(stats: npt.NDArray[np.uint64], n_orders: int, weights: Sequence[Sequence[float]], uniform4: Sequence[bool], method: int, epsilon: float, alpha: int | float, k: float, auto_reweigh: bool) -> dict:
    """nltk ``corpus_bleu`` of one summed row (tail included): scores, precisions, bp, hyp_len, ref_len."""

def nltk_bleu_scores(stats: npt.NDArray[np.uint64], n_orders: int, weights: Sequence[Sequence[float]], uniform4: Sequence[bool], method: int, epsilon: float, alpha: int | float, k: float, auto_reweigh: bool, n_threads: int = 0) -> npt.NDArray[np.float64]:
    """nltk ``sentence_bleu`` of every row: shape (rows, len(weights))."""

# Diversity -------------------------------------------------------------------------
def distinct_stats(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """Per response ``[tokens, ngrams, unique]``."""

def distinct_corpus_unique(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> int:
    """Distinct n-grams over all texts."""

def distinct_table(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> dict[str, int]:
    """Occurrences of every n-gram, keyed by its tokens joined with U+001F (U+001E escapes)."""

def distinct_hll(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, precision: int, n_threads: int = 0) -> npt.NDArray[np.uint8]:
    """HyperLogLog registers (2**precision) of the texts' n-grams."""

def hll_estimate(registers: npt.NDArray[np.uint8]) -> float:
    """HyperLogLog cardinality estimate (linear counting for small cardinalities)."""

def self_bleu_stats(texts: Sequence[str], tokenizer: str, lowercase: bool, n_orders: int, exclude_self: bool, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """nltk BLEU rows of each text against the others (or all, with itself)."""

def self_bleu_stats_tokens(tokens: Sequence[Sequence[str]], n_orders: int, exclude_self: bool, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """As :func:`self_bleu_stats` for token lists."""

def distinct_key_list(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> tuple[bytes, int]:
    """The exact n-gram union: sorted keys (tokens joined by U+001F) joined by newlines, and their count."""

def distinct_key_union(a: bytes, b: bytes) -> tuple[bytes, int]:
    """Sorted union of two key lists of :func:`distinct_key_list`."""

def exact_partials(values: npt.NDArray[np.float64]) -> list[float]:
    """Shewchuk partials of the exact sum of finite values (``math.fsum`` of them = the sum)."""
