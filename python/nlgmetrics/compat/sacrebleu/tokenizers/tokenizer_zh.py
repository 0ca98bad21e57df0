"""``sacrebleu.tokenizers.tokenizer_zh``: ``TokenizerZh`` (nlgmetrics' ``zh`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer, _Named  # noqa: F401  (sacrebleu's module has the name)
from .tokenizer_re import TokenizerRegexp  # noqa: F401


class TokenizerZh(_Named):
    _name = "zh"
