"""argparse's help width, without importing shutil (which loads compression modules)."""
from __future__ import annotations

import os
import sys


def help_width() -> int:
    """argparse's default help width, ``shutil.get_terminal_size().columns - 2``, computed
    the way shutil does (``$COLUMNS``, else the terminal of stdout, else 80) without
    importing shutil: argparse makes a formatter, so asks for the width, on every
    ``add_argument`` of a parser."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns - 2
