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
from pathlib import Path

import numpy as np

import nlgmetrics as nm
from harness import log, measure, table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "goldens"))
from make_parent_goldens import import_reference, load_e2e  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default=os.environ.get("NLGMETRICS_PARENT_REFERENCE"))
    ap.add_argument("--systems", nargs="+", default=["tgen"])
    args = ap.parse_args()
    mrs, refs, systems = load_e2e(CORPORA)
    tte = import_reference(Path(args.reference)) if args.reference else None
    rows, agree = [], []
    for name in args.systems:
        outs = systems[name]
        ours = lambda: nm.Parent().sentence_scores(outs, refs, mrs)  # noqa: E731
        o = measure(ours)
        if tte is None:
            rows.append((f"E2E {name}, {len(outs)} segments", "(no reference checkout)", {"error": "-"}, o))
            continue
        tok = [o_.lower().split() for o_ in outs]
        tok_refs = [[r.lower().split() for r in rs] for rs in refs]
        tables = [[[a.lower().split(), v.lower().split()] for a, v in nm.parse_mr(m)] for m in mrs]
        peer = lambda: tte.parent(tok, tok_refs, tables, entailment_fn=tte.overlap_probability)[3]  # noqa: E731
        log(f"{name}: reference...")
        p = measure(peer)
        rows.append((f"E2E {name}, {len(outs)} segments", "table_text_eval.py", p, o))
        agree.append(np.array_equal(np.array(peer()), ours()))
    print(table(rows))
    if agree:
        print()
        print(f"Segment F scores identical to the reference: {'yes' if all(agree) else 'NO'}")


if __name__ == "__main__":
    main()
