"""Score corpora of any size in bounded memory: chunks in, merged statistics out.

Each chunk's statistics are extracted (in the Rust core, in parallel) and reduced to a
:class:`~nlgmetrics.Stats` total at once, so the state is one total per metric whatever
the corpus size. Totals merge exactly (integer counts, exactly rounded float sums), so the
score equals ``corpus_score`` on the whole corpus to the last bit, for any chunk size.

Two-phase metrics (CIDEr-D in corpus mode, NIST without a fixed table) read the data
twice: the first pass merges their corpus tables (:mod:`nlgmetrics.engines.two_phase`), the
second scores with them. Pass ``tables={index: table}`` (e.g. ``CiderDF.load(...)``)
to skip the first pass, or give metrics with a fixed table.

Memory bound: about ``chunk_size × (bytes per segment pair) × k`` plus one total per
metric, where k ≈ 10 covers the Python strings of a chunk and the core's working copy;
it does not grow with the number of chunks (``tests/test_streaming.py`` checks this).

>>> from nlgmetrics import BLEU
>>> from nlgmetrics.engines.streaming import score_chunks
>>> chunks = [(["the cat sat"], [["the cat sat"]]), (["a dog"], [["the dog"]])]
>>> score_chunks(BLEU(), lambda: iter(chunks)).score == BLEU().corpus_score(["the cat sat", "a dog"], [["the cat sat"], ["the dog"]]).score
True
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from . import two_phase
from ..errors import InvalidInputError
from ..io.chunks import DEFAULT_CHUNK_SIZE, iter_jsonl_chunks, iter_pair_chunks
from ..stats import Stats

Chunk = tuple[Sequence[str], Sequence[Any]]
ChunkSource = Callable[[], Iterator[Chunk]] | Iterable[Chunk]


def _as_list(metrics: Any) -> tuple[list[Any], bool]:
    if isinstance(metrics, (list, tuple)):
        return list(metrics), False
    return [metrics], True


def _open(source: ChunkSource) -> Iterator[Chunk]:
    return iter(source() if callable(source) else source)


Mapper = Callable[[Callable[..., Any], Iterable[tuple]], Iterable[Any]]


def _local_map(fn: Callable[..., Any], args: Iterable[tuple]) -> Iterator[Any]:
    return (fn(*a) for a in args)


def chunk_tables(metrics: Sequence[Any], references: Sequence[Any]) -> list[Any]:
    """Phase one on one chunk: each metric's corpus table of these references."""
    return [two_phase.fit_table(m, references) for m in metrics]


def chunk_totals(metrics: Sequence[Any], predictions: Sequence[str], references: Sequence[Any]) -> list[Stats]:
    """Phase two on one chunk: each metric's reduced statistics."""
    return [m.stats(predictions, references).total() for m in metrics]


def _merge(acc: list[Any] | None, new: list[Any]) -> list[Any]:
    return new if acc is None else [a + b for a, b in zip(acc, new)]


def fit_tables(metrics: Sequence[Any], source: ChunkSource, mapper: Mapper = _local_map) -> dict[int, Any]:
    """Phase one: the merged corpus table of every two-phase metric, in one pass."""
    todo = [i for i, m in enumerate(metrics) if two_phase.needs_table(m)]
    if not todo:
        return {}
    chosen = [metrics[i] for i in todo]
    merged: list[Any] | None = None
    for tables in mapper(chunk_tables, ((chosen, refs) for _, refs in _open(source))):
        merged = _merge(merged, tables)
    if merged is None:
        return {}
    return dict(zip(todo, merged))


def stream_totals(metrics: Sequence[Any], source: ChunkSource, tables: Mapping[int, Any] | None = None, mapper: Mapper = _local_map) -> list[Stats]:
    """One merged total per metric, keyed as the metric's own statistics.

    ``source`` is a callable returning a fresh iterator of ``(predictions, references)``
    chunks (it is called twice when a two-phase metric has no table), or an iterable
    when no second pass is needed. ``mapper(fn, args)`` runs ``fn(*a)`` for each chunk
    and yields the results in chunk order (the default runs them here; the CLI's
    ``--scheduler`` runs them on a cluster).
    """
    metrics = list(metrics)
    tables = dict(tables or {})
    missing = [i for i, m in enumerate(metrics) if two_phase.needs_table(m) and i not in tables]
    if missing:
        if not callable(source):
            names = ", ".join(metrics[i].name for i in missing)
            raise InvalidInputError(
                f"{names} take(s) corpus-wide weights: give a callable that re-opens the chunks "
                "(two passes) or precomputed tables"
            )
        fitted = fit_tables([metrics[i] for i in missing], source, mapper)
        tables.update({missing[j]: t for j, t in fitted.items()})
    bound = [two_phase.bind_table(m, tables[i]) if i in tables else m for i, m in enumerate(metrics)]
    totals: list[Stats] | None = None
    for chunk in mapper(chunk_totals, ((bound, p, r) for p, r in _open(source))):
        totals = _merge(totals, chunk)
    if totals is None:
        totals = [b.zero() for b in bound]
    return [two_phase.as_corpus_total(m, t) for m, t in zip(metrics, totals)]


def score_chunks(metrics: Any, source: ChunkSource, tables: Mapping[int, Any] | None = None, mapper: Mapper = _local_map) -> Any:
    """Scores of a chunked corpus: one :class:`Score` per metric (a single one for a
    single metric). Equal to ``corpus_score`` of the whole corpus."""
    items, single = _as_list(metrics)
    totals = stream_totals(items, source, tables, mapper)
    for m, t in zip(items, totals):
        if t.n_segments == 0:
            raise InvalidInputError(f"{m.name}: nothing to score (the input is empty)")
    scores = [m.score_stats(t) for m, t in zip(items, totals)]
    return scores[0] if single else scores


def score_files(
    metrics: Any,
    hypotheses: str | None = None,
    references: Sequence[str] = (),
    *,
    jsonl: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    tables: Mapping[int, Any] | None = None,
) -> Any:
    """Score files of any size (plain text or ``.gz``): a system output and its reference
    files (one segment per line), or a JSON-lines file of ``{"prediction", "references"}``.

    >>> # score_files(BLEU(), "hyp.txt.gz", ["ref.txt.gz"], chunk_size=50_000)
    """
    if jsonl is not None:
        if hypotheses is not None or references:
            raise InvalidInputError("give jsonl= or hypotheses= with references=, not both")
        return score_chunks(metrics, lambda: iter_jsonl_chunks(jsonl, chunk_size), tables)
    if hypotheses is None:
        raise InvalidInputError("no input: give hypotheses= and references=, or jsonl=")
    refs = [references] if isinstance(references, str) else list(references)
    return score_chunks(metrics, lambda: iter_pair_chunks(hypotheses, refs, chunk_size), tables)
