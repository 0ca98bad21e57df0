"""Regenerate tests/goldens/meteor/e2e_ptb.json.gz: the E2E NLG Challenge primary
systems PTB-tokenized as coco-caption does (pycocoevalcap 1.2 PTBTokenizer, Java 17),
with the METEOR 1.5 jar's corpus score for each system (pycocoevalcap ``Meteor``).

Command: ``python scripts/goldens/make_meteor_e2e_goldens.py [../shared/corpora]``

References are the consecutive rows with the same MR in ``testset_w_refs.csv`` (630
instances); system outputs are the ``output`` column of each primary system TSV
(systems whose file does not parse as a 630-row TSV are skipped).
"""

from __future__ import annotations

import csv
import gzip
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "goldens" / "meteor" / "e2e_ptb.json.gz"


def e2e_refs(e2e: Path) -> tuple[list[str], list[list[str]]]:
    mrs: list[str] = []
    refs: list[list[str]] = []
    with open(e2e / "testset_w_refs.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if not mrs or mrs[-1] != row["mr"]:
                mrs.append(row["mr"])
                refs.append([])
            refs[-1].append(row["ref"])
    return mrs, refs


def e2e_systems(e2e: Path, n: int) -> dict[str, list[str]]:
    out = {}
    for f in sorted((e2e / "system_outputs_primary").glob("*.tsv")):
        with open(f, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh, delimiter="\t"))
        if len(rows) == n and all("output" in r and r["output"] is not None for r in rows):
            out[f.stem] = [r["output"] for r in rows]
    return out


def main() -> None:
    from pycocoevalcap.meteor.meteor import Meteor
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    corpora = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpora"
    e2e = corpora / "e2e"
    _, refs = e2e_refs(e2e)
    systems = e2e_systems(e2e, len(refs))
    tok = PTBTokenizer()
    gts = tok.tokenize({i: [{"caption": r} for r in rs] for i, rs in enumerate(refs)})
    m = Meteor()
    payload = {"refs": [gts[i] for i in range(len(refs))], "systems": {}}
    for name, outs in systems.items():
        res = tok.tokenize({i: [{"caption": o}] for i, o in enumerate(outs)})
        score, _ = m.compute_score(gts, res)
        payload["systems"][name] = {"hyps": [res[i][0] for i in range(len(refs))], "meteor": score}
        print(name, score, flush=True)
    del m
    with gzip.open(OUT, "wt", encoding="utf-8") as f:
        json.dump(payload, f)


if __name__ == "__main__":
    main()
