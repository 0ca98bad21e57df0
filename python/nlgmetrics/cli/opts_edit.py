"""Command-line options of WER, CER, MER, WIL, WIP and PER."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_edit(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--wer-transform", default="default", choices=["default", "standardize"], help="jiwer transform for WER/MER/WIL/WIP: wer_default or wer_standardize (default: default)")
    g.add_argument("--edit-multi-ref", default="error", choices=["error", "best"], help="several references per segment: error, or the best one (the fewest errors for the WER family and PER, the highest F1 for lm_eval_qasper; for extractive_fragments and ragas_string as their docs say)")
    g.add_argument("--per-lowercase", action="store_true", help="PER: lowercase before comparing (Moses keeps case)")


def _words(a: argparse.Namespace) -> dict[str, Any]:
    return {"transform": a.wer_transform, "multi_ref": a.edit_multi_ref}


def _chars(a: argparse.Namespace) -> dict[str, Any]:
    return {"multi_ref": a.edit_multi_ref}


def _per(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"multi_ref": a.edit_multi_ref, "lowercase": a.per_lowercase or a.lowercase}
    if a.tokenize is not None:
        opts["tokenize"] = a.tokenize
    return opts


register_options("wer", _add_edit, _words)
for _name in ("mer", "wil", "wip"):
    register_options(_name, lambda g: None, _words)
register_options("cer", lambda g: None, _chars)
register_options("per", lambda g: None, _per)
