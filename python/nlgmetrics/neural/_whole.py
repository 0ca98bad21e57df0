"""A model is loaded whole or refused: the one path every model metric reads weights by.

``read_state`` reads a directory's weights (``model.safetensors``, its shards, or a pickled
``pytorch_model.bin`` and its shards through torch's weights-only unpickler) into tensors
that own their memory (never views of a mapped file, which an edit of the file would
change under a loaded model). Every failure (truncated file, bad header, hostile pickle)
is an :class:`~nlgmetrics.errors.InvalidOptionError` naming the file.

``check_state`` compares a state dict with what an architecture declares (name → shape):
a declared tensor that is absent, a tensor of another shape, a tensor that is not floating
point where a weight is, or an unknown tensor inside the architecture's own modules (a
damaged or mismatched file) is refused, naming the file and the tensor. Tensors of modules
the architecture does not have (a pre-training head beside the encoder) are ignored, as
the references' loaders ignore them.

``load_model`` builds a transformers model from such a state dict
(``from_pretrained(None, state_dict=...)``, so safetensors and pickled files take the same
path and give the same bits) and refuses any weight transformers would initialise at
random (``output_loading_info``: missing keys, shape mismatches), except weights the
metric never computes with (``unused``, e.g. BERT's pooler under BERTScore, which is then
removed) and weights the model's own loader defines (tied embeddings).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Mapping

from .._safe_pickle import describe
from ..errors import InvalidOptionError
from ._torch import require_torch

SAFETENSORS = "model.safetensors"
PICKLED = "pytorch_model.bin"
# Integer buffers some checkpoints store (never weights); every other tensor must be floating point.
_INTEGER_BUFFERS = ("position_ids", "token_type_ids", "num_batches_tracked")


def weight_files(model_dir: Path) -> list[Path]:
    """The weight files of ``model_dir`` in the order they are read (safetensors first,
    never a pickle beside them); an empty list when there are none."""
    for single in (SAFETENSORS, PICKLED):
        if (model_dir / single).is_file():
            return [model_dir / single]
        index = model_dir / (single + ".index.json")
        if index.is_file():
            return _shards(model_dir, index)
    return []


def _shards(model_dir: Path, index: Path) -> list[Path]:
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


def read_file(path: Path) -> dict[str, Any]:
    """The tensors of one weight file, owning their memory."""
    if path.name.endswith(".safetensors"):
        state = read_safetensors(path)
        return {k: v.clone() for k, v in state.items()}  # not views of the mapped file
    return read_torch_file(path)


def read_state(model_dir: Path) -> tuple[dict[str, Any], str]:
    """``(state dict, the files' names for messages)`` of ``model_dir``'s weights."""
    files = weight_files(model_dir)
    if not files:
        raise InvalidOptionError(f"no model.safetensors or pytorch_model.bin (or their shards) in {str(model_dir)!r}")
    state: dict[str, Any] = {}
    for path in files:
        for name, tensor in read_file(path).items():
            if name in state:
                raise InvalidOptionError(f"the weights {str(path)!r} hold {name!r} again (it is in another shard)")
            state[name] = tensor
    where = repr(str(files[0])) if len(files) == 1 else f"{str(files[0].parent)!r} ({len(files)} shards)"
    return state, where


def check_floating(state: Mapping[str, Any], where: str, weights: set[str] | None = None) -> None:
    """Weights are floating point (an integer or boolean tensor is a damaged file).
    ``weights``: the names that are weights (other tensors, such as the boolean attention
    masks old GPT-2 files store, are buffers the model rebuilds); by default every tensor
    but the integer buffers checkpoints store."""
    for name, tensor in state.items():
        is_weight = name in weights if weights is not None else name.rsplit(".", 1)[-1] not in _INTEGER_BUFFERS
        if not tensor.is_floating_point() and is_weight:
            raise InvalidOptionError(f"the weights {where} hold {name} as {str(tensor.dtype).removeprefix('torch.')}, not a floating-point weight")


def check_state(state: Mapping[str, Any], declared: Mapping[str, tuple[int, ...]], where: str, *,
                modules: Iterable[str], optional: Iterable[str] = ()) -> None:
    """Refuse ``state`` unless it holds every ``declared`` tensor with its shape, as
    floating point, and nothing else inside ``modules`` (the name prefixes the
    architecture owns); ``optional`` names may be absent."""
    check_floating(state, where)
    optional = set(optional)
    for name, shape in declared.items():
        if name not in state:
            if name not in optional:
                raise InvalidOptionError(f"the weights {where} lack {name} (the model would run without it)")
            continue
        if tuple(state[name].shape) != tuple(shape):
            raise InvalidOptionError(f"the weights {where} hold {name} of shape {list(state[name].shape)}, the model's is {list(shape)}")
    owned = tuple(modules)
    for name in state:
        if name not in declared and name.startswith(owned) and name.rsplit(".", 1)[-1] not in _INTEGER_BUFFERS:
            raise InvalidOptionError(f"the weights {where} hold {name}, which the model does not have (a damaged or mismatched file)")


def _ignored(model: Any, name: str) -> bool:
    patterns = list(getattr(model, "_keys_to_ignore_on_load_unexpected", None) or [])
    return any(re.search(p, name) for p in patterns)


def _tied_to_loaded(model: Any, name: str, state: Mapping[str, Any], prefix: str) -> bool:
    """Whether ``name`` is the same parameter as one the file holds (an embedding the
    model shares between modules: its loader ties them, nothing is initialised)."""
    params = dict(model.named_parameters(remove_duplicate=False))
    param = params.get(name)
    if param is None:
        return False
    for other, p in params.items():
        if p is param and other != name and any(k in state for k in (other, f"{prefix}.{other}", other.removeprefix(prefix + "."))):
            return True
    return False


def _weight_names(model_class: Any, config: Any) -> set[str] | None:
    """The parameter names of ``model_class(config)`` as a checkpoint may spell them (with
    and without the base model's prefix), from a skeleton on the meta device."""
    torch, _ = require_torch()
    try:
        with torch.device("meta"):
            skeleton = model_class(config)
    except Exception:  # noqa: BLE001 - then every tensor but the integer buffers is a weight
        return None
    names = {n for n, _ in skeleton.named_parameters(remove_duplicate=False)}
    prefix = getattr(skeleton, "base_model_prefix", "") or ""
    return names | {f"{prefix}.{n}" for n in names} | {n.removeprefix(prefix + ".") for n in names}


def load_model(model_class: Any, config: Any, state: dict[str, Any], where: str, *, unused: Iterable[str] = (), **kwargs: Any) -> Any:
    """``model_class`` with ``config`` built from ``state`` whole (see the module docstring);
    ``unused``: module names (e.g. ``"pooler"``) whose weights may be absent because the
    metric never computes with them (they are removed from the model)."""
    torch, _ = require_torch()
    check_floating(state, where, _weight_names(model_class, config))
    unused = tuple(unused)
    try:
        model, info = model_class.from_pretrained(None, config=config, state_dict=state, output_loading_info=True,
                                                  ignore_mismatched_sizes=True, **kwargs)
    except InvalidOptionError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever transformers raises on a damaged file is one data error
        raise InvalidOptionError(f"cannot build a {model_class.__name__} from the weights {where}: {describe(e)}") from None
    mismatched = info.get("mismatched_keys") or []
    if mismatched:
        name = mismatched[0]
        prefix = getattr(model, "base_model_prefix", "") or ""
        got = next((state[k].shape for k in (name, f"{prefix}.{name}", name.removeprefix(prefix + ".")) if k in state), None)
        want = model.state_dict().get(name)
        raise InvalidOptionError(f"the weights {where} hold {name} of shape {list(got) if got is not None else '?'}, "
                                 f"the model's is {list(want.shape) if want is not None else '?'}")
    prefix = getattr(model, "base_model_prefix", "") or ""

    def local(name: str) -> str:
        return name[len(prefix) + 1:] if prefix and name.startswith(prefix + ".") else name

    missing = [k for k in info.get("missing_keys") or [] if not local(k).startswith(tuple(u + "." for u in unused))
               and not _tied_to_loaded(model, k, state, prefix)]
    if missing:
        raise InvalidOptionError(f"the weights {where} lack {sorted(missing)[0]}" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
                                 + ": the model would run with randomly initialised weights")
    owners = {n for n, _ in model.named_children()} | {n for n, _ in getattr(model, "base_model", model).named_children()}
    for name in info.get("unexpected_keys") or []:
        head = local(name).split(".", 1)[0]
        if head in owners and not _ignored(model, name) and name.rsplit(".", 1)[-1] not in _INTEGER_BUFFERS:
            raise InvalidOptionError(f"the weights {where} hold {name}, which the model does not have (a damaged or mismatched file)")
    base = getattr(model, "base_model", model)
    for name in unused:
        if isinstance(getattr(base, name, None), torch.nn.Module):
            setattr(base, name, None)  # never computed: its weights need not be loaded
    return model
