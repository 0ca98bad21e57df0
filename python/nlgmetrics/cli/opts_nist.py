"""Command-line options of NIST."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_nist(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--nist-flavour", default="mteval", choices=["mteval", "nltk"], help="NIST flavour (default: mteval, as mteval-v13a.pl)")
    g.add_argument("--nist-n", type=int, default=5, help="NIST n-gram order (default: 5)")
    g.add_argument("--nist-case-sensitive", "-c", dest="nist_case_sensitive", action="store_true", help="mteval: do not lowercase (mteval's -c)")
    g.add_argument("--nist-zero-division", default="error", choices=["error", "zero"], help="nltk flavour: where nltk divides by zero, raise (error) or score 0 (zero)")


def _collect_nist(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"flavour": a.nist_flavour, "n": a.nist_n}
    if a.nist_flavour == "mteval":
        opts["case_sensitive"] = a.nist_case_sensitive
    else:
        opts["zero_division"] = a.nist_zero_division
        opts["lowercase"] = a.lowercase
    if a.tokenize is not None:
        opts["tokenize"] = a.tokenize
    return opts


register_options("nist", _add_nist, _collect_nist)
