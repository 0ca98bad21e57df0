"""The string similarities ragas' ``NonLLMStringSimilarity`` takes from rapidfuzz 3
(``1 - rapidfuzz.distance.X.normalized_distance(reference, response)``), in pure Python with
rapidfuzz's definitions and floating-point order, over Unicode code points, no processor:

- Levenshtein: unit-cost edit distance / ``max(len)``;
- Hamming (``pad=True``): differing positions plus the length difference / ``max(len)``;
- Jaro: ``(m/|a| + m/|b| + (m - t//2)/m) / 3`` with the match window
  ``max(|a|, |b|)//2 - 1`` (rapidfuzz's, at least 0), ``t`` the out-of-order matches;
- Jaro-Winkler: Jaro plus ``prefix·0.1·(1 - jaro)`` when Jaro exceeds 0.7, the common
  prefix counted up to 4.

Two empty strings are identical (similarity 1); one empty string against a non-empty one
scores 0. The distances are ``1 - similarity`` exactly as rapidfuzz rounds them.
"""

from __future__ import annotations


def levenshtein_distance(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def levenshtein_normalized_distance(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return levenshtein_distance(a, b) / longest if longest else 0.0


def hamming_normalized_distance(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    if not longest:
        return 0.0
    dist = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
    return dist / longest


def jaro_similarity(a: str, b: str) -> float:
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    window = max(max(len(a), len(b)) // 2 - 1, 0)
    b_used = [False] * len(b)
    a_matched = []
    for i, ca in enumerate(a):
        lo, hi = max(0, i - window), min(len(b), i + window + 1)
        for j in range(lo, hi):
            if not b_used[j] and b[j] == ca:
                b_used[j] = True
                a_matched.append(ca)
                break
    m = len(a_matched)
    if m == 0:
        return 0.0
    b_matched = [cb for cb, used in zip(b, b_used) if used]
    transpositions = sum(x != y for x, y in zip(a_matched, b_matched)) // 2
    sim = m / len(a)
    sim += m / len(b)
    sim += (m - transpositions) / m
    return sim / 3.0


def jaro_winkler_similarity(a: str, b: str, prefix_weight: float = 0.1) -> float:
    sim = jaro_similarity(a, b)
    if sim > 0.7:
        prefix = 0
        for x, y in zip(a[:4], b[:4]):
            if x != y:
                break
            prefix += 1
        sim += prefix * prefix_weight * (1.0 - sim)
    return sim


def normalized_distance(measure: str, a: str, b: str) -> float:
    """rapidfuzz's ``normalized_distance`` of one of the four measures."""
    if measure == "levenshtein":
        return levenshtein_normalized_distance(a, b)
    if measure == "hamming":
        return hamming_normalized_distance(a, b)
    if measure == "jaro":
        return 1.0 - jaro_similarity(a, b)
    if measure == "jaro_winkler":
        return 1.0 - jaro_winkler_similarity(a, b)
    raise ValueError(measure)


MEASURES = ("levenshtein", "hamming", "jaro", "jaro_winkler")
