"""Scaling: time per segment of every registered text metric as the corpus grows
(10k -> 100k -> 1M segments where feasible); prints a markdown table.

A metric whose cost grows only with the work has a flat time per segment (within cache
effects). The ratio column is (time per segment at the largest size) / (at the smallest);
BENCHMARKS.md says which metrics grow faster by definition and why.

Data: ``synthetic.corpus`` (Zipfian vocabulary, noisy copies as hypotheses, 5-40 words).
Each size is timed once after a warm-up call (the machine is shared: sizes, not repeats).
The second table times NIST (nltk flavour) against nltk's own ``corpus_nist`` on the same
tokenized segments in the same process (CPU seconds; ``--threads 1`` for one thread each)
and asserts the scores agree.
Usage: python benches/bench_scaling.py [--sizes 10000 100000] [--metrics bleu chrf ...]
       [--max-seconds 60] [--threads 1] [--nltk-sizes 10000 100000]
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
    ap.add_argument("--threads", type=int, default=1, help="n_threads for the metrics that take it (0: all cores)")
    ap.add_argument("--nltk-sizes", type=int, nargs="*", default=[10_000, 100_000], help="sizes of the NIST vs nltk table (none: skip it)")
    args = ap.parse_args()
    sizes = sorted(args.sizes)
    hyps_all, refs_all = synthetic.corpus(sizes[-1])
    rows = []
    for name, opts, cap in METRICS:
        if args.metrics and name not in args.metrics:
            continue
        try:
            m = load(name, opts, args.threads)
        except Exception as e:  # a missing extra
            rows.append((label(name, opts), {}, f"skipped: {type(e).__name__}"))
            continue
        m.corpus_score(hyps_all[:100], refs_all[:100])  # warm-up (lazy resources)
        per = {}
        for n in sizes:
            if n > cap:
                break
            t = time.process_time()
            m.corpus_score(hyps_all[:n], refs_all[:n])
            dt = time.process_time() - t
            per[n] = dt / n * 1e6
            if dt > args.max_seconds:
                break
        rows.append((label(name, opts), per, ""))
    threads = "all cores" if args.threads == 0 else f"{args.threads} thread(s)"
    print(f"### Scaling: CPU µs per segment ({', '.join(f'{n:,}' for n in sizes)} segments, {threads}; nlgmetrics {nm.__version__})")
    print()
    print("| metric | " + " | ".join(f"{n:,}" for n in sizes) + " | largest / smallest |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    for lab, per, note in rows:
        cells = [f"{per[n]:.2f}" if n in per else "–" for n in sizes]
        ks = sorted(per)
        ratio = f"{per[ks[-1]] / per[ks[0]]:.2f}×" if len(ks) > 1 else (note or "–")
        print(f"| {lab} | " + " | ".join(cells) + f" | {ratio} |")

    if args.nltk_sizes:
        print()
        nist_vs_nltk(hyps_all, refs_all, args.nltk_sizes, args.threads)


def load(name: str, opts: dict, threads: int):
    """The metric with `n_threads` where it takes one (0: the library's default)."""
    if threads:
        try:
            return nm.load(name, n_threads=threads, **opts)
        except TypeError:
            pass
    return nm.load(name, **opts)


def nist_vs_nltk(hyps_all: list[str], refs_all: list[list[str]], sizes: list[int], threads: int) -> None:
    from nltk.translate.nist_score import corpus_nist

    ours = load("nist", {"flavour": "nltk"}, threads)
    print(f"### NIST (nltk flavour) against nltk corpus_nist, CPU seconds, same segments, same process ({'all cores' if threads == 0 else f'{threads} thread(s)'})")
    print()
    print("| segments | nltk s | nlgmetrics s | × nltk | nltk µs / segment | nlgmetrics µs / segment | scores equal |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for n in sizes:
        hyps, refs = hyps_all[:n], refs_all[:n]
        tk_h = [h.split() for h in hyps]
        tk_r = [[r.split() for r in rs] for rs in refs]
        t = time.process_time()
        want = corpus_nist(tk_r, tk_h, n=5)
        t_ref = time.process_time() - t
        t = time.process_time()
        got = ours.corpus_score(hyps, refs).score
        t_ours = time.process_time() - t
        assert abs(got - want) <= 1e-12 * abs(want), (got, want)
        print(f"| {n:,} | {t_ref:.3f} | {t_ours:.3f} | **{t_ref / t_ours:.1f}×** | {t_ref / n * 1e6:.1f} | {t_ours / n * 1e6:.2f} | {'==' if got == want else f'|Δ| = {abs(got - want):.1e}'} |")


if __name__ == "__main__":
    main()
