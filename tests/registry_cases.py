"""Facts about the registry that several test suites need, derived from it (not listed by
hand, so that a new metric is classified the day it lands)."""

from __future__ import annotations

import inspect

from nlgmetrics import available


def one_reference_metrics() -> frozenset[str]:
    """Registered metrics that score one reference per segment unless told how to choose
    among several: their constructor's ``multi_ref`` defaults to ``"error"`` (the jiwer
    family, PER, lm-eval's qasper)."""
    names = set()
    for entry in available():
        param = inspect.signature(entry.factory).parameters.get("multi_ref")
        if param is not None and param.default == "error":
            names.add(entry.name)
    return frozenset(names)


ONE_REF = one_reference_metrics()
