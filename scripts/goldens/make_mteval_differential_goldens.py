#!/usr/bin/env python3
"""Regenerate tests/goldens/nist_mteval/differential.json.gz by running mteval-v13a.pl.

Usage::

    python scripts/goldens/make_mteval_differential_goldens.py --mteval /path/to/mteval-v13a.pl

Needs Perl with XML::Twig (Debian: libxml-twig-perl). Every run writes the segments as
NIST SGML with ``& < >`` escaped (tests/differential/mteval_perl.py), runs
``perl mteval-v13a.pl -r ref.sgm -s src.sgm -t tst.sgm -d 2 [-c]`` and keeps what it prints
with ``%.4f``: each segment's NIST and BLEU, the document's (= the system's), and the
individual and cumulative 1..9-gram NIST and BLEU tables.

Runs:
- ``adversarial``: ``--corpora-count`` corpora of ``--segments`` generated segments each
  (tests/differential/mteval_adversarial.py, seeds 0..), lowercased and ``-c``; their inputs
  are stored in the file;
- ``wmt22``: the first ``--wmt-systems`` zh-en system outputs of ../shared/corpora/wmt22
  (sorted by name) against references A and B, lowercased and ``-c``; inputs are read from
  the corpora by the test;
- ``e2e``: the E2E systems tgen and chen, references padded to 45 sets.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from conftest import CORPORA, read_lines  # noqa: E402
from differential import mteval_perl as M  # noqa: E402
from differential.mteval_adversarial import corpus  # noqa: E402

OUT = REPO / "tests" / "goldens" / "nist_mteval" / "differential.json.gz"
WMT = "wmt22/zh-en"


def wmt_systems() -> list[str]:
    d = CORPORA / WMT / "system-outputs"
    return sorted(p.name.split(".hyp.")[1][: -len(".en")] for p in d.glob("generaltest2022.zh-en.hyp.*.en"))


def wmt_inputs(system: str) -> tuple[list[str], list[list[str]]]:
    d = CORPORA / WMT
    hyps = read_lines(d / "system-outputs" / f"generaltest2022.zh-en.hyp.{system}.en")
    a = read_lines(d / "generaltest2022.zh-en.ref.A.en")
    b = read_lines(d / "generaltest2022.zh-en.ref.B.en")
    return hyps, [[x, y] for x, y in zip(a, b)]


def e2e_outputs(system: str) -> tuple[list[str], list[list[str]]]:
    """An E2E system's outputs and each input's references (1-45 of them), in test-set order."""
    e2e = CORPORA / "e2e"
    with open(e2e / "testset_w_refs.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    mrs: list[str] = []
    by_mr: dict[str, list[str]] = {}
    for r in rows:
        if r["mr"] not in by_mr:
            mrs.append(r["mr"])
            by_mr[r["mr"]] = []
        by_mr[r["mr"]].append(r["ref"])
    with open(e2e / "system_outputs_primary" / f"{system}.tsv", encoding="utf-8") as f:
        out = {r[0]: r[1] for r in csv.reader(f, delimiter="\t") if len(r) >= 2}
    return [out[m] for m in mrs], [by_mr[m] for m in mrs]


def e2e_inputs(system: str) -> tuple[list[str], list[list[str]]]:
    """As mteval-v13a reads them: references padded with empty segments to 45 sets."""
    hyps, refs = e2e_outputs(system)
    width = max(len(r) for r in refs)
    return hyps, [r + [""] * (width - len(r)) for r in refs]


E2E_SYSTEMS = ["tgen", "chen"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mteval", required=True, type=Path)
    ap.add_argument("--corpora-count", type=int, default=12)
    ap.add_argument("--wmt-systems", type=int, default=2)
    ap.add_argument("--segments", type=int, default=400)
    args = ap.parse_args()
    runs = []
    t0 = time.time()
    for seed in range(args.corpora_count):
        hyps, refs = corpus(args.segments, seed)
        for cs in (False, True):
            printed = M.run(args.mteval, hyps, refs, cs)
            runs.append({"kind": "adversarial", "seed": seed, "case_sensitive": cs, "hyps": hyps, "refs": refs, "printed": printed})
        print(f"adversarial {seed} {time.time() - t0:.0f}s", flush=True)
        write(runs)
    for system in wmt_systems()[: args.wmt_systems]:
        hyps, refs = wmt_inputs(system)
        for cs in (False, True):
            runs.append({"kind": "wmt22", "system": system, "case_sensitive": cs, "printed": M.run(args.mteval, hyps, refs, cs)})
        print(f"wmt22 {system} {time.time() - t0:.0f}s", flush=True)
        write(runs)
    for system in E2E_SYSTEMS:
        hyps, refs = e2e_inputs(system)
        runs.append({"kind": "e2e", "system": system, "case_sensitive": False, "printed": M.run(args.mteval, hyps, refs, False)})
    write(runs)
    print(f"wrote {len(runs)} runs to {OUT}")


def write(runs: list[dict]) -> None:
    with gzip.open(OUT, "wt", encoding="utf-8") as f:
        json.dump({"script": "mteval-v13a.pl (moses-smt/mosesdecoder scripts/generic, commit 34452895f350bf097b21ee514a529a1dc542243c)",
                   "runs": runs}, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
