"""A small base for streaming classification metrics.

Text metrics take ``(predictions, references)`` strings; classification metrics take
label and score arrays, so they get their own base with the same streaming faces:
``update(...)`` adds a batch, ``merge(other)`` adds another object's state,
``compute()`` scores the state, ``reset()`` empties it. The state itself is a plain
picklable value that adds with ``+`` (``sum(states)`` works: 0 is the identity), so
shards can be reduced anywhere (multiprocessing, Dask, Spark) and scored once.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .._locking import state_lock
from ..errors import IncompatibleStatsError, InputTypeError
from ..metrics.base import Score
from ..signature import Signature


class MergeableState:
    """Mixin for states: ``0 + state`` is ``state`` so that ``sum()`` works."""

    def __radd__(self, other: Any):
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented


class StreamingMetric:
    """Base of the stateful classification metrics (``update``/``merge``/``compute``)."""

    name: ClassVar[str] = ""

    def __init__(self) -> None:
        self.state = self.empty_state()

    # -- to implement -------------------------------------------------------------------
    def empty_state(self) -> Any:
        raise NotImplementedError

    def batch_state(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def score_state(self, state: Any) -> Score:
        raise NotImplementedError

    def signature_items(self) -> dict[str, Any]:
        raise NotImplementedError

    # -- shared faces -------------------------------------------------------------------
    def signature(self) -> Signature:
        return Signature({"metric": self.name, **self.signature_items()})

    # Thread safety: a batch's state is built outside the object's lock (the core releases
    # the GIL) and added under it, so concurrent updates never lose a batch.
    def update(self, *args: Any, **kwargs: Any) -> "StreamingMetric":
        batch = self.batch_state(*args, **kwargs)
        with state_lock(self):
            self.state = self.state + batch
        return self

    def merge(self, other: "StreamingMetric") -> "StreamingMetric":
        if not isinstance(other, StreamingMetric):
            raise InputTypeError(f"merge() takes a {type(self).__name__}, got {type(other).__name__}")
        if type(other) is not type(self) or other.signature() != self.signature():
            raise IncompatibleStatsError(f"cannot merge {other.signature()} into {self.signature()}")
        with state_lock(other):
            theirs = other.state
        with state_lock(self):
            self.state = self.state + theirs
        return self

    def compute(self) -> Score:
        with state_lock(self):
            state = self.state
        return self.score_state(state)

    def reset(self) -> None:
        with state_lock(self):
            self.state = self.empty_state()

    def __call__(self, *args: Any, **kwargs: Any) -> Score:
        """Score one batch without touching the accumulated state."""
        return self.score_state(self.batch_state(*args, **kwargs))
