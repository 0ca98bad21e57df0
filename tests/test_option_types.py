"""Option values of the wrong type are refused, never guessed: for every registered
metric, every flavour and every constructor option (read from the signatures), a
non-bool for a bool option, a non-integer for an int option, and out-of-range floats
either give a finite number or an InvalidOptionError. (Random hostile values for every
option: tests/test_adversarial_api.py::test_hostile_options_are_refused_or_scored_in_range.)"""

from __future__ import annotations

import inspect
import math
import warnings

import pytest

import nlgmetrics
from nlgmetrics import InvalidOptionError, NlgMetricsError

ENTRIES = [e for e in nlgmetrics.available() if e.kind in ("text", "data-to-text")]
HYPS = ["the cat sat on the mat today", "a dog ran in the park"]
REFS = [["the cat is on the mat"], ["a dog runs in a park"]]
TABLES = [[["name", "cat"]], [["name", "dog"]]]


def _options(entry):
    for flavour in entry.flavours or (None,):
        metric = nlgmetrics.load(entry.name, **({} if flavour is None else {"flavour": flavour}))
        for p in list(inspect.signature(type(metric).__init__).parameters.values())[1:]:
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in ("flavour", "n_threads"):
                yield flavour, p.name, p.default


CASES = [(e, f, name, default) for e in ENTRIES for f, name, default in _options(e)]


def _score(entry, metric):
    if entry.kind == "data-to-text":
        return metric.corpus_score(HYPS, REFS, TABLES).score
    if entry.name in ("distinct", "self_bleu"):
        return metric.corpus_score(HYPS + ["the cat ran"]).score
    return metric.corpus_score(HYPS, REFS).score


@pytest.mark.parametrize("entry,flavour,name,default", [c for c in CASES if isinstance(c[3], bool)],
                         ids=[f"{c[0].name}-{c[1]}-{c[2]}" for c in CASES if isinstance(c[3], bool)])
def test_bool_options_take_bools_only(entry, flavour, name, default):
    base = {} if flavour is None else {"flavour": flavour}
    for value in ("yes", "no", "", 1, 0, 1.0, None, [True]):
        with pytest.raises(InvalidOptionError, match=name):
            nlgmetrics.load(entry.name, **base, **{name: value})


# options that count things (orders, lengths): a fraction is a type error. Other int
# defaults (nltk's k and alpha, chrF's beta) are real numbers in their references.
COUNTS = {"n", "max_ngram_order", "char_order", "word_order", "max_order", "min_len", "max_len", "length_limit", "byte_limit", "n_samples", "sample_size"}
HOSTILE_NUMBERS = (1e300, -1e300, math.inf, -math.inf, math.nan, 10**20, -(10**20), 2.5, -1)


@pytest.mark.parametrize("entry,flavour,name,default", [c for c in CASES if type(c[3]) in (int, float)],
                         ids=[f"{c[0].name}-{c[1]}-{c[2]}" for c in CASES if type(c[3]) in (int, float)])
def test_numeric_options_give_a_finite_number_or_a_typed_error(entry, flavour, name, default):
    base = {} if flavour is None else {"flavour": flavour}
    for value in HOSTILE_NUMBERS + ("3", True):
        try:
            metric = nlgmetrics.load(entry.name, **base, **{name: value})
        except InvalidOptionError:
            continue
        if isinstance(value, (str, bool)):
            pytest.fail(f"{entry.name} {name}={value!r} was accepted")
        if name in COUNTS and isinstance(value, float) and not value.is_integer():
            pytest.fail(f"{entry.name} {name}={value!r}: an integer option took a fraction")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                score = _score(entry, metric)
            except InvalidOptionError:
                continue
            except NlgMetricsError as e:  # a typed error naming the problem is fine; a NaN is not
                assert not isinstance(e, nlgmetrics.InternalError), (entry.name, name, value, e)
                continue
        assert math.isfinite(score), (entry.name, flavour, name, value, score)
