"""Scaling: time per segment of every registered text metric as the corpus grows
(10k -> 100k -> 1M segments where feasible); prints a markdown table.

A metric whose cost grows only with the work has a flat time per segment (within cache
effects). The ratio column is (time per segment at the largest size) / (at the smallest);
BENCHMARKS.md says which metrics grow faster by definition and why.

Data: ``synthetic.corpus`` (Zipfian vocabulary, noisy copies as hypotheses, 5-40 words).
Each size is timed once after a warm-up call (the machine is shared: sizes, not repeats).
Usage: python benches/bench_scaling.py [--sizes 10000 100000] [--metrics bleu chrf ...]
       [--max-seconds 60]
"""

from __future__ import annotations

import argparse
import time

import synthetic

import nlgmetrics as nm

# (registry name, options, largest size worth timing on a 2-core machine)
METRICS = [
    ("bleu", {}, 1_000_000),
    ("chrf", {}, 1_000_000),
    ("chrf++", {}, 1_000_000),
    ("rouge", {}, 1_000_000),
    ("rouge", {"flavour": "rouge155"}, 100_000),
    ("rouge", {"flavour": "coco"}, 1_000_000),
    ("ter", {}, 100_000),
    ("wer", {}, 1_000_000),
    ("cer", {}, 1_000_000),
    ("mer", {}, 1_000_000),
    ("wil", {}, 1_000_000),
    ("wip", {}, 1_000_000),
    ("per", {}, 1_000_000),
    ("nist", {"flavour": "nltk"}, 1_000_000),
    ("nist", {"flavour": "mteval"}, 1_000_000),
    ("cider", {}, 1_000_000),
    ("meteor", {}, 100_000),
    ("distinct", {}, 1_000_000),
    ("self_bleu", {"sample_size": 500}, 100_000),
    ("google_bleu", {}, 1_000_000),
    ("exact_match", {}, 1_000_000),
]


def label(name: str, opts: dict) -> str:
    return name + (" " + " ".join(f"{k}={v}" for k, v in opts.items()) if opts else "")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--metrics", nargs="*", default=None, help="registry names to run (default: all listed)")
    ap.add_argument("--max-seconds", type=float, default=60.0, help="skip larger sizes once one run takes longer")
    args = ap.parse_args()
    sizes = sorted(args.sizes)
    hyps_all, refs_all = synthetic.corpus(sizes[-1])
    rows = []
    for name, opts, cap in METRICS:
        if args.metrics and name not in args.metrics:
            continue
        try:
            m = nm.load(name, **opts)
        except Exception as e:  # a missing extra
            rows.append((label(name, opts), {}, f"skipped: {type(e).__name__}"))
            continue
        m.corpus_score(hyps_all[:100], refs_all[:100])  # warm-up (lazy resources)
        per = {}
        for n in sizes:
            if n > cap:
                break
            t = time.perf_counter()
            m.corpus_score(hyps_all[:n], refs_all[:n])
            dt = time.perf_counter() - t
            per[n] = dt / n * 1e6
            if dt > args.max_seconds:
                break
        rows.append((label(name, opts), per, ""))
    print(f"### Scaling: µs per segment ({', '.join(f'{n:,}' for n in sizes)} segments; nlgmetrics {nm.__version__})")
    print()
    print("| metric | " + " | ".join(f"{n:,}" for n in sizes) + " | largest / smallest |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    for lab, per, note in rows:
        cells = [f"{per[n]:.2f}" if n in per else "–" for n in sizes]
        ks = sorted(per)
        ratio = f"{per[ks[-1]] / per[ks[0]]:.2f}×" if len(ks) > 1 else (note or "–")
        print(f"| {lab} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    main()
