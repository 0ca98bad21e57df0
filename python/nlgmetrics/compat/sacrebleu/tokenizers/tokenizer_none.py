"""``sacrebleu.tokenizers.tokenizer_none``: ``NoneTokenizer`` (the line unchanged)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer


class NoneTokenizer(BaseTokenizer):
    """Don't apply any tokenization. Not even the whitespace normalization."""

    def signature(self):
        return "none"

    def __call__(self, line):
        return line
