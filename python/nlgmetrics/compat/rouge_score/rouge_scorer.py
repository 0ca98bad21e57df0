"""``rouge_score.rouge_scorer``: ``RougeScorer`` on nlgmetrics' ``ROUGE(flavour="rouge-score")``.

A custom ``tokenizer`` (any object with ``tokenize(text)``) runs here; its tokens are
renamed to ASCII ids so that the core compares them exactly, as given.
"""

from __future__ import annotations

import re
import warnings

import numpy as np

from ...metrics.rouge import ROUGE, RougeLsumWarning, RougeTokenizerWarning, split_summary
from . import scoring
from .tokenizers import DefaultTokenizer

_NGRAM = re.compile(r"rouge[0-9]$")


class RougeScorer(scoring.BaseScorer):
    """``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)``."""

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        self.rouge_types = rouge_types
        self._custom = tokenizer is not None and type(tokenizer) is not DefaultTokenizer
        if tokenizer:
            self._tokenizer = tokenizer
        else:
            self._tokenizer = DefaultTokenizer(use_stemmer)
        # a DefaultTokenizer passed in keeps its own stemming choice
        self._use_stemmer = getattr(self._tokenizer, "use_stemmer", use_stemmer) if not self._custom else False
        self._split_summaries = split_summaries
        self._metrics: dict[tuple, ROUGE] = {}

    def _metric(self, types: tuple[str, ...]) -> ROUGE:
        if types not in self._metrics:
            self._metrics[types] = ROUGE(rouge_types=list(types), use_stemmer=bool(self._use_stemmer), n_threads=1)
        return self._metrics[types]

    def _check_types(self) -> None:
        for t in self.rouge_types:
            if t in ("rougeL", "rougeLsum"):
                continue
            if _NGRAM.match(t):
                if int(t[5:]) <= 0:
                    raise ValueError("rougen requires positive n: %s" % t)
                continue
            raise ValueError("Invalid rouge type: %s" % t)

    def _sentences(self, text: str) -> list[str]:
        if self._split_summaries:
            # nltk.sent_tokenize's English Punkt, read offline (never downloaded)
            from ...metrics.nltk_word_tokenize import _sentence_tokenizer

            sents = _sentence_tokenizer().tokenize(text)
        else:
            sents = text.split("\n")
        return [s for s in sents if len(s)]

    def _encode(self, target: str, prediction: str, summary: bool) -> tuple[str, str, int, int]:
        """Texts for the core and the two token counts (rouge-score's empty cases)."""
        if not self._custom:
            if summary and self._split_summaries:
                target, prediction = split_summary(target), split_summary(prediction)
            count = lambda t: len(_token_count_source(t, self._use_stemmer))  # noqa: E731
            return target, prediction, count(target), count(prediction)
        vocab: dict[str, str] = {}

        def ids(text: str) -> tuple[str, int]:
            parts = self._sentences(text) if summary else [text]
            lines = [[vocab.setdefault(tok, f"w{len(vocab)}") for tok in self._tokenizer.tokenize(p)] for p in parts]
            return "\n".join(" ".join(line) for line in lines), sum(map(len, lines))

        (t, nt), (p, np_) = ids(target), ids(prediction)
        return t, p, nt, np_

    def score(self, target, prediction):
        """``{type: Score(precision, recall, fmeasure)}`` of ``prediction`` against ``target``."""
        self._check_types()
        result = {}
        groups = [(False, tuple(t for t in self.rouge_types if t != "rougeLsum")), (True, tuple(t for t in self.rouge_types if t == "rougeLsum"))]
        for summary, types in groups:
            if not types:
                continue
            tgt, pred, n_target, n_pred = self._encode(target, prediction, summary)
            m = self._metric(tuple(dict.fromkeys(types)))
            with warnings.catch_warnings():  # rouge-score does not warn about non-Latin text or single lines
                warnings.simplefilter("ignore", RougeTokenizerWarning)
                warnings.simplefilter("ignore", RougeLsumWarning)
                row = m.stats([pred], [[tgt]])._sum_matrix()[0]
            for k, t in enumerate(m.rouge_types):
                if t in ("rougeL", "rougeLsum") and (n_target == 0 or n_pred == 0):
                    result[t] = scoring.Score(precision=0, recall=0, fmeasure=0)  # rouge-score's integer zeros
                else:
                    result[t] = scoring.Score(*(float(x) for x in row[3 * k : 3 * k + 3]))
        return {t: result[t] for t in self.rouge_types}

    def score_multi(self, targets, prediction):
        """Per type, the score against the target with the largest F (the first on ties)."""
        score_dicts = [self.score(t, prediction) for t in targets]
        return {k: score_dicts[int(np.argmax([s[k].fmeasure for s in score_dicts]))][k] for k in self.rouge_types}


def _token_count_source(text: str, use_stemmer: bool) -> list[str]:
    return DefaultTokenizer(use_stemmer).tokenize(text)
