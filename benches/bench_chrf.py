"""chrF / chrF++: nlgmetrics vs sacrebleu 2.6.0 (and fastchrf when installed), side by side.

Run: ``python benches/bench_chrf.py [--synthetic N] [--threads T]``. Prints a markdown
table: wall time of each tool on the same data in this one process run, the ratio, the
peak memory each case adds (maximum RSS of a forked child minus the RSS at the fork),
and whether the numbers agree.

Data: every system of the WMT22 zh-en, en-zh, ja-en, en-ja folders of
``../shared/corpora`` (all references), and a deterministic synthetic set (seeded
noisy copies of generated sentences: substitutions, deletions, local reorderings).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"
PAIRS = ("zh-en", "en-zh", "ja-en", "en-ja")


def read_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def wmt_systems() -> list[tuple[str, list[str], list[list[str]]]]:
    """(pair/system, hypotheses, references per segment) for every WMT22 system."""
    out = []
    for pair in PAIRS:
        d = CORPORA / "wmt22" / pair
        refs = [read_lines(p) for p in sorted(d.glob(f"generaltest2022.{pair}.ref.*"))]
        seg_refs = [list(x) for x in zip(*refs)]
        for p in sorted((d / "system-outputs").glob("*")):
            out.append((f"{pair}/{p.name.split('.hyp.')[1]}", read_lines(p), seg_refs))
    return out


def synthetic(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """`n` deterministic (hypothesis, reference) pairs of 3–40 words."""
    rng = random.Random(seed)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9))) for _ in range(5000)]
    vocab += [",", ".", "(", ")", "'s", "-"]
    hyps, refs = [], []
    for _ in range(n):
        ref = [rng.choice(vocab) for _ in range(rng.randint(3, 40))]
        hyp = list(ref)
        for i in range(len(hyp)):
            r = rng.random()
            if r < 0.1:
                hyp[i] = rng.choice(vocab)
            elif r < 0.15:
                hyp[i] = ""
        if len(hyp) > 6 and rng.random() < 0.5:  # move a short phrase
            a = rng.randrange(len(hyp) - 3)
            k = rng.randint(1, 3)
            phrase, rest = hyp[a:a + k], hyp[:a] + hyp[a + k:]
            b = rng.randrange(len(rest) + 1)
            hyp = rest[:b] + phrase + rest[b:]
        hyps.append(" ".join(w for w in hyp if w))
        refs.append(" ".join(ref))
    return hyps, refs


def mbr_samples(n: int = 256, seed: int = 1) -> list[str]:
    """`n` noisy variants of one 25-word sentence: candidates = pseudo-references (MBR)."""
    base_h, _ = synthetic(1, seed)
    rng = random.Random(seed)
    words = (base_h[0] + " the of and to in a is that for it") .split()
    out = []
    for _ in range(n):
        s = [w if rng.random() > 0.2 else rng.choice(words) for w in words[:25]]
        if rng.random() < 0.5:
            a = rng.randrange(20)
            s = s[:a] + s[a + 2:a + 5] + s[a:a + 2] + s[a + 5:]
        out.append(" ".join(s))
    return out


def _rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def measure(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(seconds, peak MiB added, result) of `fn` run in a forked child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        import pickle

        os.close(r)
        base = _rss_kb()
        t = time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        with os.fdopen(w, "wb") as f:
            pickle.dump((dt, max(0, peak - base) / 1024, res), f)
        os._exit(0)
    import pickle

    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


class Table:
    def __init__(self, title: str):
        self.title = title
        self.rows: list[str] = []

    def add(self, case: str, ours: tuple, peer_name: str, peer: tuple | None, agree: str, note: str = "") -> None:
        t1, m1, _ = ours
        if peer is None:
            self.rows.append(f"| {case} | {t1:.3f} s | {m1:.0f} MiB | {peer_name} | – | – | – | {agree} | {note} |")
            return
        t2, m2, _ = peer
        self.rows.append(f"| {case} | {t1:.3f} s | {m1:.0f} MiB | {peer_name} | {t2:.2f} s | {m2:.0f} MiB | {t2 / t1:.0f}× | {agree} | {note} |")
        print(self.rows[-1], file=sys.stderr, flush=True)

    def print(self) -> None:
        print(f"\n### {self.title}\n")
        print("| case | nlgmetrics | peak | peer | peer time | peer peak | speed-up | numbers | note |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in self.rows:
            print(r)


def agree(a, b, tol: float = 1e-9) -> str:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ok = a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol)
    return "identical" if ok and np.array_equal(a, b) else ("equal (1e-9)" if ok else f"DIFFER (max {np.max(np.abs(a - b)):.2g})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--synthetic", type=int, default=100_000)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()

    import sacrebleu

    import nlgmetrics as nm

    systems = wmt_systems()
    n_seg = sum(len(h) for _, h, _ in systems)
    hyps_s, refs_s = synthetic(args.synthetic)
    mbr = mbr_samples()
    table = Table(f"chrF / chrF++ (nlgmetrics {nm.__version__}, sacrebleu {sacrebleu.__version__}, n_threads={args.threads or os.cpu_count()})")

    def ours_systems(**kw):
        m = nm.CHRF(n_threads=args.threads, **kw)
        return [m.corpus_score(h, r).score for _, h, r in systems]

    def sacre_systems(**kw):
        out = []
        for _, h, r in systems:
            streams = [list(s) for s in zip(*r)]
            out.append(sacrebleu.CHRF(**kw).corpus_score(h, streams).score)
        return out

    for name, kw in (("chrF", {}), ("chrF++", {"word_order": 2})):
        a = measure(lambda: ours_systems(**kw))
        b = measure(lambda: sacre_systems(**kw))
        table.add(f"corpus {name}, WMT22 52 systems ({n_seg} segments, 1–2 refs)", a, "sacrebleu", b, agree(a[2], b[2]))

    sys0 = [s for s in systems if s[0].startswith("zh-en")][0]
    a = measure(lambda: nm.CHRF(n_threads=args.threads).sentence_scores(sys0[1], sys0[2]))
    b = measure(lambda: [sacrebleu.CHRF().sentence_score(h, r).score for h, r in zip(sys0[1], sys0[2])])
    table.add(f"sentence chrF, WMT22 {sys0[0]} ({len(sys0[1])} segments, 2 refs)", a, "sacrebleu", b, agree(a[2], b[2]))

    n = len(hyps_s)
    for name, kw in (("chrF", {}), ("chrF++", {"word_order": 2})):
        a = measure(lambda: nm.CHRF(n_threads=args.threads, **kw).corpus_score(hyps_s, refs_s).score)
        b = measure(lambda: sacrebleu.CHRF(**kw).corpus_score(hyps_s, [refs_s]).score)
        table.add(f"corpus {name}, synthetic {n:,} segments", a, "sacrebleu", b, agree(a[2], b[2]))

    a = measure(lambda: nm.CHRF(n_threads=args.threads).pairwise(mbr, mbr))
    b = measure(lambda: np.array([[sacrebleu.CHRF().sentence_score(h, [r]).score for r in mbr] for h in mbr]))
    table.add("pairwise chrF 256×256 (MBR)", a, "sacrebleu", b, agree(a[2], b[2]), "sacrebleu: sentence_score per pair")
    try:
        import fastchrf
    except ImportError:
        table.add("pairwise chrF 256×256 (MBR)", a, "fastchrf", None, "–", "fastchrf not installed")
    else:
        c = measure(lambda: np.array(fastchrf.pairwise_chrf([mbr], [mbr])[0]))
        table.add("pairwise chrF 256×256 (MBR)", a, f"fastchrf {getattr(fastchrf, '__version__', '0.2.1')}", c, agree(a[2], c[2], 1e-4), "fastchrf: float32-style rounding")
        batch = [mbr[i:i + 32] for i in range(0, 256, 32)]
        a2 = measure(lambda: [nm.CHRF(n_threads=args.threads).pairwise(b_, b_) for b_ in batch])
        c2 = measure(lambda: fastchrf.pairwise_chrf(batch, batch))
        table.add("pairwise chrF 8 batches of 32×32", a2, "fastchrf", c2, agree(np.array(a2[2]), np.array(c2[2]), 1e-4))
    table.print()


if __name__ == "__main__":
    main()
