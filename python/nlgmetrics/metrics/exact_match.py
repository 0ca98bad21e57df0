"""Exact match rate as Hugging Face evaluate's ``exact_match`` computes it:
``ExactMatch(regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False,
ignore_numbers=False)``.

Both sides are normalised in evaluate's order: every regex of ``regexes_to_ignore`` is
removed (``re.sub(pattern, "", text)``, pattern by pattern), then ``ignore_case`` lowercases
(``str.lower``), ``ignore_punctuation`` deletes ASCII punctuation (``string.punctuation``)
and ``ignore_numbers`` the digits 0-9. Strings are compared as numpy compares them (evaluate
holds them in numpy arrays, which drop trailing NUL characters). A prediction matches when
it equals its reference (with several references: any of them). The score is
``matches / n`` (numpy's mean of the match flags, the same bits). Scale 0–1.

Two of evaluate's numpy artefacts are not reproduced, as they depend on the whole batch:
``"İ".lower()`` is two characters, which numpy cuts to the width of the array's longest
text (so evaluate may compare ``"i"`` with ``"i̇"``); and ``regexes_to_ignore=[]`` without
an ``ignore_*`` flag makes evaluate compare the two Python lists as wholes (0.0 or 1.0).
Here both mean what they say.
Statistics per segment: ``matches`` (0 or 1) and ``n`` (1), merged by sum.
"""

from __future__ import annotations

import re
import string
from typing import Any, ClassVar, Sequence

import numpy as np

from .._inputs import check_all_text
from ..errors import InvalidInputError, InvalidOptionError
from ..stats import SegmentStats, Stats
from .base import Metric, Score

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_DIGITS = str.maketrans("", "", string.digits)


class ExactMatchScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"exact_match = {self.score:.{width}f} ({self.matches}/{self.n})"


class ExactMatch(Metric):
    """evaluate's exact match rate; see the module docstring.

    >>> from nlgmetrics.metrics.exact_match import ExactMatch
    >>> refs = ["the cat", "theater", "YELLING", "agent007"]
    >>> preds = ["cat?", "theater", "yelling", "agent"]
    >>> ExactMatch().corpus_score(preds, refs).score
    0.25
    >>> ExactMatch(regexes_to_ignore=["the ", "yell", "YELL"], ignore_case=True, ignore_punctuation=True, ignore_numbers=True).corpus_score(preds, refs).score
    1.0
    """

    name = "exact_match"
    count_fields = ("matches", "n")
    flavours: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *, regexes_to_ignore: Sequence[str] | None = None, ignore_case: bool = False, ignore_punctuation: bool = False,
                 ignore_numbers: bool = False, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if isinstance(regexes_to_ignore, str):
            raise InvalidOptionError("regexes_to_ignore must be a list of regular expressions, not one string")
        patterns = list(regexes_to_ignore) if regexes_to_ignore is not None else []
        try:
            self._regexes = [re.compile(p) for p in patterns]
        except (re.error, TypeError) as e:
            raise InvalidOptionError(f"regexes_to_ignore: {e}") from None
        for name, value in (("ignore_case", ignore_case), ("ignore_punctuation", ignore_punctuation), ("ignore_numbers", ignore_numbers)):
            if not isinstance(value, (bool, np.bool_)):
                raise InvalidOptionError(f"{name} must be True or False, got {value!r}")
        self.regexes_to_ignore = patterns
        self.ignore_case = bool(ignore_case)
        self.ignore_punctuation = bool(ignore_punctuation)
        self.ignore_numbers = bool(ignore_numbers)

    def _signature_items(self) -> dict[str, Any]:
        return {
            "regexes": len(self.regexes_to_ignore),
            "case": "ignored" if self.ignore_case else "kept",
            "punct": "ignored" if self.ignore_punctuation else "kept",
            "digits": "ignored" if self.ignore_numbers else "kept",
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"regexes": "re", "case": "c", "punct": "p", "digits": "d"}

    def normalize(self, text: str) -> str:
        """The text as compared (evaluate's normalisation steps, in its order)."""
        for rx in self._regexes:
            text = rx.sub("", text)
        if self.ignore_case:
            text = text.lower()
        if self.ignore_punctuation:
            text = text.translate(_PUNCTUATION)
        if self.ignore_numbers:
            text = text.translate(_DIGITS)
        return text.rstrip("\x00")  # numpy's fixed-width strings drop trailing NULs

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        check_all_text(predictions, "predictions")
        counts = np.zeros((len(predictions), 2), dtype=np.uint64)
        counts[:, 1] = 1
        for i, (p, refs) in enumerate(zip(predictions, references)):
            p = self.normalize(p)
            counts[i, 0] = any(p == self.normalize(r) for r in refs)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> ExactMatchScore:
        matches, n = (int(x) for x in stats.counts)
        if n == 0:  # evaluate's numpy mean of no flags is nan (with a warning)
            raise InvalidInputError("exact match of an empty corpus is undefined: give at least one prediction")
        value = matches / n
        return ExactMatchScore("exact_match", value, self.signature(stats), stats, matches=matches, n=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return seg.counts[:, 0].astype(np.float64)
