"""Exact match rate as Hugging Face evaluate's ``exact_match`` computes it:
``ExactMatch(flavour="plain", regexes_to_ignore=None, ignore_case=False,
ignore_punctuation=False, ignore_numbers=False)``.

Both sides are normalised in evaluate's order: every regex of ``regexes_to_ignore`` is
removed (``re.sub(pattern, "", text)``, pattern by pattern), then ``ignore_case`` lowercases
(``str.lower``), ``ignore_punctuation`` deletes ASCII punctuation (``string.punctuation``)
and ``ignore_numbers`` the digits 0-9. Strings are compared as numpy compares them (evaluate
holds them in numpy arrays, which drop trailing NUL characters). The score is
``matches / n`` (numpy's mean of the match flags, the same bits). Scale 0–1.

Flavours:

- ``plain`` (default): each text is normalised on its own, so the options mean what they
  say whatever else is in the batch. A prediction matches when it equals its reference
  (with several references: any of them).
- ``evaluate``: evaluate 0.4's script step for step, with its numpy calls on the whole
  batch (one ``corpus_score``/``stats``/``update`` call is one evaluate ``compute``; so
  ``add``, one example at a time, is not), which keeps its two numpy artefacts.
  ``np.char.lower`` keeps the array's width, so a lowercase longer than its text
  (``"İ".lower()`` is two characters) is cut to the width of the longest text on its side
  of the batch: evaluate compares ``"i"`` with ``"i̇"`` in ``["İ", "aa"]`` against
  ``["İ", "a"]``. And ``regexes_to_ignore=[]`` with no ``ignore_*`` flag leaves the inputs
  Python lists, which evaluate compares as wholes: every flag is 1 when the two lists are
  equal (trailing NULs count there), else 0. One reference per prediction, as evaluate.
- ``lm-eval``: lm-evaluation-harness 0.4.13's registered ``exact_match`` (evaluate's code,
  copied into ``lm_eval/api/metrics.py``) as its ``generate_until`` tasks apply it: one
  evaluate batch per document (the prediction repeated against each gold target, so the
  numpy artefacts above act within a document), 1 when any target matches; the task's
  ``mean`` over documents. The options are the task config's ``metric_list`` keywords
  (``ignore_case``, ``ignore_punctuation``, ``regexes_to_ignore``, ``ignore_numbers``).

Statistics per segment: ``matches`` (0 or 1) and ``n`` (1), merged by sum.
"""

from __future__ import annotations

import re
import string
from typing import Any, Sequence

import numpy as np

from ..._inputs import check_all_text
from ...errors import InvalidInputError, InvalidOptionError
from ...stats import SegmentStats, Stats
from ..base import Flavoured, Metric, Score

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_DIGITS = str.maketrans("", "", string.digits)


class ExactMatchScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"exact_match = {self.score:.{width}f} ({self.matches}/{self.n})"


class ExactMatch(Flavoured, Metric, default_flavour="plain"):
    """evaluate's exact match rate; see the module docstring.

    >>> from nlgmetrics.metrics.qa.exact_match import ExactMatch
    >>> refs = ["the cat", "theater", "YELLING", "agent007"]
    >>> preds = ["cat?", "theater", "yelling", "agent"]
    >>> ExactMatch().corpus_score(preds, refs).score
    0.25
    >>> ExactMatch(regexes_to_ignore=["the ", "yell", "YELL"], ignore_case=True, ignore_punctuation=True, ignore_numbers=True).corpus_score(preds, refs).score
    1.0
    >>> ExactMatch(flavour="evaluate", ignore_case=True).corpus_score(["İ", "aa"], ["İ", "a"]).score
    0.0
    """

    name = "exact_match"
    count_fields = ("matches", "n")

    def __init__(self, flavour: str | None = None, *, regexes_to_ignore: Sequence[str] | None = None, ignore_case: bool = False,
                 ignore_punctuation: bool = False, ignore_numbers: bool = False, n_threads: int = 0):
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
        # evaluate tells None from []: only None converts the inputs to numpy arrays
        self.regexes_given = regexes_to_ignore is not None
        self.ignore_case = bool(ignore_case)
        self.ignore_punctuation = bool(ignore_punctuation)
        self.ignore_numbers = bool(ignore_numbers)

    @classmethod
    def _load_flavours(cls) -> None:
        pass  # the flavours are defined below

    def _signature_items(self) -> dict[str, Any]:
        items = {
            "regexes": len(self.regexes_to_ignore),
            "case": "ignored" if self.ignore_case else "kept",
            "punct": "ignored" if self.ignore_punctuation else "kept",
            "digits": "ignored" if self.ignore_numbers else "kept",
        }
        if self.flavour != "plain":  # the default's signature predates the flavours
            items["flavour"] = self.flavour
        return items

    def _abbreviations(self) -> dict[str, str]:
        return {"regexes": "re", "case": "c", "punct": "p", "digits": "d", "flavour": "f"}

    def _match_flags(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        raise NotImplementedError

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        check_all_text(predictions, "predictions")
        counts = np.zeros((len(predictions), 2), dtype=np.uint64)
        counts[:, 1] = 1
        if predictions:
            counts[:, 0] = self._match_flags(predictions, references)
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


class PlainExactMatch(ExactMatch):
    """``flavour="plain"``: each text normalised on its own."""

    flavour = "plain"

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

    def _match_flags(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        norm = self.normalize
        return np.fromiter((any(norm(p) == norm(r) for r in refs) for p, refs in zip(predictions, references)),
                           dtype=np.uint64, count=len(predictions))


class EvaluateExactMatch(ExactMatch):
    """``flavour="evaluate"``: evaluate 0.4's numpy steps on the whole batch."""

    flavour = "evaluate"

    def _match_flags(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        if any(len(r) != 1 for r in references):
            raise InvalidInputError("exact_match flavour 'evaluate' takes one reference per prediction, as evaluate")
        return _evaluate_flags(self, list(predictions), [r[0] for r in references], len(predictions))


def _evaluate_flags(m: ExactMatch, preds: Any, refs: Any, n: int) -> np.ndarray:
    """evaluate 0.4's ``exact_match`` steps on one batch: the match flags (its ``score_list``)."""
    if m.regexes_given:
        for rx in m._regexes:
            preds = np.array([rx.sub("", x) for x in preds])
            refs = np.array([rx.sub("", x) for x in refs])
    else:
        preds, refs = np.asarray(preds), np.asarray(refs)
    if m.ignore_case:
        preds, refs = np.char.lower(preds), np.char.lower(refs)
    if m.ignore_punctuation:
        preds, refs = np.char.translate(preds, table=_PUNCTUATION), np.char.translate(refs, table=_PUNCTUATION)
    if m.ignore_numbers:
        preds, refs = np.char.translate(preds, table=_DIGITS), np.char.translate(refs, table=_DIGITS)
    # numpy arrays compare element by element; two Python lists (regexes_to_ignore=[]
    # without an ignore_* flag) compare as wholes, one flag for the batch
    flags = preds == refs
    return np.broadcast_to(np.asarray(flags, dtype=np.uint64), (n,))


class LmEvalExactMatch(ExactMatch):
    """``flavour="lm-eval"``: lm-evaluation-harness 0.4.13's registered ``exact_match``
    (``exact_match_hf_evaluate``, evaluate's steps) as its ``generate_until`` tasks call it:
    one evaluate batch per document, ``[prediction] * len(golds)`` against its gold targets,
    1 when the batch's mean is above 0 (any gold matches); the task's mean over documents."""

    flavour = "lm-eval"

    def _match_flags(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        out = np.empty(len(predictions), dtype=np.uint64)
        for i, (p, golds) in enumerate(zip(predictions, references)):
            flags = _evaluate_flags(self, [p] * len(golds), list(golds), len(golds))
            out[i] = 1 if np.mean(flags) > 0.0 else 0
        return out
