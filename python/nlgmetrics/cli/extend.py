"""``-i`` / ``-m`` given several times add up: ``-m bleu -m chrf`` is ``-m bleu chrf``.

argparse's ``nargs="+"`` keeps only the last use, silently dropping the earlier files or
metrics; its ``action="extend"`` would add to the default (``-m chrf`` giving
``bleu chrf``). This action replaces the default on first use and extends after.
"""

from __future__ import annotations

import argparse


class ExtendAction(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        current = getattr(namespace, self.dest, None)
        # argparse sets the default object itself: identity says the flag was not given yet
        if current is None or current is self.default:
            setattr(namespace, self.dest, list(values))
        else:
            setattr(namespace, self.dest, [*current, *values])
