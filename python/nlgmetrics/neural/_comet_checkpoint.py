"""Reading an unbabel-comet checkpoint from local files, without unbabel-comet or Lightning.

A COMET model directory (what ``comet.download_model`` leaves in the Hugging Face cache)
holds ``hparams.yaml`` and ``checkpoints/model.ckpt``; the path may name the directory or
the ``.ckpt`` file (then ``hparams.yaml`` is two levels up, as unbabel-comet looks for it),
or a model name already in the local Hugging Face cache (``Unbabel/wmt22-comet-da``).

As ``comet.load_from_checkpoint`` does: the class comes from ``class_identifier`` in
``hparams.yaml``; the hyper-parameters are those saved in the checkpoint (the YAML file's
when the checkpoint has none); ``layer_transformation: sparsemax_patch`` in the YAML means
softmax (unbabel-comet >= 2.2.4).

The encoder's ``config.json`` and tokenizer are not in the checkpoint. They are taken
from, in order: ``encoder=`` given by the caller; the checkpoint directory itself; the
``pretrained_model`` hyper-parameter as a directory (relative to the working directory, as
unbabel-comet resolves it); that name in the local Hugging Face cache. Nothing is
downloaded; a missing piece is an :class:`~nlgmetrics.errors.InvalidOptionError` that
names it and where it was looked for.

The checkpoint is a pickle written by PyTorch Lightning. It is read with an unpickler
(``nlgmetrics._safe_pickle.StrictUnpickler``) whose globals come from an exact allow-list
(torch's tensor-rebuilding functions, dtypes, storages, plain containers and the few
classes Lightning itself saves: ``AttributeDict``, ``argparse.Namespace``); any other
global the file names (``os.system`` planted in ``hyper_parameters`` or ``callbacks``) is
refused with an error naming the file and the global, so loading runs no code from the
file and accepts nothing it does not understand (``tests/test_no_code_loading.py``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._safe_pickle import StrictUnpickler, describe, plain_data_allowed
from ..errors import InvalidOptionError
from ._models import _cached_snapshot, require_torch

SUPPORTED_CLASSES = ("regression_metric", "referenceless_regression_metric", "unified_metric")
XCOMET_CLASSES = ("xcomet_metric",)  # read by nlgmetrics.neural.xcomet
SUPPORTED_ENCODERS = ("XLM-RoBERTa", "XLM-RoBERTa-XL")
_TOKENIZER_FILES = ("tokenizer.json", "sentencepiece.bpe.model")


@dataclass(frozen=True)
class CheckpointFiles:
    directory: Path
    checkpoint: Path
    hparams: Path


class AttributeDict(dict):
    """What Lightning's ``AttributeDict`` (the saved ``hyper_parameters``) is read as: a
    plain dict of its items (Lightning's class adds attribute access only)."""


class _Namespace(dict):
    """What ``argparse.Namespace`` (hyper-parameters of older COMET versions) is read as:
    a plain dict of its attributes, restored by ``__setstate__`` (no code runs)."""

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, dict):
            self.update(state)


# Every global a Lightning / COMET checkpoint legitimately names beyond tensors and plain
# data: the hyper-parameters' AttributeDict (each Lightning package layout that has held
# it), argparse's Namespace, torch's version string. Anything else is refused.
LIGHTNING_GLOBALS: dict[tuple[str, str], Any] = {
    ("pytorch_lightning.utilities.parsing", "AttributeDict"): AttributeDict,
    ("lightning.pytorch.utilities.parsing", "AttributeDict"): AttributeDict,
    ("lightning_fabric.utilities.data", "AttributeDict"): AttributeDict,
    ("lightning.fabric.utilities.data", "AttributeDict"): AttributeDict,
    ("argparse", "Namespace"): _Namespace,
    ("torch.torch_version", "TorchVersion"): str,
}


@functools.lru_cache(maxsize=1)
def _torch_allowed() -> dict[tuple[str, str], Any]:
    """Exactly the torch names a tensor checkpoint needs (looked up here, never from the file)."""
    import torch
    import torch._utils as tu

    allowed = plain_data_allowed()
    for name in ("_rebuild_tensor", "_rebuild_tensor_v2", "_rebuild_parameter"):
        if hasattr(tu, name):
            allowed[("torch._utils", name)] = getattr(tu, name)
    for name in ("_rebuild_tensor_v3",):
        if hasattr(tu, name):
            allowed[("torch._utils", name)] = getattr(tu, name)
    allowed.update(LIGHTNING_GLOBALS)
    allowed[("torch", "Size")] = torch.Size
    allowed[("torch", "device")] = torch.device
    for name in dir(torch):
        value = getattr(torch, name, None)
        if isinstance(value, torch.dtype) or (name.endswith("Storage") and isinstance(value, type)):
            allowed[("torch", name)] = value
    return allowed


class _RestrictedUnpickler(StrictUnpickler):
    """Tensors, plain containers and Lightning's own names (:data:`LIGHTNING_GLOBALS`) from
    an exact allow-list; any other global the file names is refused."""

    def __init__(self, file: Any, **kwargs: Any) -> None:
        super().__init__(file, allowed=_torch_allowed(), **kwargs)


class _RestrictedPickle:
    """The ``pickle_module`` handed to ``torch.load``."""

    Unpickler = _RestrictedUnpickler
    UnpicklingError = pickle.UnpicklingError
    __name__ = "nlgmetrics_restricted_pickle"

    @staticmethod
    def load(file: Any, **kwargs: Any) -> Any:
        return _RestrictedUnpickler(file, **kwargs).load()


def locate(path: str | os.PathLike) -> CheckpointFiles:
    """The checkpoint file and ``hparams.yaml`` of ``path`` (see the module docstring)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidOptionError(f"COMET model must be a path or a model name, got {type(path).__name__}")
    p = Path(path).expanduser()
    if p.is_file():
        checkpoint = p
        directory = p.parents[1] if len(p.parents) > 1 else p.parent
    elif p.is_dir():
        directory, checkpoint = p, p / "checkpoints" / "model.ckpt"
    else:
        snapshot = _cached_snapshot(str(path))
        if snapshot is None:
            raise InvalidOptionError(
                f"COMET model {str(path)!r} is not a local directory or checkpoint file and not in the local "
                "Hugging Face cache; nlgmetrics never downloads models: give the model directory "
                "(with hparams.yaml and checkpoints/model.ckpt)"
            )
        directory, checkpoint = snapshot, snapshot / "checkpoints" / "model.ckpt"
    if not checkpoint.is_file():
        raise InvalidOptionError(f"COMET model {str(path)!r} has no checkpoint: {str(checkpoint)!r} is missing")
    hparams = directory / "hparams.yaml"
    if not hparams.is_file():
        raise InvalidOptionError(f"COMET model {str(path)!r} has no hparams.yaml: {str(hparams)!r} is missing")
    return CheckpointFiles(directory, checkpoint, hparams)


def read_yaml(path: Path) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise InvalidOptionError(f"cannot read {str(path)!r}: {describe(e)}") from None
    if not isinstance(data, dict):
        raise InvalidOptionError(f"{str(path)!r} is not a mapping of hyper-parameters")
    return data


def read_checkpoint(path: Path) -> dict[str, Any]:
    torch, _ = require_torch()
    try:
        data = torch.load(str(path), map_location="cpu", weights_only=False, pickle_module=_RestrictedPickle)
    except Exception as e:  # noqa: BLE001 - whatever a damaged or hostile file raises is one data error
        raise InvalidOptionError(f"cannot read the COMET checkpoint {str(path)!r}: {describe(e)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("state_dict"), dict):
        raise InvalidOptionError(f"{str(path)!r} is not a PyTorch Lightning checkpoint (no state_dict)")
    return data


def hyper_parameters(files: CheckpointFiles, checkpoint: dict[str, Any], classes: tuple[str, ...] = SUPPORTED_CLASSES) -> dict[str, Any]:
    """The model's hyper-parameters as unbabel-comet's ``load_from_checkpoint`` sets them
    (``classes``: the ``class_identifier`` values the caller reads)."""
    from_yaml = read_yaml(files.hparams)
    identifier = from_yaml.get("class_identifier")
    if identifier not in classes:
        raise InvalidOptionError(
            f"COMET model class {identifier!r} (class_identifier in {str(files.hparams)!r}) is not supported; "
            f"supported: {', '.join(classes)}"
        )
    saved = checkpoint.get("hyper_parameters")
    hparams = dict(saved) if isinstance(saved, dict) and saved else dict(from_yaml)
    hparams["class_identifier"] = identifier
    if from_yaml.get("layer_transformation") == "sparsemax_patch":
        hparams["layer_transformation"] = "softmax"
    encoder = hparams.get("encoder_model", "XLM-RoBERTa")
    if encoder not in SUPPORTED_ENCODERS:
        raise InvalidOptionError(f"COMET encoder {encoder!r} is not supported; supported: {', '.join(SUPPORTED_ENCODERS)}")
    return hparams


def _has_encoder_files(d: Path) -> bool:
    return (d / "config.json").is_file() and any((d / f).is_file() for f in _TOKENIZER_FILES)


def encoder_dir(files: CheckpointFiles, pretrained_model: str, encoder: str | os.PathLike | None) -> Path:
    """Where the encoder's config.json and tokenizer are (see the module docstring)."""
    tried: list[str] = []
    if encoder is not None:
        d = Path(encoder).expanduser()
        if d.is_dir() and _has_encoder_files(d):
            return d
        snapshot = None if d.exists() else _cached_snapshot(str(encoder))
        if snapshot is not None and _has_encoder_files(snapshot):
            return snapshot
        raise InvalidOptionError(
            f"COMET encoder {str(encoder)!r} is not a directory (or cached model) with config.json and a "
            f"tokenizer ({' or '.join(_TOKENIZER_FILES)})"
        )
    if _has_encoder_files(files.directory):
        return files.directory
    tried.append(str(files.directory))
    named = Path(str(pretrained_model)).expanduser()
    if named.is_dir():
        if _has_encoder_files(named):
            return named
        tried.append(str(named))
    else:
        snapshot = _cached_snapshot(str(pretrained_model))
        if snapshot is not None and _has_encoder_files(snapshot):
            return snapshot
        tried.append(f"{pretrained_model} in the Hugging Face cache")
    raise InvalidOptionError(
        f"cannot find the config.json and tokenizer of the COMET encoder {pretrained_model!r} "
        f"(looked in: {'; '.join(tried)}); save them to a directory and pass encoder=PATH "
        "(CLI: --comet-encoder PATH); nlgmetrics never downloads models"
    )


def file_digest(path: Path) -> str:
    """The first 12 hex digits of the file's SHA-256 (names the weights in signatures)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()[:12]
