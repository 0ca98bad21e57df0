"""Reading model weights from files a user names, never running code they hold.

Weights come from ``model.safetensors`` (a real parser, no code) when the directory has
one. A pickled ``pytorch_model.bin`` (or its shards) is read here with
``torch.load(weights_only=True)`` (torch's allow-listed unpickler). Either is handed to
``from_pretrained(None, config=..., state_dict=...)`` by :mod:`._whole` (which refuses a
model that would not be loaded whole), so transformers never unpickles the file itself (older transformers versions call ``torch.load`` without
``weights_only``). torch before 2.6 has a known bypass of ``weights_only``
(CVE-2025-32434), so there a pickled file is refused with the advice to convert it.
Remote code (``auto_map`` in a config) is never trusted. Any failure to read a file is an
:class:`~nlgmetrics.errors.InvalidOptionError` of one line naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._safe_pickle import describe
from ..errors import InvalidOptionError
from ._torch import require_torch



def _torch_is_safe(torch: Any) -> bool:
    try:
        major, minor = (int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
    except ValueError:
        return True
    return (major, minor) >= (2, 6)


def read_torch_file(path: Path) -> dict[str, Any]:
    """A state dict from a pickled torch file, through torch's weights-only unpickler."""
    torch, _ = require_torch()
    if not _torch_is_safe(torch):
        raise InvalidOptionError(
            f"{str(path)!r} is a pickled torch file; reading one safely needs torch >= 2.6 (found {torch.__version__}): "
            "upgrade torch or convert the weights to model.safetensors"
        )
    try:
        data = torch.load(str(path), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - a damaged or hostile file is one data error
        raise InvalidOptionError(f"cannot read the weights {str(path)!r}: {describe(e)}") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in data.items()):
        raise InvalidOptionError(f"{str(path)!r} is not a state dict (a mapping of names to tensors)")
    return data


def read_safetensors(path: Path) -> dict[str, Any]:
    require_torch()
    from safetensors.torch import load_file

    try:
        return load_file(str(path))
    except Exception as e:  # noqa: BLE001 - SafetensorError, OSError, ...: one data error
        raise InvalidOptionError(f"cannot read the weights {str(path)!r}: {describe(e)}") from None


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
