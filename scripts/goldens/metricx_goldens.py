"""Regenerate tests/goldens/metricx/: tiny MetricX checkpoints and the MetricX repository's scores.

MetricX is not on PyPI: its inference code is the google-research/metricx repository
(``metricx23/`` and ``metricx24/``: ``models.py``, ``predict.py``; goldens made at commit
fc4978e), whose ``predict`` needs ``datasets`` and ``accelerate`` (versions that clash with
the test environment's hub client) and whose model code runs only under its pinned
transformers 4.30.2 (later versions hand its decoder a self-attention cache for the
cross-attention). So this runs once in an isolated environment that sees the test
environment's torch and sentencepiece, with transformers 4.30.2 in front:

    python3 -m venv /tmp/metricx-ref
    echo "$VIRTUAL_ENV/lib/python3.11/site-packages" > /tmp/metricx-ref/lib/python3.11/site-packages/shared.pth
    /tmp/metricx-ref/bin/pip install transformers==4.30.2 tokenizers==0.13.3 datasets==4.0.0 accelerate==1.10.1 huggingface_hub==0.36.2 "protobuf>=7.36,<8"
    METRICX_COMMIT=fc4978e /tmp/metricx-ref/bin/python scripts/goldens/metricx_goldens.py /path/to/metricx-checkout [../shared/corpora]

What it builds (fixed seeds; nothing is downloaded):

- ``tokenizer/``: a SentencePiece unigram model (T5's ids: pad 0, eos 1, unk 2) trained on
  the WMT22 zh-en source and reference A, wrapped as a ``T5TokenizerFast`` with 100 extra ids.
- one compact checkpoint per entry of ``MODELS`` (see tests/metricx_models.py), built with
  the repository's ``MT5ForRegression`` from an ``MT5Config`` of 2+2 layers, d_model 16,
  vocabulary 250112 (the head reads token 250089), random weights; the head row is
  fitted so scores spread over [0, 25] and some are clipped at both ends. One is saved in
  bfloat16 (MetricX-24's ``torch_dtype="auto"`` loading), one ties its embeddings (the
  ``d_model ** -0.5`` rescaling).
- ``goldens.json``: ``python -m metricx2X.predict --batch_size 1`` (the README's setting)
  predictions, reference-based and QE, at two ``max_input_length`` values, on 3 WMT22
  zh-en systems (first ``N`` segments) and on edge cases.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "goldens" / "metricx"
sys.path.insert(0, str(REPO / "tests"))

from metricx_models import compact, expand  # noqa: E402

PAIR = "zh-en"
SYSTEMS = ["Online-B", "HuaweiTSC", "NiuTrans"]
N = 60
SEED = 23
# name -> (version, torch dtype, tie embeddings)
MODELS = {
    "metricx24-tiny": ("24", "float32", False),
    "metricx24-tiny-bf16": ("24", "bfloat16", False),
    "metricx23-tiny": ("23", "float32", False),
    "metricx23-tiny-tied": ("23", "float32", True),
}
LENGTHS = {"24": [1536, 48], "23": [1024, 48]}

EDGE = [
    {"source": "", "hypothesis": "", "reference": ""},
    {"source": "你好，世界。", "hypothesis": "Hello, world.", "reference": "Hello world!"},
    {"source": "他说：“" + "我们今天去北京开会，" * 30 + "”", "hypothesis": "He said: " + "we are going to Beijing for a meeting today, " * 30, "reference": "He said " + "we go to Beijing today for a meeting; " * 25},
    {"source": "   空格   ", "hypothesis": "  spaces  around  ", "reference": "spaces"},
    {"source": "😀 é ß ﬁ", "hypothesis": "😀 e ss fi", "reference": "émoji"},
    {"source": "ＡＢＣ　全角", "hypothesis": "ＡＢＣ full-width", "reference": "ABC full width"},
    {"source": "短", "hypothesis": "A translation that is much longer than its source and its reference, " * 4, "reference": "Short."},
    {"source": "重复", "hypothesis": "Hello, world.", "reference": "Hello world!"},
]


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def build_tokenizer(corpora: Path) -> int:
    import sentencepiece as spm
    from transformers import T5TokenizerFast

    d = corpora / "wmt22" / PAIR
    tok_dir = OUT / "tokenizer"
    tok_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "train.txt"
        lines = read_lines(d / f"generaltest2022.{PAIR}.src.zh") + read_lines(d / f"generaltest2022.{PAIR}.ref.A.en")
        text.write_text("\n".join(lines) + "\n", encoding="utf-8")
        spm.SentencePieceTrainer.train(
            input=str(text), model_prefix=str(Path(tmp) / "spiece"), vocab_size=1600, model_type="unigram",
            character_coverage=0.98, num_threads=1, shuffle_input_sentence=False, hard_vocab_limit=False,
            pad_id=0, eos_id=1, unk_id=2, bos_id=-1,
        )
        # transformers 4.30's generated proto module is too old for protobuf 7: the slow-to-fast
        # conversion reads the model proto with sentencepiece's own module instead.
        from sentencepiece import sentencepiece_model_pb2

        sys.modules["transformers.utils.sentencepiece_model_pb2"] = sentencepiece_model_pb2
        tok = T5TokenizerFast(vocab_file=str(Path(tmp) / "spiece.model"), extra_ids=100, model_max_length=100000)
        tok.save_pretrained(str(tok_dir))
    (tok_dir / "spiece.model").unlink(missing_ok=True)  # tokenizer.json is what the fast tokenizer reads
    return len(tok)


def calibrate(model, version: str, rows: list[dict]) -> None:
    """Set the head row so the scores of ``rows`` spread over [0, 25] (mean 12.5, sd 7:
    a few clipped at each end): a least-squares fit on the head's inputs."""
    import torch
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(OUT / "tokenizer"))
    seen = []
    hook = model.lm_head.register_forward_hook(lambda mod, args, out: seen.append(args[0][:, 0].float()))
    with torch.no_grad():
        for r in rows:
            text = (f"candidate: {r['hypothesis']} reference: {r['reference']}" if version == "23"
                    else f"source: {r['source']} candidate: {r['hypothesis']} reference: {r['reference']}")
            ids = tok(text, max_length=256, truncation=True)["input_ids"][:-1]
            model(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long))
    hook.remove()
    h = torch.cat(seen).double()
    g = torch.Generator().manual_seed(SEED)
    p = h @ torch.randn(h.shape[1], dtype=torch.float64, generator=g)
    target = 12.5 + 7.0 * (p - p.mean()) / p.std()
    w = torch.linalg.lstsq(h, target[:, None]).solution[:, 0]
    with torch.no_grad():
        model.lm_head.weight[250089] = w.to(model.lm_head.weight.dtype)


def build_models(n_pieces: int, rows: list[dict]) -> None:
    import torch
    from metricx24.models import MT5ForRegression
    from transformers import MT5Config

    for i, (name, (_, dtype, tied)) in enumerate(MODELS.items()):
        torch.manual_seed(SEED + i)
        config = MT5Config(
            vocab_size=250112, d_model=16, d_kv=8, d_ff=32, num_layers=2, num_decoder_layers=2, num_heads=2,
            relative_attention_num_buckets=8, relative_attention_max_distance=20, feed_forward_proj="gated-gelu",
            tie_word_embeddings=tied, decoder_start_token_id=0, eos_token_id=1, pad_token_id=0,
            dropout_rate=0.1, architectures=["MT5ForRegression"], torch_dtype=dtype,
        )
        model = MT5ForRegression(config)
        with torch.no_grad():
            for pname, p in model.named_parameters():
                if "layer_norm" in pname:
                    p.add_(torch.randn_like(p) * 0.3)
                elif pname == "shared.weight":
                    p.copy_(torch.randn_like(p) * 2.0)
        model.eval()
        calibrate(model, MODELS[name][0], rows)
        state = {k: v.to(getattr(torch, dtype)) for k, v in model.state_dict().items()}
        d = OUT / name
        d.mkdir(parents=True, exist_ok=True)
        config.save_pretrained(str(d))
        compact(state, d, n_pieces)


def samples(corpora: Path) -> dict[str, list[dict[str, str]]]:
    d = corpora / "wmt22" / PAIR
    src = read_lines(d / f"generaltest2022.{PAIR}.src.zh")[:N]
    ref = read_lines(d / f"generaltest2022.{PAIR}.ref.A.en")[:N]
    out = {}
    for system in SYSTEMS:
        hyp = read_lines(d / "system-outputs" / f"generaltest2022.{PAIR}.hyp.{system}.en")[:N]
        out[system] = [{"source": s, "hypothesis": h, "reference": r} for s, h, r in zip(src, hyp, ref)]
    out["edge"] = EDGE
    return out


def predict(metricx: Path, version: str, model_dir: Path, rows: list[dict], max_len: int, qe: bool, tmp: Path) -> list[float]:
    inp, outp = tmp / "input.jsonl", tmp / "out" / "output.jsonl"
    if version == "23":
        rows = [{"hypothesis": r["hypothesis"], ("source" if qe else "reference"): r["source" if qe else "reference"]} for r in rows]
    elif qe:
        rows = [{"source": r["source"], "hypothesis": r["hypothesis"]} for r in rows]
    inp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    cmd = [sys.executable, "-m", f"metricx{version}.predict", "--tokenizer", str(OUT / "tokenizer"),
           "--model_name_or_path", str(model_dir), "--max_input_length", str(max_len), "--batch_size", "1",
           "--input_file", str(inp), "--output_file", str(outp)] + (["--qe"] if qe else [])
    env = {**os.environ, "PYTHONPATH": str(metricx), "CUDA_VISIBLE_DEVICES": "", "HF_DATASETS_OFFLINE": "1",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp / "cache"), "OMP_NUM_THREADS": "1"}
    run = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    return [json.loads(line)["prediction"] for line in outp.read_text(encoding="utf-8").splitlines()]


def main() -> None:
    metricx = Path(sys.argv[1]).resolve()
    corpora = Path(sys.argv[2] if len(sys.argv) > 2 else REPO.parent / "shared" / "corpora").resolve()
    sys.path.insert(0, str(metricx))
    OUT.mkdir(parents=True, exist_ok=True)
    n_pieces = build_tokenizer(corpora)
    data = samples(corpora)
    build_models(n_pieces, [r for s in SYSTEMS for r in data[s][:20]])
    import torch
    import transformers

    result: dict = {"metricx_commit": os.environ.get("METRICX_COMMIT", ""), "torch": torch.__version__,
                    "transformers": transformers.__version__, "pair": PAIR, "segments": N, "systems": SYSTEMS,
                    "edge": EDGE, "models": {}}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for name, (version, *_rest) in MODELS.items():
            model_dir = expand(OUT / name, tmp / "models" / name)
            per = {"version": version}
            for max_len in LENGTHS[version]:
                for qe in (False, True):
                    key = f"{'qe' if qe else 'ref'}-{max_len}"
                    # one run per setting (the sets concatenated), split back per set
                    flat = predict(metricx, version, model_dir, [r for rows in data.values() for r in rows], max_len, qe, tmp)
                    per[key], start = {}, 0
                    for s, rows in data.items():
                        per[key][s], start = flat[start : start + len(rows)], start + len(rows)
                    print(name, key, flush=True)
            result["models"][name] = per
    (OUT / "goldens.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"wrote {OUT} ({size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
