"""SARI: nlgmetrics vs EASSE's corpus_sari and Hugging Face evaluate's sari script, side
by side; prints a markdown table.

The peers run in their own interpreter (EASSE is not on PyPI and evaluate's script needs
its loader): a virtual environment with sacrebleu==2.6.0 and sacremoses==0.2.0, an EASSE
checkout and evaluate's ``metrics/sari/sari.py``, as scripts/goldens/make_sari_goldens.py
describes. Data: generated simplification-like segments (a source of 8-40 words from a
5k-word vocabulary, an output that deletes, keeps and adds words, four references).

Usage: python benches/bench_sari.py --peer-python VENV/bin/python --easse-dir DIR
       --evaluate-sari PATH [--segments 100000] [--threads 0]

--threads 1 compares one thread with the single-threaded peers (BENCHMARKS.md does).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path

import nlgmetrics as nm

REPO = Path(__file__).resolve().parents[1]

PEER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
sys.path.insert(0, sys.argv[4])
import make_sari_goldens as g
import easse.sari as es
g.stub_evaluate()
ev = g.load(sys.argv[3], "evaluate_sari")
d = json.load(open(sys.argv[1]))
srcs, preds, refs = d["sources"], d["predictions"], d["references"]
streams = [list(x) for x in zip(*refs)]
out = {}
t = time.perf_counter(); c = time.process_time()
out["easse"] = (es.corpus_sari(srcs, preds, streams), time.perf_counter() - t, time.process_time() - c)
n = min(len(preds), int(sys.argv[5]))
t = time.perf_counter(); c = time.process_time()
out["evaluate"] = (ev.Sari._compute(None, srcs[:n], preds[:n], refs[:n])["sari"], time.perf_counter() - t, time.process_time() - c, n)
print(json.dumps(out))
"""


def generated(n: int, n_refs: int = 4, seed: int = 0) -> dict:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)] + [".", ",", "(", ")", "'s"]

    def edit(words, p_keep, max_add):
        out = [w for w in words if rng.random() < p_keep]
        for _ in range(rng.randint(0, max_add)):
            out.insert(rng.randint(0, len(out)), rng.choice(vocab))
        return " ".join(out)

    srcs, preds, refs = [], [], []
    for _ in range(n):
        src = [rng.choice(vocab) for _ in range(rng.randint(8, 40))]
        srcs.append(" ".join(src))
        preds.append(edit(src, 0.8, 3))
        refs.append([edit(src, 0.75, 4) for _ in range(n_refs)])
    return {"sources": srcs, "predictions": preds, "references": refs}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer-python", required=True)
    ap.add_argument("--easse-dir", required=True)
    ap.add_argument("--evaluate-sari", required=True)
    ap.add_argument("--segments", type=int, default=100_000)
    ap.add_argument("--evaluate-segments", type=int, default=100_000, help="segments given to evaluate's script")
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args()
    data = generated(a.segments)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    run = subprocess.run([a.peer_python, "-c", PEER, f.name, a.easse_dir, a.evaluate_sari, str(REPO / "scripts" / "goldens"), str(a.evaluate_segments)],
                         capture_output=True, text=True, check=True)
    peer = json.loads(run.stdout)
    Path(f.name).unlink()
    rows = []
    for flavour in ("easse", "evaluate"):
        n = a.segments if flavour == "easse" else peer["evaluate"][3]
        m = nm.SARI(flavour, n_threads=a.threads)
        m.corpus_score(data["predictions"][:10], data["references"][:10], sources=data["sources"][:10])  # warm-up
        w, c = time.perf_counter(), time.process_time()
        ours = m.corpus_score(data["predictions"][:n], data["references"][:n], sources=data["sources"][:n]).score
        ours_t, ours_c = time.perf_counter() - w, time.process_time() - c
        value, peer_t, peer_c = peer[flavour][:3]
        rows.append((flavour, n, peer_t, peer_c, ours_t, ours_c, value == ours, abs(value - ours)))
    print(f"{a.segments} segments, 4 references each; n_threads={a.threads}\n")
    print("| flavour (peer) | segments | peer s (CPU s) | nlgmetrics s (CPU s) | speed-up wall (CPU) | == | abs diff |")
    print("|---|---:|---:|---:|---:|---|---:|")
    names = {"easse": "easse (EASSE corpus_sari)", "evaluate": "evaluate (evaluate's sari script)"}
    for fl, n, pt, pc, ot, oc, eq, diff in rows:
        print(f"| {names[fl]} | {n} | {pt:.2f} ({pc:.2f}) | {ot:.2f} ({oc:.2f}) | {pt / ot:.0f}× ({pc / oc:.0f}×) | {'yes' if eq else 'no'} | {diff:.1e} |")


if __name__ == "__main__":
    main()
