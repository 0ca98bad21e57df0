"""Resampling flags of the significance commands (``score --confidence``, ``compare``,
``correlate``), apart from :mod:`.compare` so that ``score`` declares them without
loading the paired tests' code."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    import argparse


def add_resampling_flags(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    p.add_argument("--seed", type=int, default=12345, help="random seed of the resampling (default: 12345, as sacrebleu)")
    p.add_argument("--method", choices=["nlgmetrics", "sacrebleu"], default="nlgmetrics", help="nlgmetrics: exact sums, Philox draws; sacrebleu: sacrebleu 2.6's draws and float32 sums (default: nlgmetrics)")
    p.add_argument("--resampling", choices=["multinomial", "poisson"], default="multinomial", help="bootstrap draws: multinomial, or Poisson(1) weights keyed by segment id (default: multinomial)")


def method_words(method: str, resampling: str = "multinomial", kind: str = "bootstrap") -> str:
    """The resampler of an interval or test in words a sacrebleu user recognises: the
    signature's ``resampling:philox`` alone reads as sacrebleu's bootstrap."""
    if method == "sacrebleu":
        return f"sacrebleu 2.6's {kind} (its numpy draws and float32 sums, bit for bit)"
    draws = "Poisson(1) weights keyed by segment id" if resampling == "poisson" else "Philox draws"
    return f"nlgmetrics' {kind} ({draws}, exact sums), not sacrebleu's: --method sacrebleu gives sacrebleu's"


def add_confidence_flags(p: argparse.ArgumentParser) -> None:
    """Flags of ``nlgmetrics score`` for bootstrap confidence intervals."""
    g = p.add_argument_group("confidence intervals")
    g.add_argument("--confidence", "-ci", action="store_true", help="report a 95%% bootstrap confidence interval")
    g.add_argument("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples (default: 1000)")
    add_resampling_flags(g)
