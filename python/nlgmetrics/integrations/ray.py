"""Score a ``ray.data.Dataset`` without materialising it: statistics per block, merged in a tree.

``score(ds, metrics)`` streams the dataset's blocks (in dataset order) to Ray tasks; each
task turns its block into :class:`~nlgmetrics.stats.Stats` totals, and totals merge in a
tree of tasks (``split_every`` at a time, in block order), so the result is the local
``corpus_score``'s to the last bit, whatever the blocking. Only statistics travel: the
driver receives the finished scores.

- Two-phase metrics (CIDEr-D's document frequencies, NIST's information weights, an
  unfixed df) fit their corpus table block by block first and merge it in the same tree
  of tasks; the merged table stays in the object store and is bound on the workers.
- ``n_resamples=N`` adds Poisson-bootstrap totals keyed by global row ids (block
  offsets come from the blocks' row counts), equal to ``bootstrap_ci(...,
  resampling="poisson")`` on the whole corpus; ``paired_test`` does the same for
  systems in columns, equal to ``paired_test_stats(..., resampling="poisson")``.
- ``segment_scores(ds, metrics)`` returns a Dataset with one column of segment scores
  per metric (a lazy ``map_batches`` stage).
- Model-based metrics (BERTScore, COMET, BLEURT) run on an actor pool: ``concurrency``
  actors, each loading its model once, with ``num_gpus`` / ``num_cpus`` per actor;
  within a block the metric batches by length exactly as a local call does.
- Bad input is answered as locally: a partition's typed error comes back as a value
  and is raised on the driver as the same class, naming the row of the whole dataset
  and the column (:mod:`._failures`); ``segment_scores`` checks its inputs before it
  returns the lazy stage. An empty dataset is an ``EmptyInputError`` (the one rule).

Requires the ``[ray]`` extra (``pip install 'nlgmetrics[ray]'``); ``ray`` is imported
when a function here runs. Start Ray as usual (``ray.init(...)``) to choose the cluster;
otherwise Ray starts a local instance on first use.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from ..errors import InputTypeError, MissingExtraError
from ..metrics.base import empty_input
from . import _blocks, _jobs
from ._failures import BlockFailure, raise_located

_REMOTES: dict[str, Any] = {}


def _ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise MissingExtraError("nlgmetrics.integrations.ray needs ray[data]: pip install 'nlgmetrics[ray]'") from None
    return ray


def _remote(ray: Any, name: str) -> Any:
    """The Ray remote function of one module-level task (created once per process)."""
    if name not in _REMOTES:
        fn = {"tables": _task_tables, "totals": _task_totals, "merge": _blocks.merge, "finish": _task_finish, "paired": _task_paired, "check": _task_check}[name]
        _REMOTES[name] = ray.remote(num_cpus=1)(fn)
    return _REMOTES[name]


# -- worker side ------------------------------------------------------------------------
def _sliced(block: Any, part: tuple[int, int] | None) -> Any:
    if part is None:
        return block
    start, stop = part
    if hasattr(block, "slice"):  # pyarrow.Table
        return block.slice(start, stop - start)
    return block.iloc[start:stop]


def _resolve(value: Any) -> Any:
    """Values sent inside a list are object refs Ray did not resolve (the shared metrics)."""
    if isinstance(value, list) and len(value) == 1 and type(value[0]).__name__ == "ObjectRef":
        import ray

        return ray.get(value[0])
    return value


# A block's typed error comes back as a value (a BlockFailure naming the block by its
# first global row), never raised in a task: Ray would wrap it in RayTaskError.
# (``part=0, start=offset``: the driver raises ``failure.error(0)``.)
def _task_tables(block: Any, part: Any, jobs: Any, references: str | None, sources: str | None, offset: int = 0) -> Any:
    return _blocks.block_tables(_sliced(block, part), _resolve(jobs), references, sources, 0, offset)


def _bound(jobs: Any, tables: Any) -> Any:
    """The jobs bound to their tables, or phase one's failure."""
    tables = _resolve(tables)
    return tables if isinstance(tables, BlockFailure) else _blocks.bind(_resolve(jobs), tables)


def _task_check(block: Any, part: Any, jobs: Any, tables: Any, references: str | None, sources: str | None, offset: int) -> Any:
    bound = _bound(jobs, tables)
    if isinstance(bound, BlockFailure):
        return bound
    return _blocks.block_check(_sliced(block, part), bound, references, sources, 0, offset)


def _task_totals(block: Any, part: Any, jobs: Any, tables: Any, references: str | None, sources: str | None, offset: int, boot: Any) -> Any:
    bound = _bound(jobs, tables)
    if isinstance(bound, BlockFailure):
        return bound
    return _blocks.block_totals(_sliced(block, part), bound, references, sources, offset, boot, 0, offset)


def _task_finish(jobs: Any, tables: Any, merged: Any, boot: Any) -> Any:
    if isinstance(merged, BlockFailure):
        return merged
    jobs = _resolve(jobs)
    return _blocks.finish_all(jobs, _blocks.bind(jobs, _resolve(tables)), merged, boot)


def _task_paired(jobs: Any, tables: Any, names: list[str], merged: Any, boot: Any) -> Any:
    if isinstance(merged, BlockFailure):
        return merged
    jobs = _resolve(jobs)
    bound = _blocks.bind(jobs, _resolve(tables))
    return _blocks.finish_paired(jobs[0][0], bound[0][0], names, merged, boot)


def _task_with_tables(given: Any, missing: Any, merged: Any) -> Any:
    return merged if isinstance(merged, BlockFailure) else _jobs.with_tables(given, missing, merged)


def _raised(result: Any) -> Any:
    """A task's result, or its BlockFailure raised on the driver as our own class."""
    if isinstance(result, BlockFailure):
        raise result.error(0) from None
    return result


class _ModelWorker:
    """An actor holding model-based metrics: the model loads on the first block and stays."""

    def __init__(self, jobs: Any, tables: Any):
        self.jobs = _bound(jobs, tables)

    def totals(self, block: Any, part: Any, references: str | None, sources: str | None, offset: int, boot: Any) -> Any:
        if isinstance(self.jobs, BlockFailure):
            return self.jobs
        return _blocks.block_totals(_sliced(block, part), self.jobs, references, sources, offset, boot, 0, offset)


class _SegmentScorer:
    """``map_batches`` callable: one column of segment scores per metric. The metrics and
    tables come as object refs, resolved on first use and kept (an actor keeps its
    metrics, so a model loads once per actor)."""

    def __init__(self, names: list[str], jobs: Any, tables: Any, references: str | None, sources: str | None):
        self.names = names
        self.raw = (jobs, tables)
        self.columns: dict[str, Any] | None = None
        self.references = references
        self.sources = sources

    def __call__(self, batch: Any) -> Any:
        if self.columns is None:
            jobs, tables = self.raw
            self.columns = dict(zip(self.names, _blocks.bind(_resolve(jobs), _resolve(tables))))
        return _blocks.block_scores(batch, self.columns, self.references, self.sources)


# -- driver side ------------------------------------------------------------------------
def _blocks_of(ds: Any) -> Iterator[tuple[Any, tuple[int, int] | None, int]]:
    """(block ref, row slice or None, rows) for each block, in dataset order, streamed as
    the dataset executes (nothing is fetched to the driver)."""
    for bundle in ds.iter_internal_ref_bundles():
        for entry, part in zip(bundle.blocks, bundle.slices):
            if part is None:
                yield entry.ref, None, entry.metadata.num_rows
            else:
                yield entry.ref, (part.start_offset, part.end_offset), part.end_offset - part.start_offset


class _Ordered:
    """Runs the dataset with ``preserve_order`` on, so blocks come in dataset order."""

    def __init__(self, ds: Any):
        self.options = ds.context.execution_options
        self.before = self.options.preserve_order

    def __enter__(self) -> None:
        self.options.preserve_order = True

    def __exit__(self, *exc: Any) -> None:
        self.options.preserve_order = self.before


def _tree(ray: Any, refs: list[Any], split_every: int) -> Any:
    merge = _remote(ray, "merge")
    while len(refs) > 1:
        refs = [merge.remote(*refs[i:i + split_every]) if len(refs[i:i + split_every]) > 1 else refs[i] for i in range(0, len(refs), split_every)]
    return refs[0]


def _check_dataset(ds: Any) -> None:
    if not hasattr(ds, "iter_internal_ref_bundles") or not hasattr(ds, "map_batches"):
        raise InputTypeError(f"expected a ray.data.Dataset, got {type(ds).__name__}")


def _actor_options(num_cpus: float | None, num_gpus: float | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if num_cpus is not None:
        out["num_cpus"] = num_cpus
    if num_gpus is not None:
        out["num_gpus"] = num_gpus
    return out


def _run(
    ds: Any,
    jobs: list[tuple[Any, str]],
    *,
    references: str | None,
    sources: str | None,
    tables: Mapping[int, Any] | None,
    split_every: int,
    boot: tuple[int, int] | None,
    concurrency: int | None,
    num_cpus: float | None,
    num_gpus: float | None,
) -> tuple[Any, Any, Any]:
    """(merged statistics ref, jobs ref, tables ref)."""
    ray = _ray()
    _check_dataset(ds)
    split_every = _jobs.check_count("split_every", split_every, 2)
    jobs_ref = ray.put(jobs)
    given = dict(tables or {})
    with _Ordered(ds):
        # phase one: corpus tables of the two-phase metrics, merged by tasks
        missing = _jobs.missing_tables(jobs, given)
        if missing:
            fit = _remote(ray, "tables")
            chosen = ray.put([jobs[i] for i in missing])
            parts = _fitted(fit, ds, chosen, references, sources)
            if not parts:
                raise empty_input(jobs[missing[0]][0].name, "the dataset has no blocks")
            merged_tables = _tree(ray, parts, split_every)
            tables_ref = _remote_tables(ray).remote(given, missing, merged_tables)
        else:
            tables_ref = ray.put(given)

        # phase two: per-block totals (tasks, or the model actors), merged in a tree
        model = any(_jobs.is_model_metric(m) for m, _ in jobs)
        results = []
        offset = 0
        if model:
            n = _jobs.check_count("concurrency", concurrency if concurrency is not None else 1)
            worker = ray.remote(**_actor_options(num_cpus, num_gpus))(_ModelWorker) if (num_cpus or num_gpus) else ray.remote(_ModelWorker)
            actors = [worker.remote([jobs_ref], [tables_ref]) for _ in range(n)]
            for k, (ref, part, rows) in enumerate(_blocks_of(ds)):
                results.append(actors[k % n].totals.remote(ref, part, references, sources, offset, boot))
                offset += rows
        else:
            totals = _remote(ray, "totals")
            for ref, part, rows in _blocks_of(ds):
                results.append(totals.remote(ref, part, [jobs_ref], [tables_ref], references, sources, offset, boot))
                offset += rows
    if not results:
        raise empty_input(jobs[0][0].name, "the dataset has no blocks")
    return _tree(ray, results, split_every), jobs_ref, tables_ref


def _remote_tables(ray: Any) -> Any:
    if "merge_tables" not in _REMOTES:
        _REMOTES["merge_tables"] = ray.remote(num_cpus=1)(_task_with_tables)
    return _REMOTES["merge_tables"]


def _fitted(fit: Any, ds: Any, chosen: Any, references: str | None, sources: str | None) -> list[Any]:
    """Phase-one tasks, one per block, each told its block's first global row."""
    parts, offset = [], 0
    for ref, part, rows in _blocks_of(ds):
        parts.append(fit.remote(ref, part, [chosen], references, sources, offset))
        offset += rows
    return parts


def score(
    ds: Any,
    metrics: Any,
    *,
    prediction: str = "prediction",
    references: str | None = "references",
    sources: str | None = None,
    tables: Mapping[int, Any] | None = None,
    split_every: int = 16,
    n_resamples: int | None = None,
    seed: int = 12345,
    concurrency: int | None = None,
    num_cpus: float | None = None,
    num_gpus: float | None = None,
) -> Any:
    """Corpus scores of a Ray Dataset (one :class:`Score` per metric, or one for a single
    metric; with ``n_resamples`` a
    :class:`~nlgmetrics.engines.significance.ConfidenceInterval` each).

    ``prediction`` / ``references`` / ``sources`` name the columns (a reference cell is a
    string or a list of strings; ``references=None`` for reference-free metrics;
    ``sources`` for COMET). ``tables={i: table}`` fixes metric ``i``'s corpus table.
    Model-based metrics run on ``concurrency`` actors (default 1) with ``num_cpus`` /
    ``num_gpus`` each.
    """
    jobs, single, boot = _jobs.score_jobs(metrics, prediction, n_resamples, seed)
    ray = _ray()
    merged, jobs_ref, tables_ref = _run(
        ds, jobs, references=references, sources=sources, tables=tables, split_every=split_every, boot=boot,
        concurrency=concurrency, num_cpus=num_cpus, num_gpus=num_gpus,
    )
    results = _raised(ray.get(_remote(ray, "finish").remote([jobs_ref], [tables_ref], merged, boot)))
    return results[0] if single else results


def paired_test(
    ds: Any,
    metric: Any,
    systems: Sequence[str],
    *,
    references: str | None = "references",
    sources: str | None = None,
    n_samples: int = 1000,
    seed: int = 12345,
    split_every: int = 16,
    concurrency: int | None = None,
    num_cpus: float | None = None,
    num_gpus: float | None = None,
) -> Any:
    """Paired bootstrap test of the systems in columns ``systems`` (the first is the
    baseline) from merged Poisson-resampled statistics: a
    :class:`~nlgmetrics.engines.significance.PairedTestResult` equal to
    ``paired_test_stats(metric, baseline, others, resampling="poisson")`` run locally."""
    jobs, names, boot = _jobs.paired_jobs(metric, systems, n_samples, seed)
    ray = _ray()
    merged, jobs_ref, tables_ref = _run(
        ds, jobs, references=references, sources=sources, tables=None, split_every=split_every, boot=boot,
        concurrency=concurrency, num_cpus=num_cpus, num_gpus=num_gpus,
    )
    return _raised(ray.get(_remote(ray, "paired").remote([jobs_ref], [tables_ref], names, merged, boot)))


def segment_scores(
    ds: Any,
    metrics: Any,
    *,
    prediction: str = "prediction",
    references: str | None = "references",
    sources: str | None = None,
    tables: Mapping[int, Any] | None = None,
    batch_size: int | None = None,
    concurrency: int | None = None,
    num_cpus: float | None = None,
    num_gpus: float | None = None,
) -> Any:
    """``ds`` with one float64 column of segment scores per metric (named by the metric's
    name, or by the keys of a ``{column: metric}`` mapping): a lazy Dataset.

    Two-phase metrics fit their corpus table first (one aggregation over the dataset), so
    the scores equal a local ``sentence_scores`` over the whole corpus. With a model-based
    metric the stage runs on an actor pool (``concurrency`` actors, default 1, each loading
    the model once, ``num_cpus`` / ``num_gpus`` each)."""
    names, jobs = _jobs.column_jobs(metrics, prediction)
    ray = _ray()
    _check_dataset(ds)
    given = dict(tables or {})
    missing = _jobs.missing_tables(jobs, given)
    tables_ref = ray.put(given)
    if missing:
        with _Ordered(ds):  # phase one: an aggregation by tasks; the table stays in the object store
            fit = _remote(ray, "tables")
            chosen = ray.put([jobs[i] for i in missing])
            parts = _fitted(fit, ds, chosen, references, sources)
        if parts:
            tables_ref = _remote_tables(ray).remote(given, missing, _tree(ray, parts, 16))
    jobs_ref = ray.put(jobs)
    with _Ordered(ds):  # the inputs checked first: a bad row is a typed error here, not in the lazy stage
        check = _remote(ray, "check")
        checks, offset = [], 0
        for ref, part, rows in _blocks_of(ds):
            checks.append(check.remote(ref, part, [jobs_ref], [tables_ref], references, sources, offset))
            offset += rows
    if checks:
        _raised(ray.get(_tree(ray, checks, 16)))
    args = (names, [jobs_ref], [tables_ref], references, sources)
    options: dict[str, Any] = {"batch_format": "pandas", "batch_size": batch_size}
    options.update(_actor_options(num_cpus, num_gpus))
    if any(_jobs.is_model_metric(m) for m, _ in jobs):
        options["concurrency"] = _jobs.check_count("concurrency", concurrency if concurrency is not None else 1)
        return ds.map_batches(_SegmentScorer, fn_constructor_args=args, **options)
    if concurrency is not None:
        options["concurrency"] = _jobs.check_count("concurrency", concurrency)
    return ds.map_batches(_SegmentScorer(*args), **options)
