"""Scale: a corpus far bigger than memory would like, streamed from .gz files.

Run: ``python benches/bench_scale.py [--n 10000000] [--peer-n 20000] [--dask-n 500000]``.

1. Writes ``--n`` synthetic segment pairs (``synthetic.pair_block``, deterministic: block
   ``k`` uses seed 2026 + k) to ``benches/data/scale-N.{hyp,ref}.gz`` once; ten million
   pairs are about 2.7 GiB of text.
2. nlgmetrics scores BLEU, chrF, TER and ROUGE-L in one streaming pass over the files
   (``nlgmetrics.engines.streaming.score_files``, chunks of ``--chunk-size``): wall time and peak
   resident memory of the process, checked against the bound ``nlgmetrics.engines.streaming``
   states (chunk size × bytes per pair × 10). This is the issue's "2 GB input" check: it
   runs here rather than in CI because generating and scoring it takes ~15 minutes.
3. The peers (sacrebleu 2.6.0 for BLEU/chrF/TER, rouge-score 0.1.2 for ROUGE-L) must
   hold the corpus in memory and are far slower, so they run on the first ``--peer-n``
   pairs (TER on ``--peer-n-ter``), nlgmetrics on the same slice for the agreement
   column; their full-corpus time is extrapolated linearly and marked so.
4. The same streaming computation on a Dask ``LocalCluster`` with 2 worker processes
   (what ``nlgmetrics score --scheduler`` runs) against the local path, on the first
   ``--dask-n`` pairs: wall time and whether the numbers are identical.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_chrf import agree, measure  # noqa: E402
from synthetic import pair_block  # noqa: E402

BLOCK = 200_000


def generate(n: int, data: Path) -> tuple[Path, Path, float, int]:
    """The two .gz files (made once), the seconds it took to make them now (0 if they
    were there) and their uncompressed size in bytes."""
    hyp, ref = data / f"scale-{n}.hyp.gz", data / f"scale-{n}.ref.gz"
    size_file = data / f"scale-{n}.bytes"
    if hyp.exists() and ref.exists() and size_file.exists():
        return hyp, ref, 0.0, int(size_file.read_text())
    data.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    tmp_h, tmp_r = hyp.with_suffix(".tmp"), ref.with_suffix(".tmp")
    raw = 0
    # zlib releases the GIL: compress block k while block k+1 is generated.
    with gzip.open(tmp_h, "wb", compresslevel=1) as fh, gzip.open(tmp_r, "wb", compresslevel=1) as fr, ThreadPoolExecutor(1) as writer:
        pending = None
        for k, start in enumerate(range(0, n, BLOCK)):
            h, r = (x.encode("utf-8") for x in pair_block(min(BLOCK, n - start), seed=2026 + k))
            raw += len(h) + len(r)
            if pending is not None:
                pending.result()
            pending = writer.submit(lambda h=h, r=r: (fh.write(h), fr.write(r)))
            print(f"  generated {start + min(BLOCK, n - start):,} pairs", file=sys.stderr, flush=True)
        if pending is not None:
            pending.result()
    tmp_h.rename(hyp)
    tmp_r.rename(ref)
    size_file.write_text(str(raw))
    return hyp, ref, time.perf_counter() - t, raw


def ours():
    import nlgmetrics as nm

    return [nm.BLEU(), nm.CHRF(), nm.TER(), nm.ROUGE(rouge_types=["rougeL"])]


def head(path: Path, n: int) -> list[str]:
    from nlgmetrics.io.chunks import iter_lines

    out: list[str] = []
    for block in iter_lines(str(path)):
        out.extend(block[: n - len(out)])
        if len(out) >= n:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--chunk-size", type=int, default=50_000)
    ap.add_argument("--peer-n", type=int, default=20_000)
    ap.add_argument("--peer-n-ter", type=int, default=2_000)
    ap.add_argument("--dask-n", type=int, default=500_000)
    ap.add_argument("--data", type=Path, default=HERE / "data")
    args = ap.parse_args()

    import nlgmetrics as nm
    from nlgmetrics.io.chunks import iter_pair_chunks
    from nlgmetrics.engines.streaming import score_chunks, score_files

    hyp, ref, gen_s, raw = generate(args.n, args.data)
    size = hyp.stat().st_size + ref.stat().st_size
    print(f"\n### Scale: {args.n:,} segment pairs from .gz (nlgmetrics {nm.__version__}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start)\n")
    print(f"Input: {hyp.name} + {ref.name}, {raw / 2**30:,.2f} GiB of text, {size / 2**20:,.0f} MiB compressed" + (f" (generated in {gen_s:.0f} s)" if gen_s else "") + f"; chunks of {args.chunk_size:,} pairs.\n")

    full = measure(lambda: [s.score for s in score_files(ours(), str(hyp), [str(ref)], chunk_size=args.chunk_size)])
    t_full, mem_full, scores_full = full
    print(f"nlgmetrics, one streaming pass, BLEU + chrF + TER + ROUGE-L: **{t_full:.1f} s** "
          f"({args.n / t_full:,.0f} pairs/s), peak memory added **{mem_full:.0f} MiB**; "
          f"BLEU {scores_full[0]:.4f}, chrF {scores_full[1]:.4f}, TER {scores_full[2]:.4f}, ROUGE-L F {scores_full[3]:.6f}.\n")
    bound = args.chunk_size * raw / args.n * 10 / 2**20
    print(f"Memory bound stated by `nlgmetrics.engines.streaming` for chunks of {args.chunk_size:,} pairs of "
          f"{raw / args.n:.0f} bytes: {bound:.0f} MiB; measured {mem_full:.0f} MiB: "
          f"{'within the bound' if mem_full <= bound else 'OVER THE BOUND'}.\n")

    print("| metric | peer | peer on slice | nlgmetrics on slice | numbers | peer extrapolated to the corpus | nlgmetrics whole corpus (all four) |")
    print("|---|---|---|---|---|---|---|")
    h_all, r_all = head(hyp, args.peer_n), head(ref, args.peer_n)
    for name, peer, n in [("BLEU", "sacrebleu", args.peer_n), ("chrF", "sacrebleu", args.peer_n), ("TER", "sacrebleu", args.peer_n_ter), ("ROUGE-L (mean F)", "rouge-score", args.peer_n)]:
        h, r = h_all[:n], r_all[:n]
        import sacrebleu
        from rouge_score import rouge_scorer

        def run_peer():
            if name == "BLEU":
                return sacrebleu.BLEU().corpus_score(h, [r]).score
            if name == "chrF":
                return sacrebleu.CHRF().corpus_score(h, [r]).score
            if name == "TER":
                return sacrebleu.TER().corpus_score(h, [r]).score
            sc = rouge_scorer.RougeScorer(["rougeL"])
            return sum(sc.score(a, b)["rougeL"].fmeasure for a, b in zip(r, h)) / len(h)

        def run_ours():
            m = {"BLEU": nm.BLEU(), "chrF": nm.CHRF(), "TER": nm.TER(), "ROUGE-L (mean F)": nm.ROUGE(rouge_types=["rougeL"])}[name]
            return m.corpus_score(h, r).score

        p = measure(run_peer)
        o = measure(run_ours)
        extra = p[0] * args.n / n
        print(f"| {name} | {peer} | {p[0]:.2f} s / {n:,} pairs | {o[0]:.3f} s | {agree(o[2], p[2])} | ~{extra / 3600:.1f} h (extrapolated) | {t_full:.0f} s |", flush=True)

    # Dask: the --scheduler path (chunks computed by 2 worker processes, merged in order)
    from distributed import Client, LocalCluster

    from nlgmetrics.integrations.dask import client_mapper

    n_chunks = -(-args.dask_n // args.chunk_size)

    def source():
        return itertools.islice(iter_pair_chunks(str(hyp), [str(ref)], args.chunk_size), n_chunks)

    t = time.perf_counter()
    local = [s.score for s in score_chunks(ours(), source)]
    t_local = time.perf_counter() - t
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: None)  # workers up before the clock starts
        t = time.perf_counter()
        remote = [s.score for s in score_chunks(ours(), source, mapper=client_mapper(client))]
        t_remote = time.perf_counter() - t
    print(f"\n| {n_chunks * args.chunk_size:,} pairs, BLEU + chrF + TER + ROUGE-L | wall time | numbers |")
    print("|---|---|---|")
    print(f"| local streaming (all cores, n_threads=0) | {t_local:.1f} s | |")
    print(f"| Dask LocalCluster, 2 worker processes × 1 thread | {t_remote:.1f} s | {'identical' if remote == local else 'DIFFER'} to the last bit |")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.2f}.")


if __name__ == "__main__":
    main()
