"""Every numeric-array input of the metrics, the correlations and the classification
functions: complex numbers, strings, objects and (where a 0/1 is meaningless) booleans are
typed errors, never converted. ``np.asarray(x, dtype=np.float64)`` drops an imaginary part
with a warning, parses ``"-0.5"`` and reads ``True`` as ``1.0``: Perplexity scored
``[-1+1j, -2]`` as ``[-1, -2]``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from nlgmetrics import Perplexity
from nlgmetrics import classification as cls
from nlgmetrics.engines import meta
from nlgmetrics.errors import InputTypeError, InvalidInputError, NlgMetricsError
from nlgmetrics.metrics.llm import lm_eval_aggregates
from nlgmetrics.registry import load

LOGPROBS = [-0.5, -1.25, -2.0]
SCORES = [0.1, 0.8, 0.4]


def _hostile(valid: list[float], bools: bool) -> dict:
    a = np.asarray(valid)
    cases = {
        "complex-array": a + 1j,
        "complex-zero-imaginary": a.astype(complex),
        "python-complex": [complex(v, 1) for v in valid],
        "strings": [repr(v) for v in valid],
        "string-array": a.astype(str),
        "object-none": [None, *valid[1:]],
        "object-array": a.astype(object).tolist()[:-1] + [object()],
        "ragged": [valid, valid[:1]],
    }
    if bools:
        cases["booleans"] = [False] * len(valid)
        cases["boolean-array"] = np.zeros(len(valid), dtype=bool)
    return cases


# (entry point, valid input, whether a boolean input is meaningless there)
ENTRY_POINTS = {
    "Perplexity.corpus_score": (lambda x: Perplexity().corpus_score([x]).score, LOGPROBS, True),
    "Perplexity.sentence_scores": (lambda x: Perplexity().sentence_scores([x, LOGPROBS]), LOGPROBS, True),
    "Perplexity.update": (lambda x: Perplexity().update([x]).compute().score, LOGPROBS, True),
    "Perplexity 2-D": (lambda x: Perplexity().corpus_score(np.asarray([x, x])).score, LOGPROBS, True),
    "lm-eval perplexity": (lambda x: lm_eval_aggregates.perplexity(x), LOGPROBS, True),
    "squad_v2 na_probs": (lambda x: load("squad_v2").corpus_score(["a", "b", "c"], [["a"], ["c"], ["c"]], na_probs=x).score, SCORES, False),
    "pearson": (lambda x: meta.pearson(x, SCORES), SCORES, False),
    "spearman": (lambda x: meta.spearman(SCORES, x), SCORES, False),
    "kendall": (lambda x: meta.kendall(x, SCORES), SCORES, False),
    "roc_auc_score": (lambda x: cls.roc_auc_score([0, 1, 0], x), SCORES, False),
    "brier_score_loss": (lambda x: cls.brier_score_loss([0, 1, 0], x), SCORES, False),
    "sample_weight": (lambda x: cls.accuracy_score([0, 1, 0], [0, 1, 1], sample_weight=x), SCORES, False),
}
CASES = [
    pytest.param(name, case, id=f"{name}-{case}")
    for name, (_, valid, bools) in ENTRY_POINTS.items()
    for case in _hostile(valid, bools)
    if (name, case) != ("Perplexity 2-D", "ragged")  # rows of texts of different lengths are the list form
]


@pytest.mark.parametrize("name, case", CASES)
def test_a_non_real_number_is_a_typed_error(name, case):
    call, valid, bools = ENTRY_POINTS[name]
    assert math.isfinite(float(np.nanmax(np.ravel(call(valid)))))  # the valid input scores
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's ComplexWarning is not a refusal
        with pytest.raises(NlgMetricsError):
            call(_hostile(valid, bools)[case])


def test_perplexity_refuses_complex_and_names_the_text():
    with pytest.raises(InputTypeError, match=r"logprobs\[1\] must be real numbers, got complex numbers"):
        Perplexity().corpus_score([LOGPROBS, np.array([-1 + 1j, -2])])
    with pytest.raises(InputTypeError, match="got booleans"):
        Perplexity().corpus_score([[False, False]])  # would be perplexity 1.0
    with pytest.raises(InputTypeError, match="got strings"):
        Perplexity().corpus_score([["-1", "-2"]])
    with pytest.raises(InvalidInputError, match=r"logprobs\[0\] contains NaN"):
        Perplexity().corpus_score([[-1.0, float("nan")]])
    # NaN under a False mask is padding; float32 and integers are real numbers
    masked = Perplexity().corpus_score(np.array([[-1.0, np.nan]]), mask=np.array([[True, False]]))
    assert masked.score == math.e and masked.tokens == 1
    assert Perplexity().corpus_score([np.array([-1, -1], dtype=np.int64), np.array([-1.0], dtype=np.float32)]).score == math.e


def test_real_array_names_what_it_refuses():
    from nlgmetrics._numbers import real_array

    assert real_array([1, 2.5], "x").tolist() == [1.0, 2.5]
    assert real_array([True, False], "x", allow_bool=True).tolist() == [1.0, 0.0]
    with pytest.raises(InvalidInputError, match=r"x\[1\]\[0\] is NaN"):
        real_array([[1.0], [float("nan")]], "x", ndim=(2,))
    with pytest.raises(InputTypeError, match="2 dimension"):
        real_array([1.0], "x", ndim=(2,))
    for bad, word in ((None, "NoneType"), ("12", "str"), ([1j], "complex"), ([np.datetime64("2020-01-01")], "dates")):
        with pytest.raises(InputTypeError, match=word):
            real_array(bad, "x")
