"""The whole-batch path of ``multiple_choice`` (:mod:`nlgmetrics.metrics.llm._multiple_choice_batch`)
gives, document for document, the counts of the per-document path (``score_document``, which
the goldens tie to lm-eval's ``process_results``): generated batches with ties, ``-inf`` and
NaN log-likelihoods, empty and non-ASCII choices (characters != bytes), golds out of range,
unconditional log-likelihoods on some documents, rows as float64 arrays; and any document
outside the common shape sends the batch to the per-document path."""
from __future__ import annotations

import random

import numpy as np
import pytest

from nlgmetrics.metrics.llm._multiple_choice_batch import batch_counts
from nlgmetrics.metrics.llm.multiple_choice import MultipleChoice, score_document

PIECES = ["A", "b", "yes", "no", " ", "é", "漢字", "Ω", "🙂", "naïve", "straße", "x" * 7, "1", "ü", "a\u0301"]
POOL = [0.0, -0.5, -1.0, -1.0, -2.25, -3.0, -7.5, -12.0, -float("inf"), -0.1, -33.3]


def _batch(seed: int, n: int, ascii_only: bool = False):
    rng = random.Random(seed)
    pieces = [p for p in PIECES if p.isascii()] if ascii_only else PIECES

    def ll():
        r = rng.random()
        if r < 0.6:
            return rng.choice(POOL)
        if r < 0.63:
            return float("nan")
        return -round(rng.expovariate(0.2), rng.choice([1, 3, 17]))

    lls, golds, choices, uncs = [], [], [], []
    for _ in range(n):
        k = rng.choice([1, 2, 2, 3, 4, 4, 4, 5, 6, 11])
        choices.append(["".join(rng.choice(pieces) for _ in range(rng.choice([0, 1, 1, 2, 3]))) for _ in range(k)])
        lls.append([ll() for _ in range(k)])
        golds.append(rng.randrange(k) if rng.random() < 0.93 else rng.choice([-1, k, k + 5]))
        uncs.append([ll() for _ in range(k)] if rng.random() < 0.4 else None)
    return lls, golds, choices, uncs


def _per_document(lls, golds, choices, uncs) -> np.ndarray:
    rows = []
    for ll, g, c, u in zip(lls, golds, choices, uncs):
        r = score_document(ll, c, g, u)
        rows.append((1, r.acc, r.acc_norm, r.acc_bytes, r.acc_mutual_info or 0.0, r.acc_mutual_info is not None, not r.gold_in_range))
    return np.array(rows, dtype=np.uint64)


@pytest.mark.parametrize("seed", range(6))
def test_the_batch_equals_each_document_scored_alone(seed):
    batch = _batch(seed, 1500, ascii_only=seed == 5)
    got = batch_counts(*batch)
    assert got is not None
    want = _per_document(*batch)
    assert got.tolist() == want.tolist()
    assert want[:, 1:5].sum() > 0 and want[:, 6].sum() > 0 and want[:, 5].sum() > 0  # every column reached


def test_rows_as_float64_arrays_and_numpy_int_golds_equal_lists():
    lls, golds, choices, uncs = _batch(7, 800)
    arrays = ([np.array(r) for r in lls], [np.int64(g) for g in golds], choices, [None if u is None else np.array(u) for u in uncs])
    assert batch_counts(*arrays).tolist() == _per_document(lls, golds, choices, uncs).tolist()
    scalars = ([[np.float64(v) for v in r] for r in lls], golds, choices, uncs)
    assert batch_counts(*scalars).tolist() == _per_document(lls, golds, choices, uncs).tolist()


def test_ties_go_to_the_first_choice_and_nan_wins():
    lls = [[-1.0, -1.0], [-float("inf"), -float("inf")], [-2.0, float("nan"), float("nan")], [-1.0, -2.0]]
    choices = [["a", "b"], ["a", "b"], ["a", "b", "c"], ["", "bb"]]  # -1/0 = -inf: the second choice by characters
    got = batch_counts(lls, [0, 0, 1, 1], choices, [None] * 4)
    assert got[:, 1].tolist() == [1, 1, 1, 0] and got[:, 2].tolist() == [1, 1, 1, 1]


@pytest.mark.parametrize("odd", [
    lambda b: b[0].__setitem__(3, [(-1.0, True)] * len(b[2][3])),   # lm-eval's (loglikelihood, is_greedy) pairs
    lambda b: b[0].__setitem__(3, [-1] * len(b[2][3])),             # ints
    lambda b: b[1].__setitem__(3, "gold text"),                     # a gold given as text
    lambda b: b[1].__setitem__(3, [0, 1]),                          # several golds
    lambda b: b[2][3].__setitem__(0, "a\ud800"),                    # a lone surrogate
    lambda b: b[2].__setitem__(3, b[2][3][:-1] if len(b[2][3]) > 1 else []),  # lengths differ
    lambda b: b[3].__setitem__(3, [-1.0] * (len(b[2][3]) + 1)),     # unconditional of another length
])
def test_a_document_outside_the_common_shape_sends_the_batch_to_each_document(odd):
    batch = _batch(8, 50)
    odd(batch)
    assert batch_counts(*batch) is None


def test_the_metric_gives_the_same_scores_through_either_path():
    lls, golds, choices, uncs = _batch(9, 600)
    fast = MultipleChoice().stats(lls, golds, choices, uncs)
    mixed = list(golds)
    mixed[0] = choices[0][golds[0]] if 0 <= golds[0] < len(choices[0]) and choices[0].index(choices[0][golds[0]]) == golds[0] else golds[0]
    mixed[1] = [golds[1]]  # a list of one gold: the per-document path, the same verdicts
    slow = MultipleChoice().stats(lls, mixed, choices, uncs)
    assert fast.counts.tolist() == slow.counts.tolist()
