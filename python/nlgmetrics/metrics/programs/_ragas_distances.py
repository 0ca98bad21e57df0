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
    """Unit-cost edit distance, by Hyyrö's bit-parallel form of Myers' algorithm (the one
    rapidfuzz uses): one column of the dynamic-programming table is a pair of Python
    integers, so two 3,000-character contexts take milliseconds, not the seconds (and
    30,000 characters the quarter of an hour) of the cell-by-cell table. Exact: integers."""
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return len(a)
    peq: dict[str, int] = {}
    for i, c in enumerate(b):
        peq[c] = peq.get(c, 0) | (1 << i)
    mask = (1 << m) - 1
    high = 1 << (m - 1)
    pv, mv, score = mask, 0, m
    for c in a:
        eq = peq.get(c, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & mask) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & mask
        mh = pv & xh
        if ph & high:
            score += 1
        elif mh & high:
            score -= 1
        ph = ((ph << 1) | 1) & mask
        mh = (mh << 1) & mask
        pv = (mh | ~(xv | ph)) & mask
        mv = ph & xv
    return score


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
    # Each character of a takes the first unused equal character of b in its window. The
    # window's start only moves right, so per character the positions before a pointer are
    # used or out of reach for good: linear time, the same matches as scanning the window.
    positions: dict[str, list[int]] = {}
    for j, cb in enumerate(b):
        positions.setdefault(cb, []).append(j)
    next_free = dict.fromkeys(positions, 0)
    for i, ca in enumerate(a):
        where = positions.get(ca)
        if where is None:
            continue
        lo, hi = max(0, i - window), min(len(b), i + window + 1)
        k = next_free[ca]
        while k < len(where) and where[k] < lo:
            k += 1
        if k < len(where) and where[k] < hi:
            b_used[where[k]] = True
            a_matched.append(ca)
            k += 1
        next_free[ca] = k
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
