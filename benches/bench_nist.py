"""NIST: nlgmetrics vs nltk 3.10.4 corpus_nist side by side; prints a markdown table.

Data: WMT22 zh-en (Online-B, references A and B) and generated segments.
Usage: python benches/bench_nist.py [--segments 20000]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from nltk.translate.nist_score import corpus_nist

import nlgmetrics as nm

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def read(p: Path) -> list[str]:
    return [x.rstrip() for x in p.read_text(encoding="utf-8").split("\n")[:-1]]


def generated(n: int, seed: int = 0):
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(3000)]
    hyps, refs = [], []
    for _ in range(n):
        a = [rng.choice(vocab) for _ in range(rng.randint(8, 30))]
        b = [w if rng.random() < 0.7 else rng.choice(vocab) for w in a]
        h = [w if rng.random() < 0.6 else rng.choice(vocab) for w in a]
        hyps.append(" ".join(h))
        refs.append([" ".join(a), " ".join(b)])
    return hyps, refs


def timed(f):
    """(wall seconds, CPU seconds of the whole process incl. worker threads), result."""
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return (time.perf_counter() - w, time.process_time() - c), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=20_000)
    args = ap.parse_args()
    cases = []
    d = CORPORA / "wmt22" / "zh-en"
    if d.is_dir():
        hyps = read(d / "system-outputs" / "generaltest2022.zh-en.hyp.Online-B.en")
        a = read(d / "generaltest2022.zh-en.ref.A.en")
        b = read(d / "generaltest2022.zh-en.ref.B.en")
        cases.append(("WMT22 zh-en Online-B, 2 refs", hyps, [[x, y] for x, y in zip(a, b)]))
    cases.append((f"generated {args.segments // 1000}k segments, 2 refs", *generated(args.segments)))
    rows = []
    for label, hyps, refs in cases:
        tk_h = [h.split() for h in hyps]
        tk_r = [[r.split() for r in rs] for rs in refs]
        tr, want = timed(lambda: corpus_nist(tk_r, tk_h, n=5))
        tn, got = timed(lambda: nm.NIST("nltk").corpus_score(hyps, refs).score)
        assert abs(got - want) <= 1e-9 * abs(want)
        tm, _ = timed(lambda: nm.NIST("mteval").corpus_score(hyps, refs).score)
        rows.append((label, tr, tn, tm))
    print("| data | nltk corpus_nist wall / CPU (s) | nlgmetrics nltk flavour wall / CPU (s) | speed-up wall / CPU | nlgmetrics mteval flavour wall / CPU (s) |")
    print("|---|---:|---:|---:|---:|")
    for label, a, b, c in rows:
        print(f"| {label} | {a[0]:.3f} / {a[1]:.3f} | {b[0]:.3f} / {b[1]:.3f} | {a[0] / b[0]:.1f}× / {a[1] / b[1]:.1f}× | {c[0]:.3f} / {c[1]:.3f} |")


if __name__ == "__main__":
    main()
