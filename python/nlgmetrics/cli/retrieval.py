"""``nlgmetrics retrieval``: trec_eval's measures of a TREC run against a qrels file.

    nlgmetrics retrieval -q qrels.txt -r run.txt -m map ndcg_cut.10 P.5
    nlgmetrics retrieval -m map -m P.5 qrels.txt run.txt        # trec_eval's order

trec_eval's ``-q`` (per query) is ``--per-query`` here: ``-q`` names the qrels file.

Prints trec_eval's summary lines (``measure<TAB>all<TAB>value``, values as ``%6.4f``, counts
as integers); ``--per-query`` adds each query's lines first, as ``trec_eval -q``. ``-f json``
gives ``{"scores": {...}, "per_query": {...}, "signature": ...}``. ``-l``, ``-J`` and
``-c`` are trec_eval's relevance level, judged-documents-only and complete-queries flags;
``--score-precision float64`` ranks scores as trec_eval 10 (doubles) rather than trec_eval 9
and pytrec_eval (single precision).
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

HELP = "trec_eval / pytrec_eval retrieval measures (nDCG@k, MAP, MRR, P@k, recall@k) of a TREC run"


def add_parser(sub: Any) -> None:
    c = sub.add_parser("retrieval", help=HELP)
    c.add_argument("files", nargs="*", metavar="QRELS RUN", help="trec_eval's habit: the qrels file, then the run file (or -q / -r)")
    c.add_argument("-q", "--qrels", default=None, help="qrels file: qid iteration docid relevance")
    c.add_argument("-r", "--run", default=None, help="run file: qid Q0 docid rank score tag")
    c.add_argument("-m", "--measures", dest="measures", nargs="+", action="extend", default=None,
                   help="pytrec_eval measure names (map ndcg_cut.10 P.5,10 recall.100 recip_rank success.1 num_rel ...); default: map ndcg_cut.10 P.10 recall.100 recip_rank")
    c.add_argument("-l", "--relevance-level", dest="relevance_level", type=int, default=1, help="relevance values >= this are relevant (trec_eval -l; default 1)")
    c.add_argument("-J", "--judged-docs-only", dest="judged_docs_only", action="store_true", help="drop unjudged documents before ranking (trec_eval -J)")
    c.add_argument("-c", "--complete", action="store_true", help="average over every judged query, a missing one scoring 0 (trec_eval -c)")
    c.add_argument("--score-precision", dest="score_precision", choices=["float32", "float64"], default="float32", help="float32: scores ranked as trec_eval 9 and pytrec_eval keep them, in single precision (default); float64: as trec_eval 10")
    c.add_argument("--per-query", dest="per_query", action="store_true", help="each query's values too (trec_eval -q)")
    c.add_argument("-f", "--format", choices=["trec_eval", "json"], default="trec_eval", help="trec_eval: its text lines (default); json: scores, per-query values and the signature")


def _lines(scores: dict[str, Any], where: str, counts: tuple[str, ...]) -> list[str]:
    out = []
    for key, value in scores.items():
        if key in counts:
            out.append(f"{key:<22}\t{where}\t{int(value)}")
        else:
            out.append(f"{key:<22}\t{where}\t{value:6.4f}")
    return out


def run(args: argparse.Namespace, out, err) -> int:
    from ..metrics.programs.retrieval import DEFAULT_MEASURES, Retrieval
    from ..metrics.programs.trec_files import read_qrels, read_run

    from .guard import UsageError

    if not args.files and args.qrels is None and args.run is None and args.measures:
        # `-m map qrels run`, trec_eval's order: -m took the two files too
        from ..errors import InvalidOptionError
        from ..metrics.programs.retrieval import parse_measures

        while len(args.files) < 2 and len(args.measures) > 1:
            try:
                parse_measures([args.measures[-1]])
                break
            except InvalidOptionError:
                args.files.insert(0, args.measures.pop())
    if args.files and (args.qrels is not None or args.run is not None):
        raise UsageError("give the qrels and run files either as -q QRELS -r RUN or as trec_eval's two positional files, not both")
    if args.files:
        if len(args.files) != 2:
            raise UsageError(f"expected two files, QRELS then RUN (as trec_eval), got {len(args.files)}")
        args.qrels, args.run = args.files
    if args.qrels is None or args.run is None:
        raise UsageError("give the qrels and the run: -q QRELS -r RUN (or QRELS RUN, as trec_eval)")
    measures = args.measures if args.measures is not None else list(DEFAULT_MEASURES)
    metric = Retrieval(measures=measures, relevance_level=args.relevance_level, judged_docs_only=args.judged_docs_only, complete=args.complete, score_precision=args.score_precision)
    qrels = read_qrels(args.qrels)
    run_dict = read_run(args.run)
    qids, rows, summary = metric.official_totals(run_dict, qrels, per_query=args.per_query)  # plain Python: no numpy for a run
    counts = ("num_q", "num_ret", "num_rel", "num_rel_ret")
    per_query: dict[str, dict[str, Any]] = dict(zip(qids, rows))
    if args.format == "json":
        from .jsonout import json_text

        doc: dict[str, Any] = {"scores": summary}
        if args.per_query:
            doc["per_query"] = per_query
        doc["signature"] = metric.signature().format()
        out.write(json_text(doc, indent=2) + "\n")
        return 0
    lines = []
    for q, row in per_query.items():
        lines.extend(_lines(row, q, counts))
    lines.extend(_lines(summary, "all", counts))
    out.write("\n".join(lines) + "\n")
    return 0
