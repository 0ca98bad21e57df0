"""Command-line options of ``extractive_fragments`` (its reference's mean, case, braces) and
``ragas_string`` (which ragas metric, its distance or ROUGE settings)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from . import opts_edit  # noqa: F401 - several references per segment: --edit-multi-ref (declared with the WER family)
from .options import register_options


def _add_fragments(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--fragments-flavour", default=None, choices=["lighteval", "helm"],
                   help="extractive_fragments: whose mean (lighteval: numpy.mean, default; helm: Stat's running sum); "
                        "the references (-r) are the source articles")
    g.add_argument("--fragments-case-sensitive", action="store_true",
                   help="extractive_fragments: compare tokens as given (the references lowercase them)")
    g.add_argument("--fragments-keep-braces", action="store_true",
                   help="extractive_fragments: keep a leading '{' and trailing '}' (the references remove them)")


def _collect_fragments(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"multi_ref": a.edit_multi_ref}
    if a.fragments_flavour is not None:
        opts["flavour"] = a.fragments_flavour
    if a.fragments_case_sensitive:
        opts["case"] = True
    if a.fragments_keep_braces:
        opts["remove_braces"] = False
    return opts


def _add_ragas(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--ragas-flavour", default=None,
                   choices=["exact_match", "string_presence", "non_llm_string_similarity", "bleu_score", "rouge_score"],
                   help="ragas_string: the ragas 0.4.3 metric (default exact_match)")
    g.add_argument("--ragas-distance", default=None, choices=["levenshtein", "hamming", "jaro", "jaro_winkler"],
                   help="ragas_string non_llm_string_similarity: the rapidfuzz distance (default levenshtein)")
    g.add_argument("--ragas-rouge-type", default=None, choices=["rougeL", "rouge1"], help="ragas_string rouge_score: rouge type")
    g.add_argument("--ragas-rouge-mode", default=None, choices=["fmeasure", "precision", "recall"], help="ragas_string rouge_score: mode")


def _collect_ragas(a: argparse.Namespace) -> dict[str, Any]:
    pairs = (("flavour", a.ragas_flavour), ("distance_measure", a.ragas_distance), ("rouge_type", a.ragas_rouge_type),
             ("mode", a.ragas_rouge_mode))
    return {"multi_ref": a.edit_multi_ref, **{k: v for k, v in pairs if v is not None}}


register_options("extractive_fragments", _add_fragments, _collect_fragments)
register_options("ragas_string", _add_ragas, _collect_ragas)
