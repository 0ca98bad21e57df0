"""``sacrebleu.tokenizers.tokenizer_ter``: ``TercomTokenizer`` (nlgmetrics' tercom
tokenizer, the one ``TER`` uses)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer


class TercomTokenizer(BaseTokenizer):
    """``TercomTokenizer(normalized=False, no_punct=False, asian_support=False, case_sensitive=False)``."""

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False):
        # sacrebleu reads the flags by truth value
        self._normalized = bool(normalized)
        self._no_punct = bool(no_punct)
        self._asian_support = bool(asian_support)
        self._case_sensitive = bool(case_sensitive)

    def __call__(self, sent: str) -> str:
        if not sent:
            return ""
        from .... import _core
        from ...._inputs import check_all_text

        try:
            return _core.ter_tokenize([sent], self._normalized, self._no_punct, self._asian_support, self._case_sensitive, 1, rstrip=False)[0]
        except UnicodeEncodeError:
            check_all_text([sent], "sent")
            raise

    def signature(self):
        return "tercom"
