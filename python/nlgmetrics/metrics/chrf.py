"""chrF and chrF++ (Popović 2015, 2017), sacrebleu 2.6 flavour.

For every order (character n-grams of orders 1..``char_order`` over the text with all
whitespace removed, then word n-grams of orders 1..``word_order``) a segment keeps the
triple ``n_hyp, n_ref, n_match`` with ``n_match = Σ_g min(count_hyp(g), count_ref(g))``,
from the reference with the best sentence F (first maximum). ``n_hyp`` is 0 for an order
in which the reference has no n-gram (sacrebleu's rule). Corpus statistics are the sums.

Score (factor ``β²``), as sacrebleu's ``_compute_f_score``:

- default (``eps_smoothing=False``, signature ``eff:yes``): over the orders with
  ``n_hyp > 0`` and ``n_ref > 0``, average ``P = m/n_hyp`` and ``R = m/n_ref``; then
  ``chrF = 100 · (1+β²)·P̄·R̄ / (β²·P̄ + R̄)`` (0 if ``P̄ + R̄ = 0``);
- ``eps_smoothing=True`` (chrF++.py / Moses / NLTK): ``100 · mean_k F_k`` with ``ε = 1e-16``
  standing in for an undefined precision, recall or F.

Word n-grams split one leading *or* trailing ASCII punctuation mark off each word
(sacrebleu#124: ``"(hi)"`` → ``"(hi"``, ``")"``). Scale 0–100; the name is ``chrF{β}``
followed by one ``+`` per word order (``chrF2``, ``chrF2++``).

Citation: Popović. chrF: character n-gram F-score for automatic MT evaluation. WMT 2015.
Popović. chrF++: words helping character n-grams. WMT 2017. Post. A Call for Clarity in
Reporting BLEU Scores. WMT 2018.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

from .._orientation import never, oriented
from .. import _core
from .._inputs import check_all_text
from ..errors import InvalidOptionError
from ..script_check import Segmentation
from ..stats import Stats
from .base import Flavoured, Metric, Score

if TYPE_CHECKING:
    import numpy as np

    from ..stats import SegmentStats

MAX_ORDER = 64


def _finite(x: numbers.Real) -> bool:
    """Whether ``x`` is a finite number, without numpy (an int past float's range is not:
    chrF computes with ``float(beta)``)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


class CHRFScore(Score):
    """chrF with its options: ``char_order``, ``word_order``, ``beta``."""


def _order(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= value <= MAX_ORDER:
        raise InvalidOptionError(f"{name} must be an integer in 0..{MAX_ORDER}, got {value!r}")
    return int(value)


class CHRF(Flavoured, Metric, default_flavour="sacrebleu"):
    """chrF / chrF++. ``CHRF(flavour="sacrebleu", **options)``; see the module docstring.

    Options (same names and defaults as ``sacrebleu.CHRF``): ``char_order=6``,
    ``word_order=0`` (2 for chrF++), ``beta=2``, ``lowercase=False``,
    ``whitespace=False``, ``eps_smoothing=False``.

    >>> from nlgmetrics import CHRF
    >>> round(CHRF().corpus_score(["The cat sat on the mat."], [["The cat is sitting on the mat."]]).score, 2)
    49.65
    >>> CHRF(word_order=2).corpus_score(["a b"], [["a b"]]).name
    'chrF2++'
    """

    name = "chrF"


class SacreCHRF(CHRF):
    flavour = "sacrebleu"

    def __init__(
        self,
        flavour: str = "sacrebleu",
        *,
        char_order: int = 6,
        word_order: int = 0,
        beta: float = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        self.char_order = _order(char_order, "char_order")
        self.word_order = _order(word_order, "word_order")
        if self.char_order + self.word_order == 0:
            raise InvalidOptionError("char_order + word_order must be at least 1")
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or not (_finite(beta) and beta >= 0):
            raise InvalidOptionError(f"beta must be a finite number >= 0, got {beta!r}")
        # keep an integral beta an int, so the name reads chrF2 as in sacrebleu
        self.beta = int(beta) if isinstance(beta, numbers.Integral) else float(beta)
        self.lowercase = bool(lowercase)
        self.whitespace = bool(whitespace)
        self.eps_smoothing = bool(eps_smoothing)
        self.count_fields = tuple(
            f"{kind}{n}_{x}"
            for kind, orders in (("char", self.char_order), ("word", self.word_order))
            for n in range(1, orders + 1)
            for x in ("hyp", "ref", "match")
        )

    @property
    def score_name(self) -> str:
        return f"chrF{self.beta}" + "+" * self.word_order

    def _signature_items(self) -> dict[str, Any]:
        return {
            "case": "lc" if self.lowercase else "mixed",
            "eff": "yes" if not self.eps_smoothing else "no",
            "nc": self.char_order,
            "nw": self.word_order,
            "space": "yes" if self.whitespace else "no",
            # sacrebleu's signature has no beta; it is in the score's name. It changes
            # the number, so it is recorded here too, only when not the default.
            "beta": None if self.beta == 2 else self.beta,
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s", "beta": "b"}

    def _options(self) -> tuple:
        return (self.char_order, self.word_order, float(self.beta), self.lowercase, self.whitespace, self.eps_smoothing)

    def _segmentation(self) -> Segmentation | None:
        if not self.word_order:  # character n-grams need no segmentation
            return None
        return Segmentation(
            "merges", f"chrF with word_order={self.word_order} (words split on whitespace)",
            "use word_order=0 (chrF: character n-grams only, WMT's convention for Chinese and Japanese) or segment the text first (see docs/cjk.md)",
        )

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        got = _core.chrf_stats_lists(predictions, references, *self._options(), self.n_threads)
        if got is None:
            return None
        counts, ref_counts = got
        from ..stats import SegmentStats

        return SegmentStats(key=self.key, count_fields=self.count_fields, counts=counts, ref_counts=ref_counts)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        import numpy as np

        from ..stats import SegmentStats

        counts = _core.chrf_stats(predictions, references, *self._options(), self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> CHRFScore:
        value = _core.chrf_score(stats.counts, float(self.beta), self.eps_smoothing)
        return CHRFScore(
            self.score_name, value, self.signature(stats), stats,
            char_order=self.char_order, word_order=self.word_order, beta=self.beta,
        )

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        if len(seg) == 0:
            import numpy as np

            return np.zeros(0)
        return _core.chrf_scores(seg.counts, float(self.beta), self.eps_smoothing)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        try:
            return _core.chrf_pairwise(cands, refs, *self._options(), self.n_threads)
        except UnicodeEncodeError:
            check_all_text(cands, "candidates")
            check_all_text(refs, "references")
            raise


@oriented('sacrebleu', never)
def chrf(predictions, references, **options: Any) -> CHRFScore:
    """Corpus chrF: ``CHRF(**options).corpus_score(predictions, references)``."""
    return CHRF(**options).corpus_score(predictions, references)


def chrf_plus_plus(**options: Any) -> CHRF:
    """A chrF++ metric object (``word_order=2`` unless given); the registry's ``chrf++``."""
    options.setdefault("word_order", 2)
    return CHRF(**options)


@oriented('sacrebleu', never)
def sentence_chrf(predictions, references, **options: Any) -> np.ndarray:
    """Sentence chrF per prediction (same options as the corpus score, as in sacrebleu)."""
    return CHRF(**options).sentence_scores(predictions, references)
