"""``sacrebleu.tokenizers.tokenizer_intl``: ``TokenizerV14International`` (nlgmetrics' ``intl`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import _Named


class TokenizerV14International(_Named):
    _name = "intl"
