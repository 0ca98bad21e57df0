"""Chinese word segmentation for ROUGE (``ROUGE(tokenizer="jieba")``, rouge-score flavour).

jieba (Sun Junyi, https://github.com/fxsjy/jieba) segments each line into words;
ASCII words go through rouge-score's own tokenizer (and its Porter stemmer when
``use_stemmer``), other words with a letter or digit are kept whole. Every distinct word
of a call is then renamed to an ASCII id (``w17``) so that the Rust core compares words
exactly, line structure (``rougeLsum``) included. Needs ``pip install jieba``.
"""

from __future__ import annotations

from .. import _core
from ..errors import MissingExtraError


def _jieba():
    try:
        import jieba
    except ImportError:
        raise MissingExtraError("tokenizer='jieba' needs the jieba package: pip install nlgmetrics[zh] (or pip install jieba)") from None
    jieba.setLogLevel(60)
    return jieba


def jieba_version() -> str:
    return getattr(_jieba(), "__version__", "unknown")


def encode(groups: list[list[str]], use_stemmer: bool) -> list[list[str]]:
    """Segment and rename the words of every text of ``groups`` with one shared vocabulary."""
    jieba = _jieba()
    vocab: dict[str, str] = {}

    def word_ids(line: str) -> str:
        out = []
        for w in jieba.lcut(line.lower()):
            if w.isascii():
                toks = _core.rouge_tokenize(w, "rouge-score", use_stemmer)
            elif any(ch.isalnum() for ch in w):
                toks = [w.strip()]
            else:
                continue
            for t in toks:
                out.append(vocab.setdefault(t, f"w{len(vocab)}"))
        return " ".join(out)

    return [["\n".join(word_ids(line) for line in text.split("\n")) for text in g] for g in groups]
