"""Command-line options of the nltk BLEU flavour, distinct-n and Self-BLEU.

The nltk flags extend the ``bleu`` option set (they apply with ``--bleu-flavour nltk``).
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from . import opts_bleu  # noqa: F401 - BLEU's own set first: the nltk flags extend it
from .options import OPTION_SETS, register_options


def _weights(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"weights are comma-separated numbers, got {text!r}") from None


def _add_nltk(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--nltk-weights", dest="nltk_weights", type=_weights, action="append", default=None, metavar="W1,W2,...", help="nltk BLEU weights (repeat for several scores; default 0.25,0.25,0.25,0.25)")
    g.add_argument("--nltk-smoothing", dest="nltk_smoothing", default="method0", choices=[f"method{i}" for i in range(8)], help="nltk SmoothingFunction method (default: method0)")
    g.add_argument("--nltk-auto-reweigh", dest="nltk_auto_reweigh", action="store_true", help="nltk auto_reweigh")
    g.add_argument("--nltk-epsilon", dest="nltk_epsilon", type=float, default=0.1, help="method1 epsilon (default 0.1)")
    g.add_argument("--nltk-alpha", dest="nltk_alpha", type=int, default=5, help="method6 alpha (default 5)")
    g.add_argument("--nltk-k", dest="nltk_k", type=int, default=5, help="method4/7 k (default 5)")


def _collect_nltk(a: argparse.Namespace) -> dict[str, Any]:
    weights: Any = (0.25, 0.25, 0.25, 0.25)
    if a.nltk_weights:
        weights = a.nltk_weights[0] if len(a.nltk_weights) == 1 else a.nltk_weights
    return {
        "weights": weights,
        "smoothing": a.nltk_smoothing,
        "auto_reweigh": a.nltk_auto_reweigh,
        "epsilon": a.nltk_epsilon,
        "alpha": a.nltk_alpha,
        "k": a.nltk_k,
    }


def _extend_bleu() -> None:
    base = OPTION_SETS.get("bleu")
    if base is None:
        return

    def add(g: argparse._ArgumentGroup) -> None:
        base.add(g)
        _add_nltk(g)

    def collect(a: argparse.Namespace) -> dict[str, Any]:
        opts = base.collect(a)
        if opts.get("flavour") == "nltk":
            opts.update(_collect_nltk(a))
        return opts

    register_options("bleu", add, collect)


def _add_distinct(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--distinct-n", dest="distinct_n", type=int, default=2, help="distinct-n order (default 2)")
    g.add_argument("--distinct-mode", dest="distinct_mode", default="corpus", choices=["corpus", "paper", "mean"], help="distinct-n convention (default: corpus)")
    g.add_argument("--distinct-sketch", dest="distinct_sketch", default=None, choices=["exact", "hll"], help="n-gram union: exact (default) or HyperLogLog")
    g.add_argument("--distinct-hll-precision", dest="distinct_hll_precision", type=int, default=14, help="HyperLogLog precision p (2**p registers; default 14)")


def _collect_distinct(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {
        "n": a.distinct_n,
        "mode": a.distinct_mode,
        "sketch": a.distinct_sketch,
        "hll_precision": a.distinct_hll_precision,
        "lowercase": a.lowercase,
    }
    if a.tokenize is not None:
        opts["tokenize"] = a.tokenize
    return opts


def _add_self_bleu(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--self-bleu-n", dest="self_bleu_n", type=int, default=3, help="Self-BLEU n-gram order (default 3)")
    g.add_argument("--self-bleu-sample-size", dest="self_bleu_sample_size", type=int, default=500, help="first N sentences used (default 500, Texygen); 0 = all")
    g.add_argument("--self-bleu-include-self", dest="self_bleu_include_self", action="store_true", help="keep each sentence among its own references (Texygen's serial path)")
    g.add_argument("--self-bleu-smoothing", dest="self_bleu_smoothing", default="method1", choices=[f"method{i}" for i in range(8)], help="nltk smoothing (default: method1)")


def _collect_self_bleu(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {
        "n": a.self_bleu_n,
        "sample_size": a.self_bleu_sample_size or None,
        "exclude_self": not a.self_bleu_include_self,
        "smoothing": a.self_bleu_smoothing,
        "lowercase": a.lowercase,
    }
    if a.tokenize is not None:
        opts["tokenize"] = a.tokenize
    return opts


_extend_bleu()
register_options("distinct", _add_distinct, _collect_distinct)
register_options("self_bleu", _add_self_bleu, _collect_self_bleu)
