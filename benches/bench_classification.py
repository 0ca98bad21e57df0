"""Classification benchmarks: nlgmetrics vs scikit-learn on the same data, in one run.

1. roc_auc_score, average_precision_score, precision_recall_curve on N scores (default
   10M, continuous scores, 30 % positives): wall time, ratio, and peak extra RSS during
   the call (sampled every 2 ms by a background thread).
2. Streaming ROC AUC over M scores (default 1B) in chunks with the constant-memory
   histogram (BinnedCurves, 65,536 bins) and, on a smaller stream, the exact table
   (ExactCurves) over scores on a 1e-3 grid (bounded by the 10,001 distinct scores).
   Reports throughput, state size, peak RSS, the AUC, and the error bound.

    python benches/bench_classification.py [--n 10000000] [--stream-n 1000000000]
"""

from __future__ import annotations

import argparse
import gc
import os
import threading
import time

import numpy as np

import nlgmetrics.classification as C


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class PeakRSS:
    """Peak resident memory above the level at entry, sampled by a thread."""

    def __enter__(self):
        gc.collect()
        self.base = rss()
        self.peak = self.base
        self._stop = False
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()
        return self

    def _run(self):
        while not self._stop:
            self.peak = max(self.peak, rss())
            time.sleep(0.002)

    def __exit__(self, *exc):
        self._stop = True
        self._t.join()
        self.peak = max(self.peak, rss())

    @property
    def extra_mb(self) -> float:
        return (self.peak - self.base) / 2**20


def timed(fn, repeat=1):
    best, out, mem = float("inf"), None, 0.0
    for _ in range(repeat):
        with PeakRSS() as m:
            t = time.perf_counter()
            out = fn()
            dt = time.perf_counter() - t
        best = min(best, dt)
        mem = max(mem, m.extra_mb)
    return best, out, mem


def same(a, b) -> str:
    if isinstance(a, tuple):
        return "yes" if all(np.array_equal(x, y) for x, y in zip(a, b)) else "NO"
    return "yes" if a == b else f"diff {abs(a - b):.1e}"


def batch(n: int) -> None:
    import sklearn
    import sklearn.metrics as sk

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = rng.normal(y * 1.0, 1.0)
    print(f"\n### Batch metrics, n = {n:,} continuous scores (scikit-learn {sklearn.__version__}, {os.cpu_count()} cores)\n")
    print("| function | nlgmetrics (s) | scikit-learn (s) | speed-up | nlgmetrics peak extra RSS | scikit-learn peak extra RSS | identical |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in ("roc_auc_score", "average_precision_score", "precision_recall_curve"):
        t_ours, r_ours, m_ours = timed(lambda: getattr(C, name)(y, s), repeat=2)
        t_ref, r_ref, m_ref = timed(lambda: getattr(sk, name)(y, s))
        print(f"| {name} | {t_ours:.3f} | {t_ref:.3f} | {t_ref / t_ours:.1f}× | {m_ours:.0f} MB | {m_ref:.0f} MB | {same(r_ours, r_ref)} |", flush=True)


def stream(total: int, chunk: int, exact_total: int) -> None:
    """Chunks are windows at shifting offsets into a pre-generated pool of 2 × chunk
    samples: generating 1B normal variates would cost far more than the metric, so the
    pool is made once and every chunk is a different (overlapping) slice of it."""
    print(f"\n### Streaming ROC AUC over {total:,} scores (chunks of {chunk:,}, windows into a {2 * chunk:,}-sample pool; scores N(y, 1))\n")
    print("| state | scores | wall (s) | Mscores/s | state size | peak RSS of process | ROC AUC | AUC error bound | AP | AP error bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rng = np.random.default_rng(1)
    pool_y = rng.random(2 * chunk) < 0.3
    pool_s = rng.normal(pool_y, 1.0)
    pool_q = np.round(np.clip(pool_s, -5, 5), 3)
    offsets = [(i * 7_919_993) % chunk for i in range(max(total, exact_total) // chunk)]
    m = C.BinnedCurves(n_bins=1 << 16, score_range=(-5.0, 5.0))
    gc.collect()
    peak = rss()
    t = time.perf_counter()
    for o in offsets[: total // chunk]:
        m.update(pool_y[o:o + chunk], pool_s[o:o + chunk])
        peak = max(peak, rss())
    dt = time.perf_counter() - t
    r = m.compute()
    print(f"| binned (65,536 bins over [-5, 5]) | {total:,} | {dt:.1f} | {total / dt / 1e6:.0f} | {r.state_bytes / 2**20:.1f} MB | {peak / 2**20:.0f} MB | {r.score:.9f} | {r.auc_error_bound:.1e} | {r.average_precision:.9f} | {r.ap_error_bound:.1e} |", flush=True)
    m = C.ExactCurves()
    gc.collect()
    peak = rss()
    t = time.perf_counter()
    for o in offsets[: exact_total // chunk]:
        m.update(pool_y[o:o + chunk], pool_q[o:o + chunk])
        peak = max(peak, rss())
    dt = time.perf_counter() - t
    r = m.compute()
    print(f"| exact table (scores on a 1e-3 grid, {r.n_distinct_scores:,} distinct) | {exact_total:,} | {dt:.1f} | {exact_total / dt / 1e6:.0f} | {r.state_bytes / 2**20:.2f} MB | {peak / 2**20:.0f} MB | {r.score:.9f} | 0 (exact) | {r.average_precision:.9f} | 0 (exact) |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--stream-n", type=int, default=1_000_000_000)
    ap.add_argument("--exact-stream-n", type=int, default=100_000_000)
    ap.add_argument("--chunk", type=int, default=10_000_000)
    a = ap.parse_args()
    batch(a.n)
    stream(a.stream_n, a.chunk, a.exact_stream_n)


if __name__ == "__main__":
    main()
