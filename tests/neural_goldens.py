"""How the learned metrics' goldens are compared on machines other than the one that made them.

The goldens are the reference programs' own outputs (unbabel-comet's ``predict``, the metricx
repository's ``predict``), float32 on the CPU of the machine that made them. Our numbers are
``==`` to them there. Torch's CPU kernels choose their code path by instruction set and vendor
(GEMM blocking, vectorised reductions: AVX2 on AMD, AVX2 on Intel and AVX-512 each round
differently), so the *same* program prints other float32 bits on another CPU, and so do we.
A test run on an arbitrary machine (CI's machines vary) therefore asserts the documented bound
below, and ``NLGMETRICS_EXACT_GOLDENS=1`` demands ``==`` (set it on the goldens' machine).

The bounds are a few float32 ulps of the score where the model is float32, more where the
head magnifies them (sparsemax's support can change with a last-bit difference) and one or
two bf16 steps for bf16 checkpoints. Measured on an AMD EPYC (AVX2) against goldens made
elsewhere: COMET 1.3e-6 at a score of 1.17, xCOMET (sparsemax) 7.5e-5, MetricX float32
1.5e-5 at a score of 22, MetricX bf16: 13 of 752 values
differ, by up to 0.69 at 16 (five bf16 steps). docs/parity.md has the table.
"""
from __future__ import annotations

import os

import numpy as np

EXACT = os.environ.get("NLGMETRICS_EXACT_GOLDENS") == "1"

# relative to max(1, |golden|)
COMET_FLOAT32 = 5e-6
XCOMET_SPARSEMAX = 2.5e-4
# absolute, on MetricX's 0-25 scale
METRICX_FLOAT32 = 1e-4
METRICX_BF16 = 1.0
# bf16: the share of values that may differ at all (13 of 752 measured)
BF16_DIFFERING = 0.15


def bound(tolerance: float) -> float:
    """The tolerance to assert: 0 when the run demands the goldens' bits."""
    return 0.0 if EXACT else tolerance


def assert_golden(got, want, tolerance: float, *, relative: bool = True, differing: float = 1.0,
                  what: str = "the reference") -> None:
    """Every value within ``tolerance`` (times ``max(1, |want|)`` when relative) of its golden,
    and at most the share ``differing`` not ``==``; ``==`` under NLGMETRICS_EXACT_GOLDENS=1."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    limit = bound(tolerance) * (np.maximum(1.0, np.abs(want)) if relative else 1.0)
    excess = np.abs(got - want) - limit
    if not (excess <= 0).all():
        i = int(np.argmax(excess))
        raise AssertionError(
            f"{int((excess > 0).sum())} values differ from {what} beyond {bound(tolerance):g}"
            f"{' x max(1, |value|)' if relative else ''}; worst at {i}: {got.flat[i]!r} vs {want.flat[i]!r}")
    share = float((got != want).mean()) if got.size else 0.0
    assert EXACT or share <= differing, f"{share:.1%} of the values differ from {what} (at most {differing:.0%} may)"
