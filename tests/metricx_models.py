"""Tiny MetricX checkpoints, stored compactly and expanded into a transformers directory.

A MetricX checkpoint is an mT5 encoder-decoder whose regression head reads the logit of
token 250089 (``<extra_id_10>`` in mT5's vocabulary), so its vocabulary must have 250112
rows even when the tokenizer knows only a few hundred pieces. tests/goldens/metricx/ keeps
each tiny model as ``config.json`` plus ``weights.npz`` holding only the rows that can
matter (the embedding rows of the tokenizer's pieces, the head's one row); the other rows
are zeros. ``expand`` writes the full ``model.safetensors`` the reference code and ours
both read. The tokenizer (``tokenizer/``) is a T5 fast tokenizer over a SentencePiece model
trained on WMT22 text.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

HEAD_ROW = 250089
SPARSE = ("shared.weight", "lm_head.weight")


def compact(state: dict, directory: Path, n_pieces: int) -> None:
    """Write ``weights.npz`` of a full state dict (torch tensors) into ``directory``."""
    import torch

    arrays = {}
    arrays["head_row"] = state["lm_head.weight"][HEAD_ROW].detach().to(torch.float32).cpu().numpy()
    for name, t in state.items():
        if name.endswith("embed_tokens.weight") or name == "lm_head.weight":
            continue  # shared.weight again, and the head's one row (above)
        t = t.detach().to(torch.float32).cpu().numpy()
        arrays[name] = t[:n_pieces] if name == "shared.weight" else t
    np.savez_compressed(directory / "weights.npz", **arrays)


def expand(compact_dir: Path, target: Path) -> Path:
    """The full transformers checkpoint of ``compact_dir`` in ``target`` (made once)."""
    import torch
    from safetensors.torch import save_file

    if (target / "model.safetensors").is_file():
        return target
    target.mkdir(parents=True, exist_ok=True)
    config = json.loads((compact_dir / "config.json").read_text(encoding="utf-8"))
    dtype = getattr(torch, config.get("torch_dtype") or "float32")
    vocab, d = int(config["vocab_size"]), int(config["d_model"])
    state = {}
    with np.load(compact_dir / "weights.npz") as data:
        for name in data.files:
            values = data[name]
            if name == "head_row":
                continue
            if name == "shared.weight":
                full = np.zeros((vocab, d), dtype=np.float32)
                full[: len(values)] = values
                values = full
            state[name] = torch.from_numpy(np.ascontiguousarray(values)).to(dtype)
        row = torch.from_numpy(data["head_row"]).to(dtype)
    # MT5ForRegression never ties lm_head to the embeddings (it has no
    # get_output_embeddings), so its checkpoints always store lm_head.weight
    state["lm_head.weight"] = torch.zeros((vocab, d), dtype=dtype)
    state["lm_head.weight"][HEAD_ROW] = row
    # transformers ties these to shared.weight; the file stores them too, as save_pretrained does
    state["encoder.embed_tokens.weight"] = state["shared.weight"]
    state["decoder.embed_tokens.weight"] = state["shared.weight"]
    state = {k: v.clone().contiguous() for k, v in state.items()}
    save_file(state, str(target / "model.safetensors"), metadata={"format": "pt"})
    shutil.copy(compact_dir / "config.json", target / "config.json")
    return target
