"""Build sample.jsonl from the E2E example files (references in blank-line-separated blocks)."""

import json
from pathlib import Path

here = Path(__file__).parent
preds = (here / "baseline-output.txt").read_text(encoding="utf-8").splitlines()
blocks = (here / "devel-conc.txt").read_text(encoding="utf-8").strip("\n").split("\n\n")
assert len(preds) == len(blocks), (len(preds), len(blocks))
with open(here / "sample.jsonl", "w", encoding="utf-8") as out:
    for i, (p, b) in enumerate(zip(preds, blocks)):
        out.write(json.dumps({"id": i + 1, "prediction": p, "references": b.split("\n")}, ensure_ascii=False) + "\n")
