"""Per-metric command-line options, sacrebleu-style (``--chrf-word-order 2``).

Each metric family registers an :class:`OptionSet`: how to add its flags to the parser
and how to turn parsed flags into constructor options. Shared flags (``-tok``, ``-lc``)
are passed to every metric that accepts them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    import argparse
    from typing import Any, Callable


class OptionSet:
    """A metric family's flags: ``add`` puts them on an argument group, ``collect`` turns
    the parsed flags into constructor options. (A plain class: ``dataclasses`` would cost
    the command line most of its start-up.)"""

    __slots__ = ("metric", "add", "collect")

    def __init__(self, metric: str, add: Callable[[argparse._ArgumentGroup], None], collect: Callable[[argparse.Namespace], dict[str, Any]]) -> None:
        self.metric, self.add, self.collect = metric, add, collect


OPTION_SETS: dict[str, OptionSet] = {}


def register_options(metric: str, add: Callable[[argparse._ArgumentGroup], None], collect: Callable[[argparse.Namespace], dict[str, Any]]) -> None:
    OPTION_SETS[metric] = OptionSet(metric, add, collect)


# One module per metric family registers its flags; keep these imports last.
from . import opts_bleu  # noqa: E402,F401
from . import opts_rouge  # noqa: E402,F401
from . import opts_cider  # noqa: E402,F401
from . import opts_diversity  # noqa: E402,F401
from . import opts_chrf  # noqa: E402,F401
from . import opts_ter  # noqa: E402,F401
from . import opts_meteor  # noqa: E402,F401
from . import opts_edit  # noqa: E402,F401
from . import opts_nist  # noqa: E402,F401
from . import opts_parent  # noqa: E402,F401
from . import opts_bertscore  # noqa: E402,F401
from . import opts_bleurt  # noqa: E402,F401
from . import opts_comet  # noqa: E402,F401
from . import opts_metricx  # noqa: E402,F401
from . import opts_sari  # noqa: E402,F401
from . import opts_mauve  # noqa: E402,F401
from . import opts_qa  # noqa: E402,F401
from . import opts_lm_eval_qa  # noqa: E402,F401
