"""CodeBLEU (Ren et al. 2020): BLEU, keyword-weighted n-gram match, syntax (AST subtree)
match and data-flow match of generated code against reference code, combined with weights
``alpha, beta, gamma, theta`` (default 0.25 each).

Two flavours, equal to their references on the same tree-sitter grammars:

- ``codexglue``: microsoft/CodeXGLUE's ``Code-Code/code-to-code-trans/evaluator/CodeBLEU``
  (``calc_code_bleu.py``). Comments are stripped with its C-style rules whatever the language
  (it passes ``'java'``; in Python that also cuts a line at ``//``, floor division), and a
  corpus without reference data flows has data-flow match 0, weighted as 0.
- ``codebleu-0.7``: PyPI ``codebleu`` 0.7.0 (k4black/codebleu) ``calc_codebleu``. Comments are
  stripped by the language's own rules (Python: tokenize, docstrings too), its Python keyword
  list adds ``match``, ``case`` and ``type``, and a data-flow match of 0 is weighted as 1
  (``theta * (dataflow or 1)``).

Both strip each snippet and split it on whitespace for the n-gram parts. CodeXGLUE's script
reads one snippet per line of a file; here a snippet is a string and may span lines.

Statistics per segment (all mergeable): BLEU's clipped n-gram matches and totals, the
hypothesis and closest reference lengths, the weighted match's unigram sums (floats, kept in
order: the reference adds them one segment after the other) and n >= 2 counts, and the
syntax and data-flow match counts; the corpus score is the reference's corpus formula.
Languages: ``codebleu-0.7`` has ``python``, ``java``, ``javascript``, ``c_sharp``, ``go``, ``c``,
``cpp`` (C and C++ walked for data flow by C#'s rules, as 0.7.0 does), ``php``, ``ruby``
(comments kept, as 0.7.0 keeps them) and ``rust``; ``codexglue`` has ``python``, ``java`` and
``c_sharp``, the languages its keyword lists cover.
"""
from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from ...errors import InvalidInputError, InvalidOptionError
from ...stats import SegmentStats
from . import _codebleu_text as T
from . import _codebleu_tree as tree
from ..base import Metric, Score

FLAVOURS = ("codexglue", "codebleu-0.7")
LANGUAGES = tuple(tree.GRAMMARS)
# CodeXGLUE's calc_code_bleu.py has keyword lists for these only (its --lang choices name more,
# which fail reading keywords/<lang>.txt)
CODEXGLUE_LANGUAGES = ("python", "java", "c_sharp")
BLEU_FIELDS = tuple(f"{kind}_{n}" for n in range(1, 5) for kind in ("match", "total"))
WEIGHTED_FIELDS = tuple(f"weighted_{kind}_{n}" for n in range(2, 5) for kind in ("match", "total"))
TREE_FIELDS = ("syntax_match", "syntax_total", "dataflow_match", "dataflow_total")
COUNT_FIELDS = ("segments", "hyp_len", "ref_len", *BLEU_FIELDS, *WEIGHTED_FIELDS, *TREE_FIELDS)
SUM_FIELDS = ("weighted_match_1", "weighted_total_1")
# The weighted match's brevity penalty measures each reference as its (tokens, weights) pair.
WEIGHTED_REF_LEN = 2


def _parse_weights(weights: Any) -> tuple[float, float, float, float]:
    if isinstance(weights, str):
        parts: Any = weights.split(",")
    elif isinstance(weights, (tuple, list)):
        parts = list(weights)
    else:
        raise InvalidOptionError(f"codebleu: weights must be 4 numbers 'alpha,beta,gamma,theta', got {weights!r}")
    try:
        values = tuple(float(p) for p in parts if not isinstance(p, bool))
    except (TypeError, ValueError):
        raise InvalidOptionError(f"codebleu: weights must be 4 numbers 'alpha,beta,gamma,theta', got {weights!r}") from None
    if len(values) != 4 or len(parts) != 4 or not all(math.isfinite(v) for v in values):
        raise InvalidOptionError(f"codebleu: weights must be 4 finite numbers 'alpha,beta,gamma,theta', got {weights!r}")
    return values  # type: ignore[return-value]


def _bleu(matches: list, totals: list, hyp_len: int, ref_len: int) -> float:
    """nltk 3.5's corpus_bleu as the references vendor it: method1 smoothing (epsilon 0.1)."""
    if matches[0] == 0:
        return 0
    if hyp_len > ref_len:
        bp: float = 1
    elif hyp_len == 0:
        bp = 0
    else:
        bp = math.exp(1 - ref_len / hyp_len)
    logs = (0.25 * math.log((m if m != 0 else 0.1) / t) for m, t in zip(matches, totals))
    return bp * math.exp(math.fsum(logs))


class CodeBLEU(Metric):
    name = "codebleu"
    count_fields = COUNT_FIELDS
    sum_fields = SUM_FIELDS

    def __init__(self, flavour: str = "codexglue", *, language: str = "python", weights: str = "0.25,0.25,0.25,0.25", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"codebleu: flavour must be one of {', '.join(FLAVOURS)}, got {flavour!r}")
        if language not in LANGUAGES:
            raise InvalidOptionError(f"codebleu: language must be one of {', '.join(LANGUAGES)}, got {language!r}")
        if flavour == "codexglue" and language not in CODEXGLUE_LANGUAGES:
            raise InvalidOptionError(f"codebleu: flavour codexglue has languages {', '.join(CODEXGLUE_LANGUAGES)} (CodeXGLUE's keyword lists), "
                                     f"got {language!r}; flavour codebleu-0.7 has {', '.join(LANGUAGES)}")
        self.flavour = flavour
        self.language = language
        self.weights = _parse_weights(weights)
        tree.parser_for(language)  # a missing [code] extra is named when the metric is built
        # CodeXGLUE strips comments with its C-style rules for every language
        self._comment_rules = "c" if flavour == "codexglue" else language

    def _signature_items(self) -> dict[str, Any]:
        return {
            "flavour": self.flavour,
            "lang": self.language,
            "weights": ",".join(repr(w) for w in self.weights),
            "grammar": tree.grammar_versions(self.language),
        }

    def _stats_items(self) -> dict[str, Any]:
        items = self._signature_items()
        items.pop("weights")  # the weights only combine the parts: statistics rescore under any
        return items

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "flavour", "lang": "lang", "weights": "w", "grammar": "ts"}

    def _tree_counts(self, hyp: str, refs: list[str]) -> list[int]:
        """Syntax then data-flow counts, with the reference's comment stripping: the candidate
        is stripped again before each reference, cumulatively, in each part."""
        counts = [0, 0, 0, 0]
        dataflow = functools.partial(tree.dataflow_counts, flavour=self.flavour)
        for part, count in ((0, tree.syntax_counts), (2, dataflow)):
            cand = hyp
            for ref in refs:
                cand = T.strip_comments(cand, self._comment_rules)
                m, t = count(cand, T.strip_comments(ref, self._comment_rules), self.language)
                counts[part] += m
                counts[part + 1] += t
        return counts

    def _row(self, hyp: str, refs: list[str]) -> tuple[list[int], list[float]]:
        hyp, refs = hyp.strip(), [r.strip() for r in refs]
        for text in (hyp, *refs):
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidInputError("codebleu: a snippet holds a lone surrogate; tree-sitter parses UTF-8 (the references raise UnicodeEncodeError)") from None
        hyp_tokens, ref_tokens = hyp.split(), [r.split() for r in refs]
        hyp_len = len(hyp_tokens)
        ref_len = T.closest_length([len(r) for r in ref_tokens], hyp_len)
        num1, den1, higher = T.weighted_counts(hyp_tokens, ref_tokens, T.keywords(self.flavour, self.language))
        counts = [1, hyp_len, ref_len, *T.bleu_counts(hyp_tokens, ref_tokens), *higher, *self._tree_counts(hyp, refs)]
        return counts, [num1, den1]

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        rows = [self._row(h, r) for h, r in zip(predictions, references)]
        counts = np.array([r[0] for r in rows], dtype=np.uint64).reshape(-1, len(COUNT_FIELDS))
        sums = np.array([r[1] for r in rows], dtype=np.float64).reshape(-1, len(SUM_FIELDS))
        ref_counts = np.array([len(r) for r in references], dtype=np.uint64)
        return SegmentStats(self.key, COUNT_FIELDS, counts, SUM_FIELDS, sums, ref_counts=ref_counts, sequence_field=SUM_FIELDS)

    def _weighted_unigrams(self, stats: Any) -> tuple[float, float]:
        from ...stats import sequential_column_sums

        seq = stats.sequence
        if seq is not None and seq.ndim == 2 and len(seq) == stats.n_segments:
            num, den = (float(v) for v in sequential_column_sums(seq))
        else:  # merged past the kept order: the exactly rounded sums
            num, den = (math.fsum(p) for p in stats.sum_partials)
        return num, den

    def _score(self, stats: Any) -> Score:
        c = {f: int(v) for f, v in zip(COUNT_FIELDS, stats.counts)}
        if c["segments"] == 0:
            raise InvalidInputError("codebleu: no segments")
        ngram = _bleu([c[f"match_{n}"] for n in range(1, 5)], [c[f"total_{n}"] for n in range(1, 5)], c["hyp_len"], c["ref_len"])
        num1, den1 = self._weighted_unigrams(stats)
        w_matches = [num1] + [c[f"weighted_match_{n}"] for n in range(2, 5)]
        w_totals = [den1] + [c[f"weighted_total_{n}"] for n in range(2, 5)]
        weighted = _bleu(w_matches, w_totals, c["hyp_len"], WEIGHTED_REF_LEN * c["segments"])
        syntax = c["syntax_match"] / c["syntax_total"]
        dataflow = c["dataflow_match"] / c["dataflow_total"] if c["dataflow_total"] else 0
        alpha, beta, gamma, theta = self.weights
        flow_term = (dataflow or 1) if self.flavour == "codebleu-0.7" else dataflow
        score = alpha * ngram + beta * weighted + gamma * syntax + theta * flow_term
        return Score(self.name, score, self.signature(stats), stats, ngram_match=ngram, weighted_ngram_match=weighted,
                     syntax_match=syntax, dataflow_match=dataflow)
