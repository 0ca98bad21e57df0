"""Regenerate tests/goldens/nist_mteval/goldens.json by running mteval-v13a.pl.

Usage: python scripts/goldens/make_nist_mteval_goldens.py --mteval /path/to/mteval-v13a.pl

The script wraps each system and its references in NIST SGML (one document, segments
numbered from 1; & < > escaped, which mteval's tokenizer turns back), runs
``perl mteval-v13a.pl -r ref.sgm -s src.sgm -t tst.sgm -n [-c]`` (NIST only; ``-c`` =
case-sensitive) and parses "NIST score = X" (4 decimals).
E2E references vary in number per input (1-45); mteval-v13a needs the same number of
reference sets everywhere, so missing references are padded with empty segments (as
the official E2E scorer does when it writes its SGML files).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "corpora"
OUT = REPO / "tests" / "goldens" / "nist_mteval" / "goldens.json"
sys.path.insert(0, str(REPO / "tests"))

from differential.mteval_perl import reference_streams, sgml  # noqa: E402


def run(mteval: str, hyps: list[str], refs: list[list[str]], case_sensitive: bool) -> dict:
    streams = reference_streams(refs)
    n_refs = len(streams)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d)
        (p / "src.sgm").write_text(sgml("src", [hyps]), encoding="utf-8")
        (p / "ref.sgm").write_text(sgml("ref", streams), encoding="utf-8")
        (p / "tst.sgm").write_text(sgml("tst", [hyps]), encoding="utf-8")
        cmd = ["perl", mteval, "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", "-n"] + (["-c"] if case_sensitive else [])
        out = subprocess.run(cmd, cwd=d, capture_output=True, text=True, check=True).stdout
    score = float(re.search(r"NIST score = ([0-9.]+)", out).group(1))
    cum = re.search(r"Cumulative N-gram scoring\n.*\n *NIST: +([0-9. ]+)", out)
    return {"nist": score, "cumulative": [float(x) for x in cum.group(1).split()] if cum else None, "n_refs": n_refs}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mteval", required=True)
    args = ap.parse_args()
    from conftest import read_lines  # noqa: E402

    goldens = []
    wmt = CORPORA / "wmt22" / "zh-en"
    refs_a = read_lines(wmt / "generaltest2022.zh-en.ref.A.en")
    refs_b = read_lines(wmt / "generaltest2022.zh-en.ref.B.en")
    for system in ["HuaweiTSC", "Online-B", "DLUT"]:
        hyps = read_lines(wmt / "system-outputs" / f"generaltest2022.zh-en.hyp.{system}.en")
        for cs in (False, True) if system != "DLUT" else (False,):
            refs = [[a, b] for a, b in zip(refs_a, refs_b)]
            goldens.append({"corpus": "wmt22/zh-en", "system": system, "refs": "A+B", "case_sensitive": cs, **run(args.mteval, hyps, refs, cs)})
        goldens.append({"corpus": "wmt22/zh-en", "system": system, "refs": "A", "case_sensitive": False, **run(args.mteval, hyps, [[a] for a in refs_a], False)})
    from make_mteval_differential_goldens import e2e_outputs

    for system in ["tgen", "adapt", "chen", "gong"]:
        hyps, e2e_refs = e2e_outputs(system)
        for cs in (False, True) if system in ("tgen", "chen") else (False,):
            goldens.append({"corpus": "e2e", "system": system, "refs": "padded", "case_sensitive": cs, **run(args.mteval, hyps, e2e_refs, cs)})
    OUT.write_text(json.dumps(goldens, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(goldens)} goldens to {OUT}")


if __name__ == "__main__":
    main()
