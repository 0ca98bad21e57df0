"""The ``nlgmetrics`` command line, thin over the Python API.

stdout carries data only; messages go to stderr. Usage errors exit 2, data errors exit
1 with one line on stderr and no traceback.
"""

from __future__ import annotations

import gc
import sys

# The command line's modules live as long as the process: collecting garbage while they
# load only walks them again and again (a tenth of a short run's start-up).
_collecting = gc.isenabled()
gc.disable()
try:
    from .main import main
finally:
    if _collecting:
        gc.enable()
del _collecting

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
