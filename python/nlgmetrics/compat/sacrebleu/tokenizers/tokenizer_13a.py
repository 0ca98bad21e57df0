"""``sacrebleu.tokenizers.tokenizer_13a``: ``Tokenizer13a`` (nlgmetrics' ``13a`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer, _Named  # noqa: F401  (sacrebleu's module has the name)
from .tokenizer_re import TokenizerRegexp  # noqa: F401


class Tokenizer13a(_Named):
    _name = "13a"
