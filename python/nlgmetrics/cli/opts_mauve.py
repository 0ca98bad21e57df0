"""Command-line options of MAUVE (``-m mauve``).

``-i`` holds the generations (P) and ``-r`` the human texts (Q), one text a line; the two
are compared as sets (line i of one is not paired with line i of the other), but ``score``
reads them as a test set, so both files need the same number of lines. Features come from
the local causal language model directory given with ``--mauve-model``; nothing is
downloaded.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_mauve(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--mauve-model", default=None, metavar="PATH", help="local causal language model directory whose features MAUVE compares (required for mauve)")
    g.add_argument("--mauve-num-buckets", type=int, default=None, metavar="K", help="k-means clusters (default: texts / 10, mauve-text's 'auto')")
    g.add_argument("--mauve-max-text-length", type=int, default=1024, metavar="N", help="tokens per text (default: 1024, as mauve-text)")
    g.add_argument("--mauve-batch-size", type=int, default=1, metavar="N", help="texts per featurizing batch (default: 1, mauve-text's shapes)")
    g.add_argument("--mauve-seed", type=int, default=25, metavar="N", help="k-means seed (default: 25, as mauve-text)")
    g.add_argument("--mauve-device", default=None, help="torch device (default: cuda if available, else cpu)")


def _collect_mauve(a: argparse.Namespace) -> dict[str, Any]:
    from ..errors import InvalidOptionError

    if a.mauve_model is None:
        raise InvalidOptionError("mauve needs --mauve-model PATH (a local causal language model directory)")
    return {
        "model": a.mauve_model, "num_buckets": "auto" if a.mauve_num_buckets is None else a.mauve_num_buckets, "max_text_length": a.mauve_max_text_length,
        "batch_size": a.mauve_batch_size, "seed": a.mauve_seed, "device": a.mauve_device,
    }


register_options("mauve", _add_mauve, _collect_mauve)
