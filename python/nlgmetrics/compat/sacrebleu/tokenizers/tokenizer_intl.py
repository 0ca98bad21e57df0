"""``sacrebleu.tokenizers.tokenizer_intl``: ``TokenizerV14International`` (nlgmetrics' ``intl`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer, _Named  # noqa: F401  (sacrebleu's module has the name)


class TokenizerV14International(_Named):
    _name = "intl"
