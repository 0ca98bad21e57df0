"""TER: nlgmetrics vs sacrebleu 2.6.0, side by side.

Run: ``python benches/bench_ter.py [--synthetic N] [--peer-synthetic N] [--threads T]``.
Prints a markdown table (wall time, ratio, peak memory added, agreement).

sacrebleu's TER is pure Python and takes seconds per long sentence, so the peer runs on
smaller slices where marked: the WMT22 ja-en system (all 2008 segments, reference A),
a 10k-segment slice of the synthetic set (nlgmetrics also runs on all 100k), and 32 of
the 256 rows of the pairwise matrix (its time is multiplied by 8, marked "extrapolated").
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_chrf import Table, agree, mbr_samples, measure, synthetic, wmt_systems  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--synthetic", type=int, default=100_000)
    ap.add_argument("--peer-synthetic", type=int, default=10_000)
    ap.add_argument("--peer-rows", type=int, default=32)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()

    import sacrebleu

    import nlgmetrics as nm

    systems = wmt_systems()
    n_seg = sum(len(h) for _, h, _ in systems)
    hyps_s, refs_s = synthetic(args.synthetic)
    mbr = mbr_samples()
    table = Table(f"TER (nlgmetrics {nm.__version__}, sacrebleu {sacrebleu.__version__}, n_threads={args.threads or os.cpu_count()})")

    a = measure(lambda: [nm.TER(n_threads=args.threads).corpus_score(h, r).score for _, h, r in systems])
    table.add(f"corpus TER, WMT22 52 systems ({n_seg} segments, 1–2 refs)", a, "sacrebleu", None, "–", "too slow for the peer (hours); see the ja-en rows")

    ja = [s for s in systems if s[0].startswith("ja-en")][0]
    h, r = ja[1], [x[:1] for x in ja[2]]
    a = measure(lambda: nm.TER(n_threads=args.threads).corpus_score(h, r).score)
    b = measure(lambda: sacrebleu.TER().corpus_score(h, [[x[0] for x in r]]).score)
    table.add(f"corpus TER, WMT22 {ja[0]} ({len(h)} segments, 1 ref)", a, "sacrebleu", b, agree(a[2], b[2]))
    a = measure(lambda: nm.TER(n_threads=args.threads).sentence_scores(h, r))
    b = measure(lambda: np.array([sacrebleu.TER().sentence_score(x, y).score for x, y in zip(h, r)]))
    table.add(f"sentence TER, WMT22 {ja[0]} ({len(h)} segments, 1 ref)", a, "sacrebleu", b, agree(a[2], b[2]))
    a = measure(lambda: nm.TER(normalized=True, n_threads=args.threads).corpus_score(h, r).score)
    b = measure(lambda: sacrebleu.TER(normalized=True).corpus_score(h, [[x[0] for x in r]]).score)
    table.add(f"corpus TER normalized, WMT22 {ja[0]}", a, "sacrebleu", b, agree(a[2], b[2]))

    n = len(hyps_s)
    a = measure(lambda: nm.TER(n_threads=args.threads).corpus_score(hyps_s, refs_s).score)
    table.add(f"corpus TER, synthetic {n:,} segments", a, "sacrebleu", None, "–", f"peer on {args.peer_synthetic:,} below")
    k = args.peer_synthetic
    a = measure(lambda: nm.TER(n_threads=args.threads).corpus_score(hyps_s[:k], refs_s[:k]).score)
    b = measure(lambda: sacrebleu.TER().corpus_score(hyps_s[:k], [refs_s[:k]]).score)
    table.add(f"corpus TER, synthetic first {k:,} segments", a, "sacrebleu", b, agree(a[2], b[2]))

    rows = args.peer_rows
    a = measure(lambda: nm.TER(n_threads=args.threads).pairwise(mbr, mbr))
    b = measure(lambda: np.array([[sacrebleu.TER().sentence_score(x, [y]).score for y in mbr] for x in mbr[:rows]]))
    scale = len(mbr) / rows
    b_scaled = (b[0] * scale, b[1], b[2])
    table.add(f"pairwise TER {len(mbr)}×{len(mbr)} (MBR)", a, "sacrebleu", b_scaled, agree(a[2][:rows], b[2]),
              f"peer: {rows} rows × {scale:.0f} (extrapolated)")
    table.print()


if __name__ == "__main__":
    main()
