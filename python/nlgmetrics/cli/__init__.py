"""The ``nlgmetrics`` command line, thin over the Python API.

stdout carries data only; messages go to stderr. Usage errors exit 2, data errors exit
1 with one line on stderr and no traceback.
"""

from __future__ import annotations

import sys

from .main import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
