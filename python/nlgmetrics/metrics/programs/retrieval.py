"""Ranked-retrieval measures equal to trec_eval 9 / pytrec_eval (``pytrec_eval-terrier``).

Per query (computed in the core, ``nlgmetrics._core.retrieval_stats``, with trec_eval's own
ranking and arithmetic): ``map``, ``recip_rank``, ``ndcg``, ``Rprec``, and at cutoffs ``P``,
``recall``, ``success``, ``map_cut``, ``ndcg_cut``; the counts ``num_ret``, ``num_rel``,
``num_rel_ret`` (and ``num_q``). Measure names are pytrec_eval's: ``"ndcg_cut.10"``,
``"ndcg_cut_10"``, ``"P.5,10"`` or a bare ``"P"`` (trec_eval's default cutoffs); values are
keyed as pytrec_eval keys them (``"ndcg_cut_10"``, ``"P_5"``).

Which queries count: those of the run that have judgments (pytrec_eval, trec_eval without
``-c``); with ``complete=True`` (trec_eval ``-c``) every judged query, an absent one as an
empty ranking (all zeros). The corpus value of a measure is trec_eval's ``all`` line: the
per-query values added in query-id order from 0.0, divided by the number of queries; the
``num_*`` counts are sums.
"""
from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ...errors import EmptyInputError, InputTypeError, InvalidInputError, InvalidOptionError
from ..base import Metric, Score

if TYPE_CHECKING:
    import numpy as np

PLAIN = ("map", "recip_rank", "ndcg", "Rprec")
CUTOFF_DEFAULTS = {
    "P": (5, 10, 15, 20, 30, 100, 200, 500, 1000),
    "recall": (5, 10, 15, 20, 30, 100, 200, 500, 1000),
    "map_cut": (5, 10, 15, 20, 30, 100, 200, 500, 1000),
    "ndcg_cut": (5, 10, 15, 20, 30, 100, 200, 500, 1000),
    "success": (1, 5, 10),
}
# how a reference keeps scores: trec_eval 9 (and pytrec_eval) in a C float, so scores equal
# in single precision tie; trec_eval 10 in a double
PRECISIONS = {"float32": "trec_eval-9/pytrec_eval", "float64": "trec_eval-10"}
COUNTS = ("num_q", "num_ret", "num_rel", "num_rel_ret")
DEFAULT_MEASURES = ("map", "ndcg_cut.10", "P.10", "recall.100", "recip_rank")
_CUT = re.compile(r"(P|recall|success|map_cut|ndcg_cut)(?:[._]([0-9]+(?:,[0-9]+)*))?\Z")
# trec_eval keeps a cutoff in a C long; past 2**62 nothing is retrieved that deep anyway
_MAX_CUTOFF = 2**62


def parse_measures(measures: Any) -> tuple[list[tuple[str, str, int]], list[str]]:
    """``([(key, kind, cutoff), ...], [count names])`` of pytrec_eval measure names, in the
    order given, each cutoff measure expanded in ascending cutoffs, repeats dropped."""
    if isinstance(measures, str):
        measures = (measures,)
    if not isinstance(measures, Iterable) or isinstance(measures, (bytes, Mapping)):
        raise InvalidOptionError(f"retrieval: measures must be measure names such as 'map' or 'ndcg_cut.10', got {measures!r}")
    columns: dict[str, tuple[str, str, int]] = {}
    counts: list[str] = []
    for name in list(measures):
        if not isinstance(name, str):
            raise InvalidOptionError(f"retrieval: a measure name must be a string, got {name!r}")
        if name in PLAIN:
            columns.setdefault(name, (name, name, 0))
            continue
        if name in COUNTS:
            if name not in counts:
                counts.append(name)
            continue
        m = _CUT.match(name)
        if m is None:
            known = ", ".join([*PLAIN, *COUNTS, *(f"{k}.K" for k in CUTOFF_DEFAULTS)])
            raise InvalidOptionError(f"retrieval: unknown measure {name!r}; known: {known}")
        kind = m.group(1)
        cuts = CUTOFF_DEFAULTS[kind] if m.group(2) is None else sorted({int(c) for c in m.group(2).split(",")})
        for k in cuts:
            if not 0 < k <= _MAX_CUTOFF:
                raise InvalidOptionError(f"retrieval: {name!r}: cutoffs must be between 1 and 2**62")
            columns.setdefault(f"{kind}_{k}", (f"{kind}_{k}", kind, k))
    if not columns and not counts:
        raise InvalidOptionError("retrieval: give at least one measure")
    return list(columns.values()), counts


def _is_numpy(value: Any, kind: str) -> bool:
    """Whether ``value`` is a numpy scalar of ``kind`` (``"integer"``, ``"bool_"``): numpy is
    looked at only when something imported it, as a value cannot be one otherwise (the
    CLI's run computes without it)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, getattr(np, kind))


def _mapping(value: Any, what: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise InputTypeError(f"retrieval: {what} must be a dict {{qid: {{docid: value}}}} or a file path, got {type(value).__name__}")
    return value


def _as_dicts(run: Any, qrels: Any) -> tuple[Mapping, Mapping]:
    import os

    from .trec_files import read_qrels, read_run

    if isinstance(run, (str, os.PathLike)):
        run = read_run(run)
    if isinstance(qrels, (str, os.PathLike)):
        qrels = read_qrels(qrels)
    return _mapping(run, "the run"), _mapping(qrels, "the qrels")


def _check_ids(ids: Iterable[Any], what: str) -> None:
    for i in ids:
        if type(i) is not str and not isinstance(i, str):
            raise InputTypeError(f"retrieval: {what} must be strings, got {type(i).__name__} {i!r}")


def _judged_queries(qrels: Mapping) -> set:
    """The queries with at least one judgment (pytrec_eval drops a query judged ``{}``)."""
    return {q for q, docs in qrels.items() if not isinstance(docs, Mapping) or len(docs)}


class Retrieval(Metric):
    """trec_eval / pytrec_eval measures of a run against relevance judgments (``retrieval``).

    Inputs: a run ``{qid: {docid: score}}`` and qrels ``{qid: {docid: relevance}}`` (as
    pytrec_eval takes them) or paths of a TREC run file and a qrels file. ``measures`` are
    pytrec_eval names; the score is the first one's mean, the breakdown holds every
    measure's mean and the summed counts. ``relevance_level`` (trec_eval ``-l``),
    ``judged_docs_only`` (``-J``, pytrec_eval's ``judged_docs_only_flag``) and ``complete``
    (``-c``) are trec_eval's options. ``score_precision="float32"`` ranks scores rounded to
    single precision as trec_eval 9 and pytrec_eval do (so 1.0 and 1.0 + 1e-9 tie and the
    larger document id goes first); ``"float64"`` keeps doubles, as trec_eval 10.

    >>> from nlgmetrics.metrics.programs.retrieval import Retrieval
    >>> m = Retrieval(measures=["map", "P.2"])
    >>> s = m.corpus_score({"q1": {"d1": 2.0, "d2": 1.0}}, {"q1": {"d2": 1}})
    >>> s.score, s["P_2"]
    (0.5, 0.5)
    """

    name = "retrieval"
    count_fields = ("queries", "num_ret", "num_rel", "num_rel_ret")

    def __init__(self, measures: Any = DEFAULT_MEASURES, *, relevance_level: int = 1, judged_docs_only: bool = False, complete: bool = False, score_precision: str = "float32", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        self.columns, self.counts_asked = parse_measures(measures)
        if isinstance(relevance_level, bool) or not (isinstance(relevance_level, int) or _is_numpy(relevance_level, "integer")):
            raise InvalidOptionError(f"retrieval: relevance_level must be an integer, got {relevance_level!r}")
        if not 1 <= int(relevance_level) < 2**63:
            raise InvalidOptionError(f"retrieval: relevance_level must be at least 1 (as pytrec_eval), got {relevance_level}")
        for opt, v in (("judged_docs_only", judged_docs_only), ("complete", complete)):
            if not (isinstance(v, bool) or _is_numpy(v, "bool_")):
                raise InvalidOptionError(f"retrieval: {opt} must be True or False, got {v!r}")
        if score_precision not in PRECISIONS:
            raise InvalidOptionError(f"retrieval: score_precision must be one of {', '.join(PRECISIONS)}, got {score_precision!r}")
        self.score_precision = score_precision
        self.relevance_level = int(relevance_level)
        self.judged_docs_only = bool(judged_docs_only)
        self.complete = bool(complete)
        self.sum_fields = tuple(key for key, _, _ in self.columns)

    def _signature_items(self) -> dict[str, Any]:
        return {
            "measures": ",".join([*self.sum_fields, *self.counts_asked]),
            "level": self.relevance_level,
            "judged": "only" if self.judged_docs_only else "all",
            "queries": "complete" if self.complete else "run",
            "ref": PRECISIONS[self.score_precision],
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"measures": "m", "level": "l", "judged": "J", "queries": "q", "ref": "ref"}

    # -- statistics ---------------------------------------------------------------------------
    def _queries(self, run: Mapping, qrels: Mapping) -> list[str]:
        _check_ids(run.keys(), "query ids")
        _check_ids(qrels.keys(), "query ids")
        judged = _judged_queries(qrels)
        chosen = judged if self.complete else judged.intersection(run)
        return sorted(chosen)  # code point order: trec_eval's strcmp order of UTF-8 ids

    def _native(self, qids: list[str], run: Mapping, qrels: Mapping, lists: bool = False) -> tuple[Any, Any]:
        """The core's per-query counts and values: numpy arrays, or (``lists``) flat Python
        lists, row-major."""
        from ... import _core

        run_docs: list[Any] = []
        scores: list[Any] = []
        run_starts = [0]
        judged: list[Any] = []
        rels: list[Any] = []
        judged_starts = [0]
        empty: Mapping = {}
        for q in qids:
            docs = _mapping(run.get(q, empty), f"the run of query {q!r}")
            judgments = _mapping(qrels[q], f"the qrels of query {q!r}")
            run_docs.extend(docs.keys())
            scores.extend(docs.values())
            run_starts.append(len(run_docs))
            judged.extend(judgments.keys())
            rels.extend(judgments.values())
            judged_starts.append(len(judged))
        measures = [(kind, k) for _, kind, k in self.columns]
        try:
            native = _core.retrieval_stats_lists if lists else _core.retrieval_stats
            return native(qids, run_docs, scores, run_starts, judged, rels, judged_starts, measures,
                                         self.relevance_level, self.judged_docs_only, self.score_precision == "float32", self.n_threads)
        except (TypeError, OverflowError, UnicodeEncodeError) as e:
            import numpy as np

            _check_ids(run_docs, "document ids")
            _check_ids(judged, "document ids")
            for s in scores:
                if isinstance(s, (str, bytes)) or not isinstance(s, (int, float, np.integer, np.floating)):
                    raise InputTypeError(f"retrieval: scores must be numbers, got {type(s).__name__} {s!r}") from None
            for r in rels:
                if isinstance(r, (float, np.floating, str, bytes)) or not isinstance(r, (int, np.integer)):
                    raise InputTypeError(f"retrieval: relevance values must be integers, got {type(r).__name__} {r!r}") from None
            raise InvalidInputError(f"retrieval: {e}") from None

    def _query_stats(self, run: Any, qrels: Any):
        import numpy as np

        from ...stats import SegmentStats

        run, qrels = _as_dicts(run, qrels)
        qids = self._queries(run, qrels)
        counts3, values = self._native(qids, run, qrels)
        counts = np.empty((len(qids), 4), dtype=np.uint64)
        counts[:, 0] = 1
        counts[:, 1:] = counts3
        seg = SegmentStats(self.key, self.count_fields, counts, self.sum_fields, np.ascontiguousarray(values, dtype=np.float64),
                           tails=None, sequence_field=self.sum_fields or None)
        return qids, seg

    def official_totals(self, run: Any, qrels: Any, per_query: bool = True) -> tuple[list[str], list[dict[str, Any]], dict[str, Any]]:
        """trec_eval's lines as plain Python values, computed without numpy (the CLI's run):
        ``(query ids, each query's {measure: value, count: n} (with ``per_query``, else
        []), the "all" line's {measure: mean, count: total})``, the numbers
        :meth:`corpus_score` gives (each mean is the per-query values added in query-id
        order from 0.0, over the queries)."""
        run, qrels = _as_dicts(run, qrels)
        qids = self._queries(run, qrels)
        counts, values = self._native(qids, run, qrels, lists=True)
        queries, width = len(qids), len(self.sum_fields)
        if queries == 0:  # the error score_stats gives
            raise EmptyInputError("retrieval: no query of the run has judgments")
        sums = [0.0] * width
        for j in range(width):
            for v in values[j::width]:
                sums[j] += v
        rows: list[dict[str, Any]] = []
        for q in range(queries if per_query else 0):
            row = dict(zip(self.sum_fields, values[q * width:(q + 1) * width]))
            for name in self.counts_asked:
                if name != "num_q":
                    row[name] = counts[3 * q + COUNTS.index(name) - 1]
            rows.append(row)
        totals = {"num_q": queries, "num_ret": sum(counts[0::3]), "num_rel": sum(counts[1::3]), "num_rel_ret": sum(counts[2::3])}
        summary: dict[str, Any] = {key: s / queries for key, s in zip(self.sum_fields, sums)}
        summary.update({name: totals[name] for name in self.counts_asked})
        return qids, rows, summary

    def stats(self, run: Any, qrels: Any = None):  # type: ignore[override]
        """Per-query statistics, one row per evaluated query in query-id order."""
        if qrels is None:
            raise InputTypeError("retrieval needs a run and qrels")
        return self._query_stats(run, qrels)[1]

    def per_query(self, run: Any, qrels: Any) -> dict[str, dict[str, float]]:
        """``{qid: {measure: value}}``, the shape (and the values) of pytrec_eval's
        ``RelevanceEvaluator.evaluate``; counts asked for are floats as there."""
        qids, seg = self._query_stats(run, qrels)
        out: dict[str, dict[str, float]] = {}
        for i, q in enumerate(qids):
            row = {key: float(seg.sums[i, j]) for j, key in enumerate(self.sum_fields)}
            for name in self.counts_asked:
                if name != "num_q":
                    row[name] = float(seg.counts[i, self.count_fields.index(name)])
            out[q] = row
        return out

    def paired_stats(self, run_a: Any, run_b: Any, qrels: Any):
        """Statistics of two runs over the same queries (those both runs retrieve for and
        the qrels judge; with ``complete``, every judged query), row for row, for
        :func:`nlgmetrics.engines.significance.paired_test_stats`."""
        (run_a, qrels), (run_b, _) = _as_dicts(run_a, qrels), _as_dicts(run_b, qrels)
        judged = _judged_queries(qrels)
        common = sorted(judged if self.complete else judged.intersection(run_a).intersection(run_b))
        pair = []
        for run in (run_a, run_b):
            sub = {q: run.get(q, {}) for q in common}
            pair.append(self._query_stats(sub, {q: qrels[q] for q in common})[1])
        return pair[0], pair[1]

    def _score(self, stats) -> Score:
        import math

        from ...stats import sequential_column_sums

        queries, num_ret, num_rel, num_rel_ret = (int(x) for x in stats.counts)
        if queries == 0:
            raise InvalidInputError("retrieval: no query of the run has judgments")
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments == queries:
            sums = [float(v) for v in sequential_column_sums(seq)]  # trec_eval's accumulation, same bits
        else:
            sums = [math.fsum(p) for p in stats.sum_partials]
        parts: dict[str, Any] = {key: s / queries for key, s in zip(self.sum_fields, sums)}
        parts.update(num_q=queries, num_ret=num_ret, num_rel=num_rel, num_rel_ret=num_rel_ret)
        if self.sum_fields:
            score = parts[self.sum_fields[0]]
        else:
            score = float(parts[self.counts_asked[0]])
        return Score(self.name, score, self.signature(stats), stats, **parts)

    def _sentence_scores(self, seg) -> np.ndarray:
        import numpy as np

        if self.sum_fields:
            return seg.sums[:, 0].copy()
        return seg.counts[:, self.count_fields.index(self.counts_asked[0]) if self.counts_asked[0] != "num_q" else 0].astype(np.float64)

    # -- faces --------------------------------------------------------------------------------
    def corpus_score(self, run: Any, qrels: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(run, qrels).total())

    def sentence_scores(self, run: Any, qrels: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(run, qrels))

    def sentence_parts(self, run: Any, qrels: Any = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(run, qrels)
        out = {"score": self._sentence_scores(seg)}
        out.update({f: seg.sums[:, j].copy() for j, f in enumerate(self.sum_fields)})
        return out

    def update(self, run: Any, qrels: Any = None) -> "Retrieval":  # type: ignore[override]
        return self._accumulate(self.stats(run, qrels).total())

    def add_batch(self, *, run: Any = None, qrels: Any = None, predictions: Any = None, references: Any = None) -> "Retrieval":  # type: ignore[override]
        return self.update(run if run is not None else predictions, qrels if qrels is not None else references)

    def add(self, *, run: Any = None, qrels: Any = None, prediction: Any = None, reference: Any = None) -> "Retrieval":  # type: ignore[override]
        return self.update(run if run is not None else prediction, qrels if qrels is not None else reference)

    def compute(self, *, run: Any = None, qrels: Any = None, predictions: Any = None, references: Any = None) -> Score:  # type: ignore[override]
        run = run if run is not None else predictions
        qrels = qrels if qrels is not None else references
        if run is not None or qrels is not None:
            if run is None or qrels is None:
                raise InputTypeError("compute() needs both run= and qrels=, or neither")
            self.update(run, qrels)
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("retrieval has no pairwise form")
