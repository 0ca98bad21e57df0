"""Type stubs for the native module ``nlgmetrics._core`` (built from crates/nlgmetrics-python)."""

import numpy as np
import numpy.typing as npt

__version__: str
TOKENIZERS: list[str]

def tokenize(name: str, lines: list[str], n_threads: int = 0) -> list[str]: ...

# BLEU, sacrebleu flavour
def bleu_stats(
    hyps: list[str], refs: list[list[str]], tokenizer: str, lowercase: bool, max_order: int, n_threads: int = 0
) -> npt.NDArray[np.uint64]: ...
def bleu_score(
    stats: npt.NDArray[np.uint64], max_order: int, smooth_method: str, smooth_value: float | None, effective_order: bool
) -> dict[str, object]: ...
def bleu_scores(
    stats: npt.NDArray[np.uint64], max_order: int, smooth_method: str, smooth_value: float | None, effective_order: bool
) -> npt.NDArray[np.float64]: ...
def bleu_pairwise(
    cands: list[str],
    refs: list[str],
    tokenizer: str,
    lowercase: bool,
    max_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    n_threads: int = 0,
) -> npt.NDArray[np.float64]: ...
