"""torch and transformers, imported on first use (the [neural] extra)."""

from __future__ import annotations

from typing import Any

from ..errors import MissingExtraError


def require_torch() -> tuple[Any, Any]:
    """``(torch, transformers)``, or a MissingExtraError naming the extra."""
    try:
        import torch
        import transformers
    except ImportError as e:
        raise MissingExtraError(
            f"neural metrics need torch and transformers: pip install 'nlgmetrics[neural]' ({e})"
        ) from None
    return torch, transformers
