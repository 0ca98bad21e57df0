"""Shared fixtures: where the real corpora live (``../shared/corpora`` beside the repo)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"


@pytest.fixture(scope="session")
def corpora() -> Path:
    if not CORPORA.is_dir():
        raise RuntimeError(f"the test corpora are missing: expected {CORPORA} (set NLGMETRICS_SHARED)")
    return CORPORA


def read_lines(path: Path) -> list[str]:
    """Lines split on \\n only and right-stripped, as sacrebleu's CLI reads them."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]
