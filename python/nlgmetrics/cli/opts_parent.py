"""Command-line options of PARENT."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _lambda(text: str) -> float | None:
    return None if text == "auto" else float(text)


def _add_parent(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--parent-lambda", type=_lambda, default=0.5, metavar="L|auto", help="weight of the table recall (default: 0.5; auto: 1 - the reference's table recall)")
    g.add_argument("--parent-smoothing", type=float, default=0.00001, help="value replacing zero precisions and recalls (default: 0.00001)")
    g.add_argument("--parent-max-order", type=int, default=4, help="longest n-gram (default: 4)")
    g.add_argument("--parent-case-sensitive", action="store_true", help="do not lowercase texts and tables")


def _collect_parent(a: argparse.Namespace) -> dict[str, Any]:
    return {
        "lambda_weight": a.parent_lambda,
        "smoothing": a.parent_smoothing,
        "max_order": a.parent_max_order,
        "lowercase": not a.parent_case_sensitive,
    }


register_options("parent", _add_parent, _collect_parent)
