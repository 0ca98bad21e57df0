"""Deterministic synthetic parallel corpora for benchmarks.

References are drawn from a Zipfian vocabulary with punctuation; hypotheses are noisy
copies (substitutions, deletions, insertions, local swaps), so n-gram overlap looks like
real MT output. The same seed always gives the same text.
"""

from __future__ import annotations

import numpy as np

PUNCT = [",", ".", "!", "?", ";", ":", "(", ")", "-", "'s"]


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = set()
    while len(words) < size:
        n = int(rng.integers(2, 10))
        words.add("".join(rng.choice(letters, n)))
    return sorted(words)


def corpus(n: int, seed: int = 2026, vocab_size: int = 20000, n_refs: int = 1) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(seed)
    vocab = np.array(vocabulary(vocab_size, rng) + PUNCT)
    ranks = np.arange(1, len(vocab) + 1)
    p = 1.0 / ranks
    p /= p.sum()
    hyps: list[str] = []
    refs: list[list[str]] = []
    for _ in range(n):
        length = int(rng.integers(5, 41))
        ref = list(rng.choice(vocab, length, p=p))
        seg_refs = [" ".join(ref)]
        for _ in range(n_refs - 1):
            alt = [w if rng.random() > 0.3 else str(rng.choice(vocab, p=p)) for w in ref]
            seg_refs.append(" ".join(alt))
        hyp = []
        for w in ref:
            r = rng.random()
            if r < 0.08:
                continue
            if r < 0.2:
                hyp.append(str(rng.choice(vocab, p=p)))
            else:
                hyp.append(w)
            if rng.random() < 0.05:
                hyp.append(str(rng.choice(vocab, p=p)))
        for i in range(len(hyp) - 1):
            if rng.random() < 0.05:
                hyp[i], hyp[i + 1] = hyp[i + 1], hyp[i]
        hyps.append(" ".join(hyp))
        refs.append(seg_refs)
    return hyps, refs
