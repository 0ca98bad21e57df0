"""Command-line options of BLEURT."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_bleurt(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--bleurt-checkpoint", default=None, metavar="PATH", help="BLEURT checkpoint directory in the bleurt-pytorch format (required for bleurt)")
    g.add_argument("--bleurt-batch-size", type=int, default=16, help="pairs per batch (default: 16)")
    g.add_argument("--bleurt-max-length", type=int, default=None, help="tokens per pair (default: the checkpoint's)")
    g.add_argument("--bleurt-device", default=None, help="torch device (default: cuda if available, else cpu)")


def _collect_bleurt(a: argparse.Namespace) -> dict[str, Any]:
    from ..errors import InvalidOptionError

    if a.bleurt_checkpoint is None:
        raise InvalidOptionError("bleurt needs --bleurt-checkpoint PATH")
    return {"checkpoint": a.bleurt_checkpoint, "batch_size": a.bleurt_batch_size, "max_length": a.bleurt_max_length, "device": a.bleurt_device}


register_options("bleurt", _add_bleurt, _collect_bleurt)
