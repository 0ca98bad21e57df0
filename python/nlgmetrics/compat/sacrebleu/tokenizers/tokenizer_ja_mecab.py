"""``sacrebleu.tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab`` (nlgmetrics' ``ja-mecab`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import _Named


class TokenizerJaMecab(_Named):
    _name = "ja-mecab"
