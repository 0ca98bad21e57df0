#!/usr/bin/env python3
"""The speed table: each case's time beside its peer's and beside the hardware floor.

    python benches/bench_speed.py [--repeat 3] [--quick]

For every case: nlgmetrics with one thread and with all cores, the peer, and the floor
(``benches/floor``, a standalone Rust binary built here on first use with ``cargo build
--release``: the least work any implementation does on the same data — split the
strings, hash each token once, count and clip n-grams, one bit-parallel LCS or
Levenshtein pass, an LSD radix sort of the scores, one read of a file). Each timing is
the median of ``--repeat`` runs in a forked child (so peak memory is its own); on a
loaded machine the CPU seconds are the steadier figure, so the 1-thread ratios use CPU
time of the whole process (ours and the peer's) and the floor's thread CPU time.
Ratios: ``peer / ours`` (higher is better) and ``ours / floor`` (lower is better; the
floor does not read Python strings, ours does).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import log, measure  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"
FLOOR = REPO / "benches" / "floor"


def floor_binary() -> Path:
    exe = FLOOR / "target" / "release" / "nlgmetrics-floor"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=FLOOR, check=True)
    return exe


def floor(task: str, path: str, threads: int, repeat: int) -> dict:
    out = subprocess.run([str(floor_binary()), task, path, str(threads), str(repeat)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def write_pairs(hyps: list[str], refs: list[list[str]], tmp: Path) -> str:
    p = tmp / "pairs.tsv"
    clean = lambda s: " ".join(s.split())  # noqa: E731  (tabs/newlines would split fields)
    p.write_text("".join(clean(h) + "".join("\t" + clean(r) for r in rs) + "\n" for h, rs in zip(hyps, refs)), encoding="utf-8")
    return str(p)


def write_lines(texts: list[str], tmp: Path) -> str:
    p = tmp / "lines.txt"
    p.write_text("".join(" ".join(t.split()) + "\n" for t in texts), encoding="utf-8")
    return str(p)


def checked(what: str, fn) -> None:
    """Run an agreement check in a forked child: calling the extension in this parent
    would start its thread pool, which a later fork cannot use (the child would hang)."""
    m = measure(fn)
    if "error" in m:
        raise AssertionError(f"{what}: {m['error']}")


def in_child(fn):
    """``fn()``'s result, computed in a forked child (see :func:`checked`)."""
    import pickle

    with tempfile.NamedTemporaryFile("rb", suffix=".pkl") as fh:
        def child():
            with open(fh.name, "wb") as out:
                pickle.dump(fn(), out)

        m = measure(child)
        if "error" in m:
            raise RuntimeError(m["error"])
        return pickle.loads(Path(fh.name).read_bytes())


def timed_case(fn, repeat: int) -> dict:
    """Median wall and CPU seconds over ``repeat`` runs in one forked child, and its peak RSS."""

    def run():
        walls, cpus = [], []
        for _ in range(repeat):
            w, c = time.perf_counter(), time.process_time()
            fn()
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        return float(np.median(walls)), float(np.median(cpus))

    box: dict = {}

    def child():
        box["r"] = run()
        print(json.dumps(box["r"]), file=open(os.environ["SPEED_OUT"], "w"))

    with tempfile.NamedTemporaryFile("r", suffix=".json") as fh:
        os.environ["SPEED_OUT"] = fh.name
        m = measure(child)
        if "error" in m:
            return m
        wall, cpu = json.loads(Path(fh.name).read_text())
    return {"wall": wall, "cpu": cpu, "peak_mib": m["peak_mib"], "delta_mib": m["delta_mib"]}


ROWS: list[dict] = []


def row(case: str, peer: str, ours1: dict, ours: dict, ref: dict, floor1: dict | None, floor_all: dict | None, note: str = "", peer_scale: float = 1.0) -> None:
    """``peer_scale``: ours ran on ``peer_scale`` times the peer's data (per-item ratios)."""
    ROWS.append(dict(case=case, peer=peer, ours1=ours1, ours=ours, ref=ref, floor1=floor1, floor_all=floor_all, note=note, scale=peer_scale))
    log(f"{case}: {json.dumps({k: v for k, v in ROWS[-1].items() if k not in ('case', 'peer')}, default=str)}")


def rouge(args, tmp: Path) -> None:
    sys.path.insert(0, str(REPO / "benches"))
    from bench_rouge import cnndm

    import rouge_score_rs

    from nlgmetrics import ROUGE

    types = ["rouge1", "rouge2", "rougeL"]
    preds, refs = cnndm(args.rouge_n)
    refs1 = [[r] for r in refs]
    ours1 = timed_case(lambda: ROUGE(rouge_types=types, n_threads=1).stats(preds, refs1), args.repeat)
    ours = timed_case(lambda: ROUGE(rouge_types=types).stats(preds, refs1), args.repeat)
    rs = rouge_score_rs.RougeScorer(types, use_stemmer=False)
    ref = timed_case(lambda: rs.score_batch(refs, preds), args.repeat)
    path = write_pairs(preds, refs1, tmp)
    f1 = [floor(t, path, 1, args.repeat) for t in ("ngram:2", "lcs")]
    fa = [floor(t, path, os.cpu_count() or 1, args.repeat) for t in ("ngram:2", "lcs")]
    add = lambda fs: {"seconds": sum(f["seconds"] for f in fs), "cpu_seconds": sum(f["cpu_seconds"] for f in fs)}  # noqa: E731
    row(f"ROUGE-1/2/L, CNN/DM {len(preds):,} pairs, no stemmer", f"rouge-score-rs {rouge_score_rs.__version__} (score_batch, all cores)", ours1, ours, ref, add(f1), add(fa), "floor: n-gram counting and clipping (orders 1-2) + one bit-parallel LCS per pair")


def nist(args, tmp: Path) -> None:
    from bench_nist import generated
    from nltk.translate.nist_score import corpus_nist

    from nlgmetrics import NIST

    hyps, refs = generated(args.nist_n)
    k = args.nist_peer_n
    tk_h = [h.split() for h in hyps[:k]]
    tk_r = [[r.split() for r in rs] for rs in refs[:k]]
    ours1 = timed_case(lambda: NIST("nltk", n_threads=1).corpus_score(hyps, refs).score, args.repeat)
    ours = timed_case(lambda: NIST("nltk").corpus_score(hyps, refs).score, args.repeat)
    ref = timed_case(lambda: corpus_nist(tk_r, tk_h, n=5), 1)
    path = write_pairs(hyps, refs, tmp)
    row(f"corpus NIST (nltk flavour), {len(hyps):,} generated segments x 2 refs", f"nltk corpus_nist (on {k:,} segments, per segment)", ours1, ours, ref,
        floor("nist", path, 1, args.repeat), None, "floor: one corpus-wide hash count of the reference n-grams (orders 1-5), then per-pair counting and clipping", peer_scale=len(hyps) / k)


def distinct(args, tmp: Path) -> None:
    from bench_diversity import load_texts

    from nlgmetrics import Distinct

    texts = in_child(lambda: load_texts(CORPORA, args.distinct_n))  # 13a-tokenized by the extension
    toks = [t.split() for t in texts]

    def sets():
        grams, total = set(), 0
        for s in toks:
            g = [tuple(s[i:i + 2]) for i in range(len(s) - 1)]
            grams.update(g)
            total += len(g)
        return len(grams) / total

    def agree():
        assert Distinct(2).corpus_score(texts).score == sets()

    checked("distinct-2 differs from the set loop", agree)
    ours1 = timed_case(lambda: Distinct(2, n_threads=1).corpus_score(texts).score, args.repeat)
    ours = timed_case(lambda: Distinct(2).corpus_score(texts).score, args.repeat)
    ref = timed_case(sets, args.repeat)
    path = write_lines(texts, tmp)
    row(f"distinct-2 (corpus), {len(texts):,} COCO captions", "Python set loop over pre-split tokens", ours1, ours, ref,
        floor("distinct", path, 1, args.repeat), None, "floor: split, hash, one 64-bit hash set sized up front (single pass; hash-exact only)")


def auc(args, tmp: Path) -> None:
    import sklearn.metrics as sk

    from nlgmetrics import classification as C

    rng = np.random.default_rng(0)
    y = (rng.random(args.auc_n) < 0.3).astype(np.int64)
    s = rng.normal(y * 1.0, 1.0)
    def agree():
        assert C.roc_auc_score(y, s) == sk.roc_auc_score(y, s)

    checked("ROC AUC differs from scikit-learn", agree)
    ours1 = timed_case(lambda: C.roc_auc_score(y, s, n_threads=1), args.repeat)
    ours = timed_case(lambda: C.roc_auc_score(y, s), args.repeat)
    ref = timed_case(lambda: sk.roc_auc_score(y, s), args.repeat)
    p = tmp / "scores.f64"
    s.astype("<f8").tofile(p)
    row(f"ROC AUC, {args.auc_n:,} scores", "scikit-learn roc_auc_score", ours1, ours, ref, floor("sort", str(p), 1, args.repeat), None, "floor: LSD radix sort of (key, index) pairs")


def meteor(args, tmp: Path) -> None:
    from nlgmetrics.metrics import meteor_resources as mr

    def cold_load():
        mr._CACHE.clear()
        mr.load_resources()

    checked("METEOR tables", lambda: mr.load_resources())  # make sure the cache file exists
    path = mr.cache_file(mr.meteor_dir(), True)
    ours = timed_case(cold_load, args.repeat)

    def parse():
        mr._parse(mr.meteor_dir(), True)

    ref = timed_case(parse, 1)
    row("METEOR 1.5 tables, first load in a process", "parsing the jar + paraphrase-en.gz (the uncached path)", ours, ours, ref,
        floor("read", str(path), 1, args.repeat), None, f"floor: reading the {path.stat().st_size / 2**20:.0f} MiB cache file")


def startup(args, tmp: Path) -> None:
    exe = sys.executable
    one = tmp / "one.txt"
    one.write_text("the cat sat on the mat\n")

    def run(code: list[str]) -> float:
        ts = []
        for _ in range(max(5, args.repeat)):
            t = time.perf_counter()
            subprocess.run(code, check=True, capture_output=True)
            ts.append(time.perf_counter() - t)
        return float(np.median(ts))

    bare = run([exe, "-c", "pass"])
    ours = run([exe, "-c", "import nlgmetrics; nlgmetrics.bleu(['the cat sat'], [['the cat sat on the mat']])"])
    sacre = run([exe, "-c", "import sacrebleu; sacrebleu.corpus_bleu(['the cat sat'], [['the cat sat on the mat']])"])
    cli = run([exe, "-m", "nlgmetrics", "score", "-m", "bleu", "-r", str(one), "-i", str(one)])
    STARTUP.update(bare=bare, ours=ours, sacrebleu=sacre, cli=cli)
    log(f"start-up: {STARTUP}")


STARTUP: dict = {}


def fmt(x: float) -> str:
    return f"{x:.3f}" if x >= 0.01 else f"{x * 1000:.2f} ms"


def table() -> str:
    lines = [
        "| case | peer | peer s (CPU) | ours 1 thread s (CPU) | **× peer, 1 thread** | ours all cores s (wall) | × peer, all cores (wall) | floor 1 thread s (CPU) | **ours / floor, 1 thread** | floor all cores s (wall) | ours / floor, all cores | peak RSS ours / peer MiB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in ROWS:
        o1, o, p, f1, fa, k = r["ours1"], r["ours"], r["ref"], r["floor1"], r["floor_all"], r["scale"]
        if any("error" in x for x in (o1, o, p)):
            lines.append(f"| {r['case']} | {r['peer']} | {p.get('error', '')} | {o1.get('error', '')} | | {o.get('error', '')} | | | | | | |")
            continue
        cells = [r["case"], r["peer"], fmt(p["cpu"]), fmt(o1["cpu"]), f"**{p['cpu'] * k / o1['cpu']:.1f}×**", fmt(o["wall"]), f"{p['wall'] * k / o['wall']:.1f}×"]
        cells += [fmt(f1["cpu_seconds"]), f"**{o1['cpu'] / f1['cpu_seconds']:.1f}×**"] if f1 else ["–", "–"]
        cells += [fmt(fa["seconds"]), f"{o['wall'] / fa['seconds']:.1f}×"] if fa else ["–", "–"]
        cells.append(f"{o['peak_mib']:.0f} / {p['peak_mib']:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines)
    notes = "\n".join(f"- {r['case']}: {r['note']}" + (f"; the peer ran on 1/{r['scale']:.0f} of the data (ratios per item)" if r["scale"] != 1 else "") for r in ROWS if r["note"] or r["scale"] != 1)
    if STARTUP:
        s = STARTUP
        out += (f"\n\n| fresh interpreter (median of 5, wall) | s | × bare Python |\n|---|---:|---:|\n| bare `python -c pass` | {s['bare']:.3f} | 1.0× |\n"
                f"| `import nlgmetrics` + one corpus BLEU | {s['ours']:.3f} | {s['ours'] / s['bare']:.1f}× |\n"
                f"| `import sacrebleu` + one corpus BLEU | {s['sacrebleu']:.3f} | {s['sacrebleu'] / s['bare']:.1f}× |\n"
                f"| `python -m nlgmetrics score -m bleu` on a 1-line file | {s['cli']:.3f} | {s['cli'] / s['bare']:.1f}× |")
    return out + "\n\n" + notes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rouge-n", type=int, default=20_000)
    ap.add_argument("--nist-n", type=int, default=20_000)
    ap.add_argument("--nist-peer-n", type=int, default=2_000)
    ap.add_argument("--distinct-n", type=int, default=100_000)
    ap.add_argument("--auc-n", type=int, default=10_000_000)
    ap.add_argument("--cases", nargs="*", default=["rouge", "nist", "distinct", "auc", "meteor", "startup"])
    args = ap.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases:
            log(f"== {case}")
            try:
                globals()[case](args, Path(tmp))
            except Exception as e:  # one failing peer must not lose the other rows
                log(f"{case} failed: {type(e).__name__}: {e}")
    print(f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average (1 min) {load:.1f} before, {os.getloadavg()[0]:.1f} after; median of {args.repeat} runs\n")
    print(table())


if __name__ == "__main__":
    main()
