"""MetricX-24: nlgmetrics vs the google-research/metricx repository's predict, on CPU.

Same checkpoint, same data (WMT22 zh-en: source, reference A, the first N segments of 1 or
4 systems), reference-based. The repository's code runs in its own environment (it needs
transformers 4.30, datasets and accelerate; see scripts/goldens/metricx_goldens.py): this
script calls itself there with ``--peer``, where ``metricx24.predict.get_dataset`` and a
``transformers.Trainer.predict`` at ``--batch_size 1`` (the README's setting) are timed,
model loading apart. Two checkpoints, random weights, vocabulary 250112 (mT5's):

- ``tiny``: tests/goldens/metricx/metricx24-tiny (2+2 layers, d_model 16);
- ``small``: 4+4 layers, d_model 128, 4 heads, d_ff 512, built into a temporary directory.

nlgmetrics scores all systems in one ``score_systems`` call at ``batch_size=1`` (the
exact shapes: scores ``==`` the peer's) and at ``batch_size=16`` (rows of equal length
batched; tens of float32 ulps at most). MetricX reads source, candidate and reference as one
sequence, so systems share no encoder work unless their outputs coincide (identical rows
are encoded once).

Usage: python benches/bench_metricx.py --peer-python /path/to/metricx-venv/bin/python
       --metricx-repo /path/to/metricx-checkout [--n-tiny 200] [--n-small 40] [--threads 1]

On a shared machine compare the CPU-time columns: wall times wait for the cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "tests" / "goldens" / "metricx"
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


def build_small(target: Path) -> Path:
    import torch
    from safetensors.torch import save_file
    from transformers import MT5Config, MT5ForConditionalGeneration

    config = MT5Config(vocab_size=250112, d_model=128, d_kv=32, d_ff=512, num_layers=4, num_decoder_layers=4, num_heads=4,
                       feed_forward_proj="gated-gelu", tie_word_embeddings=False, decoder_start_token_id=0, eos_token_id=1,
                       pad_token_id=0, architectures=["MT5ForRegression"], torch_dtype="float32")
    torch.manual_seed(0)
    model = MT5ForConditionalGeneration(config)
    target.mkdir(parents=True, exist_ok=True)
    config.save_pretrained(str(target))
    state = {k: v.clone().contiguous() for k, v in model.state_dict().items()}
    save_file(state, str(target / "model.safetensors"), metadata={"format": "pt"})
    return target


# -- the peer side (runs in the metricx repository's environment) -----------------------
def peer(args: argparse.Namespace) -> None:
    import torch
    import transformers
    from metricx24 import models, predict

    torch.set_num_threads(args.threads)
    tok = transformers.AutoTokenizer.from_pretrained(str(GOLD / "tokenizer"))
    start = clock()
    model = models.MT5ForRegression.from_pretrained(args.model, torch_dtype="auto")
    model.eval()
    load = since(start)
    rows = [json.loads(line) for line in Path(args.input).read_text(encoding="utf-8").splitlines()]
    start = clock()
    ds = predict.get_dataset(args.input, tok, 1536, torch.device("cpu"), False)
    trainer = transformers.Trainer(model=model, args=transformers.TrainingArguments(
        output_dir=tempfile.mkdtemp(), per_device_eval_batch_size=1, dataloader_pin_memory=False, report_to=[]))
    predictions, _, _ = trainer.predict(test_dataset=ds["test"])
    score = since(start)
    print(json.dumps({"load": load, "score": score, "scores": [float(p) for p in predictions], "n": len(rows)}))


def run_peer(args: argparse.Namespace, model: Path, src, ref, systems) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        inp = Path(tmp) / "input.jsonl"
        rows = [{"source": s, "hypothesis": h, "reference": r} for hyps in systems.values() for s, h, r in zip(src, hyps, ref)]
        inp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(args.metricx_repo), "CUDA_VISIBLE_DEVICES": "", "HF_DATASETS_OFFLINE": "1",
               "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(Path(tmp) / "cache"), "DISABLE_TQDM": "1"}
        out = subprocess.run([args.peer_python, __file__, "--peer", "--model", str(model), "--input", str(inp), "--threads", str(args.threads)],
                             env=env, capture_output=True, text=True, check=True, cwd=tmp)
        return json.loads(out.stdout.strip().splitlines()[-1])


def ours(model: Path, src, ref, systems, batch_size: int, threads: int) -> dict:
    import torch

    from nlgmetrics.neural import metricx as mx

    torch.set_num_threads(threads)
    mx._load.cache_clear()
    m = mx.MetricX(model, tokenizer=GOLD / "tokenizer", batch_size=batch_size, device="cpu")
    start = clock()
    m._loaded()
    load = since(start)
    start = clock()
    texts = [t for hyps in systems.values() for t in m._inputs(hyps, ref, src)[0]]
    scores = m.input_scores(texts)
    score = since(start)
    return {"load": load, "score": score, "scores": scores.astype(float).tolist()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer", action="store_true")
    ap.add_argument("--model")
    ap.add_argument("--input")
    ap.add_argument("--peer-python")
    ap.add_argument("--metricx-repo")
    ap.add_argument("--n-tiny", type=int, default=200)
    ap.add_argument("--n-small", type=int, default=40)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--corpora", default=str(REPO.parent / "shared" / "corpora"))
    args = ap.parse_args()
    if args.peer:
        sys.path.insert(0, str(REPO / "tests"))
        return peer(args)
    sys.path.insert(0, str(REPO / "tests"))
    from metricx_models import expand

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        models = {"tiny": (expand(GOLD / "metricx24-tiny", Path(tmp) / "tiny"), args.n_tiny),
                  "small": (build_small(Path(tmp) / "small"), args.n_small)}
        for label, (model, n) in models.items():
            for k in (1, 4):
                src, ref, systems = data(Path(args.corpora), n, k)
                p = run_peer(args, model, src, ref, systems)
                exact = ours(model, src, ref, systems, 1, args.threads)
                batched = ours(model, src, ref, systems, 16, args.threads)
                same = sum(a == b for a, b in zip(exact["scores"], p["scores"]))
                diff = max(abs(a - b) for a, b in zip(batched["scores"], p["scores"]))
                rows.append((label, f"{k} × {n}", p["score"], exact["score"], batched["score"], same, len(p["scores"]), diff, p["load"], exact["load"]))
                print(rows[-1], file=sys.stderr, flush=True)
    print("| checkpoint | systems × segments | metricx predict s (CPU) | ours, batch 1 s (CPU) | ours, batch 16 s (CPU) | speed-up batch 1 / 16 (CPU) | batch 1 `==` | batch 16 max abs diff | load: metricx / ours s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, shape, p, e, b, same, total, diff, pl, ol in rows:
        print(f"| {label} | {shape} | {p[0]:.2f} ({p[1]:.2f}) | {e[0]:.2f} ({e[1]:.2f}) | {b[0]:.2f} ({b[1]:.2f}) | "
              f"{p[1] / e[1]:.1f}× / {p[1] / b[1]:.1f}× | {same}/{total} | {diff:.1e} | {pl[0]:.2f} / {ol[0]:.2f} |")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
