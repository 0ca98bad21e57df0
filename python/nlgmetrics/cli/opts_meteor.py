"""Command-line options of METEOR."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_meteor(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--meteor-flavour", default="meteor-1.5", choices=["meteor-1.5", "nltk"], help="METEOR flavour (default: meteor-1.5, as pycocoevalcap)")
    g.add_argument("--meteor-task", default="rank", help="METEOR 1.5 task: rank (default), adq, hter, li, tune, universal")
    g.add_argument("--meteor-normalize", default="norm", choices=["norm", "nopunct", "lower", "none"], help="METEOR 1.5 text normalization (default: norm = -norm)")
    g.add_argument("--meteor-modules", nargs="+", default=None, metavar="MODULE", help="METEOR 1.5 modules (exact stem synonym paraphrase)")
    g.add_argument("--meteor-weights", nargs="+", type=float, default=None, metavar="W", help="METEOR 1.5 module weights, one per module")
    for p in ("alpha", "beta", "gamma", "delta"):
        g.add_argument(f"--meteor-{p}", type=float, default=None, help=f"METEOR {p} (default: the task's / nltk's)")


def _collect_meteor(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"flavour": a.meteor_flavour}
    # only the flags a flavour reads are read here: the CLI rejects the others (cli/checks.py)
    names = ("alpha", "beta", "gamma", "delta") if a.meteor_flavour == "meteor-1.5" else ("alpha", "beta", "gamma")
    params = {p: getattr(a, f"meteor_{p}") for p in names}
    if a.meteor_flavour == "meteor-1.5":
        opts.update(task=a.meteor_task, normalize=a.meteor_normalize, modules=a.meteor_modules, weights=a.meteor_weights)
    opts.update({k: v for k, v in params.items() if v is not None})
    return opts


register_options("meteor", _add_meteor, _collect_meteor)
