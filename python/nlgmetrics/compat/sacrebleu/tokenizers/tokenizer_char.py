"""``sacrebleu.tokenizers.tokenizer_char``: ``TokenizerChar``.

sacrebleu's class returns every character of the line joined by spaces, spaces included
(``"a b"`` -> ``"a   b"``); its BLEU then splits on white space, which is what
nlgmetrics' ``char`` tokenizer returns directly. The class keeps sacrebleu's string."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer


class TokenizerChar(BaseTokenizer):
    def signature(self):
        return "char"

    def __call__(self, line):
        return " ".join(line)
