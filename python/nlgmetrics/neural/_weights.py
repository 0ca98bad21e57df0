"""Building transformers models from files a user names, never running code they hold.

The weights are read by :mod:`._whole` (``model.safetensors`` with a real parser; a pickled
``pytorch_model.bin`` or its shards through ``torch.load(weights_only=True)``, refused on
torch before 2.6, which has a known bypass of ``weights_only``: CVE-2025-32434) and handed
to ``from_pretrained(None, config=..., state_dict=...)``, so transformers never unpickles a
file itself and a model that would not be loaded whole is refused. Remote code
(``auto_map`` in a config) is never trusted. Any failure to read a file is an
:class:`~nlgmetrics.errors.InvalidOptionError` of one line naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._safe_pickle import describe
from ..errors import InvalidOptionError
from ._torch import require_torch


def load_pretrained(factory: Any, model_dir: Path, *, config_overrides: dict[str, Any] | None = None,
                    unused: tuple[str, ...] = (), **kwargs: Any) -> Any:
    """``factory`` (a transformers model class or ``Auto*`` factory) built whole from
    ``model_dir``'s weights by :func:`nlgmetrics.neural._whole.load_model` (one path for
    safetensors and pickled files; no remote code). ``config_overrides`` are set on the
    config before the model is built; ``unused``: modules the metric never computes with."""
    from ._whole import load_model, read_state

    config = load_config(model_dir)
    for name, value in (config_overrides or {}).items():
        setattr(config, name, value)
    mapping = getattr(factory, "_model_mapping", None)  # an Auto* factory: its class for this config
    try:
        model_class = mapping[type(config)] if mapping is not None else factory
    except KeyError:
        raise InvalidOptionError(f"{str(model_dir)!r} holds a {config.model_type!r} model, which {factory.__name__} does not build") from None
    state, where = read_state(model_dir)
    return load_model(model_class, config, state, where, unused=unused, **kwargs)


def load_config(model_dir: Path) -> Any:
    _, transformers = require_torch()
    try:
        return transformers.AutoConfig.from_pretrained(str(model_dir), local_files_only=True, trust_remote_code=False)
    except Exception as e:  # noqa: BLE001
        raise InvalidOptionError(f"cannot read the model config in {str(model_dir)!r}: {describe(e)}") from None
