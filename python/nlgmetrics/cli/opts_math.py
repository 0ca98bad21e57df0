"""Command-line options of ``math_equiv``: the checker (flavour) and what each side holds."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_math(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--math-flavour", default=None, choices=["hendrycks", "minerva", "math-verify", "qwen"],
                   help="math_equiv: lm-eval's hendrycks_math checker (default), minerva_math's (SymPy), math-verify (the leaderboard's MATH-hard) or qwen (Qwen2.5-Math's math_equal, as evalscope uses it); the last three need extra [math]")
    g.add_argument("--math-prediction", default=None, choices=["generation", "answer"],
                   help="math_equiv: take the answer out of each generation as the task does (default), or each line is the answer")
    g.add_argument("--math-reference", default=None, choices=["auto", "solution", "answer"],
                   help="math_equiv: the last \\boxed{} of a solution, or the answer itself (auto, default: a box decides)")


def _collect_math(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for key, value in (("flavour", a.math_flavour), ("prediction", a.math_prediction), ("reference", a.math_reference)):
        if value is not None:
            opts[key] = value
    return opts


register_options("math_equiv", _add_math, _collect_math)
