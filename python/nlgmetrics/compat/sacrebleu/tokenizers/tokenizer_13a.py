"""``sacrebleu.tokenizers.tokenizer_13a``: ``Tokenizer13a`` (nlgmetrics' ``13a`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import _Named


class Tokenizer13a(_Named):
    _name = "13a"
