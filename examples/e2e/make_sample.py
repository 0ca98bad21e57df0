"""Build sample.jsonl from the E2E example files (references in blank-line-separated blocks)
and the meaning representations of the same inputs (the table PARENT reads)."""

import json
from pathlib import Path

here = Path(__file__).parent
preds = (here / "baseline-output.txt").read_text(encoding="utf-8").splitlines()
blocks = (here / "devel-conc.txt").read_text(encoding="utf-8").strip("\n").split("\n\n")
mrs = (here / "devel-mrs.txt").read_text(encoding="utf-8").splitlines()
assert len(preds) == len(blocks) == len(mrs), (len(preds), len(blocks), len(mrs))
with open(here / "sample.jsonl", "w", encoding="utf-8") as out:
    for i, (p, b, mr) in enumerate(zip(preds, blocks, mrs)):
        row = {"id": i + 1, "prediction": p, "references": b.split("\n"), "table": mr}
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
