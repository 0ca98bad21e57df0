"""Command-line options of ``ifeval``: ``--ifeval-score``, the headline value."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options

SCORES = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")


def _add(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--ifeval-score", default=None, choices=SCORES,
                   help="ifeval: the headline value (default prompt_level_strict_acc); the others are in the breakdown")


def _collect(a: argparse.Namespace) -> dict[str, Any]:
    return {"score": a.ifeval_score} if a.ifeval_score else {}


register_options("ifeval", _add, _collect)
