"""``sacrebleu.tokenizers``: sacrebleu 2.6's tokenizer classes, by the same module paths
(``from ...tokenizers.tokenizer_13a import Tokenizer13a``), each calling nlgmetrics'
tokenizer of that name. An instance is called on one line and returns the tokenized line
(tokens joined by single spaces) and has ``signature()``, as sacrebleu's.

Not provided: ``tokenizer_spm`` (its classes download SentencePiece models; nlgmetrics'
``flores101``/``flores200`` tokenizers read a local model, see :mod:`nlgmetrics.spm_tokenizers`).
"""

from .tokenizer_base import BaseTokenizer  # noqa: F401

_MODULES = ("tokenizer_13a", "tokenizer_base", "tokenizer_char", "tokenizer_intl", "tokenizer_ja_mecab", "tokenizer_ko_mecab",
            "tokenizer_none", "tokenizer_re", "tokenizer_ter", "tokenizer_zh")


def __getattr__(name: str):
    # sacrebleu.tokenizers.tokenizer_ter etc. as attributes, loaded on first use
    if name in _MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
