"""``sacrebleu.tokenizers.tokenizer_zh``: ``TokenizerZh`` (nlgmetrics' ``zh`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import _Named


class TokenizerZh(_Named):
    _name = "zh"
