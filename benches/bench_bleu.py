"""BLEU: nlgmetrics against sacrebleu, nltk and pycocoevalcap on the same data, one run.

    python benches/bench_bleu.py [--sizes 10000 100000] [--wmt ../shared/corpora/wmt22]

Each case runs in a forked child (peak memory is its own). Ours uses every core
(n_threads=0); the peers are single-threaded Python.
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import log, measure, table  # noqa: E402
from synthetic import corpus  # noqa: E402

import nlgmetrics  # noqa: E402


def wmt_corpus(root: Path) -> tuple[list[str], list[list[str]]]:
    """Every zh-en system output against both references, concatenated."""
    d = root / "zh-en"
    refs = [p.read_text(encoding="utf-8").split("\n")[:-1] for p in sorted(d.glob("*.ref.*.en"))]
    hyps, segrefs = [], []
    for p in sorted((d / "system-outputs").glob("*")):
        lines = p.read_text(encoding="utf-8").split("\n")[:-1]
        hyps += lines
        segrefs += [list(x) for x in zip(*refs)]
    return hyps, segrefs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--wmt", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora" / "wmt22")
    ap.add_argument("--pairwise", type=int, default=256)
    ap.add_argument("--skip-slow-peers", action="store_true", help="skip nltk/pycocoevalcap at the largest size")
    args = ap.parse_args()

    import sacrebleu
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
    from pycocoevalcap.bleu.bleu import Bleu as CocoBleu

    rows = []
    datasets = [(f"synthetic {n:,}", *corpus(n)) for n in args.sizes]
    if args.wmt.is_dir():
        datasets.append(("WMT22 zh-en, 12 systems × 2 refs", *wmt_corpus(args.wmt)))
    for label, hyps, refs in datasets:
        log(f"{label}: {len(hyps)} segments")
        streams = [list(s) for s in zip(*refs)]
        ours = measure(lambda: nlgmetrics.bleu(hyps, refs))
        rows.append((f"corpus BLEU, {label}", "sacrebleu", measure(lambda: sacrebleu.corpus_bleu(hyps, streams)), ours))
        sent_ours = measure(lambda: nlgmetrics.sentence_bleu(hyps, refs))
        rows.append((
            f"sentence BLEU, {label}", "sacrebleu",
            measure(lambda: [sacrebleu.sentence_bleu(h, r) for h, r in zip(hyps, refs)]),
            sent_ours,
        ))
        if args.skip_slow_peers and len(hyps) > 50_000:
            continue
        tok_h = [h.split() for h in hyps]
        tok_r = [[r.split() for r in rs] for rs in refs]
        nltk_ours = measure(lambda: nlgmetrics.bleu(hyps, refs, tokenize="none"))
        rows.append((f"corpus BLEU (pre-tokenized), {label}", "nltk corpus_bleu", measure(lambda: nltk_corpus_bleu(tok_r, tok_h)), nltk_ours))

        gts = {i: rs for i, rs in enumerate(refs)}
        res = {i: [h] for i, h in enumerate(hyps)}

        def coco():
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()):
                CocoBleu(4).compute_score(gts, res)

        rows.append((f"BLEU-1..4 (pre-tokenized), {label}", "pycocoevalcap Bleu", measure(coco), nltk_ours))

    hyps, _ = corpus(args.pairwise, seed=7)
    bleu = nlgmetrics.BLEU(effective_order=True)
    sb = sacrebleu.BLEU(effective_order=True)
    rows.append((
        f"pairwise {args.pairwise}×{args.pairwise} sentence BLEU", "sacrebleu",
        measure(lambda: [[sb.sentence_score(c, [r]).score for r in hyps] for c in hyps]),
        measure(lambda: bleu.pairwise(hyps, hyps)),
    ))

    import subprocess

    def import_time(mod: str) -> float:
        code = f"import time; t=time.perf_counter(); import {mod}; print(time.perf_counter()-t)"
        return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout) for _ in range(3))

    print(f"Machine: {platform.machine()}, {__import__('os').cpu_count()} cores, Python {platform.python_version()}\n")
    print(table(rows))
    print("\n| import | seconds |\n|---|---:|")
    for mod in ("nlgmetrics", "sacrebleu", "nltk.translate.bleu_score", "rouge_score.rouge_scorer"):
        try:
            print(f"| {mod} | {import_time(mod):.3f} |")
        except ValueError:
            pass


if __name__ == "__main__":
    main()
