"""Reproducibility signatures: every knob that moves a number, in a fixed order."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Mapping


class Signature:
    """An ordered set of ``key:value`` pairs with ``version`` always last.

    ``None`` values are omitted and booleans print as ``yes``/``no``, so that for the
    sacrebleu flavour of a metric the string equals sacrebleu's own (apart from the
    version value).
    """

    def __init__(self, items: Mapping[str, Any], abbreviations: Mapping[str, str] | None = None):
        from ._core import __version__

        self.info: dict[str, Any] = {k: v for k, v in items.items() if k != "version"}
        self.info["version"] = items.get("version", f"nlgmetrics-{__version__}")
        self._abbr = dict(abbreviations or {})

    def with_items(self, *, before: Mapping[str, Any] | None = None, after: Mapping[str, Any] | None = None) -> "Signature":
        """A copy with keys inserted before the existing ones (e.g. ``bs``, ``seed``) or after."""
        info = {**(before or {}), **{k: v for k, v in self.info.items() if k != "version"}, **(after or {})}
        info["version"] = self.info["version"]
        return Signature(info, self._abbr)

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.info.items() if v is not None}

    def format(self, short: bool = False) -> str:
        parts = []
        for key, value in self.info.items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            name = self._abbr.get(key, key) if short else key
            parts.append(f"{name}:{value}")
        return "|".join(parts)

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Signature) and self.info == other.info

    def __hash__(self) -> int:
        return hash(self.format())
