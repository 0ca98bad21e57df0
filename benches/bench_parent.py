"""PARENT: nlgmetrics vs the reference implementation (google-research/language
table_text_eval.py, word-overlap model) side by side on E2E test-set outputs.

The reference is not on PyPI: give a checkout with --reference (or the environment
variable NLGMETRICS_PARENT_REFERENCE); without one only nlgmetrics is timed.
Usage: python benches/bench_parent.py --reference ../language [--systems tgen adapt]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

import nlgmetrics as nm
from harness import log

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "goldens"))
from make_parent_goldens import import_reference, load_e2e  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"


def timed(f):
    """(wall seconds, CPU seconds of the process incl. worker threads), result. In-process:
    the reference module does not survive the fork that harness.measure uses."""
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return (time.perf_counter() - w, time.process_time() - c), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default=os.environ.get("NLGMETRICS_PARENT_REFERENCE"))
    ap.add_argument("--systems", nargs="+", default=["tgen"])
    args = ap.parse_args()
    mrs, refs, systems = load_e2e(CORPORA)
    tte = import_reference(Path(args.reference)) if args.reference else None
    print("| data | reference wall / CPU (s) | nlgmetrics wall / CPU (s) | speed-up wall / CPU | segment F identical |")
    print("|---|---:|---:|---:|---|")
    for name in args.systems:
        outs = systems[name]
        to, ours = timed(lambda: nm.Parent().sentence_scores(outs, refs, mrs))
        label = f"E2E {name}, {len(outs)} segments, {sum(map(len, refs))} references"
        if tte is None:
            print(f"| {label} | (no reference checkout) | {to[0]:.3f} / {to[1]:.3f} | | |")
            continue
        tok = [o.lower().split() for o in outs]
        tok_refs = [[r.lower().split() for r in rs] for rs in refs]
        tables = [[[a.lower().split(), v.lower().split()] for a, v in nm.parse_mr(m)] for m in mrs]
        log(f"{name}: reference...")
        tp, peer = timed(lambda: tte.parent(tok, tok_refs, tables, entailment_fn=tte.overlap_probability)[3])
        same = "yes" if np.array_equal(np.array(peer), ours) else "NO"
        print(f"| {label} | {tp[0]:.2f} / {tp[1]:.2f} | {to[0]:.3f} / {to[1]:.3f} | {tp[0] / to[0]:.0f}× / {tp[1] / to[1]:.0f}× | {same} |")

if __name__ == "__main__":
    main()
