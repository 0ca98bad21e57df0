"""BLEU: nlgmetrics against sacrebleu, nltk and pycocoevalcap on the same data, one run.

    python benches/bench_bleu.py [--sizes 10000 100000] [--wmt ../shared/corpora/wmt22]

Each case runs in a forked child (peak memory is its own). Ours uses every core
(n_threads=0) and is also timed on one thread; the peers are single-threaded Python.
Every module is imported before timing, on both sides. "agree" compares the scores
each side returned (corpus: the score; sentence: every score, to 1e-9).
"""

from __future__ import annotations

import argparse
import os
import pickle
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import log, measure  # noqa: E402
from synthetic import corpus  # noqa: E402

import nlgmetrics  # noqa: E402

_OUT = Path(tempfile.mkdtemp(prefix="bench_bleu_"))


def kept(name: str, fn):
    """`fn` that also leaves its result (scores as floats) in a file, for the agreement check."""

    def run():
        result = fn()
        with open(_OUT / name, "wb") as fh:
            pickle.dump(result, fh)

    return run


def result(name: str):
    with open(_OUT / name, "rb") as fh:
        return pickle.load(fh)


def agree(a, b) -> str:
    a = [a] if isinstance(a, float) else list(a)
    b = [b] if isinstance(b, float) else list(b)
    ok = len(a) == len(b) and all(x == y or abs(x - y) <= 1e-9 * max(abs(x), abs(y)) for x, y in zip(a, b))
    return "yes" if ok else "NO"


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


def import_figures() -> list[tuple[str, float]]:
    """Fresh interpreters: import of the public name, then the first call (best of 3)."""
    code = (
        "import time; t0 = time.perf_counter(); from nlgmetrics import BLEU; t1 = time.perf_counter(); "
        "import nlgmetrics; nlgmetrics.bleu(['The cat sat.'], [['The cat sat.']]); t2 = time.perf_counter(); "
        "print(t1 - t0, t2 - t1)"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split() for _ in range(3)]
    best = [min(float(r[i]) for r in runs) for i in (0, 1)]
    out = [("from nlgmetrics import BLEU", best[0]), ("first nlgmetrics.bleu(...) call after it", best[1])]
    for mod in ("nlgmetrics", "sacrebleu", "nltk.translate.bleu_score"):
        c = f"import time; t=time.perf_counter(); import {mod}; print(time.perf_counter()-t)"
        out.append((f"import {mod}", min(float(subprocess.run([sys.executable, "-c", c], capture_output=True, text=True).stdout) for _ in range(3))))
    return out


def row(case: str, peer: str, peer_fn, ours_fn, ours_1t_fn, compare: bool = True) -> dict:
    log(f"  {case}")
    p = measure(kept("peer", peer_fn))
    o = measure(kept("ours", ours_fn))
    o1 = measure(ours_1t_fn)
    same = agree(result("peer"), result("ours")) if compare and "error" not in p and "error" not in o else "–"
    return {"case": case, "peer": peer, "p": p, "o": o, "o1": o1, "agree": same}


def table(rows: list[dict]) -> str:
    lines = [
        "| case | peer | peer s | nlgmetrics s | speed-up | 1 thread s | speed-up 1 thread | peer +MiB | nlgmetrics +MiB | agree |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        p, o, o1 = r["p"], r["o"], r["o1"]
        if any("error" in x for x in (p, o, o1)):
            errs = " ".join(x.get("error", "") for x in (p, o, o1))
            lines.append(f"| {r['case']} | {r['peer']} | {errs} | | | | | | | |")
            continue
        lines.append(
            f"| {r['case']} | {r['peer']} | {p['seconds']:.3f} | {o['seconds']:.4f} | {p['seconds'] / o['seconds']:.0f}× "
            f"| {o1['seconds']:.4f} | {p['seconds'] / o1['seconds']:.0f}× "
            f"| {p['delta_mib']:.0f} | {o['delta_mib']:.0f} | {r['agree']} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--tokenizer-size", type=int, default=10_000, help="segments for the other-tokenizer rows")
    ap.add_argument("--wmt", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora" / "wmt22")
    ap.add_argument("--pairwise", type=int, default=256)
    ap.add_argument("--skip-slow-peers", action="store_true", help="skip nltk/pycocoevalcap at the largest size")
    args = ap.parse_args()

    import sacrebleu
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
    from pycocoevalcap.bleu.bleu import Bleu as CocoBleu

    # Resolve the lazy names now, as the peers were imported above.
    bleu, sentence_bleu, BLEU = nlgmetrics.bleu, nlgmetrics.sentence_bleu, nlgmetrics.BLEU
    load_before = os.getloadavg()

    rows: list[dict] = []
    datasets = [(f"synthetic {n:,}", *corpus(n)) for n in args.sizes]
    datasets += [(f"synthetic {n:,}, 2 refs", *corpus(n, n_refs=2)) for n in args.sizes]
    if args.wmt.is_dir():
        datasets.append(("WMT22 zh-en, 12 systems × 2 refs", *wmt_corpus(args.wmt)))
    for label, hyps, refs in datasets:
        log(f"{label}: {len(hyps)} segments")
        streams = [list(s) for s in zip(*refs)]
        rows.append(row(
            f"corpus BLEU, {label}", "sacrebleu",
            lambda: sacrebleu.corpus_bleu(hyps, streams).score,
            lambda: bleu(hyps, refs).score,
            lambda: bleu(hyps, refs, n_threads=1).score,
        ))
        sb = sacrebleu.BLEU(effective_order=True)
        rows.append(row(
            f"sentence BLEU, {label}", "sacrebleu",
            lambda: [sb.sentence_score(h, r).score for h, r in zip(hyps, refs)],
            lambda: sentence_bleu(hyps, refs).tolist(),
            lambda: sentence_bleu(hyps, refs, n_threads=1).tolist(),
        ))
        if "2 refs" in label or (args.skip_slow_peers and len(hyps) > 50_000):
            continue
        tok_h = [h.split() for h in hyps]
        tok_r = [[r.split() for r in rs] for rs in refs]
        rows.append(row(
            f"corpus BLEU (pre-tokenized), {label}", "nltk corpus_bleu",
            lambda: 100 * nltk_corpus_bleu(tok_r, tok_h),
            lambda: bleu(hyps, refs, tokenize="none", smooth_method="none").score,
            lambda: bleu(hyps, refs, tokenize="none", smooth_method="none", n_threads=1).score,
        ))

        gts = {i: rs for i, rs in enumerate(refs)}
        res = {i: [h] for i, h in enumerate(hyps)}

        def coco():
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()):
                return 100 * CocoBleu(4).compute_score(gts, res)[0][3]

        rows.append(row(
            f"BLEU-1..4 (pre-tokenized), {label}", "pycocoevalcap Bleu", coco,
            lambda: bleu(hyps, refs, tokenize="none").score,
            lambda: bleu(hyps, refs, tokenize="none", n_threads=1).score,
            compare=False,
        ))

    hyps, refs = corpus(args.tokenizer_size)
    streams = [list(s) for s in zip(*refs)]
    for tok in ("none", "intl", "char", "zh"):
        rows.append(row(
            f"corpus BLEU tokenize={tok}, synthetic {args.tokenizer_size:,}", "sacrebleu",
            lambda: sacrebleu.corpus_bleu(hyps, streams, tokenize=tok).score,
            lambda: bleu(hyps, refs, tokenize=tok).score,
            lambda: bleu(hyps, refs, tokenize=tok, n_threads=1).score,
        ))

    hyps, _ = corpus(args.pairwise, seed=7)
    metric = BLEU(effective_order=True)
    metric_1t = BLEU(effective_order=True, n_threads=1)
    sb = sacrebleu.BLEU(effective_order=True)
    rows.append(row(
        f"pairwise {args.pairwise}×{args.pairwise} sentence BLEU", "sacrebleu",
        lambda: [sb.sentence_score(c, [r]).score for c in hyps for r in hyps],
        lambda: metric.pairwise(hyps, hyps).ravel().tolist(),
        lambda: metric_1t.pairwise(hyps, hyps),
    ))

    load_after = os.getloadavg()
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after\n")
    print(table(rows))
    print("\nThe nltk row scores with smooth_method='none' (nltk's corpus_bleu does not smooth); nltk's "
          "corpus BLEU differs from sacrebleu's in the fifth digit, so 'agree' reads NO there while the "
          "sacrebleu rows are exact. The "
          "pycocoevalcap row times the same work (BLEU-1..4 statistics of whitespace tokens); its score "
          "differs from sacrebleu's by design (length ratio epsilon), hence no agreement check.\n")
    print("| import (fresh interpreter, best of 3) | seconds |\n|---|---:|")
    for what, secs in import_figures():
        print(f"| {what} | {secs:.3f} |")


if __name__ == "__main__":
    main()
