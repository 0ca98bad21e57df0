"""Paired significance between two lm-eval runs on the same documents (``nlgmetrics lm-eval
A --compare B``), which no evaluation framework reports.

Per task present in both runs, per filter and per ``mean``-aggregated metric, the
per-document values (as :mod:`nlgmetrics.tasks.lm_eval_folder` re-scores them) are paired on
``doc_id``; the paired bootstrap (``test="bs"``) or approximate randomisation (``"ar"``) of
:func:`nlgmetrics.engines.significance.paired_test_stats` runs on them as the mean of
per-document scores (``avg_at_k`` with ``k=1``: its statistics are those values). Documents
in one run only are counted, not paired; metrics aggregated otherwise (perplexities, f1) are
listed as skipped, and so are the tasks of one run only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError
from .lm_eval_folder import _metric_list, find_run, task_values_by_doc


@dataclass
class PairedRow:
    task: str
    filter: str
    metric: str
    n_paired: int
    only_a: int
    only_b: int
    score_a: float
    score_b: float
    p_value: float
    signature: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _number(v: Any, where: str) -> float:
    if isinstance(v, bool):
        return float(v)
    if not isinstance(v, (int, float)):
        raise InvalidInputError(f"{where}: a per-document value {v!r} is not a number")
    return float(v)


def _signature(resampling: str) -> str:
    """The resampling items of the test's signature; the statistic is named here (the mean
    of per-document values), not by the metric that carried the statistics."""
    items = [i for i in resampling.split("|") if not i.startswith(("k:", "ddof:", "ref:"))]
    return "|".join(["lm-eval-paired|statistic:document-mean", *items])


def compare_folders(a: Any, b: Any, *, test: str = "bs", n_samples: int | None = None, seed: int | None = 12345,
                    tasks: list[str] | None = None) -> tuple[list[PairedRow], list[str]]:
    """``(rows, skipped)``: one row per task / filter / mean-aggregated metric of both runs."""
    from ..engines.significance import paired_test_stats
    from ..metrics.llm._sampling_metrics import AvgAtKMetric

    run_a, run_b = find_run(a), find_run(b)
    common = [t for t in run_a.results["configs"] if t in run_b.results["configs"]]
    if tasks is not None:
        for t in tasks:
            if t not in common:
                raise InvalidInputError(f"unknown task {t!r}; both runs have: {', '.join(common)}")
        common = [t for t in common if t in tasks]
    if not common:
        raise InvalidInputError(f"{run_a.results_path} and {run_b.results_path} have no task in common")
    metric = AvgAtKMetric(k=1)
    rows, skipped = [], []
    if tasks is None:  # a task of one run only is said, not dropped in silence
        skipped += [f"{t}: in A only" for t in run_a.results["configs"] if t not in run_b.results["configs"]]
        skipped += [f"{t}: in B only" for t in run_b.results["configs"] if t not in run_a.results["configs"]]
    for task in common:
        for run in (run_a, run_b):
            if task not in run.samples:
                raise InvalidInputError(f"{run.results_path.parent}: no samples file for task {task!r} (run lm-eval with --log_samples)")
        cfg = run_a.results["configs"][task]
        values_a, ids_a = task_values_by_doc(run_a.samples[task], cfg, task)
        values_b, ids_b = task_values_by_doc(run_b.samples[task], run_b.results["configs"][task], task)
        aggregations = dict(_metric_list(cfg, task))
        for (name, filt), va in values_a.items():
            if (name, filt) not in values_b:
                continue
            if aggregations.get(name) != "mean":
                skipped.append(f"{task}: {name},{filt} (aggregation {aggregations.get(name)})")
                continue
            da = dict(zip(ids_a[filt], va))
            db = dict(zip(ids_b[filt], values_b[(name, filt)]))
            paired = [d for d in da if d in db]
            if not paired:
                skipped.append(f"{task}: {name},{filt} (no doc_id in both runs)")
                continue
            where = f"{task}: {name},{filt}"
            sa = metric.stats([[_number(da[d], where)] for d in paired])
            sb = metric.stats([[_number(db[d], where)] for d in paired])
            result = paired_test_stats(metric, ("A", sa), [("B", sb)], test=test, n_samples=n_samples, seed=seed)
            base, other = result.systems
            rows.append(PairedRow(task, filt, name, len(paired), len(da) - len(paired), len(db) - len(paired),
                                  base.score, other.score, other.p_value, _signature(result.signature.format())))
    return rows, skipped
