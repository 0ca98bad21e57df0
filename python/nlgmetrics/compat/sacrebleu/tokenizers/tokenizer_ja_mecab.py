"""``sacrebleu.tokenizers.tokenizer_ja_mecab``: ``TokenizerJaMecab`` (nlgmetrics' ``ja-mecab`` tokenizer)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer, _Named  # noqa: F401  (sacrebleu's module has the name)

FAIL_MESSAGE = """
Japanese tokenization requires extra dependencies, but you do not have them installed.
Please install them like so.

    pip install sacrebleu[ja]
"""


class TokenizerJaMecab(_Named):
    _name = "ja-mecab"
