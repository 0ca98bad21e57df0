"""Deterministic synthetic parallel corpora for benchmarks.

References are drawn from a Zipfian vocabulary with punctuation; hypotheses are noisy
copies (substitutions, deletions, insertions, local swaps), so n-gram overlap looks like
real MT output. The same seed always gives the same text. Sampling is vectorised, so a
million segments take seconds.
"""

from __future__ import annotations

import functools

import numpy as np

PUNCT = [",", ".", "!", "?", ";", ":", "(", ")", "-", "'s"]


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words: set[str] = set()
    while len(words) < size:
        n = int(rng.integers(2, 10))
        words.add("".join(rng.choice(letters, n)))
    return sorted(words)


def corpus(n: int, seed: int = 2026, vocab_size: int = 20000, n_refs: int = 1) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(seed)
    vocab = np.array(vocabulary(vocab_size, rng) + PUNCT, dtype=object)
    p = 1.0 / np.arange(1, len(vocab) + 1)
    p /= p.sum()
    cdf = np.cumsum(p)

    def draw(k: int) -> np.ndarray:
        return vocab[np.minimum(np.searchsorted(cdf, rng.random(k)), len(vocab) - 1)]

    lengths = rng.integers(5, 41, size=n)
    words = draw(int(lengths.sum()))
    subst = draw(len(words))
    inserts = draw(len(words))
    action = rng.random(len(words))
    extra = rng.random(len(words))
    swap = rng.random(len(words))
    alts = [draw(len(words)) for _ in range(n_refs - 1)]
    alt_mask = [rng.random(len(words)) < 0.3 for _ in range(n_refs - 1)]
    hyps: list[str] = []
    refs: list[list[str]] = []
    start = 0
    for length in lengths:
        end = start + int(length)
        ref = list(words[start:end])
        seg_refs = [" ".join(ref)]
        for alt, mask in zip(alts, alt_mask):
            seg_refs.append(" ".join(np.where(mask[start:end], alt[start:end], words[start:end])))
        hyp = []
        for j in range(start, end):
            if action[j] < 0.08:
                continue
            hyp.append(subst[j] if action[j] < 0.2 else words[j])
            if extra[j] < 0.05:
                hyp.append(inserts[j])
        for i in range(len(hyp) - 1):
            if swap[(start + i) % len(swap)] < 0.05:
                hyp[i], hyp[i + 1] = hyp[i + 1], hyp[i]
        hyps.append(" ".join(hyp))
        refs.append(seg_refs)
        start = end
    return hyps, refs


def pair_block(n: int, seed: int, vocab_size: int = 20000) -> tuple[str, str]:
    """``n`` segment pairs as two newline-terminated texts (hypotheses, references),
    built without a per-word Python loop so ten million pairs take a minute or two.

    The noise is that of :func:`corpus` (8% deletions, 12% substitutions, 5% insertions,
    5% adjacent swaps), except that the first word of a segment is never deleted (no
    empty lines) and swaps do not chain. Every block shares one vocabulary; words are
    drawn through a 2^20-entry inverse-CDF table (a Zipf law quantized to 2^-20).
    """
    rng = np.random.default_rng(seed)
    vocab, table = _zipf_table(vocab_size)

    def draw(k: int) -> np.ndarray:
        return vocab[table[rng.integers(0, len(table), k)]]

    lengths = rng.integers(5, 41, size=n)
    total = int(lengths.sum())
    words = draw(total)
    seg = np.repeat(np.arange(n), lengths)
    first = np.zeros(total, dtype=bool)
    first[np.cumsum(lengths) - lengths] = True
    action = rng.random(total)
    main = np.where(action < 0.2, draw(total), words)
    keep_main = (action >= 0.08) | first
    inserted = draw(total)
    keep_insert = rng.random(total) < 0.05
    # Each word has two slots, itself and an insertion after it; keep the used ones.
    tokens = np.stack([main, inserted], axis=1).ravel()[np.stack([keep_main, keep_insert], axis=1).ravel()]
    hyp_seg = np.stack([seg, seg], axis=1).ravel()[np.stack([keep_main, keep_insert], axis=1).ravel()]
    swap = rng.random(len(tokens)) < 0.05
    swap[:-1] &= hyp_seg[:-1] == hyp_seg[1:]
    swap[-1] = False
    swap[1:] &= ~swap[:-1]  # no chains: a token moves at most one place
    at = np.flatnonzero(swap)
    tokens[at], tokens[at + 1] = tokens[at + 1], tokens[at].copy()
    return _lines(tokens, hyp_seg), _lines(words, seg)


@functools.lru_cache(maxsize=4)
def _zipf_table(vocab_size: int) -> tuple[np.ndarray, np.ndarray]:
    vocab = np.array(vocabulary(vocab_size, np.random.default_rng(2026)) + PUNCT, dtype=object)
    p = 1.0 / np.arange(1, len(vocab) + 1)
    cdf = np.cumsum(p / p.sum())
    quantiles = (np.arange(1 << 20) + 0.5) / (1 << 20)
    return vocab, np.minimum(np.searchsorted(cdf, quantiles), len(vocab) - 1)


def _lines(tokens: np.ndarray, seg: np.ndarray) -> str:
    """Tokens joined by spaces within a segment and newlines between segments."""
    sep = np.full(len(tokens), " ", dtype=object)
    sep[np.append(seg[1:] != seg[:-1], True)] = "\n"
    out = np.empty(2 * len(tokens), dtype=object)
    out[0::2], out[1::2] = tokens, sep
    return "".join(out.tolist())
