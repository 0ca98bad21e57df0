"""Command-line options of BERTScore (bert_score's ``score`` arguments, prefixed)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_bertscore(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--bertscore-model", default=None, metavar="PATH_OR_NAME", help="local model directory, cached Hugging Face name, or all-MiniLM-L6-v2 (default: the model for --bertscore-lang)")
    g.add_argument("--bertscore-layer", type=int, default=None, help="number of layers to keep (default: bert_score's tuned layer for the model)")
    g.add_argument("--bertscore-lang", default=None, help="language: picks the default model and the baseline file")
    g.add_argument("--bertscore-idf", action="store_true", help="weight tokens by idf computed from the references")
    g.add_argument("--bertscore-rescale", action="store_true", help="rescale with the baseline for the model and language")
    g.add_argument("--bertscore-baseline", default=None, metavar="TSV", help="a custom baseline file (LAYER,P,R,F)")
    g.add_argument("--bertscore-batch-size", type=int, default=64, help="sentences per model batch (default: 64)")
    g.add_argument("--bertscore-device", default=None, help="torch device (default: cuda if available, else cpu)")
    g.add_argument("--bertscore-dtype", default="float32", choices=["float32", "float16", "bfloat16", "float64"], help="model precision (default: float32)")
    g.add_argument("--bertscore-fast-tokenizer", action="store_true", help="use the fast (Rust) tokenizer")


def _collect_bertscore(a: argparse.Namespace) -> dict[str, Any]:
    return {
        "model": a.bertscore_model,
        "layer": a.bertscore_layer,
        "lang": a.bertscore_lang,
        "idf": a.bertscore_idf,
        "rescale_with_baseline": a.bertscore_rescale or a.bertscore_baseline is not None,
        "baseline_path": a.bertscore_baseline,
        "batch_size": a.bertscore_batch_size,
        "device": a.bertscore_device,
        "dtype": a.bertscore_dtype,
        "use_fast_tokenizer": a.bertscore_fast_tokenizer,
    }


register_options("bertscore", _add_bertscore, _collect_bertscore)
