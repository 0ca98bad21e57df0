"""The registry is the one list of metrics: every Metric class in nlgmetrics.metrics is a
registered entry or a flavour of one, and ``nlgmetrics list`` prints every entry and
every flavour (found by introspection, so a new class cannot be left out)."""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil

import nlgmetrics
import nlgmetrics.metrics as metrics_pkg
from nlgmetrics.cli import main
from nlgmetrics.metrics.base import Flavoured, Metric

# Shared bases, not metrics
NOT_METRICS = {"Metric", "_EditMetric", "_SquadBase", "_LmEvalWeighted", "_SamplingMetric"}


def _metric_classes() -> set[type]:
    found: set[type] = set()
    for info in pkgutil.iter_modules(metrics_pkg.__path__):
        module = importlib.import_module(f"nlgmetrics.metrics.{info.name}")
        for obj in vars(module).values():
            if inspect.isclass(obj) and issubclass(obj, Metric) and obj.__module__ == module.__name__ and obj.__name__ not in NOT_METRICS:
                found.add(obj)
    return found


def test_every_metric_class_is_registered_or_a_registered_flavour():
    entries = nlgmetrics.available()
    factories = {e.name: e.factory for e in entries}
    flavours = {e.name: set(e.flavours) for e in entries}
    for cls in _metric_classes():
        direct = [n for n, f in factories.items() if f is cls]
        if direct:
            continue
        families = [n for n, f in factories.items() if inspect.isclass(f) and issubclass(f, Flavoured) and issubclass(cls, f)]
        assert families, f"{cls.__qualname__} is in no registry entry"
        flavour = cls.__dict__.get("flavour")
        if flavour is None:  # a family's root class is its entry
            assert any(factories[n] is cls for n in families) or cls in (factories[n] for n in families), cls
            continue
        assert any(flavour in flavours[n] for n in families), f"{cls.__qualname__}'s flavour {flavour!r} is not listed"


def test_list_prints_every_entry_and_flavour(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    for e in nlgmetrics.available():
        assert e.name in lines, e.name
        for flavour in e.flavours:
            assert flavour in lines[e.name], (e.name, flavour)
    assert "nltk" in lines["bleu"] and "coco" in lines["bleu"] and "nmt" in lines["bleu"]
    for name in ("perplexity", "coverage", "content_selection_ordering"):
        assert name in lines
        nlgmetrics.load(name)  # and load() finds them


def test_list_prints_every_classification_metric(capsys):
    import nlgmetrics.classification as C

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    section = out.split("\nclassification (")[1].split("tokenizers:")[0]  # the section header, not classification_report
    functions = {n for n in C.__all__ if callable(getattr(C, n)) and n[0].islower()}
    assert functions == {line.strip() for line in section.splitlines()[1:] if line.strip()}
