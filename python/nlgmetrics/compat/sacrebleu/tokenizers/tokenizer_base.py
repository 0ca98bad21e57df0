"""``sacrebleu.tokenizers.tokenizer_base``: ``BaseTokenizer``."""

from __future__ import annotations


class BaseTokenizer:
    """A base dummy tokenizer to derive from."""

    def signature(self):
        """Returns a signature for the tokenizer."""
        raise NotImplementedError()

    def __call__(self, line):
        """Tokenizes an input line with the tokenizer."""
        raise NotImplementedError()


class _Named(BaseTokenizer):
    """A sacrebleu tokenizer class over nlgmetrics' tokenizer ``_name``."""

    _name = ""

    def signature(self):
        from ....tokenizers import signature_name

        return signature_name(self._name)

    def __call__(self, line):
        from ....tokenizers import tokenize

        return tokenize(self._name, [line], 1)[0]
