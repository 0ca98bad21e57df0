"""The options a metric is built with from the parsed flags (``score``, ``report``...)."""

from __future__ import annotations

from .options import OPTION_SETS


def metric_options(name: str, args) -> dict:
    """Keyword options for ``registry.load(name, ...)``: the metric's flags and ``--n-threads``."""
    opts = OPTION_SETS[name].collect(args) if name in OPTION_SETS else {}
    opts["n_threads"] = args.n_threads
    return opts
