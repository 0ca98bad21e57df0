"""Command-line options of ROUGE (``-m rouge``)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options

_DEFAULT_TYPES = {
    "rouge-score": ["rouge1", "rouge2", "rougeL", "rougeLsum"],
    "rouge155": ["rouge1", "rouge2", "rougeL"],
    "pltrdy": ["rouge-1", "rouge-2", "rouge-l"],
    "rouge-chinese": ["rouge-1", "rouge-2", "rouge-l"],
}


def _add_rouge(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--rouge-flavour", default="rouge-score", choices=["rouge-score", "rouge155", "coco", "pltrdy", "rouge-chinese"], help="ROUGE flavour: rouge-score, rouge155, coco, or the PyPI packages rouge 1.0.1 (pltrdy) / rouge-chinese 1.0.3 (default: rouge-score)")
    g.add_argument("--rouge-types", nargs="+", default=None, metavar="TYPE", help="ROUGE types, e.g. rouge1 rouge2 rougeL rougeLsum (rouge155 also rougeW rougeS4 rougeSU4 rougeSU*); the first is the headline score")
    g.add_argument("--rouge-stemmer", action="store_true", help="Porter stemming (rouge-score: NLTK; rouge155: -m, Perl Porter + WordNet exceptions)")
    g.add_argument("--rouge-tokenizer", default="rouge-score", choices=["rouge-score", "unicode", "jieba", "none"], help="rouge-score flavour tokenizer (pltrdy/rouge-chinese: 'none' = split on whitespace, the default, or 'jieba'); 'unicode' scores Chinese/Japanese/Korean/Thai text, 'jieba' segments Chinese words (pip install jieba) (default: rouge-score)")
    g.add_argument("--rouge-formula", default="A", choices=["A", "B"], help="rouge155 multi-reference formula -f (default: A)")
    g.add_argument("--rouge-alpha", type=float, default=0.5, help="rouge155 -p alpha (default: 0.5)")
    g.add_argument("--rouge-weight", type=float, default=1.2, help="rouge155 ROUGE-W weight -w (default: 1.2)")
    g.add_argument("--rouge-no-wordnet", action="store_true", help="rouge155 -m without the WordNet exception list (as installs whose exception DB is unreadable)")
    g.add_argument("--rouge-stopwords", action="store_true", help="rouge155 -s: remove SMART stopwords")
    g.add_argument("--rouge-length-limit", type=int, default=None, metavar="WORDS", help="rouge155 -l: truncate summaries to WORDS words")
    g.add_argument("--rouge-byte-limit", type=int, default=None, metavar="BYTES", help="rouge155 -b: truncate summaries to BYTES bytes")
    g.add_argument("--rouge-on-empty", default="raise", choices=["raise", "ignore", "zero"], help="pltrdy/rouge-chinese: a pair with an empty side raises (the packages), is left out (ignore_empty=True) or scores 0 (LLaMA-Factory) (default: raise)")
    g.add_argument("--rouge-not-exclusive", action="store_true", help="pltrdy/rouge-chinese: Rouge(exclusive=False), clipped n-gram counts instead of n-gram sets")
    g.add_argument("--rouge-beta", type=float, default=1.2, help="coco flavour beta (default: 1.2)")
    g.add_argument("--rouge-split-summaries", action="store_true", help="rouge-score flavour: split each text into sentences with nltk's English Punkt before rougeLsum (rouge-score's split_summaries=True); without it rougeLsum reads one sentence per line, so one-line texts give rougeL")


def _collect_rouge(a: argparse.Namespace) -> dict[str, Any]:
    flavour = a.rouge_flavour
    opts: dict[str, Any] = {"flavour": flavour}
    if flavour == "coco":
        opts["beta"] = a.rouge_beta
        return opts
    opts["rouge_types"] = a.rouge_types or _DEFAULT_TYPES[flavour]
    if flavour in ("pltrdy", "rouge-chinese"):
        tok = {"rouge-score": "none"}.get(a.rouge_tokenizer, a.rouge_tokenizer)
        opts.update(tokenizer=tok, on_empty=a.rouge_on_empty, exclusive=not a.rouge_not_exclusive)
        return opts
    if flavour == "rouge-score":
        opts.update(use_stemmer=a.rouge_stemmer, tokenizer=a.rouge_tokenizer)
        if a.rouge_split_summaries:
            opts["split_summaries"] = True
    else:
        opts.update(
            stemming=a.rouge_stemmer,
            wordnet_exceptions=not a.rouge_no_wordnet,
            scoring_formula=a.rouge_formula,
            alpha=a.rouge_alpha,
            weight=a.rouge_weight,
            remove_stopwords=a.rouge_stopwords,
            length_limit=a.rouge_length_limit,
            byte_limit=a.rouge_byte_limit,
        )
    return opts


register_options("rouge", _add_rouge, _collect_rouge)
