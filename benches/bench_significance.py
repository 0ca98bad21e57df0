"""Paired bootstrap (1000 resamples) of 12 systems × ~2,000 segments: nlgmetrics vs sacrebleu.

Runs both on the same WMT22 data in one process and prints a markdown table (wall time,
ratio, and for the bootstrap the peak Python-heap memory from tracemalloc in a separate
run; the Rust side allocates outside it, so its figure is a lower bound). Timings include
statistics extraction (tokenization) of all systems. Usage: ``python benches/bench_significance.py [--corpora DIR]``.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from pathlib import Path

from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest

from nlgmetrics import BLEU
from nlgmetrics.engines.significance import paired_test, paired_test_stats


def read(p: Path) -> list[str]:
    lines = p.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [x.rstrip() for x in lines]


def load(corpora: Path, pair: str, n_systems: int):
    d = corpora / "wmt22" / pair
    trg = pair.split("-")[1]
    ref = read(d / f"generaltest2022.{pair}.ref.A.{trg}")
    files = sorted((d / "system-outputs").iterdir())[:n_systems]
    return ref, [(p.name.split(".hyp.")[1].rsplit(".", 1)[0], read(p)) for p in files]


def timed(fn, memory: bool = False):
    """Wall time; with ``memory``, a second run under tracemalloc for the peak heap
    (tracemalloc slows Python-heavy code a lot, so it never overlaps the timing)."""
    t = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t
    peak = None
    if memory:
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return out, dt, peak


def mib(x):
    return "–" if x is None else f"{x:.0f} MiB"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpora"))
    ap.add_argument("--pair", default="ja-en")
    ap.add_argument("--systems", type=int, default=12)
    ap.add_argument("--resamples", type=int, default=1000)
    a = ap.parse_args()
    ref, systems = load(Path(a.corpora), a.pair, a.systems)
    n = a.resamples
    rows = []
    for test, label in [("bs", f"paired bootstrap, {n} resamples"), ("ar", f"paired approximate randomization, {10 * n} trials")]:
        k = n if test == "bs" else 10 * n
        mem = test == "bs"
        sb, t_sb, m_sb = timed(lambda: PairedTest(systems, {"BLEU": SacreBLEU()}, [ref], test_type=test, n_samples=k)(), mem)
        ours_sb, t_c, m_c = timed(lambda: paired_test(BLEU(), ref, systems[0], systems[1:], test=test, n_samples=k, method="sacrebleu"), mem)
        ours, t_o, m_o = timed(lambda: paired_test(BLEU(), ref, systems[0], systems[1:], test=test, n_samples=k), mem)
        same = all(
            (g.score, g.p_value, g.mean, g.ci) == (w.score, w.p_value, w.mean, w.ci)
            for w, g in zip(sb[1]["BLEU"], ours_sb.systems)
        )
        m = BLEU()
        stats = [(name, m.stats(h, ref)) for name, h in systems]
        _, t_r, _ = timed(lambda: paired_test_stats(m, stats[0], stats[1:], test=test, n_samples=k))
        rows.append((label, t_sb, m_sb, t_c, m_c, t_o, m_o, same, t_r))
    print(f"{a.systems} systems × {len(ref)} segments ({a.pair}), BLEU, {os.cpu_count()} cores\n")
    print("| test | sacrebleu 2.6.0 | nlgmetrics method=sacrebleu | nlgmetrics default | speed-up (sacrebleu / default) | identical to sacrebleu |")
    print("|---|---|---|---|---|---|")
    for label, t_sb, m_sb, t_c, m_c, t_o, m_o, same, _ in rows:
        print(f"| {label} | {t_sb:.2f} s, {mib(m_sb)} | {t_c:.2f} s, {mib(m_c)} | {t_o:.2f} s, {mib(m_o)} | {t_sb / t_o:.1f}× | {'yes' if same else 'NO'} |")
    print()
    for label, *_, t_r in rows:
        print(f"nlgmetrics default, {label}, statistics precomputed (resampling + scoring only): {t_r:.2f} s")


if __name__ == "__main__":
    main()
