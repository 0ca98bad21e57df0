"""Deterministic synthetic parallel corpora for benchmarks.

References are drawn from a Zipfian vocabulary with punctuation; hypotheses are noisy
copies (substitutions, deletions, insertions, local swaps), so n-gram overlap looks like
real MT output. The same seed always gives the same text. Sampling is vectorised, so a
million segments take seconds.
"""

from __future__ import annotations

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
