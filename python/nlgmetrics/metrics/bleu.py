"""BLEU (Papineni et al., 2002).

Flavours (``BLEU(flavour=...)``):

- ``sacrebleu`` (default): sacrebleu 2.6's BLEU exactly (tokenizers, smoothing
  ``exp``/``floor``/``add-k``/``none``, effective order, signature). Scale 0–100.

Statistics per segment: ``hyp_len, ref_len, correct_1..N, total_1..N`` where
``ref_len`` is the closest reference length (ties to the shorter) and ``correct_n``
clips each hypothesis n-gram count by its largest count in any one reference.

Citation: Papineni, Roukos, Ward, Zhu. BLEU: a Method for Automatic Evaluation of
Machine Translation. ACL 2002. Post. A Call for Clarity in Reporting BLEU Scores. WMT 2018.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)

from .._orientation import flavour_in, oriented
from .. import _core
from .. import tokenizers as _tok
from ..script_check import Segmentation
from ..errors import InvalidOptionError
from ..stats import Stats
from .base import Flavoured, Metric, Score

if TYPE_CHECKING:
    from typing import Any

    import numpy as np

    from ..stats import SegmentStats

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
_TRG_LANG_TOKENIZER = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


class BLEUScore(Score):
    """BLEU with sacrebleu's breakdown: counts, totals, precisions, bp, lengths."""

    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        ratio = self.sys_len / self.ref_len if self.ref_len else 0
        return (
            f"BLEU = {self.score:.{width}f} {prec} (BP = {self.bp:.3f} ratio = {ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


class BLEU(Flavoured, Metric, default_flavour="sacrebleu"):
    """BLEU. ``BLEU(flavour="sacrebleu", **options)``; see the module docstring.

    Options of the ``sacrebleu`` flavour (same names and defaults as ``sacrebleu.BLEU``):
    ``tokenize`` (``13a``; ``zh``/``ja-mecab``/``ko-mecab`` when ``trg_lang`` says so),
    ``lowercase=False``, ``smooth_method="exp"``, ``smooth_value=None``,
    ``max_ngram_order=4``, ``effective_order=False``.

    >>> from nlgmetrics import BLEU
    >>> BLEU().corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]]).score
    57.89300674674099
    """

    name = "BLEU"

    @classmethod
    def _load_flavours(cls) -> None:
        # Loaded on first request, so ``from nlgmetrics import BLEU`` does not pay for them.
        from . import bleu_coco, bleu_nltk, bleu_nmt  # noqa: F401


class SacreBLEU(BLEU):
    flavour = "sacrebleu"

    def __init__(
        self,
        flavour: str = "sacrebleu",
        *,
        tokenize: str | None = None,
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        spm_model: str | None = None,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if smooth_method not in SMOOTH_DEFAULTS:
            raise InvalidOptionError(
                f"unknown smooth_method {smooth_method!r}; known: {', '.join(SMOOTH_DEFAULTS)}"
            )
        if not isinstance(max_ngram_order, int) or not 1 <= max_ngram_order <= 64:
            raise InvalidOptionError(f"max_ngram_order must be an integer in 1..64, got {max_ngram_order!r}")
        if tokenize is None:
            tokenize = _TRG_LANG_TOKENIZER.get(trg_lang, "13a")
        if tokenize not in _tok.TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenizer {tokenize!r}; known: {', '.join(_tok.TOKENIZERS)}")
        self.tokenize = tokenize
        self.spm_model = None
        if tokenize in ("flores101", "flores200"):  # spBLEU: a SentencePiece model, never downloaded
            from ..spm_tokenizers import model_path

            self.spm_model = model_path(tokenize, spm_model)
            self.tokenizer_signature = tokenize
        elif spm_model is not None:
            raise InvalidOptionError("spm_model applies to tokenize='flores101' or 'flores200' only")
        else:
            self.tokenizer_signature = _tok.signature_name(tokenize)
        self.lowercase = bool(lowercase)
        if smooth_value is not None and (
            isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float)) or not (math.isfinite(smooth_value) and smooth_value >= 0)
        ):
            raise InvalidOptionError(f"smooth_value must be a finite number >= 0 (or None for the method's default), got {smooth_value!r}")
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order
        self.effective_order = bool(effective_order)
        n = max_ngram_order
        self.count_fields = ("hyp_len", "ref_len", *(f"correct_{i}" for i in range(1, n + 1)), *(f"total_{i}" for i in range(1, n + 1)))

    def _signature_items(self) -> dict[str, Any]:
        smooth = self.smooth_method
        default = SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = self.smooth_value if self.smooth_value is not None else default
            smooth += f"[{value:.2f}]"
        return {
            "case": "lc" if self.lowercase else "mixed",
            "eff": "yes" if self.effective_order else "no",
            "tok": self.tokenizer_signature,
            "smooth": smooth,
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"case": "c", "eff": "e", "tok": "tok", "smooth": "s"}

    def _stats_items(self) -> dict[str, Any]:
        return {"case": "lc" if self.lowercase else "mixed", "tok": self.tokenizer_signature, "order": self.max_ngram_order}

    def _core_inputs(self, preds: list[str], refs: list[list[str]]) -> tuple[list[str], list[list[str]], str, bool]:
        """Texts for the core; tokenizers that live in Python run here first."""
        if self.tokenize in _tok.CORE_TOKENIZERS:
            return preds, refs, self.tokenize, self.lowercase
        if self.tokenize == "jieba" and self.spm_model is None:
            # one batch through the core's jieba (what pretokenizer("jieba") does line by line)
            texts = [(s.lower() if self.lowercase else s).rstrip() for s in preds]
            texts += [(r.lower() if self.lowercase else r).rstrip() for rs in refs for r in rs]
            out = iter(_tok.tokenize("jieba", texts, self.n_threads))
            return [next(out) for _ in preds], [[next(out) for _ in rs] for rs in refs], "none", False
        if self.spm_model is not None:
            from ..spm_tokenizers import spm_pretokenizer

            pre = spm_pretokenizer(self.tokenize, self.spm_model)
        else:
            pre = _tok.pretokenizer(self.tokenize)

        def prep(s: str) -> str:
            return pre((s.lower() if self.lowercase else s).rstrip())

        return [prep(p) for p in preds], [[prep(r) for r in rs] for rs in refs], "none", False

    def _segmentation(self) -> Segmentation | None:
        return _tok.unsegmented_check(self.tokenize, "BLEU", names=("zh", "ja-mecab", "ko-mecab", "jieba", "char"))

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        if self.tokenize not in _tok.CORE_TOKENIZERS:
            return None
        got = _core.bleu_stats_lists(predictions, references, self.tokenize, self.lowercase, self.max_ngram_order, self.n_threads)
        if got is None:
            return None
        counts, ref_counts = got
        from ..stats import SegmentStats

        return SegmentStats(key=self.key, count_fields=self.count_fields, counts=counts, ref_counts=ref_counts)

    def _total_lists(self, predictions: list, references: list) -> Stats | None:
        if self.tokenize not in _tok.CORE_TOKENIZERS:
            return None
        got = _core.bleu_totals_lists(predictions, references, self.tokenize, self.lowercase, self.max_ngram_order, self.n_threads)
        if got is None:
            return None
        totals, ref_counts, n_segments = got
        return Stats(key=self.key, count_fields=self.count_fields, counts=tuple(totals), n_segments=n_segments, ref_counts=frozenset(ref_counts))

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        import numpy as np

        from ..stats import SegmentStats

        hyps, refs, tok, lc = self._core_inputs(predictions, references)
        counts = _core.bleu_stats(hyps, refs, tok, lc, self.max_ngram_order, self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> BLEUScore:
        d = _core.bleu_score(stats._count_values(), self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order)
        # sacrebleu reports integer counts unless add-k smoothing added a fraction.
        for k in ("counts", "totals"):
            d[k] = [int(x) if float(x).is_integer() else x for x in d[k]]
        return BLEUScore("BLEU", d.pop("score"), self.signature(stats), stats, **d)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return _core.bleu_scores(seg.counts, self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order)

    def _scores_from_totals(self, counts: np.ndarray, sums: np.ndarray) -> np.ndarray:
        import numpy as np

        return _core.bleu_scores(np.ascontiguousarray(counts, dtype=np.uint64), self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        c, r, tok, lc = self._core_inputs(cands, [[x] for x in refs])
        return _core.bleu_pairwise(c, [x[0] for x in r], tok, lc, self.max_ngram_order, self.smooth_method, self.smooth_value, self.effective_order, self.n_threads)


@oriented('nltk, pycocoevalcap and tensorflow/nmt', flavour_in("sacrebleu", "nltk", "coco", "nmt"))
def bleu(predictions, references, **options: Any) -> BLEUScore:
    """Corpus BLEU: ``BLEU(**options).corpus_score(predictions, references)``."""
    return BLEU(**options).corpus_score(predictions, references)


@oriented('nltk, pycocoevalcap and tensorflow/nmt', flavour_in("sacrebleu", "nltk", "coco", "nmt"))
def sentence_bleu(predictions, references, **options: Any) -> np.ndarray:
    """Sentence BLEU per prediction, with sacrebleu's sentence defaults (effective order on)."""
    options.setdefault("effective_order", True)
    return BLEU(**options).sentence_scores(predictions, references)
