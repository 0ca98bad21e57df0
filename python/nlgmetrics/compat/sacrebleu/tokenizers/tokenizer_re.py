"""``sacrebleu.tokenizers.tokenizer_re``: ``TokenizerRegexp``, 13a's punctuation step alone
(13a without its ``<skipped>``/line-break/HTML-entity clean-up), from nlgmetrics' ``13a``.

13a runs this step on `` line `` after its clean-up. The line is cut at ``&`` and ``<``
(the clean-up's only triggers besides line breaks; the step pads both with spaces, so the
pieces tokenize alone as within the line), line breaks become spaces (the step treats both
as separators), and a line starting or ending with ``.``/``,`` gets a ``0`` on that side for
13a's added space to see (a digit neighbour keeps the step from splitting it), removed after.
"""

from __future__ import annotations

import re

from .tokenizer_base import BaseTokenizer

_CUTS = re.compile("([&<])")


class TokenizerRegexp(BaseTokenizer):
    def signature(self):
        return "re"

    def __call__(self, line):
        from ....tokenizers import tokenize

        text = line.replace("\n", " ")
        lead = text[:1] in (".", ",")
        trail = text[-1:] in (".", ",")
        text = ("0" if lead else "") + text + ("0" if trail else "")
        pieces = _CUTS.split(text)  # the cut characters stay, each as its own piece
        tokens = " ".join(tokenize("13a", pieces, 1)).split()
        if lead:
            tokens[0] = tokens[0][1:]
        if trail:
            tokens[-1] = tokens[-1][:-1]
        return " ".join(t for t in tokens if t)
