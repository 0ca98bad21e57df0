"""The parity ledger's data: what each differential test compared, and how closely.

Tests call :func:`record`; the rows go to ``tests/differential/parity.json`` (committed)
when ``NLGMETRICS_PARITY_RECORD=1``, else to a file in the temp directory, so a normal test
run never edits the tree. ``scripts/parity_ledger.py`` renders docs/parity.md from the JSON.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

COMMITTED = Path(__file__).with_name("parity.json")


def target() -> Path:
    if os.environ.get("NLGMETRICS_PARITY_RECORD") == "1":
        return COMMITTED
    return Path(tempfile.gettempdir()) / "nlgmetrics-parity.json"


def record(*, metric: str, flavour: str, reference: str, inputs: str, values: int, max_diff: float) -> None:
    path = target()
    rows = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    key = (metric, flavour, reference)
    rows = [r for r in rows if (r["metric"], r["flavour"], r["reference"]) != key]
    rows.append({"metric": metric, "flavour": flavour, "reference": reference, "inputs": inputs,
                 "values": int(values), "max_diff": float(max_diff)})
    rows.sort(key=lambda r: (r["metric"], r["flavour"]))
    path.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
