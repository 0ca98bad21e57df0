"""BLEU, ``nltk`` flavour: ``nltk.translate.bleu_score`` 3.10 exactly (scale 0–1).

``BLEU(flavour="nltk", weights=(0.25,)*4, smoothing="method0", auto_reweigh=False,
epsilon=0.1, alpha=5, k=5)``

- Input is pre-tokenized: ``predictions[i]`` a list of tokens and ``references[i]`` a list
  of token lists (nltk's ``list_of_references[i]``), or plain strings split like
  ``str.split()``. nltk itself does no tokenization and no lowercasing.
- Per segment and order n: ``num_n = Σ_g min(c_hyp(g), max_ref c_ref(g))`` and
  ``den_n = max(1, Σ_g c_hyp(g))`` (an order with no hypothesis n-gram counts as 0/1);
  ``ref_len`` = closest reference length, ties to the shorter. Corpus = sums.
- ``BP = 1 if c > r; 0 if c == 0; else exp(1 - r/c)``; if ``num_1 == 0`` the score is 0.
- ``score = BP · exp(fsum(w_n · ln p_n for p_n > 0))``: precisions that are not positive
  are *skipped*, which is why ``method0`` substitutes ``sys.float_info.min``.
- ``weights`` may be several tuples: one score per tuple (``Score.scores``); the longest
  tuple decides the orders counted. ``auto_reweigh`` replaces the weight *tuple*
  ``(0.25, 0.25, 0.25, 0.25)`` by ``(1/c,)*c`` when the corpus has ``c < 4`` tokens.
- Smoothing ``SmoothingFunction(epsilon, alpha, k).method0..method7`` with every quirk:
  the corpus call smooths with the references and hypothesis of the **last** segment
  (method5 and method7 append the last segment's 5-gram precision, always 5-grams;
  method6 counts the last hypothesis' n-grams), so for those methods the corpus score
  depends on segment order and merging keeps the later shard's tail. Fractions stay exact
  where nltk keeps them exact (``alpha`` given as an int keeps method6 exact).
- method6 needs three orders and a non-zero trigram precision: where nltk raises
  ``AssertionError``/``IndexError`` this raises :class:`~nlgmetrics.errors.InvalidInputError`
  / :class:`~nlgmetrics.errors.InvalidOptionError`.

Sentence scores are nltk ``sentence_bleu`` per segment (each segment its own tail).

Citation: Papineni, Roukos, Ward, Zhu. BLEU. ACL 2002. Chen & Cherry. A Systematic
Comparison of Smoothing Techniques for Sentence-Level BLEU. WMT 2014 (methods 1–7).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _core, script_check
from ..script_check import Segmentation
from .._inputs import as_references, as_sequence, check_all_text
from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError, MissingReferenceError
from ..stats import SegmentStats, Stats
from .base import Score
from .bleu import BLEU

TAIL_WIDTH = 3
_UNIFORM4 = (0.25, 0.25, 0.25, 0.25)


class NltkBLEUScore(Score):
    """nltk BLEU: ``score`` (first weight tuple), ``scores`` (all), ``precisions`` after
    smoothing, ``bp``, ``hyp_len``, ``ref_len``."""

    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        values = "/".join(f"{s:.{width}f}" for s in self.scores)
        return f"BLEU = {values} (BP = {self.bp:.3f} hyp_len = {self.hyp_len:d} ref_len = {self.ref_len:d})"


def _weight_tuples(weights: Any) -> tuple[list[tuple[float, ...]], list[bool], bool]:
    """nltk's rule: ``weights[0][0]`` works -> several tuples, otherwise one."""
    try:
        weights[0][0]
        several = True
    except (TypeError, IndexError, KeyError):
        several = False
    except Exception:
        raise InvalidOptionError(f"weights must be a tuple of numbers or a sequence of tuples, got {weights!r}") from None
    groups = list(weights) if several else [weights]
    out: list[tuple[float, ...]] = []
    uniform4: list[bool] = []
    for w in groups:
        try:
            values = tuple(float(x) for x in w)
        except (TypeError, ValueError):
            raise InvalidOptionError(f"weights must be numbers, got {w!r}") from None
        if not values or not all(np.isfinite(values)):
            raise InvalidOptionError(f"each weight tuple needs finite numbers, got {w!r}")
        out.append(values)
        # nltk compares with ``==`` against a *tuple*: a list never matches.
        uniform4.append(isinstance(w, tuple) and w == _UNIFORM4)
    return out, uniform4, several


def _method_number(smoothing: Any) -> int:
    if smoothing is None:
        return 0
    if isinstance(smoothing, int) and not isinstance(smoothing, bool) and 0 <= smoothing <= 7:
        return smoothing
    if isinstance(smoothing, str) and smoothing.startswith("method") and smoothing[6:] in {str(i) for i in range(8)}:
        return int(smoothing[6:])
    raise InvalidOptionError(f"unknown smoothing {smoothing!r}; known: method0 .. method7")


def _fmt(x: float) -> str:
    return f"{x:g}"


class NltkBLEU(BLEU):
    """BLEU as nltk computes it; see the module docstring.

    >>> from nlgmetrics import BLEU
    >>> m = BLEU(flavour="nltk", smoothing="method1")
    >>> round(m.corpus_score(["the cat sat on the mat"], [["the cat is on the mat", "there is a cat on the mat"]]).score, 6)
    0.254066
    """

    flavour = "nltk"

    def __init__(
        self,
        flavour: str = "nltk",
        *,
        weights: Any = _UNIFORM4,
        smoothing: Any = "method0",
        auto_reweigh: bool = False,
        epsilon: float = 0.1,
        alpha: float = 5,
        k: float = 5,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        self.weights, self.uniform4, self.several = _weight_tuples(weights)
        self.n_orders = max(len(w) for w in self.weights)
        if self.n_orders > 64:
            raise InvalidOptionError(f"at most 64 n-gram orders are supported, got {self.n_orders}")
        self.method = _method_number(smoothing)
        self.auto_reweigh = bool(auto_reweigh)
        for name, value in (("epsilon", epsilon), ("alpha", alpha), ("k", k)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidOptionError(f"{name} must be a number, got {value!r}")
            if isinstance(value, int) and not -(2**63) <= value < 2**63:
                # an int keeps method6 exact in the core's 64-bit arithmetic; nltk's Fractions go further
                raise InvalidOptionError(f"{name} as an integer must fit in 64 bits, got {value!r}; pass a float")
        if not 0 <= epsilon <= 1:  # method1 adds epsilon to a zero count: above 1 a precision exceeds 1
            raise InvalidOptionError(f"epsilon must be in [0, 1], got {epsilon!r}")
        self.epsilon, self.alpha, self.k = epsilon, alpha, k
        if self.method == 6 and self.n_orders < 3:
            raise InvalidOptionError("smoothing method6 needs at least 3 n-gram orders (nltk raises IndexError)")
        # Validates epsilon/alpha/k once, with the core's messages.
        _core.nltk_bleu_score(np.zeros(2 + 2 * self.n_orders + TAIL_WIDTH, np.uint64), self.n_orders, self.weights, self.uniform4, self.method, float(epsilon), alpha, float(k), False)
        n = self.n_orders
        self.count_fields = ("hyp_len", "ref_len", *(f"num_{i}" for i in range(1, n + 1)), *(f"den_{i}" for i in range(1, n + 1)))

    # -- identity -----------------------------------------------------------------------
    def _signature_items(self) -> dict[str, Any]:
        smooth = f"method{self.method}"
        if self.method == 1:
            smooth += f"[eps={_fmt(self.epsilon)}]"
        elif self.method in (4, 7):
            smooth += f"[k={_fmt(self.k)}]"
        elif self.method == 6:
            smooth += f"[alpha={self.alpha!r}]"
        return {
            "flavour": "nltk",
            "weights": ";".join(",".join(_fmt(x) for x in w) for w in self.weights),
            "smooth": smooth,
            "reweigh": "yes" if self.auto_reweigh else "no",
            "tok": "split",
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "weights": "w", "smooth": "s", "reweigh": "rw", "tok": "tok"}

    # -- inputs -------------------------------------------------------------------------
    def _prepare(self, predictions: Any, references: Any):
        """Strings (split like ``str.split()``) or token lists, in nltk's layout."""
        if isinstance(predictions, (str, bytes)):
            raise InputTypeError("predictions must be a sequence, not a single string")
        preds = as_sequence(predictions, "predictions")
        if preds and all(isinstance(p, str) for p in preds):
            return preds, as_references(references, len(preds), predictions=preds), False
        if not preds:
            return [], as_references(references, 0), False
        toks = [_token_list(p, f"predictions[{i}]") for i, p in enumerate(preds)]
        if isinstance(references, (str, bytes)):
            raise InputTypeError("references must be a sequence (one entry per prediction)")
        refs = as_sequence(references, "references")
        if len(refs) != len(toks):
            raise LengthMismatchError(f"{len(toks)} predictions but {len(refs)} references: references[i] must hold the reference(s) of predictions[i]")
        out: list[list[list[str]]] = []
        for i, r in enumerate(refs):
            if r is None or isinstance(r, (str, bytes)):
                raise InputTypeError(f"references[{i}] must be a list of tokenized references (nltk's layout), got {type(r).__name__}")
            rs = list(r)
            if rs and all(isinstance(x, str) for x in rs):
                raise InputTypeError(
                    f"references[{i}] is a flat list of strings; with tokenized predictions each "
                    "entry must be a list of token lists, e.g. [['the', 'cat']]"
                )
            if not rs:
                raise MissingReferenceError(f"references[{i}] holds no reference")
            out.append([_token_list(x, f"references[{i}][{j}]") for j, x in enumerate(rs)])
        return toks, out, True

    def _segmentation(self) -> Segmentation:
        return Segmentation(
            "merges", "BLEU flavour 'nltk' (your token lists, or whitespace split)",
            "segment the text first, e.g. nlgmetrics.tokenizers.tokenize('jieba', texts) (Chinese words), list(text) "
            "(characters), 'ja-mecab' or 'ko-mecab', or use the sacrebleu flavour with tokenize='zh' (see docs/cjk.md)",
        )

    def stats(self, predictions: Any, references: Any) -> SegmentStats:
        script_check.check(self._segmentation(), predictions, references)
        fast = self._fast_tokens(predictions, references)
        if fast is not None:
            return fast
        preds, refs, tokenized = self._prepare(predictions, references)
        try:
            return self._stats_of(preds, refs, tokenized)
        except UnicodeEncodeError as e:
            if not tokenized:
                check_all_text(preds, "predictions")
                for i, r in enumerate(refs):
                    check_all_text(r, f"references[{i}]")
            from ..errors import InvalidTextError

            raise InvalidTextError(f"input is not valid Unicode: {e.reason}") from None

    def _fast_tokens(self, predictions: Any, references: Any) -> SegmentStats | None:
        """Token lists straight to the core; any type problem falls back to the
        validating path, which names the offending element."""
        if not isinstance(predictions, list) or not isinstance(references, list) or not predictions:
            return None
        if not isinstance(predictions[0], list) or len(predictions) != len(references):
            return None
        try:
            return self._stats_of(predictions, references, True)
        except (TypeError, UnicodeEncodeError):
            return None

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return self._stats_of(predictions, references, False)

    def _stats_of(self, preds: list, refs: list, tokenized: bool) -> SegmentStats:
        fn = _core.nltk_bleu_stats_tokens if tokenized else _core.nltk_bleu_stats_text
        rows = fn(preds, refs, self.n_orders, self.n_threads)
        w = 2 + 2 * self.n_orders
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=np.ascontiguousarray(rows[:, :w]),
            ref_counts=np.fromiter((len(r) for r in refs), dtype=np.int64, count=len(refs)),
            tails=[tuple(t) for t in rows[:, w:].tolist()],
        )

    # -- scoring ------------------------------------------------------------------------
    def _core_options(self) -> tuple:
        return (self.n_orders, self.weights, self.uniform4, self.method, float(self.epsilon), self.alpha, float(self.k), self.auto_reweigh)

    def _score(self, stats: Stats) -> NltkBLEUScore:
        tail = stats.tail if stats.tail is not None else (0, 0, 1)
        row = np.concatenate([stats.counts.astype(np.uint64), np.asarray(tail, dtype=np.uint64)])
        d = _core.nltk_bleu_score(row, *self._core_options())
        scores = d.pop("scores")
        return NltkBLEUScore("BLEU", scores[0], self.signature(stats), stats, scores=scores, **d)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        tails = np.asarray(seg.tails if seg.tails else np.zeros((0, TAIL_WIDTH)), dtype=np.uint64).reshape(len(seg), TAIL_WIDTH)
        rows = np.ascontiguousarray(np.hstack([seg.counts.astype(np.uint64), tails]))
        out = _core.nltk_bleu_scores(rows, *self._core_options(), self.n_threads)
        return out if self.several else out[:, 0].copy()

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if self.several:
            raise InvalidOptionError("pairwise() needs a single weight tuple")
        return super()._pairwise(cands, refs)


def _token_list(x: Any, what: str) -> list[str]:
    if isinstance(x, (str, bytes)) or x is None:
        raise InputTypeError(f"{what} must be a list of tokens (or every prediction a string), got {type(x).__name__}")
    try:
        toks = list(x)
    except TypeError:
        raise InputTypeError(f"{what} must be a list of tokens, got {type(x).__name__}") from None
    for j, t in enumerate(toks):
        if not isinstance(t, str):
            raise InputTypeError(f"{what}[{j}] must be a string token, got {type(t).__name__}")
    return toks


def nltk_sentence_bleu(references: Sequence, hypothesis: Sequence[str], **options: Any) -> float:
    """``nltk.translate.bleu_score.sentence_bleu`` with nlgmetrics' engine (same arguments)."""
    m = NltkBLEU(**options)
    return m.corpus_score([list(hypothesis)], [[list(r) for r in references]]).score
