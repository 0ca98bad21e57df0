"""Every public array-taking function, every positional array argument, hostile values:
a number or a typed ``nlgmetrics.errors`` error, never a raw numpy/Python exception.

The class behind three reports: a ragged list (``[0, []]``), strings among numbers,
complex numbers, ``None`` rows or a bool where a sequence belongs reached ``np.asarray``
or ``np.ndim`` before any check and escaped as a raw ``ValueError``/``TypeError``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings

import pytest

from nlgmetrics.errors import NlgMetricsError

MODULES = ["nlgmetrics.classification", "nlgmetrics.engines.meta"]
MODULES += ["nlgmetrics.analysis." + m.name for m in pkgutil.iter_modules(importlib.import_module("nlgmetrics.analysis").__path__) if not m.name.startswith("_")]
MODULES += ["nlgmetrics.classification." + m.name for m in pkgutil.iter_modules(importlib.import_module("nlgmetrics.classification").__path__) if not m.name.startswith("_")]

HOSTILE = {
    "ragged": [0, []],
    "ragged-rows": [[0, 1], [1]],
    "string-among-numbers": [0, "a"],
    "complex": [0, 1.5j],
    "none-row": [None, 1],
    "deep": [[[0]]],
    "bool": False,
    "none": None,
    "dict": {0: 1, 1: 0},
    "set": {0, 1},
    "string": "01",
}
VALID = {"scores": [0.1, 0.8, 0.4, 0.9], "labels": [0, 1, 0, 1]}


KEYWORDS = {"beta": 1.0, "num_classes": 2}


def _required_keywords(fn) -> dict:
    return {p.name: KEYWORDS[p.name] for p in inspect.signature(fn).parameters.values() if p.kind == p.KEYWORD_ONLY and p.default is p.empty}


def _functions():
    seen = set()
    for name in MODULES:
        mod = importlib.import_module(name)
        for attr, f in vars(mod).items():
            public = f.__module__.startswith("nlgmetrics.") if inspect.isfunction(f) else False
            if attr.startswith("_") or not public or any(part.startswith("_") for part in f.__module__.split(".")):
                continue
            if id(f) in seen:
                continue
            seen.add(id(f))
            params = [p for p in inspect.signature(f).parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
            for slot in range(min(len(params), 3)):
                yield pytest.param(f, len(params), slot, id=f"{f.__module__}.{attr}-{slot}")


@pytest.mark.parametrize("fn,arity,slot", list(_functions()))
@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_hostile_array_arguments_are_typed_errors(fn, arity, slot, hostile):
    for valid in VALID.values():
        args = [valid] * arity
        args[slot] = HOSTILE[hostile]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                fn(*args, **_required_keywords(fn))
            except NlgMetricsError as e:
                assert str(e)
            # any other exception fails the test with its traceback


def test_the_sweep_covers_the_reported_functions():
    names = {p.id.rsplit(".", 1)[1].rsplit("-", 1)[0] for p in _functions()}
    assert {"roc_curve", "pearson", "kendall", "compare_mt_bleu", "cohen_kappa_score", "matthews_corrcoef", "mcc_from_confusion", "kappa_from_confusion"} <= names
