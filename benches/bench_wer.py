"""WER family: nlgmetrics vs jiwer 4.0.0 side by side; prints a markdown table.

Data: 100k generated segments (ASR-like word edits over a 5k-word vocabulary) and the
Earnings-21 long-form ASR corpus (44 calls, ~360k reference words per engine).
Usage: python benches/bench_wer.py [--segments 100000]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import jiwer

import nlgmetrics as nm
from nlgmetrics.compat import jiwer as compat_jiwer

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def generated(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    refs, hyps = [], []
    for _ in range(n):
        ref = [rng.choice(vocab) for _ in range(rng.randint(3, 30))]
        hyp = []
        for w in ref:
            r = rng.random()
            if r < 0.05:
                continue
            hyp.append(rng.choice(vocab) if r < 0.12 else w)
            if rng.random() < 0.03:
                hyp.append(rng.choice(vocab))
        refs.append(" ".join(ref))
        hyps.append(" ".join(hyp))
    return hyps, refs


def timed(f):
    """(wall seconds, CPU seconds of the whole process incl. worker threads), result."""
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return (time.perf_counter() - w, time.process_time() - c), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=100_000)
    args = ap.parse_args()
    rows = []
    hyps, refs = generated(args.segments)
    cases = [(f"generated {args.segments // 1000}k segments", hyps, refs)]
    d = CORPORA / "earnings21_asr"
    if d.is_dir():
        R = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "references.jsonl", encoding="utf-8")}
        H = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "hyp_google.jsonl", encoding="utf-8")}
        ids = sorted(R)
        cases.append(("earnings21 google (44 calls)", [H[i] for i in ids], [R[i] for i in ids]))
    long_cases = []
    if d.is_dir():
        # long-form CER: whole calls (~50k characters each), one alignment per call
        long_cases.append(("earnings21 google, whole calls", [H[i] for i in ids], [R[i] for i in ids]))
    else:
        hyps_l, refs_l = generated(args.segments // 10)
        per_doc = 1000  # ~ 20k-character documents
        long_cases.append((
            "generated ~20k-character documents",
            [" ".join(hyps_l[k:k + per_doc]) for k in range(0, len(hyps_l), per_doc)],
            [" ".join(refs_l[k:k + per_doc]) for k in range(0, len(refs_l), per_doc)],
        ))
    for label, P, Rf in cases:
        tj, oj = timed(lambda: jiwer.process_words(Rf, P))
        tn, on = timed(lambda: nm.WER().corpus_score(P, Rf))
        assert (on.hits, on.substitutions, on.deletions, on.insertions) == (oj.hits, oj.substitutions, oj.deletions, oj.insertions)
        rows.append((f"WER + H/S/D/I, {label}", tj, tn))
        if label.startswith("generated"):
            tj, cj = timed(lambda: jiwer.cer(Rf, P))
            tn, cn = timed(lambda: nm.cer(P, Rf).score)
            assert abs(cj - cn) <= 1e-12 * max(1.0, abs(cj))
            rows.append((f"CER, {label}", tj, tn))
    for label, P, Rf in long_cases:
        for threads, note in ((1, ", 1 thread"), (0, "")):
            tj, oj = timed(lambda: jiwer.process_characters(Rf, P))
            tn, on = timed(lambda: nm.CER(n_threads=threads).corpus_score(P, Rf))
            assert (on.hits, on.substitutions, on.deletions, on.insertions) == (oj.hits, oj.substitutions, oj.deletions, oj.insertions)
            rows.append((f"CER + H/S/D/I long-form, {label}{note}", tj, tn))
        # the jiwer face (one thread): the same objects jiwer returns, alignments included
        for unit, peer, face in (("words", jiwer.process_words, compat_jiwer.process_words),
                                 ("characters", jiwer.process_characters, compat_jiwer.process_characters)):
            tj, oj = timed(lambda: peer(Rf, P))
            tn, on = timed(lambda: face(Rf, P))
            assert (on.hits, on.substitutions, on.deletions, on.insertions) == (oj.hits, oj.substitutions, oj.deletions, oj.insertions)
            rows.append((f"compat.jiwer process_{unit} long-form, {label}", tj, tn))
    print("| task | jiwer 4.0.0 wall / CPU (s) | nlgmetrics wall / CPU (s) | speed-up wall / CPU |")
    print("|---|---:|---:|---:|")
    for label, a, b in rows:
        print(f"| {label} | {a[0]:.3f} / {a[1]:.3f} | {b[0]:.3f} / {b[1]:.3f} | {a[0] / b[0]:.1f}× / {a[1] / b[1]:.1f}× |")


if __name__ == "__main__":
    main()
