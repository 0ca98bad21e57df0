"""Command-line options of COMET, and the source file it reads (``--source``).

``-s`` stays BLEU's ``--smooth-method`` (sacrebleu's flag), so the sources are
``--source``/``--src``. The sources (and, with one ``-r``, the references to align subsets
through) are bound to the metric here, so every subcommand that takes ``-r``/``-i``
(``score``, ``compare``, ``report``) scores COMET without knowing about sources.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_comet(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--source", "--src", dest="source", default=None, metavar="SRC", help="source file, one segment per line (metrics that read sources: comet, sari)")
    g.add_argument("--comet-model", default=None, metavar="PATH", help="unbabel-comet model directory (hparams.yaml, checkpoints/model.ckpt) or cached name (required for comet)")
    g.add_argument("--comet-encoder", default=None, metavar="PATH", help="directory with the encoder's config.json and tokenizer (default: found next to the model or in the HF cache)")
    g.add_argument("--comet-batch-size", type=int, default=16, help="segments per batch (default: 16)")
    g.add_argument("--comet-device", default=None, help="torch device (default: cuda if available, else cpu)")


def _collect_comet(a: argparse.Namespace) -> dict[str, Any]:
    from ..errors import InvalidOptionError
    from ..io.text import read_lines

    if a.comet_model is None:
        raise InvalidOptionError("comet needs --comet-model PATH")
    options: dict[str, Any] = {"model": a.comet_model, "encoder": a.comet_encoder, "batch_size": a.comet_batch_size, "device": a.comet_device}
    if a.source is not None:
        options["sources"] = read_lines(a.source)
        refs = getattr(a, "references", None) or []
        if len(refs) == 1:  # lets a subset (the one-segment signature probe of -sl) find its sources
            options["source_references"] = read_lines(refs[0])
    return options


register_options("comet", _add_comet, _collect_comet)
