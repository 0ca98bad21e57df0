"""Distinct-n and Self-BLEU on 100k real generated texts, nlgmetrics vs the references.

    python benches/bench_diversity.py [--corpora ../shared/corpora] [--distinct-n PATH]

Data: the 19 COCO caption sets of ../shared/corpora/captioning_coco plus the references
until 100,000 texts, 13a-tokenized then whitespace-split (the same tokens for every tool).

Peers:
- mean per-response distinct-n: the ``neural-dialogue-metrics/Distinct-N`` package
  (``distinct_n_corpus_level``), imported from a checkout (``--distinct-n``; not on PyPI);
- corpus distinct-n (unique n-grams / total n-grams): Python sets, as the spec's formula
  and most codebases compute it;
- Self-BLEU: Texygen's loop (nltk ``sentence_bleu`` vs all other sentences, method1) on
  the first 500 texts (Texygen's own sample size); nlgmetrics on the same 500 and on all
  100,000 (the O(N^2) peer cannot run on 100k).
Wall time is one untraced call; peak memory is the Python allocation peak (tracemalloc) of
a second call (native buffers released before returning are not counted).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

from nlgmetrics import Distinct, SelfBLEU, _core


def load_texts(corpora: Path, n: int) -> list[str]:
    texts: list[str] = []
    for p in sorted((corpora / "captioning_coco" / "systems").glob("*.tsv")):
        for line in p.read_text(encoding="utf-8").split("\n"):
            if "\t" in line:
                texts.append(line.split("\t", 1)[1])
    for line in (corpora / "captioning_coco" / "references.jsonl").read_text(encoding="utf-8").splitlines():
        texts.extend(json.loads(line)["references"])
    return _core.tokenize("13a", texts[:n])


def run(fn, memory=True):
    """Wall time of an untraced call, then (optionally) the traced peak of a second call."""
    t = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t
    peak = float("nan")
    if memory:
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return dt, peak, out


def texygen(sentences, gram=3):
    weight = tuple((1.0 / gram for _ in range(gram)))
    score = 0.0
    for i, hyp in enumerate(sentences):
        other = sentences[:i] + sentences[i + 1:]
        score += sentence_bleu(other, hyp, weight, smoothing_function=SmoothingFunction().method1)
    return score / len(sentences)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "corpora")
    ap.add_argument("--distinct-n", type=Path, default=Path("/tmp/Distinct-N"))
    ap.add_argument("--size", type=int, default=100_000)
    args = ap.parse_args()
    texts = load_texts(args.corpora, args.size)
    toks = [t.split() for t in texts]
    rows = []

    for n in (1, 2):
        if (args.distinct_n / "distinct_n").is_dir():
            sys.path.insert(0, str(args.distinct_n))
            from distinct_n import distinct_n_corpus_level

            a = run(lambda: distinct_n_corpus_level(toks, n))
            b = run(lambda: Distinct(n, mode="mean").corpus_score(texts).score)
            rows.append((f"distinct-{n}, mean per response", "Distinct-N package", a, b, abs(a[2] - b[2]) <= 1e-12 * a[2]))

        def sets():
            grams = set()
            total = 0
            for s in toks:
                g = [tuple(s[i:i + n]) for i in range(len(s) - n + 1)]
                grams.update(g)
                total += len(g)
            return len(grams) / total

        a = run(sets)
        b = run(lambda: Distinct(n).corpus_score(texts).score)
        rows.append((f"distinct-{n}, corpus (exact union)", "Python sets", a, b, a[2] == b[2]))
        c = run(lambda: Distinct(n, sketch="hll").corpus_score(texts).score)
        rows.append((f"distinct-{n}, corpus (HLL p=14)", "Python sets", a, c, abs(a[2] - c[2]) / a[2] < 0.03))

    sample = toks[:500]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = run(lambda: texygen(sample), memory=False)
    b = run(lambda: SelfBLEU().corpus_score(texts).score)
    rows.append(("Self-BLEU-3, first 500 (Texygen default)", "Texygen loop + nltk", a, b, abs(a[2] - b[2]) <= 1e-12 * a[2]))
    c = run(lambda: SelfBLEU(sample_size=None).corpus_score(texts).score, memory=False)
    print(f"{len(texts)} texts, {sum(map(len, toks))} tokens; Self-BLEU-3 of all {len(texts)}: {c[2]:.6f} in {c[0]:.2f} s "
          f"(process maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)\n")
    print("| task | peer | peer (s) | nlgmetrics (s) | speed-up | peer peak MiB | ours peak MiB | agrees |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for name, peer, (ta, ma, _), (tb, mb, _), ok in rows:
        mem = lambda x: "–" if x != x else f"{x:.0f}"  # noqa: E731
        print(f"| {name} | {peer} | {ta:.3f} | {tb:.3f} | {ta / tb:.0f}x | {mem(ma)} | {mem(mb)} | {'yes' if ok else 'NO'} |")


if __name__ == "__main__":
    main()
