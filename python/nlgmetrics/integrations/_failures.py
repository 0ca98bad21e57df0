"""Typed errors raised on a worker, carried to the driver as values and raised there with
the row of the whole dataset.

An engine wraps an exception raised in a task in its own class (pyspark's
``PythonException``, Ray's ``RayTaskError(UserCodeException)``) and a metric names the row
within its block (``predictions[7]``). So a block's work catches our typed error and
returns a :class:`BlockFailure` instead of statistics; merges keep the first failure in
dataset order, and the driver raises the same class as the local path, with each
``predictions[i]`` / ``references[i]`` / ``sources[i]`` turned into the global row and
the column it was read from.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from ..errors import MissingColumnError, NlgMetricsError

_INDEXED = re.compile(r"\b(predictions|references|sources)\[(\d+)\]")


class BlockFailure:
    """A typed error of one block: its class, message, the block (``part``) and the row
    of the block's first row within that part (``start``)."""

    def __init__(self, error: NlgMetricsError, part: int, start: int, columns: Mapping[str, str | None]):
        self.kind = type(error)
        self.message = str(error)
        self.part = part
        self.start = start
        self.columns = dict(columns)

    def error(self, offset: int | None) -> NlgMetricsError:
        """The error with global rows (``offset``: the part's first row in the dataset)."""
        if offset is None:
            return self.kind(self.message)
        return self.kind(located(self.message, lambda i: offset + self.start + i, self.columns))


def located(message: str, row_of: Callable[[int], Any], columns: Mapping[str, str | None]) -> str:
    """``message`` with each ``predictions[i]`` (etc.) naming the column and the row
    ``row_of(i)``, led by the first such row: ``row 27, column 'prediction': ...``."""
    first: list[str] = []

    def swap(match: re.Match) -> str:
        column = columns.get(match.group(1)) or match.group(1)
        row = row_of(int(match.group(2)))
        if not first:
            first.append(f"row {row}, column {column!r}: ")
        return f"{column}[{row}]"

    body = _INDEXED.sub(swap, message)
    return (first[0] + body) if first else body


def guarded(work: Callable[[], Any], part: int, start: int, columns: Mapping[str, str | None]) -> Any:
    """``work()``, or a :class:`BlockFailure` for the typed error it raised."""
    try:
        return work()
    except NlgMetricsError as e:
        return BlockFailure(e, part, start, columns)


def first_failure(parts: Any) -> BlockFailure | None:
    for p in parts:
        if isinstance(p, BlockFailure):
            return p
    return None


def raise_located(failure: BlockFailure, offsets: Callable[[], Mapping[int, int]]) -> None:
    """Raise ``failure`` as its own class; ``offsets()`` gives each part's first global
    row (called only here, so a dataset is counted only when something failed)."""
    raise failure.error(offsets().get(failure.part)) from None


def column_names(prediction: str | None, references: str | None, sources: str | None) -> dict[str, str | None]:
    return {"predictions": prediction, "references": references, "sources": sources}


def missing_column(name: str, columns: Any) -> MissingColumnError:
    return MissingColumnError(f"the dataset has no column {name!r}; columns: {list(columns)}")
