"""Retrieval measures: nlgmetrics vs pytrec_eval (pytrec_eval-terrier), side by side.

    python benches/bench_retrieval.py [--queries 7000] [--depth 1000]

Data: an MS MARCO-like run, ``--queries`` queries of ``--depth`` documents each (ids from a
pool of 500k, scores rounded to 3 decimals so that ties are common) and qrels of 1-3
relevant and 0-5 judged non-relevant documents per query. Measures: map, ndcg_cut.10,
recip_rank, P.10, recall.100, recall.1000. Both sides get the same dicts; pytrec_eval's time
is ``RelevanceEvaluator(qrels, measures)`` plus ``evaluate(run)``, ours
``Retrieval(measures, n_threads=1).per_query(run, qrels)`` (the same dict out) and
``corpus_score`` (the trec_eval ``all`` line). "From the files": pytrec_eval's
``parse_run`` / ``parse_qrel`` then the same, against ours given the two paths. CPU seconds
on one thread, median of 3; every per-query value is asserted equal. "core only" is the
native call on already-flattened lists: the part no Python dict walk is in.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

import pytrec_eval

from nlgmetrics import _core
from nlgmetrics.metrics.programs.retrieval import Retrieval

MEASURES = ["map", "ndcg_cut.10", "recip_rank", "P.10", "recall.100", "recall.1000"]


def generated(n_queries: int, depth: int, seed: int = 0):
    rng = random.Random(seed)
    pool = [f"D{i}" for i in range(500_000)]
    run, qrels = {}, {}
    for q in range(n_queries):
        qid = str(1_000_000 + q)
        docs = rng.sample(pool, depth)
        run[qid] = {d: round(rng.random() * 20, 3) for d in docs}
        judged = {d: 1 for d in rng.sample(docs[:200] + pool[:1000], rng.randint(1, 3))}
        judged.update({d: 0 for d in rng.sample(pool, rng.randint(0, 5)) if d not in judged})
        qrels[qid] = judged
    return run, qrels


def cpu(f, repeat: int = 3):
    times, out = [], None
    for _ in range(repeat):
        t = time.process_time()
        out = f()
        times.append(time.process_time() - t)
    return statistics.median(times), out


def write_files(run, qrels, where: str) -> tuple[str, str]:
    run_path, qrels_path = os.path.join(where, "run.txt"), os.path.join(where, "qrels.txt")
    with open(run_path, "w") as f:
        for q, docs in run.items():
            for rank, (d, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]), 1):
                f.write(f"{q} Q0 {d} {rank} {s} bench\n")
    with open(qrels_path, "w") as f:
        for q, docs in qrels.items():
            for d, r in docs.items():
                f.write(f"{q} 0 {d} {r}\n")
    return run_path, qrels_path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--depth", type=int, default=1000)
    args = ap.parse_args()
    run, qrels = generated(args.queries, args.depth)
    ours = Retrieval(measures=MEASURES, n_threads=1)

    t_ref, expected = cpu(lambda: pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES)).evaluate(run))
    t_per, got = cpu(lambda: ours.per_query(run, qrels))
    assert got == expected, "per-query values differ"
    t_corpus, score = cpu(lambda: ours.corpus_score(run, qrels))

    qids = sorted(set(run) & set(qrels))
    flat = ([], [], [0], [], [], [0])
    for q in qids:
        flat[0].extend(run[q].keys()), flat[1].extend(run[q].values()), flat[2].append(len(flat[0]))
        flat[3].extend(qrels[q].keys()), flat[4].extend(qrels[q].values()), flat[5].append(len(flat[3]))
    measures = [(kind, k) for _, kind, k in ours.columns]
    t_core, _ = cpu(lambda: _core.retrieval_stats(qids, *flat[:3], *flat[3:], measures, 1, False, True, 1))

    with tempfile.TemporaryDirectory() as tmp:
        run_path, qrels_path = write_files(run, qrels, tmp)

        def reference_files():
            with open(run_path) as fr, open(qrels_path) as fq:
                r, q = pytrec_eval.parse_run(fr), pytrec_eval.parse_qrel(fq)
            return pytrec_eval.RelevanceEvaluator(q, set(MEASURES)).evaluate(r)

        t_ref_files, _ = cpu(reference_files)
        t_files, score_files = cpu(lambda: ours.corpus_score(run_path, qrels_path))
    assert score_files.score == score.score

    n = sum(len(d) for d in run.values())
    print(f"{len(qids)} queries, {n} retrieved documents, measures {' '.join(MEASURES)}; CPU s, one thread, median of 3\n")
    print("| case | pytrec_eval s | nlgmetrics s | **× pytrec_eval** |")
    print("|---|---:|---:|---:|")
    print(f"| per-query dict (`per_query`) | {t_ref:.3f} | {t_per:.3f} | **{t_ref / t_per:.1f}×** |")
    print(f"| corpus score (`corpus_score`) | {t_ref:.3f} | {t_corpus:.3f} | **{t_ref / t_corpus:.1f}×** |")
    print(f"| from the files | {t_ref_files:.3f} | {t_files:.3f} | **{t_ref_files / t_files:.1f}×** |")
    print(f"\ncore only (flattened lists in, statistics out): {t_core:.3f} s")


if __name__ == "__main__":
    main()
