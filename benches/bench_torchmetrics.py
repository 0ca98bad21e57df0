"""torchmetrics' own text metrics vs nlgmetrics through ``TorchMetric``, side by side.

Run: ``python benches/bench_torchmetrics.py [--systems K] [--batch B]``. Both sides stream
the same WMT22 zh-en system outputs (reference A) in batches of ``B`` segments through
``update`` and ``compute`` once, as a training loop's validation does. Prints a markdown
table: wall time of each side in this one process, the ratio, and whether the scores
agree (to 1e-9 relative; torchmetrics keeps its BLEU statistics in float32 tensors).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benches"))
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"

from harness import log  # noqa: E402


def read_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def data(k: int) -> tuple[list[str], list[str]]:
    d = CORPORA / "wmt22" / "zh-en"
    ref = read_lines(d / "generaltest2022.zh-en.ref.A.en")
    hyps, refs = [], []
    for p in sorted((d / "system-outputs").glob("*"))[:k]:
        hyps += read_lines(p)
        refs += ref
    return hyps, refs


def stream(metric, hyps, refs, batch: int, wrap_refs: bool) -> float:
    for i in range(0, len(hyps), batch):
        r = refs[i : i + batch]
        metric.update(hyps[i : i + batch], [[x] for x in r] if wrap_refs else r)
    value = metric.compute()
    if isinstance(value, dict):  # torchmetrics ROUGE: one tensor per key
        value = value["rouge1_fmeasure"]
    return float(value)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=1)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--slow-segments", type=int, default=1000, help="segments for chrF++, TER and ROUGE, slow in torchmetrics")
    args = ap.parse_args()
    import torch
    import torchmetrics
    from torchmetrics.text import CHRFScore, ROUGEScore, SacreBLEUScore, TranslationEditRate, WordErrorRate

    from nlgmetrics.integrations.torchmetrics import TorchMetric

    torch.set_num_threads(1)
    hyps, refs = data(args.systems)
    log(f"{len(hyps)} segments; torchmetrics {torchmetrics.__version__}, torch {torch.__version__}")
    cases = [
        ("BLEU", lambda: SacreBLEUScore(), lambda: TorchMetric("bleu"), len(hyps)),
        ("chrF++", lambda: CHRFScore(n_word_order=2), lambda: TorchMetric("chrf++"), args.slow_segments),
        ("TER", lambda: TranslationEditRate(), lambda: TorchMetric("ter"), args.slow_segments),
        ("WER", lambda: WordErrorRate(), lambda: TorchMetric("wer"), len(hyps)),
        ("ROUGE-1 F", lambda: ROUGEScore(rouge_keys=("rouge1",)), lambda: TorchMetric("rouge", rouge_types=["rouge1"]), args.slow_segments),
    ]
    print(f"WMT22 zh-en, {args.systems} systems against reference A, streamed in batches of {args.batch} "
          f"(torchmetrics {torchmetrics.__version__}, torch {torch.__version__}; one thread for torch; "
          f"load average {os.getloadavg()[0]:.1f} at the start).")
    print()
    print("| metric | segments | torchmetrics s | nlgmetrics s | speed-up | scores agree (1e-9) |")
    print("|---|---:|---:|---:|---:|---|")
    for name, make_peer, make_ours, n in cases:
        h, r = hyps[:n], refs[:n]
        # WER and ROUGE references are plain strings there
        wrap = name not in ("WER", "ROUGE-1 F")
        log(f"== {name}")
        t = time.perf_counter()
        vp = stream(make_peer(), h, r, args.batch, wrap)
        tp = time.perf_counter() - t
        t = time.perf_counter()
        vo = stream(make_ours(), h, r, args.batch, wrap)
        to = time.perf_counter() - t
        if name in ("BLEU", "chrF++", "TER"):
            vp *= 100  # torchmetrics reports these on a 0-1 scale, sacrebleu (and we) on 0-100
        agree = abs(vp - vo) <= 1e-9 * max(1.0, abs(vo))
        verdict = "yes" if agree else f"no: {vp:.7g} vs {vo:.7g}"
        print(f"| {name} | {n} | {tp:.2f} | {to:.3f} | {tp / to:.0f}× | {verdict} |")


if __name__ == "__main__":
    main()
