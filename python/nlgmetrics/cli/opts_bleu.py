"""Command-line options of BLEU."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_bleu(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--bleu-flavour", default="sacrebleu", help="BLEU flavour (default: sacrebleu)")
    g.add_argument("--smooth-method", "-s", dest="bleu_smooth_method", default="exp", choices=["none", "floor", "add-k", "exp"], help="BLEU smoothing (default: exp)")
    g.add_argument("--smooth-value", "-sv", dest="bleu_smooth_value", type=float, default=None, help="value for floor / add-k smoothing")
    g.add_argument("--max-ngram-order", dest="bleu_max_ngram_order", type=int, default=4, help="BLEU n-gram order (default: 4)")
    g.add_argument("--spm-model", dest="bleu_spm_model", default=None, metavar="PATH", help="SentencePiece model file of -tok flores101 / flores200 (default: sacrebleu's cache, $SACREBLEU/models; nothing is downloaded)")
    g.add_argument("--effective-order", "-e", dest="bleu_effective_order", action="store_true", help="BLEU effective order (on for --sentence-level, as sacrebleu)")


def _collect_bleu(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"flavour": a.bleu_flavour}
    if a.bleu_flavour == "sacrebleu":
        opts.update(
            smooth_method=a.bleu_smooth_method,
            smooth_value=a.bleu_smooth_value,
            max_ngram_order=a.bleu_max_ngram_order,
            effective_order=a.bleu_effective_order or a.sentence_level,
            lowercase=a.lowercase,
        )
        if a.tokenize is not None:
            opts["tokenize"] = a.tokenize
            if a.tokenize in ("flores101", "flores200") and a.bleu_spm_model is not None:  # read (so allowed) with spBLEU only
                opts["spm_model"] = a.bleu_spm_model
        elif a.trg_lang:
            opts["trg_lang"] = a.trg_lang
    return opts


register_options("bleu", _add_bleu, _collect_bleu)
