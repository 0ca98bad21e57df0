"""Stubs of the native module ``nlgmetrics._core`` (only what is listed here is typed)."""

import numpy as np
import numpy.typing as npt

# -- chrF / chrF++ (sacrebleu flavour) ---------------------------------------------------
def chrf_stats(
    hyps: list[str],
    refs: list[list[str]],
    char_order: int,
    word_order: int,
    beta: float,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    n_threads: int = 0,
) -> npt.NDArray[np.uint64]:
    """Per-segment ``[n_hyp, n_ref, n_match]`` per order (chars, then words), best reference."""

def chrf_score(stats: npt.NDArray[np.uint64], beta: float, eps_smoothing: bool) -> float: ...
def chrf_scores(stats: npt.NDArray[np.uint64], beta: float, eps_smoothing: bool) -> npt.NDArray[np.float64]: ...
def chrf_pairwise(
    cands: list[str],
    refs: list[str],
    char_order: int,
    word_order: int,
    beta: float,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    n_threads: int = 0,
) -> npt.NDArray[np.float64]: ...

# -- TER (sacrebleu flavour) -------------------------------------------------------------
TER_LIMITS: tuple[int, int, int, int]
"""(max shift size, max shift distance, beam width, max shift candidates)"""

def ter_stats(
    hyps: list[str],
    refs: list[list[str]],
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    n_threads: int = 0,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]:
    """Per-segment best edits and average reference length."""

def ter_scores(edits: npt.NDArray[np.uint64], ref_lengths: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...
def ter_pairwise(
    cands: list[str],
    refs: list[str],
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    n_threads: int = 0,
) -> npt.NDArray[np.float64]: ...
def ter_tokenize(
    lines: list[str], normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool, n_threads: int = 0
) -> list[str]: ...
