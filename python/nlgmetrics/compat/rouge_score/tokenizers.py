"""``rouge_score.tokenizers``: ``Tokenizer`` and ``DefaultTokenizer`` (nlgmetrics' core tokenizer)."""

from __future__ import annotations

import abc

from ... import _core


class Tokenizer(abc.ABC):
    """A tokenizer for ``RougeScorer(tokenizer=...)``: any object with ``tokenize(text)``."""

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's tokenizer: lowercase, non-``[a-z0-9]`` separate, optional Porter stems."""

    def __init__(self, use_stemmer=False):
        self.use_stemmer = bool(use_stemmer)

    def tokenize(self, text):
        return list(_core.rouge_tokenize(text, "rouge-score", self.use_stemmer))
