"""``sacrebleu.tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab`` (nlgmetrics' ``ko-mecab`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import _Named


class TokenizerKoMecab(_Named):
    _name = "ko-mecab"
