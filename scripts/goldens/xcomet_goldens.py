"""Regenerate tests/goldens/xcomet/: tiny XCOMET checkpoints and unbabel-comet's predictions.

Runs in the isolated unbabel-comet environment of scripts/goldens/comet_goldens.py:

    /tmp/comet-ref/bin/python scripts/goldens/xcomet_goldens.py [../shared/corpora]

What it builds (fixed seeds; nothing is downloaded):

- ``xlmr-xl-tiny/``: the SentencePiece tokenizer of tests/goldens/comet/xlmr-tiny and an
  ``XLMRobertaXLConfig`` (XCOMET's encoder, ``encoder_model: XLM-RoBERTa-XL``) with 2 layers
  of hidden size 24 and 66 positions (so WMT sentences are truncated); its vocabulary
  covers ``<mask>``.
- one checkpoint per option set (``CHECKPOINTS``), built with unbabel-comet's own
  ``XCOMETMetric`` (random weights; the word-level head ``hidden2tag`` scaled so that every
  severity occurs) and saved in unbabel-comet's layout.
- ``goldens.json``: ``comet.load_from_checkpoint(...).predict(..., gpus=0)`` scores, system
  score and ``metadata`` (``error_spans``, ``src_scores``/``ref_scores``/``unified_scores``,
  ``mqm_scores``) on WMT22 zh-en (3 systems x ``N`` segments, reference A) with references
  and without (QE: source and translation only), on edge cases and on special-token text.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "goldens" / "xcomet"
TOKENIZER = REPO / "tests" / "goldens" / "comet" / "xlmr-tiny"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from comet_goldens import EDGE, PAIR, SYSTEMS, read_lines  # noqa: E402

N = 100
SEED = 23
ENCODER = "xlmr-xl-tiny"
SPECIAL_TOKENS = ["<s>", "</s>", "<pad>", "<unk>", "<mask>"]

CHECKPOINTS = {
    "xcomet-sparsemax": dict(sent_layer="mix", layer_transformation="sparsemax", layer_norm=False, word_layer=2, hidden_sizes=[48, 16], activations="Tanh"),
    "xcomet-softmax-norm": dict(sent_layer="mix", layer_transformation="softmax", layer_norm=True, word_layer=1, hidden_sizes=[32], activations="Tanh", final_activation="Sigmoid"),
}
HEAD_SCALE = {"xcomet-sparsemax": 40.0, "xcomet-softmax-norm": 40.0}  # spread the scores; both sides of the clamp at 1
HEAD_SHIFT = {"xcomet-sparsemax": 13.0, "xcomet-softmax-norm": 1.5}  # the last bias: scores around 1
TAG_SCALE = 6.0
TAG_BIAS = [2.5, 0.0, -0.3, -0.6]  # O, I-minor, I-major, I-critical: spans are runs, not every token


def special_rows() -> list[dict[str, str]]:
    base = {"src": "你好，世界。", "mt": "Hello, world.", "ref": "Hello world!"}
    rows = []
    for token in SPECIAL_TOKENS:
        for slot in ("src", "mt", "ref"):
            for text in (f"Hello {token} world.", token, f"{token}{token} x {token}"):
                rows.append({**base, slot: text})
    return rows


def build_encoder() -> None:
    from transformers import XLMRobertaTokenizerFast, XLMRobertaXLConfig

    enc = OUT / ENCODER
    if enc.exists():
        shutil.rmtree(enc)
    enc.mkdir(parents=True)
    for f in TOKENIZER.iterdir():
        if f.name != "config.json":
            shutil.copy(f, enc / f.name)
    tok = XLMRobertaTokenizerFast.from_pretrained(str(enc))
    vocab = max(len(tok), tok.mask_token_id + 1)
    XLMRobertaXLConfig(
        vocab_size=vocab, hidden_size=24, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        max_position_embeddings=66, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2,
    ).save_pretrained(str(enc))


def perturb(model, head_scale: float, shift: float) -> None:
    import torch

    last_bias = [n for n, _ in model.named_parameters() if n.startswith("estimator") and n.endswith("bias")][-1]
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "LayerNorm" in name or "layer_norm" in name.lower():
                p.add_(torch.randn_like(p) * 0.2)
            elif "scalar_parameters" in name:
                p.copy_(torch.randn_like(p))
            elif name.endswith("gamma"):
                p.copy_(1.0 + 0.3 * torch.randn_like(p))
            elif "embeddings" in name:
                p.copy_(torch.randn_like(p) * 0.5)
            elif name.startswith("estimator"):
                p.mul_(head_scale)
                if name == last_bias:
                    p.add_(shift)
            elif name == "hidden2tag.weight":
                p.mul_(TAG_SCALE)
            elif name == "hidden2tag.bias":
                p.copy_(torch.tensor(TAG_BIAS))


def build_checkpoints() -> None:
    import pytorch_lightning as ptl
    import torch
    import yaml
    from comet.models import str2model

    for i, (name, options) in enumerate(CHECKPOINTS.items()):
        torch.manual_seed(SEED + i)
        model = str2model["xcomet_metric"](
            pretrained_model=ENCODER, encoder_model="XLM-RoBERTa-XL", load_pretrained_weights=False, local_files_only=True, **options
        )
        perturb(model, HEAD_SCALE[name], HEAD_SHIFT[name])
        model.eval()
        target = OUT / name
        if target.exists():
            shutil.rmtree(target)
        (target / "checkpoints").mkdir(parents=True)
        trainer = ptl.Trainer(logger=False, accelerator="cpu", enable_progress_bar=False, enable_checkpointing=False)
        trainer.strategy.connect(model)
        trainer.save_checkpoint(str(target / "checkpoints" / "model.ckpt"), weights_only=False)
        hparams = {k: v for k, v in dict(model.hparams).items()}
        (target / "hparams.yaml").write_text(yaml.dump(hparams, sort_keys=True), encoding="utf-8")


def samples(corpora: Path) -> dict[str, list[dict[str, str]]]:
    d = corpora / "wmt22" / PAIR
    src = read_lines(d / f"generaltest2022.{PAIR}.src.zh")[:N]
    ref = read_lines(d / f"generaltest2022.{PAIR}.ref.A.en")[:N]
    out = {}
    for system in SYSTEMS:
        hyp = read_lines(d / "system-outputs" / f"generaltest2022.{PAIR}.hyp.{system}.en")[:N]
        out[system] = [{"src": s, "mt": h, "ref": r} for s, h, r in zip(src, hyp, ref)]
    out["edge"] = EDGE
    out["special"] = special_rows()
    return out


def plain(value):
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "item"):
        return value.item()
    return value


def score_all(corpora: Path) -> dict:
    import comet
    import torch

    torch.set_num_threads(1)
    data = samples(corpora)
    result: dict = {
        "unbabel_comet": comet.__version__, "torch": torch.__version__, "pair": PAIR, "segments": N,
        "systems": SYSTEMS, "sets": data, "batch_size": 16, "models": {},
    }
    for name in CHECKPOINTS:
        model = comet.load_from_checkpoint(str(OUT / name / "checkpoints" / "model.ckpt"), local_files_only=True)
        per_mode = {}
        for mode in ("ref", "qe"):
            per_set = {}
            for set_name, rows in data.items():
                if mode == "qe":
                    rows = [{"src": r["src"], "mt": r["mt"]} for r in rows]
                pred = model.predict(rows, batch_size=16, gpus=0, progress_bar=False)
                per_set[set_name] = {
                    "scores": [float(x) for x in pred.scores],
                    "system_score": float(pred.system_score),
                    "metadata": plain(dict(pred.metadata)),
                }
            per_mode[mode] = per_set
        result["models"][name] = per_mode
    return result


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    corpora = Path(args[0] if args else REPO.parent / "shared" / "corpora").resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    os.chdir(OUT)  # comet resolves pretrained_model ("xlmr-xl-tiny") from here
    if "--score-only" not in sys.argv:
        build_encoder()
        build_checkpoints()
    golden = score_all(corpora)
    (OUT / "goldens.json").write_text(json.dumps(golden, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"wrote {OUT} ({size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
