"""Chinese word segmentation for ROUGE (``ROUGE(tokenizer="jieba")``, rouge-score flavour).

jieba (Sun Junyi, https://github.com/fxsjy/jieba) segments each line into words;
ASCII words go through rouge-score's own tokenizer (and its Porter stemmer when
``use_stemmer``), other words with a letter or digit are kept whole. Every distinct word
of a call is then renamed to an ASCII id (``w17``) so that the Rust core compares words
exactly, line structure (``rougeLsum``) included. Needs ``pip install jieba``.
"""

from __future__ import annotations

from .. import _core


def _jieba():
    from ..tokenizers import jieba_module

    return jieba_module()


def jieba_version() -> str:
    return getattr(_jieba(), "__version__", "unknown")


def encode(groups: list[list[str]], use_stemmer: bool, n_threads: int = 1) -> list[list[str]]:
    """Segment and rename the words of every text of ``groups`` with one shared vocabulary."""
    from ..tokenizers import jieba_cut

    lines = [line.lower() for g in groups for text in g for line in text.split("\n")]
    cuts = iter(jieba_cut(lines, n_threads=n_threads))
    vocab: dict[str, str] = {}

    def word_ids(words: list[str]) -> str:
        out = []
        for w in words:
            if w.isascii():
                toks = _core.rouge_tokenize(w, "rouge-score", use_stemmer)
            elif any(ch.isalnum() for ch in w):
                toks = [w.strip()]
            else:
                continue
            for t in toks:
                out.append(vocab.setdefault(t, f"w{len(vocab)}"))
        return " ".join(out)

    return [["\n".join(word_ids(next(cuts)) for _ in text.split("\n")) for text in g] for g in groups]
