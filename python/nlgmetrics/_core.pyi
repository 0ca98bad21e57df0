"""Type stubs for the native module ``nlgmetrics._core`` (built from crates/nlgmetrics-python)."""

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

"""Stubs of the native module ``nlgmetrics._core`` (only the functions listed here)."""


"""Stubs of the native module ``nlgmetrics._core`` (only what is listed here is typed)."""


__version__: str
TOKENIZERS: list[str]

def tokenize(name: str, lines: list[str], n_threads: int = 0) -> list[str]: ...

# BLEU, sacrebleu flavour
def bleu_stats(
    hyps: list[str], refs: list[list[str]], tokenizer: str, lowercase: bool, max_order: int, n_threads: int = 0
) -> npt.NDArray[np.uint64]: ...
def bleu_stats_lists(
    hyps: object, refs: object, tokenizer: str, lowercase: bool, max_order: int, n_threads: int = 0
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]] | None:
    """As bleu_stats, reading list items in place, plus references per segment; None if not plain lists of str."""
def bleu_totals_lists(
    hyps: object, refs: object, tokenizer: str, lowercase: bool, max_order: int, n_threads: int = 0
) -> tuple[list[int], list[int], int] | None:
    """Column sums of bleu_stats_lists, the sorted distinct references per segment, the segment count; None as bleu_stats_lists."""
def bleu_score(
    stats: npt.NDArray[np.uint64] | Sequence[int], max_order: int, smooth_method: str, smooth_value: float | None, effective_order: bool
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
def rouge_score_stats_lists(
    hyps: object, refs: object, types: Sequence[str], use_stemmer: bool, tokenizer: str, n_threads: int = 0
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]] | None:
    """As rouge_score_stats, reading list items in place, plus references per segment; None if not plain lists of str."""

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
    stem_models_only: bool = False,
    token_counts: bool = False,
) -> npt.NDArray[np.float64]:
    """ROUGE-1.5.5 statistics: per type the ``%7.5f``-rounded ``[P, R, F]``, shape (n, 3T)."""

def rouge155_script_average(rows: npt.NDArray[np.float64], resamples: int = 1000, confidence: float = 95.0) -> dict[str, list[float]]:
    """ROUGE-1.5.5's printed average and CI from per-evaluation ``[R, P, F]`` rows."""

def rouge155_script_average_counts(rows: npt.NDArray[np.float64], alpha: float, resamples: int = 1000, confidence: float = 95.0) -> dict[str, list[float]]:
    """The same under ``-t 1``, from per-evaluation ``[model count, peer count, hit]`` rows."""

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
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

# -- classification ---------------------------------------------------------------------
def clf_curve(y: Bools, scores: F64, weights: F64 | None = None, n_threads: int = 0) -> tuple[F64, F64, F64]:
    """``(fps, tps, thresholds)`` of scikit-learn's ``confusion_matrix_at_thresholds``."""

def roc_curve(y: Bools, scores: F64, weights: F64 | None = None, drop_intermediate: bool = True, n_threads: int = 0) -> tuple[F64, F64, F64, bool, bool]:
    """``(fpr, tpr, thresholds, no_positive, no_negative)``."""

def pr_curve(y: Bools, scores: F64, weights: F64 | None = None, drop_intermediate: bool = False, n_threads: int = 0) -> tuple[F64, F64, F64, bool]:
    """``(precision, recall, thresholds, no_positive)``."""

def binary_metric(name: str, y: Bools, scores: F64, weights: F64 | None = None, max_fpr: float | None = None, n_threads: int = 0) -> float:
    """``"roc_auc"`` (NaN with a single class) or ``"average_precision"`` of one problem."""

def column_metrics(name: str, y: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64], weights: F64 | None = None, max_fpr: float | None = None, n_threads: int = 0) -> F64:
    """The binary metric of every column of (n, k) matrices."""

def ovo_pairs(codes: npt.NDArray[np.int64], scores: npt.NDArray[np.float64], n_threads: int = 0) -> tuple[F64, F64]:
    """Hand & Till pair scores and pair prevalences (pairs a < b in lexicographic order)."""

def confusion_counts(y_true: npt.NDArray[np.int64], y_pred: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.uint64]: ...
def confusion_weighted(y_true: npt.NDArray[np.int64], y_pred: npt.NDArray[np.int64], weights: F64, k: int) -> npt.NDArray[np.float64]: ...
def label_sums(y_true: npt.NDArray[np.int64], y_pred: npt.NDArray[np.int64], k: int, weights: F64 | None = None) -> tuple[F64, F64, F64]: ...
def indicator_sums(y_true: npt.NDArray[np.uint8], y_pred: npt.NDArray[np.uint8], weights: F64 | None = None, samplewise: bool = False) -> tuple[F64, F64, F64]: ...
def prf(tp: F64, pred: F64, truth: F64, beta: float, average: str | None, zero_division: float, sample_weight: F64 | None = None) -> dict[str, Any]:
    """Keys: precision, recall, fscore, support (arrays), averaged ((P, R, F) or None), zero_division_hit."""

def np_sum(a: F64) -> float:
    """numpy's pairwise ``np.sum``."""

def ranked_ap(convention: str, y: Bools, scores: F64, n_threads: int = 0) -> F64:
    """``voc11``/``voc``: ``[AP]`` (NaN without positives); ``coco``: the 101 precisions (empty without positives)."""

def table_from_batch(y: Bools, scores: F64, weights: F64 | None = None, n_threads: int = 0) -> tuple[F64, F64, F64]: ...
def table_merge(s1: F64, p1: F64, n1: F64, s2: F64, p2: F64, n2: F64) -> tuple[F64, F64, F64]: ...
def groups_roc(thresholds: F64, pos: F64, neg: F64, drop_intermediate: bool = True) -> tuple[F64, F64, F64, bool, bool]: ...
def groups_pr(thresholds: F64, pos: F64, neg: F64, drop_intermediate: bool = False) -> tuple[F64, F64, F64, bool]: ...
def groups_scores(thresholds: F64, pos: F64, neg: F64, max_fpr: float | None = None) -> tuple[float, float]: ...
def hist_counts(lo: float, hi: float, n_bins: int, y: Bools, scores: F64, weights: F64 | None = None, n_threads: int = 0) -> tuple[F64, F64]: ...
def hist_groups(lo: float, hi: float, pos: F64, neg: F64) -> tuple[F64, F64, F64, float, float]:
    """Non-empty bins (highest first) as ``(thresholds, pos, neg)`` plus ``(auc_bound, ap_bound)``."""
# -- captioning: PTB tokenizer, coco BLEU, CIDEr ---------------------------------------
def ptb_tokenize(lines: Sequence[str], drop_punctuation: bool = True, n_threads: int = 0) -> list[str]: ...
def bleu_coco_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenizer: str, max_order: int, n_threads: int = 0) -> npt.NDArray[np.uint64]: ...
def bleu_coco_score(stats: npt.NDArray[np.uint64], max_order: int) -> tuple[list[float], float]: ...
def bleu_coco_scores(stats: npt.NDArray[np.uint64], max_order: int) -> npt.NDArray[np.float64]: ...

class CiderDocFreq:
    @staticmethod
    def fit(refs: Sequence[Sequence[str]], max_order: int = 4, tokenizer: str = "ptb", n_threads: int = 0) -> CiderDocFreq: ...
    @staticmethod
    def fit_ids(refs: Sequence[Sequence[Sequence[int]]], max_order: int = 4, eos: int | None = None, include_eos: bool = True) -> CiderDocFreq: ...
    @staticmethod
    def from_entries(ngrams: Sequence[str], counts: Sequence[int], n_docs: int, max_order: int) -> CiderDocFreq: ...
    def entries(self) -> tuple[list[str], list[int]]: ...
    def merge(self, other: CiderDocFreq) -> CiderDocFreq: ...
    def get(self, ngram: str) -> int: ...
    @property
    def n_docs(self) -> int: ...
    @property
    def max_order(self) -> int: ...
    def __len__(self) -> int: ...

def cider_scores(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], flavour: str = "cider-d", max_order: int = 4, sigma: float = 6.0,
    tokenizer: str = "ptb", df: CiderDocFreq | None = None, n_threads: int = 0,
) -> npt.NDArray[np.float64]: ...
def cider_scores_lists(
    hyps: object, refs: object, flavour: str = "cider-d", max_order: int = 4, sigma: float = 6.0,
    tokenizer: str = "ptb", df: CiderDocFreq | None = None, n_threads: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]] | None:
    """As cider_scores, reading list items in place, plus references per image; None if not plain lists of str."""
def cider_scores_ids(
    hyps: Sequence[Sequence[int]], refs: Sequence[Sequence[Sequence[int]]], df: CiderDocFreq, flavour: str = "cider-d",
    sigma: float = 6.0, eos: int | None = None, include_eos: bool = True, n_threads: int = 0,
) -> npt.NDArray[np.float64]: ...
def cider_pairwise(
    cands: Sequence[str], refs: Sequence[str], df: CiderDocFreq, flavour: str = "cider-d", sigma: float = 6.0,
    tokenizer: str = "ptb", n_threads: int = 0,
) -> npt.NDArray[np.float64]:
    """Shape (len(cands), len(refs)): each candidate against each reference alone, with a fixed table."""
# nltk BLEU flavour -------------------------------------------------------------------
def nltk_bleu_stats_text(hyps: Sequence[str], refs: Sequence[Sequence[str]], n_orders: int, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """Rows ``[hyp_len, ref_len, num_1..N, den_1..N, tail_len, tail_num5, tail_den5]``; strings split like ``str.split()``."""

def nltk_bleu_stats_tokens(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], n_orders: int, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """As :func:`nltk_bleu_stats_text` for token lists (nltk's layout)."""

def nltk_bleu_score(stats: npt.NDArray[np.uint64], n_orders: int, weights: Sequence[Sequence[float]], uniform4: Sequence[bool], method: int, epsilon: float, alpha: int | float, k: float, auto_reweigh: bool) -> dict:
    """nltk ``corpus_bleu`` of one summed row (tail included): scores, precisions, bp, hyp_len, ref_len."""

def nltk_bleu_scores(stats: npt.NDArray[np.uint64], n_orders: int, weights: Sequence[Sequence[float]], uniform4: Sequence[bool], method: int, epsilon: float, alpha: int | float, k: float, auto_reweigh: bool, n_threads: int = 0) -> npt.NDArray[np.float64]:
    """nltk ``sentence_bleu`` of every row: shape (rows, len(weights))."""

# Diversity -------------------------------------------------------------------------
def distinct_stats(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """Per response ``[tokens, ngrams, unique]``."""

def distinct_stats_and_unique(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> tuple[npt.NDArray[np.uint64], int]:
    """Per response ``[tokens, ngrams, unique]`` and the distinct n-grams over all texts, in one pass."""

def distinct_corpus_unique(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> int:
    """Distinct n-grams over all texts."""

def distinct_table(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> dict[str, int]:
    """Occurrences of every n-gram, keyed by its tokens joined with U+001F (U+001E escapes)."""

def distinct_hll(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, precision: int, n_threads: int = 0) -> npt.NDArray[np.uint8]:
    """HyperLogLog registers (2**precision) of the texts' n-grams."""

def hll_estimate(registers: npt.NDArray[np.uint8]) -> float:
    """HyperLogLog cardinality estimate (linear counting for small cardinalities)."""

def self_bleu_stats(texts: Sequence[str], tokenizer: str, lowercase: bool, n_orders: int, exclude_self: bool, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """nltk BLEU rows of each text against the others (or all, with itself)."""

def self_bleu_stats_tokens(tokens: Sequence[Sequence[str]], n_orders: int, exclude_self: bool, n_threads: int = 0) -> npt.NDArray[np.uint64]:
    """As :func:`self_bleu_stats` for token lists."""

def distinct_key_list(texts: Sequence[str], tokenizer: str, lowercase: bool, n: int, n_threads: int = 0) -> tuple[bytes, int]:
    """The exact n-gram union: sorted keys (tokens joined by U+001F) joined by newlines, and their count."""

def distinct_key_union(a: bytes, b: bytes) -> tuple[bytes, int]:
    """Sorted union of two key lists of :func:`distinct_key_list`."""

def exact_partials(values: npt.NDArray[np.float64]) -> list[float]:
    """Shewchuk partials of the exact sum of finite values (``math.fsum`` of them = the sum)."""
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

def chrf_stats_lists(
    hyps: object, refs: object, char_order: int, word_order: int, beta: float, lowercase: bool, whitespace: bool, eps_smoothing: bool, n_threads: int = 0
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]] | None:
    """As chrf_stats, reading list items in place, plus references per segment; None if not plain lists of str."""
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
    lines: list[str],
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    n_threads: int = 0,
    rstrip: bool = True,
) -> list[str]: ...
# Stubs of the native functions added by the METEOR family (nlgmetrics._core).

class MeteorResources:
    """Parsed METEOR 1.5 resources: function words, prefixes, synsets, exceptions, paraphrases."""

    def __init__(
        self,
        function_words: bytes,
        prefixes: bytes,
        synsets: bytes,
        exceptions: bytes,
        paraphrases: bytes | None = None,
    ) -> None: ...
    cache_format: int
    def save_cache(self, path: str) -> None:
        """Write the compiled tables to ``path``."""
    @staticmethod
    def load_cache(path: str) -> "MeteorResources":
        """Tables written by :meth:`save_cache` (an error for another format or a damaged file)."""
    @property
    def has_paraphrases(self) -> bool: ...

def meteor_stats(
    resources: MeteorResources,
    hyps: list[str],
    refs: list[list[str]],
    modules: list[str],
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: list[float],
    normalization: str,
    n_threads: int = 0,
) -> npt.NDArray[np.uint64]: ...
def meteor_pairwise_stats(
    resources: MeteorResources,
    cands: list[str],
    refs: list[str],
    modules: list[str],
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: list[float],
    normalization: str,
    n_threads: int = 0,
) -> npt.NDArray[np.uint64]: ...
def meteor_score(
    stats: npt.NDArray[np.uint64], alpha: float, beta: float, gamma: float, delta: float, weights: list[float]
) -> dict[str, float]: ...
def meteor_scores(
    stats: npt.NDArray[np.uint64], alpha: float, beta: float, gamma: float, delta: float, weights: list[float]
) -> npt.NDArray[np.float64]: ...
def meteor_normalize(resources: MeteorResources, texts: list[str], normalization: str) -> list[str]: ...
def meteor_stem(words: list[str]) -> list[str]: ...
def nltk_meteor_stats(
    hyps: list[list[int]],
    refs: list[list[list[int]]],
    stem_of: list[int],
    syn_of: list[list[int]],
    alpha: float,
    beta: float,
    gamma: float,
    n_threads: int = 0,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]: ...
# -- WER family (jiwer 4.0.0) and PER --------------------------------------------------
def edit_stats(hyps: list[str], refs: list[list[str]], transform: str, multi_ref: str, n_threads: int = 0) -> npt.NDArray[np.uint64]: ...
def edit_stats_lists(
    hyps: object, refs: object, transform: str, multi_ref: str, n_threads: int = 0
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]] | None:
    """As edit_stats, reading list items in place, plus references per segment; None if not plain lists of str."""
def edit_alignments(hyps: list[str], refs: list[list[str]], transform: str, multi_ref: str) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...
def edit_scores(stats: npt.NDArray[np.uint64], measure: str) -> npt.NDArray[np.float64]: ...
def edit_measures(stats: list[int]) -> tuple[float, float, float, float]: ...
def edit_pairwise(cands: list[str], refs: list[str], transform: str, measure: str, n_threads: int = 0) -> npt.NDArray[np.float64]: ...
def per_stats(hyps: list[str], refs: list[list[str]], tokenizer: str, lowercase: bool, multi_ref: str, n_threads: int = 0) -> npt.NDArray[np.uint64]: ...
def per_scores(stats: npt.NDArray[np.uint64]) -> npt.NDArray[np.float64]: ...
def per_pairwise(cands: list[str], refs: list[str], tokenizer: str, lowercase: bool, n_threads: int = 0) -> npt.NDArray[np.float64]: ...

# -- NIST ------------------------------------------------------------------------------
def nist_table(refs: list[list[str]], flavour: str, tokenizer: str, lowercase: bool, n: int) -> tuple[list[str], list[int], int]: ...
def nist_stats(
    hyps: list[str],
    refs: list[list[str]],
    flavour: str,
    tokenizer: str,
    lowercase: bool,
    n: int,
    table: tuple[list[str], list[int], int] | None = None,
    n_threads: int = 0,
    batch_table: bool = False,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]: ...
def nist_stats_lists(
    hyps: object,
    refs: object,
    flavour: str,
    tokenizer: str,
    lowercase: bool,
    n: int,
    table: tuple[list[str], list[int], int] | None = None,
    n_threads: int = 0,
    batch_table: bool = False,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64], npt.NDArray[np.int64]] | None:
    """As nist_stats, reading list items in place, plus references per segment; None if not plain lists of str."""
def nist_score(flavour: str, counts: npt.NDArray[np.uint64], sums: npt.NDArray[np.float64], n_segments: int, lenient: bool) -> dict[str, object]: ...
def nist_scores(flavour: str, counts: npt.NDArray[np.uint64], sums: npt.NDArray[np.float64], lenient: bool) -> npt.NDArray[np.float64]: ...

# PARENT (data-to-text)
def parent_stats(
    preds: list[str],
    refs: list[list[str]],
    tables: list[list[list[str]]],
    lambda_weight: float | None,
    smoothing: float,
    max_order: int,
    lowercase: bool,
    n_threads: int = 0,
) -> np.ndarray: ...

# Question answering (SQuAD official scripts)
def squad_stats(
    preds: object, golds: object, version: str, n_threads: int = 0
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64], npt.NDArray[np.int64]] | None:
    """Per question [exact, shared, pred_len, gold_len, pred_nonempty] (n x 5), F1 and the number of gold answers, as
    evaluate-v1.1.py ("1.1") or evaluate-v2.0.py ("2.0"); None if not a list of str and a
    list of lists/tuples of str."""
def squad_normalize(texts: list[str], n_threads: int = 0) -> list[str]: ...
def squad_best_threshold(
    scores: npt.NDArray[np.float64],
    has_ans: npt.NDArray[np.bool_],
    pred_nonempty: npt.NDArray[np.bool_],
    order: npt.NDArray[np.int64],
) -> tuple[float, int | None]: ...
def squad_dataset_v1(
    data: object, predictions: object, n_threads: int = 0
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64], npt.NDArray[np.int64]] | None:
    """squad_stats of evaluate-v1.1.py's parsed inputs (the dataset's "data" list and {id: text}),
    read in place; None unless every question has a str prediction and a gold answer and the
    shapes are exact lists, dicts and str."""
def squad_dataset_v2(
    data: object, predictions: object, n_threads: int = 0
) -> tuple[list[str], tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64], npt.NDArray[np.int64]]] | None:
    """(ids, squad_stats) of evaluate-v2.0.py's parsed inputs, the questions keyed by id as the
    script's dict (first place, last answers); None unless every question has a str
    prediction and the shapes are exact lists, dicts and str."""
def squad_dataset_questions(data: object) -> tuple[list[str], list[list[str]]] | None:
    """(ids, gold answer texts per question) of a SQuAD dataset's "data" list, in order;
    None unless the shapes are exact lists, dicts and str."""
def squad_files(
    data: bytes, predictions: bytes, na_probs: bytes | None = None, version: str = "auto", n_threads: int = 0
) -> tuple[
    str,
    str,
    tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64], npt.NDArray[np.int64]],
    tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.int64]] | None,
] | None:
    """(version, the dataset's version field, squad_stats, the probabilities' (values, which
    were ints, threshold search order) or None) from the dataset, predictions and no-answer
    probabilities files' bytes, read in the core; None unless they are the exact regular
    shapes with every question answered and every probability a number Python reads the same."""
def squad_files_lists(
    data: bytes, predictions: bytes, na_probs: bytes | None, version: str, n_threads: int = 0
) -> tuple[str, str, tuple[list[int], list[float], list[int]], tuple[list[float], list[bool], list[int]] | None] | None:
    """squad_files as Python lists (the per-question rows flattened, 5 a question): totals
    from these need no numpy."""
# -- rouge / rouge-chinese packages (crates/nlgmetrics-python/src/rouge_pltrdy.rs) ----
def rouge_pltrdy_stats(
    hyps: Sequence[str], refs: Sequence[str], metrics: Sequence[str], variant: str, exclusive: bool = True, n_threads: int = 0
) -> npt.NDArray[np.float64]:
    """Per pair, per metric ``[P, R, F]``, then a flag (0: a side has no sentence,
    1: a side has no word, 2: scored); shape (n, 3T + 1). ``variant``: "pltrdy" or "rouge-chinese"."""
def rouge_chinese_cut_sent(text: str) -> list[str]:
    """``rouge_chinese.Rouge().cut_sent(text)``."""
def rouge_pltrdy_traceback_depths(hyps: Sequence[str], refs: Sequence[str], n_threads: int = 0) -> list[int]:
    """Per pair, the deepest nesting of ``rouge`` 1.0.1's recursive LCS traceback (``_recon``)."""
def llamafactory_rows(raw_h: Sequence[str], raw_r: Sequence[str], cut_h: Sequence[str], cut_r: Sequence[str], n_threads: int = 0) -> npt.NDArray[np.float64]:
    """LLaMA-Factory 0.9.5 ``ComputeSimilarity`` rows ``[rouge-1, rouge-2, rouge-l, bleu-4]`` (×100, rounded to 4 digits)."""
def py_round_array(values: Sequence[float], ndigits: int) -> list[float]:
    """CPython's ``round(x, ndigits)`` of every value (0 <= ndigits <= 8)."""
# SARI (text simplification)
def sari_easse_stats(sources: list[str], hyps: list[str], refs: list[list[str]], tokenizer: str, lowercase: bool, n_threads: int = 0, legacy: bool = False) -> npt.NDArray[np.uint64]:
    """EASSE corpus_sari statistics, shape (n, 36): column stat * 4 + order (add, keep, del x correct, sys total, ref total)."""
def sari_sentence_stats(sources: list[str], hyps: list[str], refs: list[list[str]], flavour: str, n_threads: int = 0) -> npt.NDArray[np.float64]:
    """Sentence SARI of the evaluate / xu2016 flavours, shape (n, 4): keep, del, add, sari (0-1)."""
def sari_easse_scores(stats: npt.NDArray[np.uint64]) -> npt.NDArray[np.float64]:
    """EASSE SARI of summed statistics rows (n, 36), shape (n, 4): sari, add, keep, del (0-100)."""
# jieba segmentation (a copy of jieba 0.42.1's cut / cut_for_search built from its live state)
class JiebaSegmenter:
    """jieba's segmenter from ``jieba.dt.FREQ``, ``jieba.dt.total`` and ``jieba.finalseg``'s
    ``start_P``, ``trans_P``, ``emit_P``, ``Force_Split_Words``, ``MIN_FLOAT``."""

    def __init__(
        self,
        freq: dict[str, int],
        total: int,
        start: dict[str, float],
        trans: dict[str, dict[str, float]],
        emit: dict[str, dict[str, float]],
        force_split: Sequence[str],
        min_float: float,
    ) -> None: ...
    def freq(self, word: str) -> int | None:
        """``FREQ.get(word)``."""
    def cut(self, texts: list[str], mode: str = "default", n_threads: int = 1) -> list[list[str]]:
        """``list(jieba.cut(text))`` of every text; ``mode``: "default", "no_hmm" (``HMM=False``),
        "search" (``cut_for_search``), "search_no_hmm"."""
    def join(self, texts: list[str], mode: str = "default", sep: str = " ", skip_space: bool = False, n_threads: int = 1) -> list[str]:
        """``sep.join(jieba.cut(text))`` of every text (``skip_space``: without whitespace words)."""
def llamafactory_rows_jieba(raw_h: Sequence[str], raw_r: Sequence[str], segmenter: JiebaSegmenter, n_threads: int = 0) -> npt.NDArray[np.float64]:
    """``llamafactory_rows`` with both sides segmented by ``segmenter`` (``" ".join(jieba.cut(text))``) in the core."""

# Ranked retrieval (trec_eval 9 / pytrec_eval per-query measures)
def retrieval_stats(
    qids: list[str],
    run_docs: list[str],
    run_scores: list[float],
    run_starts: list[int],
    judged_docs: list[str],
    judged_rels: list[int],
    judged_starts: list[int],
    measures: list[tuple[str, int]],
    relevance_level: int = 1,
    judged_only: bool = False,
    single_precision: bool = True,
    n_threads: int = 0,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]:
    """Per query ``[num_ret, num_rel, num_rel_ret]`` (q × 3) and one row of ``measures``
    (``(kind, cutoff)``: map, recip_rank, ndcg, Rprec, P, recall, success, map_cut, ndcg_cut)."""
def retrieval_stats_lists(
    qids: list[str],
    run_docs: list[str],
    run_scores: list[float],
    run_starts: list[int],
    judged_docs: list[str],
    judged_rels: list[int],
    judged_starts: list[int],
    measures: list[tuple[str, int]],
    relevance_level: int = 1,
    judged_only: bool = False,
    single_precision: bool = True,
    n_threads: int = 0,
) -> tuple[list[int], list[float]]:
    """retrieval_stats as flat Python lists, row-major (3 counts, then one value per measure,
    a query): totals from these need no numpy."""
