"""Command-line options of SARI; the sources come from ``--source SRC`` (one per line),
the flag COMET reads too, and are bound to the metric here."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_sari(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--sari-flavour", default="easse", choices=["easse", "evaluate", "xu2016"], help="SARI flavour (default: easse, EASSE's corpus_sari)")
    g.add_argument("--sari-case-sensitive", action="store_true", help="SARI easse: do not lowercase (EASSE's lowercase=False)")
    g.add_argument("--sari-legacy", action="store_true", help="SARI easse: EASSE's legacy=True (sources only split, nothing lowercased)")


def _collect_sari(a: argparse.Namespace) -> dict[str, Any]:
    from ..errors import InvalidOptionError
    from ..io.text import read_lines

    source = getattr(a, "source", None)
    if source is None:
        raise InvalidOptionError("sari needs --source SRC (the sentences that were simplified, one per line)")
    opts: dict[str, Any] = {"flavour": a.sari_flavour, "sources": read_lines(source)}
    if a.sari_flavour == "easse":
        opts["lowercase"] = not a.sari_case_sensitive
        opts["legacy"] = a.sari_legacy
        if a.tokenize is not None:
            opts["tokenize"] = a.tokenize
    return opts


register_options("sari", _add_sari, _collect_sari)
