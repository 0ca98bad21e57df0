"""Extractive fragment coverage, density and compression (Grusky, Naaman, Artzi. Newsroom:
A Dataset of 1.3 Million Summaries with Diverse Extractive Strategies. NAACL 2018), as
HELM and lighteval compute them for summaries against their *source* article.

Both references run summ_eval's ``DataStatsMetric.evaluate_example(summary, article)``
(lighteval 0.13 vendors it as ``metrics/imports/data_stats_metric.py`` and
``data_stats_utils.py``; crfm-helm 0.5 imports ``summ_eval``): the Newsroom ``Fragments``
greedy match of the lowercased summary tokens in the lowercased article tokens, then

- coverage ``= Σ|f| / |S|``, density ``= Σ|f|² / |S|`` (0 for an empty summary),
- compression ``= |A| / |S|`` (0 for an empty summary),

per (summary, article) pair. Before that both strip the prediction and remove one leading
``{`` and one trailing ``}`` from it and from the article (HELM's ``_remove_braces``,
lighteval's ``remove_braces`` / ``remove_braces_and_strip``; ``remove_braces=False`` skips it).

Corpus values are the mean over pairs, as each reference reduces them: flavour
``lighteval`` takes ``numpy.mean`` of the per-pair values (pairwise summation), flavour
``helm`` HELM's ``Stat`` (``sum += value`` pair after pair, then ``sum / count``). The
per-pair numbers are the same in both.

Tokens. Both references tokenize with spaCy's ``en_core_web_sm`` pipeline (a model
download; lighteval's de/fr/it flavours load ``*_core_news_sm``). nlgmetrics downloads
nothing, so the tokens are given:

- ``tokenize="whitespace"`` (default): ``str.split()``, which is exactly what the
  references do with ``tokenize=False`` (strings of space-separated tokens).
- ``tokenize="tokens"``: each prediction and each article is a sequence of token strings
  (e.g. ``[t.text for t in nlp(text)]`` from your own spaCy install). spaCy emits
  whitespace tokens for runs of spaces and newlines; they count in ``|S|`` and ``|A|``,
  so pass the token lists rather than joining them with spaces.

Given the same tokens the numbers are ``==`` to the references'.

Statistics per pair: ``total`` (1) and the sums ``coverage, density, compression``, kept
in pair order so each flavour's mean is its reference's own reduction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..errors import InputTypeError, InvalidInputError, InvalidOptionError
from ..stats import SegmentStats
from ..stats._totals import ordered_column_means, sequential_column_sums
from .base import Metric, Score, empty_input

FLAVOURS = ("lighteval", "helm")
TOKENIZERS = ("whitespace", "tokens")
FIELDS = ("coverage", "density", "compression")


class Match(NamedTuple):
    summary: int
    text: int
    length: int


def greedy_matches(summary: Sequence[str], text: Sequence[str]) -> list[Match]:
    """Newsroom's ``Fragments._match``: from each summary position the longest run of equal
    tokens starting anywhere in the text (the first of equal lengths), then skip past it."""
    matches: list[Match] = []
    a_start = 0
    n_a, n_b = len(summary), len(text)
    while a_start < n_a:
        best: Match | None = None
        best_length = 0
        b_start = 0
        while b_start < n_b:
            if summary[a_start] == text[b_start]:
                a_end, b_end = a_start, b_start
                while a_end < n_a and b_end < n_b and text[b_end] == summary[a_end]:
                    a_end += 1
                    b_end += 1
                if a_end - a_start > best_length:
                    best, best_length = Match(a_start, b_start, a_end - a_start), a_end - a_start
                b_start = b_end  # the reference resumes after the run, not one past its start
            else:
                b_start += 1
        if best is not None:
            matches.append(best)
            a_start += best_length
        else:
            a_start += 1
    return matches


def fragments(summary: Sequence[str], text: Sequence[str], case: bool = False) -> tuple[float, float, float]:
    """``(coverage, density, compression)`` of one summary's tokens against its article's
    tokens (``case=False``: compared lowercased, as the references' default)."""
    norm_s = [t if case else t.lower() for t in summary]
    norm_t = [t if case else t.lower() for t in text]
    matches = greedy_matches(norm_s, norm_t)
    n_s = len(summary)
    if n_s == 0:
        return 0.0, 0.0, 0.0
    coverage = sum(m.length for m in matches) / n_s
    density = sum(m.length**2 for m in matches) / n_s
    return coverage, density, len(text) / n_s


def _remove_braces(text: str) -> str:
    if text.startswith("{"):
        text = text[1:]
    if text.endswith("}"):
        text = text[:-1]
    return text


class ExtractiveFragmentsScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return (f"{self.name} coverage = {self.coverage:.{width}f}, density = {self.density:.{width}f}, "
                f"compression = {self.compression:.{width}f} ({self.total} pairs)")


class ExtractiveFragments(Metric):
    """Newsroom coverage / density / compression of summaries (predictions) against their
    source articles (references, one per summary); the score is coverage.

    ``ExtractiveFragments(flavour="lighteval", tokenize="whitespace", case=False,
    remove_braces=True, multi_ref="error")``; see the module docstring (a segment with
    several references: ``multi_ref="first"`` scores its first, ``"best"`` the one with the
    highest coverage, then density).

    >>> from nlgmetrics import ExtractiveFragments
    >>> s = ExtractiveFragments().corpus_score(["the cat sat"], ["The cat sat on the mat ."])
    >>> s.coverage, s.density, s.compression
    (1.0, 3.0, 2.3333333333333335)
    """

    name = "extractive_fragments"
    count_fields = ("total",)
    sum_fields = FIELDS
    FLAVOURS = FLAVOURS

    def __init__(self, flavour: str | None = None, *, tokenize: str = "whitespace", case: bool = False,
                 remove_braces: bool = True, multi_ref: str = "error", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        flavour = "lighteval" if flavour is None else flavour
        if not isinstance(flavour, str) or flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        if not isinstance(tokenize, str) or tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r}; known: {', '.join(TOKENIZERS)} "
                                     "(spaCy's tokens: pass them with tokenize='tokens')")
        if multi_ref not in ("error", "first", "best"):
            raise InvalidOptionError(f"unknown multi_ref {multi_ref!r}; known: error, first, best")
        self.multi_ref = multi_ref
        self.flavour = flavour
        self.tokenize = tokenize
        self.case = bool(case)
        self.remove_braces = bool(remove_braces)

    def _signature_items(self) -> dict[str, Any]:
        items = {"flavour": self.flavour, "tok": self.tokenize, "case": "mixed" if self.case else "lc",
                 "braces": "removed" if self.remove_braces else "kept"}
        if self.multi_ref != "error":
            items["multiref"] = self.multi_ref
        return items

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "tok": "tok", "case": "c", "braces": "br"}

    # -- statistics ---------------------------------------------------------------------
    def _pair(self, summary: Any, article: Any) -> tuple[float, float, float]:
        if self.tokenize == "whitespace":
            if self.remove_braces:
                summary, article = _remove_braces(summary.strip()), _remove_braces(article)
            return fragments(summary.split(), article.split(), self.case)
        return fragments(summary, article, self.case)

    def _rows(self, predictions: Sequence[Any], articles: Sequence[Any]) -> SegmentStats:
        sums = np.empty((len(predictions), len(FIELDS)), dtype=np.float64)
        for i, (p, a) in enumerate(zip(predictions, articles)):
            sums[i] = self._pair(p, a)
        return SegmentStats(self.key, self.count_fields, np.ones((len(predictions), 1), dtype=np.uint64), self.sum_fields,
                            sums, ref_counts=np.ones(len(predictions), dtype=np.int64), sequence_field=FIELDS)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        for i, refs in enumerate(references):
            if len(refs) != 1 and (self.multi_ref == "error" or not refs):
                raise InvalidInputError(f"extractive_fragments: summary {i} has {len(refs)} source articles; "
                                        "give exactly one article (the summarized input) per summary "
                                        "(multi_ref='first' takes the first, 'best' the most covered)")
        if self.multi_ref != "best":
            return self._rows(predictions, [r[0] for r in references])
        # the article that covers the summary most (coverage, then density; the first of
        # equals): not the references' own, which take one article
        sums = np.empty((len(predictions), len(FIELDS)), dtype=np.float64)
        for i, (p, refs) in enumerate(zip(predictions, references)):
            triples = [self._pair(p, a) for a in refs]
            sums[i] = max(triples, key=lambda t: (t[0], t[1]))
        return SegmentStats(self.key, self.count_fields, np.ones((len(predictions), 1), dtype=np.uint64), self.sum_fields,
                            sums, ref_counts=np.array([len(r) for r in references], dtype=np.int64), sequence_field=FIELDS)

    def stats(self, predictions: Any, references: Any) -> SegmentStats:
        if self.tokenize == "whitespace":
            return super().stats(predictions, references)
        preds = _token_lists(predictions, "predictions")
        arts = _token_lists(references, "references")
        if len(preds) != len(arts):
            raise InvalidInputError(f"extractive_fragments: {len(preds)} summaries but {len(arts)} articles")
        return self._rows(preds, arts)

    def _score(self, stats) -> ExtractiveFragmentsScore:
        total = int(stats.counts[0])
        if total == 0:
            raise empty_input(self.name, "give at least one (summary, article) pair")
        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == total:
            if self.flavour == "lighteval":
                means = ordered_column_means(seq)
            else:
                means = sequential_column_sums(seq) / total
        else:  # order unknown (statistics rebuilt from sums): the exactly rounded sums
            import math

            means = np.array([math.fsum(p) / total for p in stats.sum_partials])
        coverage, density, compression = (float(x) for x in means)
        return ExtractiveFragmentsScore(self.name, coverage, self.signature(stats), stats, coverage=coverage,
                                        density=density, compression=compression, total=total)

    def _sentence_scores(self, seg) -> np.ndarray:
        return seg.sums[:, 0].copy()


def _token_lists(values: Any, what: str) -> list[list[str]]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InputTypeError(f"{what} must be a sequence of token lists with tokenize='tokens'")
    out = []
    for i, toks in enumerate(values):
        if isinstance(toks, (str, bytes)) or not isinstance(toks, Sequence) or not all(isinstance(t, str) for t in toks):
            raise InputTypeError(f"{what}[{i}] must be a list of token strings with tokenize='tokens', "
                                 f"got {type(toks).__name__}")
        out.append(list(toks))
    return out


def extractive_fragments(summaries: Sequence[Any], articles: Sequence[Any], **options: Any) -> ExtractiveFragmentsScore:
    """``ExtractiveFragments(**options).corpus_score(summaries, articles)``."""
    return ExtractiveFragments(**options).corpus_score(summaries, articles)
