"""Mergeable sufficient statistics (``Stats``, ``SegmentStats``): the public home of both.

:mod:`._totals` defines :class:`Stats` (a reduced total) and the exact reductions
(``exact_partials``, ``ordered_mean``...); :mod:`._segments` defines :class:`SegmentStats`
(one row per segment), loaded on first use so that importing this package does not
import ``dataclasses`` or numpy. Both classes pickle under this module's name.
"""

from __future__ import annotations

from ._totals import *  # noqa: F401,F403 - every public name of the totals module
from ._totals import SEQUENCE_LIMIT_BYTES, Stats, _column_partials  # noqa: F401

Stats.__module__ = __name__  # its public home (pickles name it here)


def __getattr__(name: str):
    # SegmentStats is a dataclass (metrics subclass it as dataclasses): loaded on first use.
    if name == "SegmentStats":
        from ._segments import SegmentStats

        globals()[name] = SegmentStats
        return SegmentStats
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
