"""Command-line options of MetricX (``-m metricx``).

The sources come from ``--source``/``--src`` (declared with COMET's options): they are bound
to the metric here, with the single ``-r`` file to align subsets through, so ``score``,
``compare`` and ``report`` score MetricX without knowing about sources. ``--metricx-qe``
scores from the sources alone (``-r`` is still given: it aligns subsets to their sources, and is not read).
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_metricx(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--metricx-model", default=None, metavar="PATH", help="MetricX checkpoint directory (config.json + weights; required for metricx)")
    g.add_argument("--metricx-tokenizer", default=None, metavar="PATH", help="mT5 tokenizer directory (default: the checkpoint's own)")
    g.add_argument("--metricx-version", default="metricx-24", choices=["metricx-24", "metricx-23"], help="input format and defaults of the checkpoint (default: metricx-24)")
    g.add_argument("--metricx-qe", action="store_true", default=False, help="reference-free (QE) scoring from the sources")
    g.add_argument("--metricx-max-input-length", type=int, default=None, metavar="N", help="tokens per input (default: 1536 for metricx-24, 1024 for metricx-23)")
    g.add_argument("--metricx-batch-size", type=int, default=1, help="rows of equal length per batch (default: 1, the reference's exact shapes)")
    g.add_argument("--metricx-device", default=None, help="torch device (default: cuda if available, else cpu)")


def _collect_metricx(a: argparse.Namespace) -> dict[str, Any]:
    from ..errors import InvalidOptionError
    from ..io.text import read_lines

    if a.metricx_model is None:
        raise InvalidOptionError("metricx needs --metricx-model PATH")
    options: dict[str, Any] = {
        "model": a.metricx_model, "tokenizer": a.metricx_tokenizer, "version": a.metricx_version, "qe": a.metricx_qe,
        "max_input_length": a.metricx_max_input_length, "batch_size": a.metricx_batch_size, "device": a.metricx_device,
    }
    source = getattr(a, "source", None)
    if source is not None:
        options["sources"] = read_lines(source)
        refs = getattr(a, "references", None) or []
        if len(refs) == 1:  # lets a subset (the one-segment signature probe of -sl) find its sources
            options["source_references"] = read_lines(refs[0])
    return options


register_options("metricx", _add_metricx, _collect_metricx)
