"""COMET: nlgmetrics vs unbabel-comet's ``predict`` on CPU, same checkpoint, same data
(WMT22 zh-en: source, reference A, the first N segments of 1 or 12 systems).

unbabel-comet runs in its own environment (it pins old numpy/torchmetrics): this script
calls itself there with ``--peer``. Two checkpoints:

- ``tiny``: tests/goldens/comet/da-sparsemax-avg (2 layers, hidden 32);
- ``base``: a regression model of XLM-R base's dimensions (12 layers, hidden 768,
  12 heads, FFN 3072, 514 positions; estimator 4608 -> 3072 -> 1024 -> 1, as
  wmt22-comet-da) with random weights, built with unbabel-comet's classes into a
  temporary directory (the tiny SentencePiece vocabulary, so the file stays small).

Model loading is timed apart from scoring. unbabel-comet scores each system with one
``predict`` call, as ``comet-score`` does for several -t files: once plain (sources and
references encoded again per system, what the Python API does by default) and once after
``set_embedding_cache()`` (what ``comet-score`` does by default: an LRU of whole padded
batches). A third checkpoint, tests/goldens/xcomet/xcomet-sparsemax, times xCOMET (nothing
is shared between systems there, on either side). nlgmetrics scores system by system on one metric object
(``corpus_score``: sources and references come from its embedding cache after the first
system) and all systems in one ``score_systems`` call.

Usage: python benches/bench_comet.py --peer-python /path/to/comet-venv/bin/python
       [--n-tiny 500] [--n-base 100] [--threads 1] [--corpora ../shared/corpora]

On a shared machine compare the CPU-time columns: wall times wait for the cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "tests" / "goldens" / "comet"
PAIR = "zh-en"


def read(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


def data(corpora: Path, n: int, k: int) -> tuple[list[str], list[str], dict[str, list[str]]]:
    d = corpora / "wmt22" / PAIR
    src = read(d / f"generaltest2022.{PAIR}.src.zh", n)
    ref = read(d / f"generaltest2022.{PAIR}.ref.A.en", n)
    names = sorted(p.name.split(".hyp.")[1][: -len(".en")] for p in (d / "system-outputs").iterdir())[:k]
    return src, ref, {s: read(d / "system-outputs" / f"generaltest2022.{PAIR}.hyp.{s}.en", n) for s in names}


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def since(start: tuple[float, float]) -> tuple[float, float]:
    return time.perf_counter() - start[0], time.process_time() - start[1]


# -- the peer side (runs inside unbabel-comet's environment) ---------------------------
def build_base(target: Path) -> None:
    import shutil

    import pytorch_lightning as ptl
    import torch
    import yaml
    from comet.models import RegressionMetric
    from transformers import XLMRobertaConfig

    enc = target / "encoder"
    enc.mkdir(parents=True, exist_ok=True)
    for f in (GOLD / "xlmr-tiny").iterdir():
        if f.name != "config.json":
            shutil.copy(f, enc / f.name)
    vocab = json.loads((GOLD / "xlmr-tiny" / "config.json").read_text())["vocab_size"]
    XLMRobertaConfig(vocab_size=vocab, hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
                     max_position_embeddings=514, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2).save_pretrained(str(enc))
    torch.manual_seed(0)
    model = RegressionMetric(pretrained_model=str(enc), load_pretrained_weights=False, local_files_only=True, layer="mix",
                             layer_transformation="sparsemax", layer_norm=False, pool="avg", hidden_sizes=[3072, 1024])
    (target / "checkpoints").mkdir(parents=True, exist_ok=True)
    trainer = ptl.Trainer(logger=False, accelerator="cpu", enable_progress_bar=False, enable_checkpointing=False)
    trainer.strategy.connect(model)
    trainer.save_checkpoint(str(target / "checkpoints" / "model.ckpt"))
    (target / "hparams.yaml").write_text(yaml.dump(dict(model.hparams)), encoding="utf-8")


def peer(model: Path, corpora: Path, n: int, k: int, threads: int, cache: bool = False) -> None:
    import comet
    import torch

    torch.set_num_threads(threads)

    src, ref, systems = data(corpora, n, k)
    t = clock()
    m = comet.load_from_checkpoint(str(model / "checkpoints" / "model.ckpt"), local_files_only=True)
    load = since(t)
    if cache:  # what comet-score does by default (an LRU of whole padded batches)
        m.set_embedding_cache()
    t = clock()
    scores = {}
    for name, hyps in systems.items():
        out = m.predict([{"src": s, "mt": h, "ref": r} for s, h, r in zip(src, hyps, ref)], batch_size=16, gpus=0, progress_bar=False)
        scores[name] = [float(x) for x in out.scores]
    print(json.dumps({"load": load, "score": since(t), "scores": scores}))


# -- our side ---------------------------------------------------------------------------
def ours(model: Path, encoder: Path, corpora: Path, n: int, k: int) -> dict:
    import numpy as np
    from transformers.models.xlm_roberta import modeling_xlm_roberta  # noqa: F401  (imported before the clock, as `import comet` is)
    from transformers.models.xlm_roberta_xl import modeling_xlm_roberta_xl  # noqa: F401

    from nlgmetrics import COMET, XCOMET
    from nlgmetrics.neural import comet as comet_module

    src, ref, systems = data(corpora, n, k)
    comet_module._load.cache_clear()
    COMET = XCOMET if model.name.startswith("xcomet") else COMET  # noqa: N806
    metric = COMET(model, encoder=encoder, device="cpu")
    t = clock()
    metric.network
    load = since(t)
    t = clock()
    per_system = {name: metric.sentence_scores(hyps, ref, sources=src) for name, hyps in systems.items()}
    one_by_one = since(t)
    fresh = COMET(model, encoder=encoder, device="cpu")
    t = clock()
    together = fresh.score_systems(src, ref, systems)
    at_once = since(t)
    means = {name: float(np.mean(v)) for name, v in per_system.items()}
    assert all(abs(together[s].score - means[s]) < 1e-6 for s in systems)
    return {"load": load, "score": one_by_one, "score_systems": at_once, "scores": {s: v.tolist() for s, v in per_system.items()}}


def run_peer(python: str, model: Path, corpora: Path, n: int, k: int, threads: int, cache: bool = False) -> dict:
    cmd = [python, __file__, "--peer", str(model), "--corpora", str(corpora), "--n", str(n), "--k", str(k), "--threads", str(threads)]
    cmd += ["--peer-cache"] if cache else []
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=str(model.parent))
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer-python", default=None)
    ap.add_argument("--peer", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--peer-cache", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--build-base", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--k", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--n-tiny", type=int, default=500)
    ap.add_argument("--n-base", type=int, default=100)
    ap.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    ap.add_argument("--threads", type=int, default=1, help="torch threads on both sides (default 1: the machine is shared)")
    ap.add_argument("--only", nargs="+", default=None, metavar="CASE:K", help="cases to run, e.g. tiny:1 base:12 (default: all)")
    a = ap.parse_args()
    if a.build_base is not None:
        return build_base(a.build_base)
    if a.peer is not None:
        return peer(a.peer, a.corpora, a.n, a.k, a.threads, a.peer_cache)
    if a.peer_python is None:
        ap.error("--peer-python (a Python with unbabel-comet installed) is required")
    import numpy as np
    import torch

    torch.set_num_threads(a.threads)
    print(f"CPU, torch {torch.__version__}, {torch.get_num_threads()} threads, WMT22 {PAIR}, batch size 16.")
    print()
    print("| checkpoint | systems x segments | unbabel-comet load s | nlgmetrics load s | unbabel-comet predict s (CPU s) | unbabel-comet, embedding cache (comet-score) s (CPU s) | nlgmetrics one by one s (CPU s) | nlgmetrics score_systems s (CPU s) | speed-up vs predict wall (CPU) | vs cache wall (CPU) | max abs diff |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run([a.peer_python, __file__, "--build-base", str(base)], check=True, capture_output=True)
        xgold = REPO / "tests" / "goldens" / "xcomet"
        cases = [("tiny", "tiny", GOLD / "da-sparsemax-avg", GOLD / "xlmr-tiny", a.n_tiny), ("base", "XLM-R base size", base, base / "encoder", a.n_base),
                 ("xcomet", "xCOMET tiny", xgold / "xcomet-sparsemax", xgold / "xlmr-xl-tiny", a.n_tiny)]
        for key, label, model, encoder, n in cases:
            for k in (1, 12):
                if a.only is not None and f"{key}:{k}" not in a.only:
                    continue
                theirs = run_peer(a.peer_python, model, a.corpora, n, k, a.threads)
                cached = run_peer(a.peer_python, model, a.corpora, n, k, a.threads, cache=True) if key != "xcomet" else None
                mine = ours(model, encoder, a.corpora, n, k)
                diff = max(float(np.abs(np.array(theirs["scores"][s]) - np.array(mine["scores"][s])).max()) for s in theirs["scores"])
                best = min(mine["score"][0], mine["score_systems"][0])
                best_cpu = min(mine["score"][1], mine["score_systems"][1])
                with_cache = f"{cached['score'][0]:.2f} ({cached['score'][1]:.2f})" if cached else "n/a"
                vs_cache = f"{cached['score'][0] / best:.1f}x ({cached['score'][1] / best_cpu:.1f}x)" if cached else "n/a"
                print(f"| {label} | {k} x {n} | {theirs['load'][0]:.2f} | {mine['load'][0]:.2f} | {theirs['score'][0]:.2f} ({theirs['score'][1]:.2f}) | {with_cache} | "
                      f"{mine['score'][0]:.2f} ({mine['score'][1]:.2f}) | {mine['score_systems'][0]:.2f} ({mine['score_systems'][1]:.2f}) | "
                      f"{theirs['score'][0] / best:.1f}x ({theirs['score'][1] / best_cpu:.1f}x) | {vs_cache} | {diff:.1e} |", flush=True)
    print()
    print(f"Load average at the end: {os.getloadavg()[0]:.1f} (a shared machine: compare CPU times); "
          f"peak RSS of this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB.")


if __name__ == "__main__":
    main()
