"""MBR decoding: the expected-utility matrix of 1,024 candidates per input.

Run: ``python benches/bench_mbr.py [--candidates 1024] [--inputs 1] [--peer-rows 8]``.

Each input has ``--candidates`` noisy variants of one sentence, used as candidates and
pseudo-references (sampling-based MBR): ``candidates²`` pairs per input.
``nlgmetrics.tasks.mbr.select`` against fastchrf 0.2.1 (``pairwise_chrf``, Rust) for chrF on
every pair, and against sacrebleu 2.6.0 / rouge-score 0.1.2 called pair by pair for
BLEU, TER and ROUGE-L, and pycocoevalcap 1.2's CiderScorer (with the same df) for
CIDEr-D, on ``--peer-rows`` rows of the first matrix (TER on an eighth of them; time
extrapolated to all pairs, marked so). mbrs is not run: it requires torch, unbabel-comet and
bleurt-pytorch; it lists fastchrf among its dependencies, which is measured here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_chrf import mbr_samples  # noqa: E402


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--candidates", type=int, default=1024)
    ap.add_argument("--inputs", type=int, default=1)
    ap.add_argument("--peer-rows", type=int, default=8)
    args = ap.parse_args()

    import sacrebleu
    from rouge_score import rouge_scorer

    import nlgmetrics as nm
    from nlgmetrics.tasks.mbr import select

    inputs = [mbr_samples(args.candidates, seed=1 + k) for k in range(args.inputs)]
    n = args.candidates
    pairs = n * n * len(inputs)
    print(f"\n### MBR: {len(inputs)} inputs × {n:,} candidates = {pairs:,} pairs (nlgmetrics {nm.__version__}, {os.cpu_count()} cores)\n")
    print("| utility | nlgmetrics | per pair | peer | peer time | per pair | speed-up | same choice | matrix |")
    print("|---|---|---|---|---|---|---|---|---|")

    # chrF: fastchrf on every pair
    try:
        import fastchrf
    except ImportError:
        fastchrf = None
    t_ours, res = timed(lambda: [select(c, metric="chrf") for c in inputs])
    if fastchrf is not None:
        t_peer, mats = timed(lambda: [np.asarray(fastchrf.pairwise_chrf([c], [c])[0]) for c in inputs])
        same = all(r.index == int(np.argmax(m.mean(axis=1))) for r, m in zip(res, mats))
        diff = max(float(np.max(np.abs(r.utility - m))) for r, m in zip(res, mats))
        print(f"| chrF | {t_ours:.2f} s | {t_ours / pairs * 1e6:.2f} µs | fastchrf | {t_peer:.2f} s | {t_peer / pairs * 1e6:.2f} µs | {t_peer / t_ours:.1f}× | {'yes' if same else 'NO'} | max diff {diff:.1e} |", flush=True)
    else:
        print(f"| chrF | {t_ours:.2f} s | {t_ours / pairs * 1e6:.2f} µs | fastchrf (not installed) | – | – | – | – | – |")

    # BLEU, TER, ROUGE-L: the reference tools pair by pair on a few rows
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    peers = {
        "bleu": ("sacrebleu sentence_bleu", lambda c, r: sacrebleu.sentence_bleu(c, [r]).score),
        "ter": ("sacrebleu sentence_ter", lambda c, r: sacrebleu.sentence_ter(c, [r]).score),
        "rouge": ("rouge-score", lambda c, r: scorer.score(r, c)["rougeL"].fmeasure),
    }
    for name, (peer_name, fn) in peers.items():
        t_ours, res = timed(lambda: [select(c, metric=name) for c in inputs])
        cands = inputs[0]
        rows = max(1, args.peer_rows // 8) if name == "ter" else args.peer_rows  # sacrebleu TER: ~17 ms a pair
        t_peer, sub = timed(lambda: np.array([[fn(c, r) for r in cands] for c in cands[:rows]]))
        sign = -1.0 if name == "ter" else 1.0
        diff = float(np.max(np.abs(res[0].utility[:rows] - sign * sub)))
        peer_pair = t_peer / (rows * n)
        print(f"| {res[0].metric} | {t_ours:.2f} s | {t_ours / pairs * 1e6:.2f} µs | {peer_name} | ~{peer_pair * pairs:.0f} s (extrapolated from {rows} rows) | {peer_pair * 1e6:.0f} µs | {peer_pair * pairs / t_ours:.0f}× | – | max diff {diff:.1e} |", flush=True)

    # CIDEr-D: pycocoevalcap's scorer on a few rows, each pair an image with one
    # reference, with the same df (the pseudo-references', as nlgmetrics.tasks.mbr fits it) and
    # the same PTB tokens (nlgmetrics' tokenizer gives the Java tokenizer's tokens).
    from pycocoevalcap.cider.cider_scorer import CiderScorer

    from bench_caption import _Sized
    from nlgmetrics.tasks.coco import ptb_tokenize
    from nlgmetrics.metrics.cider import CiderDF

    t_ours, res = timed(lambda: [select(c, metric="cider") for c in inputs])
    cands = inputs[0]
    rows = args.peer_rows
    df = CiderDF.fit([[r] for r in cands])
    counts = {tuple(k.split()): v for k, v in df.to_counts().items()}
    tokens = ptb_tokenize(cands)

    def coco_rows():
        sc = CiderScorer(n=4, sigma=6.0)
        for c in tokens[:rows]:
            for r in tokens:
                sc += (c, [r])
        sc.document_frequency = defaultdict(float, counts)
        sc.crefs = _Sized(sc.crefs, df.n_docs)  # compute_cider: ref_len = log(len(crefs))
        return np.asarray(sc.compute_cider()).reshape(rows, n)

    t_peer, sub = timed(coco_rows)
    diff = float(np.max(np.abs(res[0].utility[:rows] - sub)))
    peer_pair = t_peer / (rows * n)
    print(f"| CIDEr-D (df of the pseudo-references) | {t_ours:.2f} s | {t_ours / pairs * 1e6:.2f} µs | pycocoevalcap CiderScorer | ~{peer_pair * pairs:.0f} s (extrapolated from {rows} rows) | {peer_pair * 1e6:.0f} µs | {peer_pair * pairs / t_ours:.0f}× | – | max diff {diff:.1e} |")


if __name__ == "__main__":
    main()
