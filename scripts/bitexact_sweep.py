"""Print the bit-exactness sweep: every value of every text metric with a Python reference,
compared with ``==`` against the reference on the shared corpora.

    python scripts/bitexact_sweep.py            # the stride the test uses
    python scripts/bitexact_sweep.py --stride 1 # every segment (minutes)
    python scripts/bitexact_sweep.py --only sacrebleu rouge-score

Exits 1 when a value is not bit-equal and outside its documented bound.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from differential.bitexact import CHECKS, run, table  # noqa: E402

CI_STRIDE = 20


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--stride", type=int, default=CI_STRIDE, help=f"use every STRIDE-th segment (default: {CI_STRIDE}, as the test)")
    p.add_argument("--only", nargs="+", choices=list(CHECKS), help="run these reference packages only")
    a = p.parse_args()
    rows = run(a.stride, a.only)
    print(table(rows))
    bad = [r for r in rows if not r.ok]
    for r in bad:
        print(f"NOT WITHIN BOUND: {r.metric} {r.flavour} {r.values_kind}: {r.n_unequal} of {r.n_values} differ, up to {r.max_ulps:g} ulps", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
