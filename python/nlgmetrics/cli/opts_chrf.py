"""Command-line options of chrF / chrF++ (sacrebleu's flag names and meanings: ``-lc`` is
BLEU-only, chrF lowercases with ``--chrf-lowercase``)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_chrf(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--chrf-char-order", "-cc", type=int, default=6, help="chrF character n-gram order (default: 6)")
    g.add_argument("--chrf-word-order", "-cw", type=int, default=None, help="chrF word n-gram order (default: 0 for chrf, 2 for chrf++)")
    g.add_argument("--chrf-beta", type=float, default=2, help="chrF recall weight beta (default: 2)")
    g.add_argument("--chrf-lowercase", action="store_true", help="lowercase for chrF (as sacrebleu, -lc lowercases BLEU only)")
    g.add_argument("--chrf-whitespace", action="store_true", help="keep whitespace in character n-grams")
    g.add_argument("--chrf-eps-smoothing", action="store_true", help="epsilon smoothing as chrF++.py / Moses / NLTK instead of effective order")


def _beta(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _collect(a: argparse.Namespace, default_word_order: int) -> dict[str, Any]:
    return {
        "char_order": a.chrf_char_order,
        "word_order": default_word_order if a.chrf_word_order is None else a.chrf_word_order,
        "beta": _beta(a.chrf_beta),
        "lowercase": a.chrf_lowercase,
        "whitespace": a.chrf_whitespace,
        "eps_smoothing": a.chrf_eps_smoothing,
    }


register_options("chrf", _add_chrf, lambda a: _collect(a, 0))
# chrF++ shares the flags (added once, above) and defaults to word order 2.
register_options("chrf++", lambda g: None, lambda a: _collect(a, 2))
