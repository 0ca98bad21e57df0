"""Type stubs for the native module ``nlgmetrics._core`` (built from crates/nlgmetrics-python)."""

from typing import Sequence

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
# -- ROUGE -------------------------------------------------------------------------------
def rouge_score_stats(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], types: Sequence[str], use_stemmer: bool, tokenizer: str, n_threads: int = 0
) -> npt.NDArray[np.float64]:
    """rouge-score statistics: per type ``[P, R, F]`` (best reference by F), shape (n, 3T)."""

def rouge_score_pairwise(
    cands: Sequence[str], refs: Sequence[str], types: Sequence[str], use_stemmer: bool, tokenizer: str, n_threads: int = 0
) -> npt.NDArray[np.float64]:
    """F of ``types[0]`` for every candidate against every reference, shape (n, m)."""

def rouge_tokenize(text: str, tokenizer: str = "rouge-score", use_stemmer: bool = False) -> list[str]:
    """Tokens of the ``rouge-score`` or ``unicode`` ROUGE tokenizer."""

def porter_stem(words: Sequence[str], flavour: str = "nltk") -> list[str]:
    """Porter stems: ``nltk`` (NLTK_EXTENSIONS) or ``rouge155`` (ROUGE-1.5.5's Perl stemmer)."""

def rouge155_stats(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    types: Sequence[str],
    weight: float,
    best_model: bool,
    alpha: float,
    stem: bool,
    stopwords: Sequence[str] | None,
    exceptions: Sequence[tuple[str, str]],
    limit_words: int | None,
    limit_bytes: int | None,
    n_threads: int = 0,
) -> npt.NDArray[np.float64]:
    """ROUGE-1.5.5 statistics: per type the ``%7.5f``-rounded ``[P, R, F]``, shape (n, 3T)."""

def rouge155_script_average(rows: npt.NDArray[np.float64], resamples: int = 1000, confidence: float = 95.0) -> dict[str, list[float]]:
    """ROUGE-1.5.5's printed average and CI from per-evaluation ``[R, P, F]`` rows."""

def rouge_coco_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], beta: float = 1.2, n_threads: int = 0) -> npt.NDArray[np.float64]:
    """pycocoevalcap ROUGE-L statistics ``[P, R, score]``, shape (n, 3)."""
# -- significance (crates/nlgmetrics-python/src/significance.rs) -----------------------
def sig_philox4x64(counter: list[int], key: list[int]) -> list[int]: ...
def sig_multinomial_indices(seed: int, n_resamples: int, n: int, n_threads: int = 0) -> npt.NDArray[np.int64]: ...
def sig_poisson_weights(seed: int, segment_ids: npt.NDArray[np.uint64], n_resamples: int, n_threads: int = 0) -> npt.NDArray[np.uint32]: ...
def sig_randomization_mask(seed: int, n_trials: int, n: int, n_threads: int = 0) -> npt.NDArray[np.uint8]: ...
def sig_totals_u64(kind: str, draws: npt.NDArray[np.int64] | npt.NDArray[np.uint32] | npt.NDArray[np.uint8], stats: npt.NDArray[np.uint64], n_threads: int = 0) -> npt.NDArray[np.uint64]: ...
def sig_totals_f64(
    kind: str,
    draws: npt.NDArray[np.int64] | npt.NDArray[np.uint32] | npt.NDArray[np.uint8],
    sums: npt.NDArray[np.float64],
    keep_partials: bool = False,
    n_threads: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.uint64]]: ...
def sig_index_totals_f32(indices: npt.NDArray[np.int64], stats: npt.NDArray[np.float64], n_threads: int = 0) -> npt.NDArray[np.float32]: ...
def sig_sacrebleu_bleu_f32_scores(
    totals: npt.NDArray[np.float32], max_order: int, smooth_method: str, smooth_value: float | None, effective_order: bool
) -> npt.NDArray[np.float64]: ...
