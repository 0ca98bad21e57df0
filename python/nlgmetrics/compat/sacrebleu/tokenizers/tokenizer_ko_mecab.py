"""``sacrebleu.tokenizers.tokenizer_ko_mecab``: ``TokenizerKoMecab`` (nlgmetrics' ``ko-mecab`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer, _Named  # noqa: F401  (sacrebleu's module has the name)

FAIL_MESSAGE = """
Korean tokenization requires extra dependencies, but you do not have them installed.
Please install them like so.

    pip install sacrebleu[ko]
"""


class TokenizerKoMecab(_Named):
    _name = "ko-mecab"
