"""``sacrebleu.metrics``: ``BLEU``, ``CHRF``, ``TER`` with sacrebleu's constructors and calls.

References come in sacrebleu's orientation, a list of reference *streams* (``refs[k][i]``
is the k-th reference of segment i; ``None`` or a missing stream entry marks a segment
with fewer references); they are transposed here into nlgmetrics' per-segment lists.
Scores are computed by :mod:`nlgmetrics.metrics` and wrapped in sacrebleu's objects.
"""

from __future__ import annotations

import os
import sys
import types
from typing import Any, Optional, Sequence

from ...errors import LengthMismatchError
from ...metrics.bleu import BLEU as _NativeBLEU
from ...metrics.chrf import CHRF as _NativeCHRF
from ...metrics.ter import TER as _NativeTER
from ...tokenizers import signature_name
from . import _helpers
from ._helpers import extract_all_char_ngrams, extract_all_word_ngrams, extract_word_ngrams, my_log, sum_of_lists
from ._lib_ter import translation_edit_rate
from ._scores import (
    BLEUScore,
    BLEUSignature,
    CHRFScore,
    CHRFSignature,
    Score,
    Signature,
    TERScore,
    TERSignature,
)
from .tokenizers.tokenizer_ter import TercomTokenizer

__all__ = ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "Score", "Signature", "METRICS"]


def _segments(references: Sequence[Sequence[Optional[str]]], n: int | None = None) -> list[list[str]]:
    """Reference streams -> the references of each segment (``None`` entries dropped)."""
    lengths = {len(stream) for stream in references}
    if len(lengths) > 1 or (n is not None and lengths and lengths != {n}):
        want = f"{n} hypotheses and " if n is not None else ""
        raise LengthMismatchError(f"{want}reference streams of {sorted(lengths)} lines: every stream needs one line per hypothesis")
    return [[r for r in seg if r is not None] for seg in zip(*references)]


class Metric:
    """sacrebleu's ``Metric`` calls over one nlgmetrics metric (``self._native``)."""

    _SIGNATURE_TYPE = Signature

    def __init__(self) -> None:
        self._ref_cache: list[list[str]] | None = None
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None

    # -- argument checks: sacrebleu raises TypeError with these messages -------------
    def _check_sentence_score_args(self, hyp: Any, refs: Any) -> None:
        prefix = type(self).__name__
        err = None
        if not isinstance(hyp, str):
            err = "The argument `hyp` should be a string."
        elif isinstance(refs, str) or not isinstance(refs, Sequence):
            err = "The argument `refs` should be a sequence of strings."
        elif not isinstance(refs[0], str) and refs[0] is not None:
            err = "Each element of `refs` should be a string."
        if err:
            raise TypeError(f"{prefix}: {err}")

    def _check_corpus_score_args(self, hyps: Any, refs: Any) -> None:
        prefix = type(self).__name__
        err = None
        if not isinstance(hyps, Sequence):
            err = "`hyps` should be a sequence of strings."
        elif not isinstance(hyps[0], str):
            err = "Each element of `hyps` should be a string."
        elif any(line is None for line in hyps):
            err = "Undefined line in hypotheses stream!"
        if refs is not None:
            if not isinstance(refs, Sequence):
                err = "`refs` should be a sequence of sequence of strings."
            elif not isinstance(refs[0], Sequence):
                err = "Each element of `refs` should be a sequence of strings."
            elif not isinstance(refs[0][0], str) and refs[0][0] is not None:
                err = "`refs` should be a sequence of sequence of strings."
        if err:
            raise TypeError(f"{prefix}: {err}")

    # -- references ---------------------------------------------------------------------
    def _cache_references(self, references: Sequence[Sequence[Optional[str]]]) -> list[list[str]]:
        segs = _segments(references)
        counts = {len(s) for s in segs}
        self.num_refs = next(iter(counts)) if len(counts) == 1 else -1
        return segs

    def _references(self, hypotheses: Sequence[str], references: Any) -> list[list[str]]:
        if references:
            segs = _segments(references, len(hypotheses))
            counts = {len(s) for s in segs}
            self.num_refs = next(iter(counts)) if len(counts) == 1 else -1
            return segs
        if self._ref_cache:
            if len(self._ref_cache) != len(hypotheses):
                raise LengthMismatchError(f"{len(hypotheses)} hypotheses but {len(self._ref_cache)} cached references")
            return self._ref_cache
        raise RuntimeError("No references provided and the cache is empty.")

    # -- scoring ------------------------------------------------------------------------
    def _wrap(self, native_score: Any) -> Score:
        raise NotImplementedError

    def _segment_stats(self, hypotheses: Sequence[str], references: Any):
        refs = self._references(hypotheses, references)
        return self._native.stats(list(hypotheses), refs)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Score:
        """One hypothesis against its references (a list of strings)."""
        self._check_sentence_score_args(hypothesis, references)
        seg = self._segment_stats([hypothesis], [[r] for r in references])
        return self._wrap(self._native.score_stats(seg.total()))

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[str]]], n_bootstrap: int = 1) -> Score:
        """Corpus score; ``n_bootstrap > 1`` adds sacrebleu's 95% bootstrap interval."""
        self._check_corpus_score_args(hypotheses, references)
        if n_bootstrap <= 1:  # the total alone: summed in the core where the metric can (BLEU), without per-segment arrays
            return self._wrap(self._native.score_stats(self._native._total(list(hypotheses), self._references(hypotheses, references))))
        seg = self._segment_stats(hypotheses, references)
        score = self._wrap(self._native.score_stats(seg.total()))
        if n_bootstrap > 1:
            from ...engines.significance import bootstrap_ci

            env = os.environ.get("SACREBLEU_SEED", "12345")
            seed = None if env.lower() == "none" else int(env)
            ci = bootstrap_ci(self._native, seg, n_resamples=n_bootstrap, seed=seed, method="sacrebleu")
            self.n_bootstrap, self.seed = n_bootstrap, env.lower()
            score._mean, score._ci = ci.mean, ci.ci  # sacrebleu's estimate, in its scores' precision
        return score

    def get_signature(self) -> Signature:
        return self._SIGNATURE_TYPE(self.__dict__)


class BLEU(Metric):
    """sacrebleu's ``BLEU(lowercase, force, tokenize, smooth_method, smooth_value,
    max_ngram_order, effective_order, trg_lang, references)``."""

    SMOOTH_DEFAULTS: dict[str, Optional[float]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: Optional[str] = None, smooth_method: str = "exp",
                 smooth_value: Optional[float] = None, max_ngram_order: int = 4, effective_order: bool = False,
                 trg_lang: str = "", references: Optional[Sequence[Sequence[str]]] = None):
        super().__init__()
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        assert smooth_method in self.SMOOTH_DEFAULTS, "Unknown smooth_method {self.smooth_method!r}"
        tok = tokenize if tokenize is not None else self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        # sacrebleu reads its flags by truth value (lowercase=1 is lowercase): the same here
        self._native = _NativeBLEU(tokenize=tok, lowercase=bool(lowercase), smooth_method=smooth_method, smooth_value=smooth_value,
                                   max_ngram_order=max_ngram_order, effective_order=bool(effective_order))
        self.tokenizer_signature = signature_name(tok)
        if references is not None:
            self._ref_cache = self._cache_references(references)

    @staticmethod
    def compute_bleu(correct: Sequence[int], total: Sequence[int], sys_len: int, ref_len: int, smooth_method: str = "none",
                     smooth_value: Optional[float] = None, effective_order: bool = False, max_ngram_order: int = 4) -> BLEUScore:
        """BLEU from its sufficient statistics (sacrebleu's ``BLEU.compute_bleu``)."""
        import numpy as np

        from ...stats import SegmentStats

        assert smooth_method in BLEU.SMOOTH_DEFAULTS, "Unknown smooth_method {smooth_method!r}"
        native = _NativeBLEU(smooth_method=smooth_method, smooth_value=smooth_value, effective_order=bool(effective_order),
                             max_ngram_order=max_ngram_order)
        row = np.array([[sys_len, ref_len, *correct[:max_ngram_order], *total[:max_ngram_order]]], dtype=np.uint64)
        s = native.score_stats(SegmentStats(key=native.key, count_fields=native.count_fields, counts=row).total())
        return BLEUScore(s.score, list(s.counts), list(s.totals), list(s.precisions), s.bp, s.sys_len, s.ref_len)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        if not self.effective_order:
            import logging  # on use: a corpus score never warns

            logging.getLogger("sacrebleu").warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        return super().sentence_score(hypothesis, references)

    def _wrap(self, s: Any) -> BLEUScore:
        return BLEUScore(s.score, list(s.counts), list(s.totals), list(s.precisions), s.bp, s.sys_len, s.ref_len)


class CHRF(Metric):
    """sacrebleu's ``CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing, references)``."""

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _SIGNATURE_TYPE = CHRFSignature

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER, beta: int = BETA, lowercase: bool = False,
                 whitespace: bool = False, eps_smoothing: bool = False, references: Optional[Sequence[Sequence[str]]] = None):
        super().__init__()
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self._native = _NativeCHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=bool(lowercase),
                                   whitespace=bool(whitespace), eps_smoothing=bool(eps_smoothing))
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _wrap(self, s: Any) -> CHRFScore:
        return CHRFScore(s.score, self.char_order, self.word_order, self.beta)


class TER(Metric):
    """sacrebleu's ``TER(normalized, no_punct, asian_support, case_sensitive, references)``."""

    _SIGNATURE_TYPE = TERSignature

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False,
                 references: Optional[Sequence[Sequence[str]]] = None):
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self._native = _NativeTER(normalized=bool(normalized), no_punct=bool(no_punct), asian_support=bool(asian_support),
                                  case_sensitive=bool(case_sensitive))
        self.tokenizer_signature = "tercom"
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _wrap(self, s: Any) -> TERScore:
        return TERScore(s.score, s.num_edits, s.ref_length)


METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

# sacrebleu's module paths (sacrebleu.metrics.bleu.BLEU, ...) as importable submodules, each
# holding the names sacrebleu's module of that path has
_base = {"Metric": Metric, "Score": Score, "Signature": Signature, "sum_of_lists": sum_of_lists}
for _name, _names in (
    ("bleu", {**_base, "BLEU": BLEU, "BLEUScore": BLEUScore, "BLEUSignature": BLEUSignature, "MAX_NGRAM_ORDER": 4,
              "extract_all_word_ngrams": extract_all_word_ngrams, "my_log": my_log}),
    ("chrf", {**_base, "CHRF": CHRF, "CHRFScore": CHRFScore, "CHRFSignature": CHRFSignature,
              "extract_all_char_ngrams": extract_all_char_ngrams, "extract_word_ngrams": extract_word_ngrams}),
    ("ter", {**_base, "TER": TER, "TERScore": TERScore, "TERSignature": TERSignature, "TercomTokenizer": TercomTokenizer,
             "translation_edit_rate": translation_edit_rate}),
    ("base", {"Metric": Metric, "Score": Score, "Signature": Signature}),
    ("helpers", {name: getattr(_helpers, name) for name in
                 ("extract_all_word_ngrams", "extract_word_ngrams", "extract_char_ngrams", "extract_all_char_ngrams")}),
    ("lib_ter", {"translation_edit_rate": translation_edit_rate}),
):
    _module = types.ModuleType(f"{__name__}.{_name}")
    _module.__dict__.update(_names)
    sys.modules[_module.__name__] = _module
    globals()[_name] = _module
