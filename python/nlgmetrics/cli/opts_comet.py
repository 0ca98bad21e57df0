"""Command-line options of COMET and xCOMET, and the source file they read (``--source``).

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
    g.add_argument("--comet-device", default=None, help="torch device: cpu, cuda, cuda:N or N (default: cuda if available, else cpu)")
    g.add_argument("--xcomet-model", default=None, metavar="PATH", help="unbabel-comet XCOMET model directory or cached name (required for xcomet; the other --comet-* flags and --source apply)")


def _collect_comet(a: argparse.Namespace, xcomet: bool = False) -> dict[str, Any]:
    from ..errors import InvalidOptionError
    from ..io.text import read_lines

    model = a.xcomet_model if xcomet else a.comet_model
    if model is None:
        raise InvalidOptionError("xcomet needs --xcomet-model PATH" if xcomet else "comet needs --comet-model PATH")
    device: Any = a.comet_device
    if isinstance(device, str) and device.isdigit():
        device = int(device)  # --comet-device 0: cuda:0
    options: dict[str, Any] = {"model": model, "encoder": a.comet_encoder, "batch_size": a.comet_batch_size, "device": device}
    if a.source is not None:
        from ..errors import LengthMismatchError

        sources = options["sources"] = read_lines(a.source)
        refs = getattr(a, "references", None) or []
        if len(refs) == 1:  # lets a subset (the one-segment signature probe of -sl) find its sources
            options["source_references"] = read_lines(refs[0])
            if len(options["source_references"]) != len(sources):
                raise LengthMismatchError(f"--source {a.source} has {len(sources)} lines but {refs[0]} has {len(options['source_references'])}")
        for path in getattr(a, "input", None) or []:
            if path != "-":
                n = len(read_lines(path))
                if n != len(sources):
                    raise LengthMismatchError(f"--source {a.source} has {len(sources)} lines but {path} has {n}")
    return options


def _add_nothing(g: argparse._ArgumentGroup) -> None:
    """xcomet's flags are declared with comet's (``--xcomet-model`` and the shared ones)."""


def _collect_xcomet(a: argparse.Namespace) -> dict[str, Any]:
    return _collect_comet(a, xcomet=True)


register_options("comet", _add_comet, _collect_comet)
register_options("xcomet", _add_nothing, _collect_xcomet)
