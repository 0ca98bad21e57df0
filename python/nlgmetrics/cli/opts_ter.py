"""Command-line options of TER (sacrebleu's flag names)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_ter(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--ter-case-sensitive", action="store_true", help="TER: do not lowercase")
    g.add_argument("--ter-asian-support", action="store_true", help="TER: split CJK characters (with --ter-normalized) and drop Asian punctuation (with --ter-no-punct)")
    g.add_argument("--ter-no-punct", action="store_true", help="TER: remove punctuation")
    g.add_argument("--ter-normalized", action="store_true", help="TER: tercom normalization (punctuation, XML entities, possessives)")


def _collect_ter(a: argparse.Namespace) -> dict[str, Any]:
    return {
        "normalized": a.ter_normalized,
        "no_punct": a.ter_no_punct,
        "asian_support": a.ter_asian_support,
        "case_sensitive": a.ter_case_sensitive,
    }


register_options("ter", _add_ter, _collect_ter)
