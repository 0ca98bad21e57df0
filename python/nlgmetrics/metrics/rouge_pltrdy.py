"""ROUGE as the PyPI packages ``rouge`` 1.0.1 (pltrdy) and ``rouge-chinese`` 1.0.3
compute it: ``ROUGE(flavour="pltrdy")`` and ``ROUGE(flavour="rouge-chinese")``.

These are the ROUGE numbers of LLaMA-Factory (``predict_rouge-1/2/l``), ms-swift,
ChatGLM's fine-tuning scripts, OpenCompass's ``JiebaRougeEvaluator``, evalscope and
LongBench's ``rouge_zh_score`` (``rouge-chinese``), and of many English summarisation
scripts (``rouge``). They differ from rouge-score and ROUGE-1.5.5:

- words are ``str.split()`` of the text as given (no lowercasing, punctuation kept);
  ``tokenizer="jieba"`` first joins jieba's words with spaces, as the Chinese
  toolchains do (``" ".join(jieba.cut(text))``; ``pip install nlgmetrics[zh]``);
- ROUGE-N compares the *sets* of n-grams (``exclusive=True``, the default): a repeated
  n-gram counts once; ``exclusive=False`` clips counts as rouge-score does;
- ``F = 2·((P·R)/(P + R + 1e-8))``, so a perfect match scores 0.999999995, not 1;
- ROUGE-L: ``rouge`` splits the text into sentences on ``.`` and unites the words of the
  LCS of every reference and hypothesis sentence (summary level; distinct words with
  ``exclusive=True``); ``rouge-chinese`` takes the LCS of the whole word lists;
- n-grams run across sentence boundaries; ``rouge-chinese`` splits sentences on
  ``。！？?``, ``......``, ``……`` and line breaks (it matters only for the empty word a
  whitespace-only sentence gives).

``get_scores(hyps, refs, avg=True)`` is the corpus score: per metric the mean of the
per-pair ``P``, ``R``, ``F`` summed pair after pair, as the package does, bit for bit
(the totals keep the per-pair values in order, ``Stats.sequence``; totals rebuilt from
sums alone take the exactly rounded mean). ``avg=False`` is :meth:`sentence_prf`.
One reference per prediction, as in the packages. A pair with no sentence on a side
(an empty text; ``"..."`` for ``rouge``) makes the packages raise
``ValueError("Hypothesis is empty.")``; ``on_empty`` chooses: ``"raise"`` (the
default: :class:`~nlgmetrics.errors.InvalidInputError` naming the pair), ``"ignore"``
(``get_scores(..., ignore_empty=True)``: pairs with an empty text are left out of the
mean), ``"zero"`` (LLaMA-Factory's rule: a pair with no word on a side scores 0 and
counts). Scale 0–1.

Citation: Chin-Yew Lin. ROUGE: A Package for Automatic Evaluation of Summaries.
Text Summarization Branches Out (ACL workshop), 2004. Paul Tardy, ``rouge``
(https://github.com/pltrdy/rouge); Dong Feng, ``rouge-chinese``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ..stats import SegmentStats, Stats, sequential_column_sums
from .rouge import PRF, ROUGE, RougeScore
from .rouge_zh import jieba_version

METRICS = ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l")
ON_EMPTY = ("raise", "ignore", "zero")


def jieba_join(texts: list[str], n_threads: int = 1) -> list[str]:
    """``" ".join(jieba.cut(text))`` for every text (jieba's default mode, HMM on; the core's
    copy of jieba built from its live dictionary, :func:`nlgmetrics.tokenizers.jieba_join`)."""
    from ..tokenizers import jieba_join as join

    return join(texts, n_threads=n_threads)


class PltrdyROUGE(ROUGE):
    """``rouge`` 1.0.1's ``Rouge().get_scores`` (see the module docstring).

    Options: ``rouge_types`` (default ``rouge-1, rouge-2, rouge-l``; also ``rouge-3`` ..
    ``rouge-5``), ``exclusive=True``, ``tokenizer="none"`` (or ``"jieba"``),
    ``on_empty="raise"`` (or ``"ignore"``, ``"zero"``).

    >>> from nlgmetrics import ROUGE
    >>> s = ROUGE("pltrdy").corpus_score(["the cat the cat sat"], ["the cat sat"])
    >>> round(s.types["rouge-1"].precision, 6), round(s.types["rouge-1"].fmeasure, 9)
    (1.0, 0.999999995)
    """

    flavour = "pltrdy"
    package = "rouge-1.0.1"

    def __init__(
        self,
        flavour: str | None = None,
        *,
        rouge_types: Sequence[str] = ("rouge-1", "rouge-2", "rouge-l"),
        exclusive: bool = True,
        tokenizer: str = "none",
        on_empty: str = "raise",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if isinstance(rouge_types, str):
            rouge_types = [rouge_types]
        if isinstance(rouge_types, (list, tuple)):
            rouge_types = [t.lower() if isinstance(t, str) else t for t in rouge_types]
        self._set_types(rouge_types)
        for t in self.rouge_types:
            if t not in METRICS:
                raise InvalidOptionError(f"unknown ROUGE metric {t!r} for flavour {self.flavour!r}; known: {', '.join(METRICS)}")
        if not isinstance(exclusive, bool):
            raise InvalidOptionError(f"exclusive must be True or False, got {exclusive!r}")
        if tokenizer not in ("none", "jieba"):
            raise InvalidOptionError(f"unknown tokenizer {tokenizer!r} for flavour {self.flavour!r}; known: none, jieba")
        if on_empty not in ON_EMPTY:
            raise InvalidOptionError(f"on_empty must be one of {', '.join(ON_EMPTY)}, got {on_empty!r}")
        self.exclusive = exclusive
        self.tokenizer = tokenizer
        self.on_empty = on_empty
        self._tok_signature = f"jieba-{jieba_version()}" if tokenizer == "jieba" else "split"
        self.sum_fields = self.sum_fields + ("pairs",)

    # --- statistics -------------------------------------------------------------------

    def _signature_items(self) -> dict[str, Any]:
        return {
            "flavour": self.flavour,
            "types": "+".join(self.rouge_types),
            "tok": self._tok_signature,
            "excl": "yes" if self.exclusive else "no",
            "empty": self.on_empty,
            "agg": "mean-seq",
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "types": "t", "tok": "tok", "excl": "x", "empty": "e", "agg": "a"}

    def _segmentation(self):
        return None

    def _texts(self, texts: list[str]) -> list[str]:
        return jieba_join(texts, self.n_threads) if self.tokenizer == "jieba" else texts

    def _segment_matrix(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        refs = []
        for i, r in enumerate(references):
            if len(r) != 1:
                raise InvalidInputError(
                    f"ROUGE flavour {self.flavour!r} takes one reference per prediction (as the {self.package} package does); "
                    f"segment {i} has {len(r)}"
                )
            refs.append(r[0])
        return self._pair_matrix(predictions, refs)

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        # Plain lists of str, one reference str per prediction: read in place by the core
        # (anything else, or a text the core cannot read, takes the validating path).
        if self.tokenizer != "none" or len(predictions) != len(references):
            return None
        try:
            m = self._pair_matrix(predictions, references)
        except (TypeError, UnicodeError):
            return None
        import dataclasses

        seg = self._stats_of(m, np.ones(len(predictions), dtype=np.int64))
        return dataclasses.replace(seg, sequence_field=self.sum_fields[:-1])

    def _pair_matrix(self, predictions: list[str], refs: list[str]) -> np.ndarray:
        hyps = self._texts(predictions)
        refs = self._texts(refs)
        m = _core.rouge_pltrdy_stats(hyps, refs, list(self.rouge_types), self.flavour, self.exclusive, self.n_threads)
        flag = m[:, -1]
        k = 3 * len(self.rouge_types)
        if self.on_empty == "zero":
            m[flag < 2, :k] = 0.0
            m[:, -1] = 1.0
            return m
        counted = np.ones(len(m))
        if self.on_empty == "ignore":
            # get_scores(ignore_empty=True) drops pairs with an empty text (len 0) first.
            counted = np.fromiter((len(h) > 0 and len(r) > 0 for h, r in zip(hyps, refs)), dtype=bool, count=len(hyps)).astype(np.float64)
        bad = np.flatnonzero((flag == 0) & (counted > 0))
        if len(bad):
            i = int(bad[0])
            raise InvalidInputError(
                f"ROUGE flavour {self.flavour!r}: segment {i} has no sentence in its "
                f"{'reference' if _has_sentence(hyps[i], self.flavour) else 'prediction'} "
                f"(the {self.package} package raises 'Hypothesis is empty.' here); "
                "use on_empty='ignore' (get_scores(ignore_empty=True)) or on_empty='zero' (LLaMA-Factory's rule)"
            )
        m[:, -1] = counted
        m[counted == 0, :k] = 0.0
        return m

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        import dataclasses

        seg = super()._segment_stats(predictions, references)
        return dataclasses.replace(seg, sequence_field=self.sum_fields[:-1])

    def _score(self, stats: Stats) -> RougeScore:
        if stats.n_segments == 0:
            raise InvalidInputError("ROUGE of an empty corpus is undefined: give at least one prediction")
        pairs = float(stats.sums[-1])
        if pairs == 0:
            raise InvalidInputError("ROUGE: every pair was left out as empty (on_empty='ignore'); nothing to average")
        seq = stats.sequence
        k = len(self.sum_fields) - 1
        if seq is not None and seq.ndim == 2 and seq.shape == (stats.n_segments, k):
            means = sequential_column_sums(seq) / pairs  # get_scores(avg=True), bit for bit
        else:
            means = stats.sums[:-1] / pairs
        types = {t: PRF(*(float(x) for x in means[3 * j : 3 * j + 3])) for j, t in enumerate(self.rouge_types)}
        first = types[self.rouge_types[0]]
        return RougeScore(self.name, first.fmeasure, self.signature(stats), stats, types=types)

    def sentence_prf(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> dict[str, PRF]:
        """Per-pair precision, recall and F arrays for every type (``get_scores(avg=False)``)."""
        return super().sentence_prf(predictions, references)


def _has_sentence(text: str, flavour: str) -> bool:
    if flavour == "pltrdy":
        return any(text.split("."))
    return any(_core.rouge_chinese_cut_sent(text))


class ChineseROUGE(PltrdyROUGE):
    """``rouge-chinese`` 1.0.3's ``Rouge().get_scores`` (see the module docstring).

    >>> from nlgmetrics import ROUGE
    >>> s = ROUGE("rouge-chinese", tokenizer="jieba").corpus_score(["我 喜欢 猫"], ["我 喜欢 狗"])
    >>> round(s.types["rouge-l"].fmeasure, 6)
    0.666667
    """

    flavour = "rouge-chinese"
    package = "rouge-chinese-1.0.3"
