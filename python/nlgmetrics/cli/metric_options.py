"""The options a metric is built with from the parsed flags (``score``, ``report``...)."""

from __future__ import annotations

from .checks import ReadRecorder
from .options import add_defaults, option_set


def metric_options(name: str, args) -> dict:
    """Keyword options for ``registry.load(name, ...)``: the metric's flags and ``--n-threads``.

    ``args`` may come from a parser that declared only the families its command line named
    (the lean parse): the family of ``name`` is loaded here and its defaults filled in."""
    opts = option_set(name)
    if opts is None:
        opts_dict: dict = {}
    else:
        add_defaults(args._ns if isinstance(args, ReadRecorder) else args)
        opts_dict = opts.collect(args)
    opts_dict["n_threads"] = args.n_threads
    return opts_dict
