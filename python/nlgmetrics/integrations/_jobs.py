"""What the Ray and Spark faces share on the driver: the options checked, the jobs built,
the corpus tables put together, the row offsets of the bootstrap. Each face keeps only its
engine calls (tasks and actors, ``mapInPandas`` and reduces); the blocks' own work is in
:mod:`._blocks`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..engines import two_phase
from ..errors import InputTypeError, InvalidOptionError
from . import _blocks

Job = _blocks.Job


def metric_items(metrics: Any) -> tuple[list[Any], bool]:
    """(metric objects, single?) from a name, an object or a list of either."""
    from ..registry import load

    single = not isinstance(metrics, (list, tuple))
    items = [load(m) if isinstance(m, str) else m for m in ([metrics] if single else metrics)]
    for m in items:
        if not hasattr(m, "stats") or not hasattr(m, "score_stats"):
            raise InputTypeError(f"{getattr(m, 'name', type(m).__name__)} has no per-segment statistics: it cannot be scored block by block")
    if not items:
        raise InvalidOptionError("no metrics given")
    return items, single


def is_model_metric(metric: Any) -> bool:
    """Metrics that load a neural model (BERTScore, COMET, BLEURT...): run by actors."""
    return type(metric).__module__.startswith("nlgmetrics.neural.")


def bootstrap_options(n_resamples: int | None, seed: Any) -> tuple[int, int] | None:
    if n_resamples is None:
        return None
    from ..engines.significance import _check_count, _resolve_seed

    return (_check_count("n_resamples", n_resamples), _resolve_seed(seed, "nlgmetrics")[0])


def check_count(name: str, value: Any, minimum: int = 1) -> int:
    """``value`` as an integer option (``split_every``, ``concurrency``) of at least ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise InvalidOptionError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def score_jobs(metrics: Any, prediction: str, n_resamples: int | None, seed: Any) -> tuple[list[Job], bool, tuple[int, int] | None]:
    """(one job per metric over the ``prediction`` column, single metric?, bootstrap options)."""
    items, single = metric_items(metrics)
    return [(m, prediction) for m in items], single, bootstrap_options(n_resamples, seed)


def paired_jobs(metric: Any, systems: Sequence[str], n_samples: int, seed: Any) -> tuple[list[Job], list[str], tuple[int, int] | None]:
    """(one job per system column for the one metric, the column names, bootstrap options)."""
    items, _ = metric_items(metric)
    if len(items) != 1:
        raise InvalidOptionError("paired_test takes one metric")
    names = list(systems)
    if len(names) < 2:
        raise InvalidOptionError("paired_test needs a baseline column and at least one system column")
    if two_phase.needs_table(items[0]):
        raise InvalidOptionError(f"{items[0].name} weights segments by a corpus table: fit it once and pass a bound metric (two_phase.bind_table)")
    return [(items[0], name) for name in names], names, bootstrap_options(n_samples, seed)


def column_jobs(metrics: Any, prediction: str, taken: Iterable[str] = ()) -> tuple[list[str], list[Job]]:
    """(score column names, jobs) of ``segment_scores``: named by the metrics' names or by
    the keys of a ``{column: metric}`` mapping; new (not in ``taken``) and distinct."""
    if isinstance(metrics, Mapping):
        names = list(metrics)
        items, _ = metric_items(list(metrics.values()))
    else:
        items, _ = metric_items(metrics)
        names = [m.name.lower() for m in items]
    if len(set(names)) != len(names) or set(names) & set(taken):
        raise InvalidOptionError("the score columns must be new and distinct: pass a mapping {column: metric}")
    return names, [(m, prediction) for m in items]


def missing_tables(jobs: Sequence[Job], given: Mapping[int, Any]) -> list[int]:
    """Indices of the two-phase jobs whose corpus table is not given: phase one fits them."""
    return [i for i, (m, _) in enumerate(jobs) if two_phase.needs_table(m) and i not in given]


def with_tables(given: Mapping[int, Any], missing: Sequence[int], merged: Sequence[Any]) -> dict[int, Any]:
    """The given tables plus the fitted ones (``merged[k]`` is job ``missing[k]``'s)."""
    out = dict(given)
    out.update(zip(missing, merged))
    return out


def offsets(counts: Iterable[tuple[int, int]]) -> dict[int, int]:
    """``{part: first global row id}`` from ``(part, rows)`` counts in any order."""
    out, acc = {}, 0
    for part, rows in sorted(counts):
        out[part] = acc
        acc += rows
    return out
