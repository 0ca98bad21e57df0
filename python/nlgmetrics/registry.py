"""Metric registry: ``load(name, **options)`` for the CLI, the keyword API and plugins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import InvalidOptionError


@dataclass(frozen=True)
class Entry:
    name: str
    factory: Callable[..., Any]
    description: str
    flavours: tuple[str, ...] = ()
    # "text" metrics take predictions and references through `nlgmetrics score`.
    kind: str = "text"

    @property
    def text(self) -> bool:
        return self.kind == "text"


_REGISTRY: dict[str, Entry] = {}


def register(
    name: str,
    factory: Callable[..., Any],
    description: str,
    flavours: tuple[str, ...] = (),
    kind: str = "text",
) -> None:
    _REGISTRY[name.lower()] = Entry(name.lower(), factory, description, flavours, kind)


def load(name: str, **options: Any):
    """A metric object by registered name, e.g. ``load("bleu", tokenize="zh")``."""
    try:
        entry = _REGISTRY[name.lower()]
    except KeyError:
        raise InvalidOptionError(f"unknown metric {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None
    return entry.factory(**options)


def available() -> list[Entry]:
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
