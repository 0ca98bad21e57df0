"""Score a ``pyspark.sql.DataFrame``: statistics per partition, merged by a tree of reduces.

``score(df, metrics)`` runs ``mapInPandas`` over the frame: each partition turns its rows
into :class:`~nlgmetrics.stats.Stats` totals (serialised statistics, one row per
partition), and the totals merge in a tree (``split_every`` contiguous partitions at a
time, in partition order, on the executors), so the result is the local
``corpus_score``'s to the last bit. Only statistics cross the network.

- Two-phase metrics (CIDEr-D's document frequencies, NIST's information weights) fit
  their corpus table partition by partition first, merged the same way, then broadcast.
- ``n_resamples=N`` adds Poisson-bootstrap totals keyed by global row ids (a first job
  counts the rows of each partition), equal to ``bootstrap_ci(...,
  resampling="poisson")`` locally; ``paired_test`` compares systems in columns, equal to
  ``paired_test_stats(..., resampling="poisson")``.
- ``segment_scores(df, metrics)`` returns the frame with one ``double`` column of segment
  scores per metric (lazy: a ``mapInPandas`` stage).
- Metrics are broadcast once and kept per Python worker process (Spark reuses its
  workers), so a model-based metric (BERTScore, COMET, BLEURT) loads its model once per
  executor process; within a batch it sorts by length as a local call does.
- Bad input is answered as locally: a partition's typed error comes back as a value
  and is raised on the driver as the same class, naming the row of the whole dataset
  and the column (:mod:`._failures`); ``segment_scores`` checks its inputs before it
  returns the lazy stage. An empty dataset is an ``EmptyInputError`` (the one rule).

Requires the ``[spark]`` extra (``pip install 'nlgmetrics[spark]'``, Java 17+);
``pyspark`` is imported when a function here runs.
"""

from __future__ import annotations

import pickle
from typing import Any, Iterator, Mapping, Sequence

from ..errors import InputTypeError, MissingExtraError, ResourceLimitError
from ..metrics.base import empty_input
from . import _blocks, _jobs
from ._failures import BlockFailure, raise_located

# token -> the unpickled jobs of one call, kept for the life of a Python worker process
_CACHE: dict[str, Any] = {}
# token -> how many times this process unpickled that call's metrics (1 with worker reuse)
_LOADS: dict[str, int] = {}


def _spark() -> Any:
    try:
        import pyspark  # noqa: F401
        from pyspark.sql import DataFrame  # noqa: F401
    except ImportError:
        raise MissingExtraError("nlgmetrics.integrations.spark needs pyspark: pip install 'nlgmetrics[spark]'") from None
    return pyspark


def _call_jobs(shared: Any) -> Any:
    token, broadcast = shared
    if token not in _CACHE:
        _CACHE.clear()  # one call's metrics at a time: an earlier model is released
        _CACHE[token] = pickle.loads(broadcast.value)  # in-job transport: bytes this job pickled (as Spark ships closures)
        _LOADS[token] = _LOADS.get(token, 0) + 1
    return _CACHE[token]


def _partition() -> int:
    from pyspark import TaskContext

    return TaskContext.get().partitionId()


# -- executor side: one output row per partition --------------------------------------
def _rows_fn(frames: Iterator[Any]) -> Iterator[Any]:
    import pandas as pd

    n = sum(len(f) for f in frames)
    yield pd.DataFrame({"part": [_partition()], "rows": [n]})


def _tables_fn(shared: Any, references: str | None, sources: str | None) -> Any:
    def run(frames: Iterator[Any]) -> Iterator[Any]:
        import pandas as pd

        jobs = _call_jobs(shared)["missing"]
        part_id, start, acc = _partition(), 0, None
        for frame in frames:
            got = _blocks.block_tables(frame, jobs, references, sources, part_id, start)
            start += len(frame)
            acc = got if acc is None else _blocks.merge(acc, got)
        yield pd.DataFrame({"part": [part_id], "payload": [pickle.dumps(acc, protocol=5)]})

    return run


def _check_fn(shared: Any, references: str | None, sources: str | None) -> Any:
    def run(frames: Iterator[Any]) -> Iterator[Any]:
        import pandas as pd

        jobs = _call_jobs(shared)["bound"]
        part_id, start, failed = _partition(), 0, None
        for frame in frames:
            failed = failed or _blocks.block_check(frame, jobs, references, sources, part_id, start)
            start += len(frame)
        yield pd.DataFrame({"part": [part_id], "payload": [pickle.dumps(failed, protocol=5)]})

    return run


def _totals_fn(shared: Any, references: str | None, sources: str | None, offsets: Mapping[int, int] | None, boot: Any) -> Any:
    def run(frames: Iterator[Any]) -> Iterator[Any]:
        import pandas as pd

        part_id = _partition()
        jobs = _call_jobs(shared)["bound"]
        offset = offsets.get(part_id, 0) if offsets else 0
        acc, start = None, 0
        for frame in frames:
            got = _blocks.block_totals(frame, jobs, references, sources, offset, boot, part_id, start)
            offset += len(frame)
            start += len(frame)
            acc = got if acc is None else _blocks.merge(acc, got)
        yield pd.DataFrame({"part": [part_id], "payload": [pickle.dumps(acc, protocol=5)]})

    return run


def _scores_fn(shared: Any, names: list[str], references: str | None, sources: str | None) -> Any:
    def run(frames: Iterator[Any]) -> Iterator[Any]:
        columns = dict(zip(names, _call_jobs(shared)["bound"]))
        for frame in frames:
            yield _blocks.block_scores(frame, columns, references, sources)

    return run


def _merge_group(items: Any) -> bytes:
    """Merge one group of (partition, payload) in partition order (groups are contiguous)."""
    ordered = [pickle.loads(p) for _, p in sorted(items, key=lambda kv: kv[0])]  # in-job transport: bytes this job pickled
    ordered = [x for x in ordered if x is not None]
    return pickle.dumps(_blocks.merge(*ordered) if ordered else None, protocol=5)


def _tree_reduce(frame: Any, n_parts: int, split_every: int) -> Any:
    """Merge the per-partition payloads in a tree of contiguous groups, on the executors."""
    rdd = frame.rdd.map(lambda r: (int(r["part"]), bytes(r["payload"])))
    level = 0
    n = max(n_parts, 1)
    while n > 1:
        k = split_every
        groups = (n + k - 1) // k
        rdd = (
            rdd.map(lambda kv, k=k: (kv[0] // k, kv))
            .groupByKey(numPartitions=groups)
            .map(lambda kv: (kv[0], _merge_group(list(kv[1]))))
        )
        n = groups
        level += 1
    got = _collect(rdd)
    if level == 0:
        got = [(0, _merge_group(got))]
    if not got:
        return None
    return pickle.loads(got[0][1])  # in-job transport: bytes this job pickled


# -- driver side ------------------------------------------------------------------------
def _collect(rdd: Any) -> list[Any]:
    """``rdd.collect()`` of the merged statistics; a result over the driver's limit is our
    typed error naming the setting (the tables are merged on the executors, but the
    final one still comes back whole)."""
    try:
        return rdd.collect()
    except Exception as e:
        if "maxResultSize" in str(e):
            raise ResourceLimitError(
                "the merged statistics (the corpus tables of CIDEr-D / NIST grow with the vocabulary) are larger than "
                "spark.driver.maxResultSize: raise that setting (e.g. .config('spark.driver.maxResultSize', '4g'), or 0 for no limit)"
            ) from None
        raise


def _check_frame(df: Any) -> None:
    _spark()
    from pyspark.sql import DataFrame

    if not isinstance(df, DataFrame):
        raise InputTypeError(f"expected a pyspark.sql.DataFrame, got {type(df).__name__}")
    _worker_python(df.sparkSession.sparkContext)


def _worker_python(sc: Any) -> None:
    """On a local master, the Python workers run the driver's interpreter unless the user
    chose one (``PYSPARK_PYTHON``, ``spark.pyspark.python``): Spark's default
    (``python3`` on the PATH) may be an environment without nlgmetrics. A cluster's
    workers keep Spark's choice (see docs/scale.md)."""
    import os
    import sys

    chosen = os.environ.get("PYSPARK_PYTHON") or sc.getConf().get("spark.pyspark.python", None)
    if not chosen and str(sc.master).startswith("local") and sys.executable:
        sc.pythonExec = sys.executable


def _raise_failure(df: Any, failure: BlockFailure, offsets: Mapping[int, int] | None) -> None:
    """Raise a worker's typed error with the row of the whole frame (the rows are counted
    only now, when no bootstrap counted them)."""

    def known() -> Mapping[int, int]:
        if offsets is not None:
            return offsets
        counts = df.mapInPandas(_rows_fn, schema="part int, rows long").collect()
        return _jobs.offsets((int(r["part"]), int(r["rows"])) for r in counts)

    raise_located(failure, known)


def _share(df: Any, payload: dict[str, Any]) -> Any:
    import uuid

    sc = df.sparkSession.sparkContext
    return (uuid.uuid4().hex, sc.broadcast(pickle.dumps(payload, protocol=5)))


def _bound_jobs(df: Any, jobs: list[Any], tables: Mapping[int, Any] | None, references: str | None, sources: str | None, split_every: int, empty_ok: bool = False) -> list[Any]:
    """Phase one (tables of the two-phase metrics, merged on the executors), then bound."""
    given = dict(tables or {})
    missing = _jobs.missing_tables(jobs, given)
    if missing:
        shared = _share(df, {"missing": [jobs[i] for i in missing]})
        out = df.mapInPandas(_tables_fn(shared, references, sources), schema="part int, payload binary")
        merged = _tree_reduce(out, df.rdd.getNumPartitions(), split_every)
        if merged is None:
            if empty_ok:  # segment scores of no rows: no table to fit, nothing to score
                return list(jobs)
            raise empty_input(jobs[missing[0]][0].name, "the dataframe is empty")
        if isinstance(merged, BlockFailure):
            _raise_failure(df, merged, None)
        given = _jobs.with_tables(given, missing, merged)
    return _blocks.bind(jobs, given)


def _merged(df: Any, jobs: list[Any], *, references: str | None, sources: str | None, tables: Any, split_every: int, boot: Any) -> tuple[list[Any], Any]:
    _check_frame(df)
    split_every = _jobs.check_count("split_every", split_every, 2)
    bound = _bound_jobs(df, jobs, tables, references, sources, split_every)
    offsets = None
    if boot is not None:
        counts = df.mapInPandas(_rows_fn, schema="part int, rows long").collect()
        offsets = _jobs.offsets((int(r["part"]), int(r["rows"])) for r in counts)
    shared = _share(df, {"bound": bound})
    out = df.mapInPandas(_totals_fn(shared, references, sources, offsets, boot), schema="part int, payload binary")
    merged = _tree_reduce(out, df.rdd.getNumPartitions(), split_every)
    if merged is None:
        raise empty_input(jobs[0][0].name, "the dataframe is empty")
    if isinstance(merged, BlockFailure):
        _raise_failure(df, merged, offsets)
    return merged, bound


def score(
    df: Any,
    metrics: Any,
    *,
    prediction: str = "prediction",
    references: str | None = "references",
    sources: str | None = None,
    tables: Mapping[int, Any] | None = None,
    split_every: int = 16,
    n_resamples: int | None = None,
    seed: int = 12345,
) -> Any:
    """Corpus scores of a Spark DataFrame (one :class:`Score` per metric, or one for a
    single metric; with ``n_resamples`` a
    :class:`~nlgmetrics.engines.significance.ConfidenceInterval` each). Columns as in
    :func:`nlgmetrics.integrations.ray.score`."""
    jobs, single, boot = _jobs.score_jobs(metrics, prediction, n_resamples, seed)
    merged, bound = _merged(df, jobs, references=references, sources=sources, tables=tables, split_every=split_every, boot=boot)
    results = _blocks.finish_all(jobs, bound, merged, boot)
    return results[0] if single else results


def paired_test(
    df: Any,
    metric: Any,
    systems: Sequence[str],
    *,
    references: str | None = "references",
    sources: str | None = None,
    n_samples: int = 1000,
    seed: int = 12345,
    split_every: int = 16,
) -> Any:
    """Paired bootstrap test of the systems in columns ``systems`` (the first is the
    baseline), equal to ``paired_test_stats(..., resampling="poisson")`` run locally."""
    jobs, names, boot = _jobs.paired_jobs(metric, systems, n_samples, seed)
    merged, bound = _merged(df, jobs, references=references, sources=sources, tables=None, split_every=split_every, boot=boot)
    return _blocks.finish_paired(jobs[0][0], bound[0][0], names, merged, boot)


def segment_scores(
    df: Any,
    metrics: Any,
    *,
    prediction: str = "prediction",
    references: str | None = "references",
    sources: str | None = None,
    tables: Mapping[int, Any] | None = None,
    split_every: int = 16,
) -> Any:
    """``df`` with one ``double`` column of segment scores per metric (named by the
    metric's name, or by the keys of a ``{column: metric}`` mapping): a lazy DataFrame.
    Two-phase metrics fit their corpus table first, so the scores equal a local
    ``sentence_scores`` over the whole frame."""
    _check_frame(df)
    names, jobs = _jobs.column_jobs(metrics, prediction, taken=df.columns)
    split_every = _jobs.check_count("split_every", split_every, 2)
    bound = _bound_jobs(df, jobs, tables, references, sources, split_every, empty_ok=True)
    shared = _share(df, {"bound": bound})
    # the inputs checked first, so a bad row is a typed error here, not in a lazy stage
    checked = _tree_reduce(df.mapInPandas(_check_fn(shared, references, sources), schema="part int, payload binary"), df.rdd.getNumPartitions(), split_every)
    if isinstance(checked, BlockFailure):
        _raise_failure(df, checked, None)
    from pyspark.sql.types import DoubleType, StructField, StructType

    schema = StructType(list(df.schema.fields) + [StructField(n, DoubleType(), False) for n in names])
    return df.mapInPandas(_scores_fn(shared, names, references, sources), schema=schema)
