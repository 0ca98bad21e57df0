"""Ray, Spark and Dask against the local path: one corpus score of synthetic pairs.

Each engine runs in its own process (so 1 and 2 workers start clean), scoring the same
pairs with the same metrics; the scores are checked equal to the local ones to the bit.
Every worker runs the metrics on ``--threads`` threads (default 1: one core a worker), and
the local path runs once per worker count with that many threads, so "2 workers" means two
cores on every row. Reported: wall time of the scoring call (engine start-up excluded,
shown apart), the overhead per row against the local path on one core, and a scaling table
(rows a second on 1 and 2 workers, the speed-up, rows a second per worker). The load
average is printed before and after: the speed-up needs idle cores to show.

    python benches/bench_engines.py --rows 1000000 --metrics bleu chrf --parts 16
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

WORDS = "the a cat dog sat ran on in mat park house quickly slowly big small red green blue over under".split()


def pairs(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    import random

    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(n):
        k = rng.randint(5, 25)
        ref = [rng.choice(WORDS) for _ in range(k)]
        hyp = [w if rng.random() < 0.7 else rng.choice(WORDS) for w in ref]
        hyps.append(" ".join(hyp))
        refs.append(" ".join(ref))
    return hyps, refs


def run_one(engine: str, workers: int, n: int, metrics: list[str], parts: int, threads: int) -> dict:
    from nlgmetrics import load

    hyps, refs = pairs(n)
    ms = [load(m, n_threads=threads * workers if engine == "local" else threads) for m in metrics]
    t0 = time.perf_counter()
    if engine == "local":
        start = 0.0
        t0 = time.perf_counter()
        scores = [m.corpus_score(hyps, [[r] for r in refs]).score for m in ms]
    elif engine == "dask":
        import dask.dataframe as dd
        import distributed
        import pandas as pd

        import nlgmetrics.integrations.dask as nd

        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50)
        client = distributed.Client(cluster)
        frame = dd.from_pandas(pd.DataFrame({"prediction": hyps, "references": refs}), npartitions=parts)
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        scores = [s.score for s in nd.score(frame, ms)]
        client.close()
        cluster.close()
    elif engine == "ray":
        import ray
        import ray.data

        import nlgmetrics.integrations.ray as nr

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        ds = ray.data.from_items([{"prediction": h, "references": r} for h, r in zip(hyps, refs)], override_num_blocks=parts)
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        scores = [s.score for s in nr.score(ds, ms)]
        ray.shutdown()
    elif engine == "spark":
        from pyspark.sql import SparkSession

        import nlgmetrics.integrations.spark as ns

        spark = (
            SparkSession.builder.master(f"local[{workers}]").config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false").config("spark.driver.memory", "4g").getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.createDataFrame(spark.sparkContext.parallelize(list(zip(hyps, refs)), parts), "prediction string, references string")
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        scores = [s.score for s in ns.score(df, ms)]
        spark.stop()
    else:
        raise SystemExit(f"unknown engine {engine}")
    return {"engine": engine, "workers": workers, "seconds": time.perf_counter() - t0, "startup": start, "scores": scores}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", "--n", dest="rows", type=int, default=200_000, help="synthetic pairs to score")
    ap.add_argument("--metrics", nargs="+", default=["bleu", "chrf"])
    ap.add_argument("--parts", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1, help="metric threads per worker (the local path: this times the workers)")
    ap.add_argument("--engines", nargs="+", default=["local", "dask", "ray", "spark"])
    ap.add_argument("--one", nargs=2, metavar=("ENGINE", "WORKERS"))
    args = ap.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one[0], int(args.one[1]), args.rows, args.metrics, args.parts, args.threads)))
        return
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    rows = []
    load_before = os.getloadavg()
    for engine in args.engines:
        for workers in (1, 2):
            cmd = [sys.executable, __file__, "--rows", str(args.rows), "--parts", str(args.parts), "--threads", str(args.threads),
                   "--metrics", *args.metrics, "--one", engine, str(workers)]
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
            line = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
            if out.returncode or not line:
                print(f"{engine} x{workers} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
                continue
            rows.append(json.loads(line[-1]))
    report(rows, args, load_before, os.getloadavg())


def report(rows: list[dict], args: argparse.Namespace, load_before: tuple, load_after: tuple) -> None:
    n = args.rows
    local = next(r for r in rows if r["engine"] == "local" and r["workers"] == 1)
    print(f"{n:,} synthetic pairs, metrics {', '.join(args.metrics)}, {args.parts} partitions/blocks, {args.threads} thread(s) a worker;"
          f" load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print()
    print("| engine | workers | scoring s | start-up s | overhead µs/row vs local ×1 | scores == local |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        over = (r["seconds"] - local["seconds"]) / n * 1e6
        print(f"| {r['engine']} | {r['workers']} | {r['seconds']:.2f} | {r['startup']:.1f} | {over:+.2f} | {r['scores'] == local['scores']} |")
    print()
    print("| engine | rows/s, 1 worker | rows/s, 2 workers | 1→2 speed-up | rows/s per worker (2) |")
    print("|---|---|---|---|---|")
    for engine in dict.fromkeys(r["engine"] for r in rows):
        one = next((r for r in rows if r["engine"] == engine and r["workers"] == 1), None)
        two = next((r for r in rows if r["engine"] == engine and r["workers"] == 2), None)
        if one is None or two is None:
            continue
        a, b = n / one["seconds"], n / two["seconds"]
        print(f"| {engine} | {a:,.0f} | {b:,.0f} | {b / a:.2f}× | {b / 2:,.0f} |")


if __name__ == "__main__":
    main()
