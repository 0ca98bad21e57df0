"""Sources of the source-reading model metrics (COMET, MetricX): given per call, or bound
to the metric once for a test set (one string for every row, one per row, or found by a
row's reference when a subset of the test set is scored)."""

from __future__ import annotations

from typing import Sequence

from .._inputs import as_texts
from ..errors import InvalidInputError, LengthMismatchError


def per_row(sources: Sequence[str] | str, n: int, what: str = "predictions") -> list[str]:
    """``sources`` given to a call: one string for all ``n`` rows, or one per row."""
    srcs = [sources] * n if isinstance(sources, str) else as_texts(sources, "sources")
    if len(srcs) != n:
        raise LengthMismatchError(f"{n} {what} but {len(srcs)} sources")
    return srcs


class BoundSources:
    """The sources a metric was built with (``sources=``, ``source_references=``)."""

    def __init__(self, sources: Sequence[str] | str | None, references: Sequence[str] | None):
        self.sources: list[str] | str | None = None
        if sources is not None:
            self.sources = sources if isinstance(sources, str) else as_texts(sources, "sources")
        self.references: list[str] | None = None
        if references is not None:
            self.references = as_texts(references, "source_references")
            if not isinstance(self.sources, list) or len(self.references) != len(self.sources):
                raise LengthMismatchError("source_references must have one reference per bound source")
        self._by_reference: dict[str, str | None] | None = None

    def rows(self, n: int, refs: list[str] | None) -> list[str] | None:
        """The bound sources of ``n`` rows whose (first) references are ``refs``; ``None``
        when none are bound."""
        if self.sources is None:
            return None
        if isinstance(self.sources, str):
            return [self.sources] * n
        if len(self.sources) == n:
            return list(self.sources)
        if refs is None or self.references is None:
            raise LengthMismatchError(f"{n} predictions but {len(self.sources)} bound sources (and no references to align them by)")
        if self._by_reference is None:
            table: dict[str, str | None] = {}
            for r, s in zip(self.references, self.sources):
                table[r] = s if table.get(r, s) == s else None  # a reference with two sources: ambiguous
            self._by_reference = table
        out = []
        for r in refs:
            s = self._by_reference.get(r)
            if s is None:
                raise InvalidInputError(f"no single bound source for the reference {r[:60]!r}: pass sources= for these rows")
            out.append(s)
        return out
