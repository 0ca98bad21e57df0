"""Command-line options of lm-eval's task-specific QA F1s: ``lm_eval_xquad``'s task name."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from . import opts_edit  # noqa: F401 - lm_eval_qasper's options read --edit-multi-ref
from .options import register_options


def _add_xquad(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--xquad-flavour", default=None, choices=["xquad", "norquad"],
                   help="lm_eval_xquad: the lm-eval task named in the signature (xquad, default, or norquad: the same code)")


def _collect_xquad(a: argparse.Namespace) -> dict[str, Any]:
    return {} if a.xquad_flavour is None else {"flavour": a.xquad_flavour}


register_options("lm_eval_xquad", _add_xquad, _collect_xquad)
# several answers per question: --edit-multi-ref (declared with the WER family) best takes the best
register_options("lm_eval_qasper", lambda g: None, lambda a: {"multi_ref": a.edit_multi_ref})
