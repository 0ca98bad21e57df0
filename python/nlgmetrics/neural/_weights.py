"""Reading model weights from files a user names, never running code they hold.

Weights come from ``model.safetensors`` (a real parser, no code) when the directory has
one. A pickled ``pytorch_model.bin`` (or its shards) is read here with
``torch.load(weights_only=True)`` (torch's allow-listed unpickler) and handed to
``from_pretrained(None, config=..., state_dict=...)``, so transformers never unpickles
the file itself (older transformers versions call ``torch.load`` without
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

SAFETENSORS = ("model.safetensors", "model.safetensors.index.json")
PICKLED = "pytorch_model.bin"


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


def _shards(model_dir: Path, index_name: str) -> list[Path]:
    index = model_dir / index_name
    try:
        weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        names = sorted(set(weight_map.values()))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise InvalidOptionError(f"cannot read the shard index {str(index)!r}: {describe(e)}") from None
    shards = []
    for name in names:
        if not isinstance(name, str) or Path(name).name != name or name in ("", ".", ".."):
            raise InvalidOptionError(f"{str(index)!r} names a shard outside its directory: {name!r}")
        shards.append(model_dir / name)
    return shards


def pickled_state_dict(model_dir: Path) -> dict[str, Any] | None:
    """The weights of ``model_dir`` read safely when they are pickled (``None`` when the
    directory has safetensors weights, which transformers reads without code)."""
    if any((model_dir / n).is_file() for n in SAFETENSORS):
        return None
    if (model_dir / PICKLED).is_file():
        return read_torch_file(model_dir / PICKLED)
    if (model_dir / (PICKLED + ".index.json")).is_file():
        merged: dict[str, Any] = {}
        for shard in _shards(model_dir, PICKLED + ".index.json"):
            merged.update(read_torch_file(shard))
        return merged
    return None


def load_pretrained(factory: Any, model_dir: Path, *, config_overrides: dict[str, Any] | None = None, **kwargs: Any) -> Any:
    """``factory.from_pretrained`` on a local directory with no pickle reaching transformers
    and no remote code. ``config_overrides`` are set on the config before the model is
    built (on the state-dict path a keyword such as ``pad_token_id`` would otherwise reach
    the model's constructor, not its config)."""
    _, transformers = require_torch()
    state_dict = pickled_state_dict(model_dir)
    try:
        mapping = getattr(factory, "_model_mapping", None)  # an Auto* factory: its class for this config
        config = None
        if state_dict is not None or config_overrides:
            config = load_config(model_dir) if mapping is not None else factory.config_class.from_pretrained(str(model_dir), local_files_only=True)
            for name, value in (config_overrides or {}).items():
                setattr(config, name, value)
        if state_dict is None:
            if any((model_dir / n).is_file() for n in SAFETENSORS):  # never a fallback to a pickle beside them
                kwargs["use_safetensors"] = True
            if config is not None:
                kwargs["config"] = config
            return factory.from_pretrained(str(model_dir), local_files_only=True, trust_remote_code=False, **kwargs)
        model_class = mapping[type(config)] if mapping is not None else factory
        return model_class.from_pretrained(None, config=config, state_dict=state_dict, **kwargs)
    except InvalidOptionError:
        raise
    except Exception as e:  # noqa: BLE001 - OSError, ValueError, SafetensorError, ...: one data error
        raise InvalidOptionError(f"cannot load a model from {str(model_dir)!r}: {describe(e)}") from None


def load_config(model_dir: Path) -> Any:
    _, transformers = require_torch()
    try:
        return transformers.AutoConfig.from_pretrained(str(model_dir), local_files_only=True, trust_remote_code=False)
    except Exception as e:  # noqa: BLE001
        raise InvalidOptionError(f"cannot read the model config in {str(model_dir)!r}: {describe(e)}") from None
