"""Regenerate tests/goldens/comet/: tiny COMET checkpoints and unbabel-comet's scores on them.

unbabel-comet pins old numpy/torchmetrics, so this runs in an isolated environment:

    python3 -m venv /tmp/comet-ref
    /tmp/comet-ref/bin/pip install unbabel-comet==2.2.7 "setuptools<81"  # torchmetrics 0.10 imports pkg_resources
    /tmp/comet-ref/bin/python scripts/goldens/comet_goldens.py [../shared/corpora] [--score-only]

(``--score-only`` keeps the committed encoder and checkpoints and only rescores them.)

What it builds (all from fixed seeds; nothing is downloaded):

- ``xlmr-tiny/``: a SentencePiece unigram model trained on the WMT22 zh-en source and
  references, wrapped as an ``XLMRobertaTokenizerFast``, and an ``XLMRobertaConfig`` with
  2 layers of hidden size 24 and 64 positions (so WMT sentences get truncated).
- one checkpoint directory per architecture/option set (``CHECKPOINTS``), each built with
  unbabel-comet's own model classes (``pretrained_model: xlmr-tiny``, random weights,
  layer-wise attention scalars and layer norms perturbed so every parameter matters) and
  saved in unbabel-comet's layout: ``<name>/checkpoints/model.ckpt`` (a PyTorch Lightning
  checkpoint) and ``<name>/hparams.yaml``.
- ``goldens.json``: for each checkpoint, ``comet.load_from_checkpoint(...).predict(...,
  gpus=0)`` segment scores and system score on 3 WMT22 zh-en systems (first ``N``
  segments, reference A) and on a few edge cases (empty, very long, unicode texts).

comet resolves ``pretrained_model`` relative to the working directory, so this script
scores from inside tests/goldens/comet.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "goldens" / "comet"
PAIR = "zh-en"
SYSTEMS = ["Online-B", "HuaweiTSC", "NiuTrans"]
N = 200
SEED = 19
ENCODER = "xlmr-tiny"

# name -> (class identifier, constructor options). They cover the regression estimator
# (wmt22-comet-da / wmt20-comet-da), the referenceless regression (wmt20/21 QE) and the
# unified model (wmt22-cometkiwi-da: mt+src; and mt+src+ref), every pooling, sparsemax,
# softmax and the "sparsemax_patch" that comet >= 2.2.4 reads as softmax, an integer layer,
# layer norm on and off, and final activations.
CHECKPOINTS = {
    "da-sparsemax-avg": ("regression_metric", dict(layer="mix", layer_transformation="sparsemax", layer_norm=False, pool="avg", hidden_sizes=[48, 16], activations="Tanh")),
    "da-softmax-norm-max": ("regression_metric", dict(layer="mix", layer_transformation="softmax", layer_norm=True, pool="max", hidden_sizes=[48], activations="Tanh", final_activation="Sigmoid")),
    "da-layer1-cls": ("regression_metric", dict(layer=1, pool="cls", hidden_sizes=[32, 16], activations="Softplus")),
    "qe-patch-default": ("referenceless_regression_metric", dict(layer="mix", layer_transformation="sparsemax_patch", layer_norm=True, pool="default", hidden_sizes=[32], activations="Tanh")),
    "kiwi-mt-src": ("unified_metric", dict(input_segments=["mt", "src"], sent_layer="mix", layer_transformation="sparsemax", layer_norm=True, hidden_sizes=[48, 16], activations="Tanh", final_activation="Sigmoid")),
    "unified-mt-src-ref": ("unified_metric", dict(input_segments=["mt", "src", "ref"], sent_layer="mix", layer_transformation="softmax", layer_norm=False, hidden_sizes=[32], activations="Tanh")),
}

HEAD_SCALE = {"da-layer1-cls": 1.0}  # Softplus layers add up: keep this one's scores small

EDGE = [
    {"src": "", "mt": "", "ref": ""},
    {"src": "你好，世界。", "mt": "Hello, world.", "ref": "Hello world!"},
    {"src": "他说：“" + "我们今天去北京开会，" * 30 + "”", "mt": "He said: " + "we are going to Beijing for a meeting today, " * 30, "ref": "He said " + "we go to Beijing today for a meeting; " * 25},
    {"src": "   空格   ", "mt": "  spaces  around  ", "ref": "spaces"},
    {"src": "😀 é ß ﬁ", "mt": "😀 e ss fi", "ref": "émoji"},
    {"src": "短", "mt": "A translation that is much longer than its source and its reference, " * 4, "ref": "Short."},
]

# Every special-token string of the XLM-R tokenizer in every input slot: the tokenizer maps
# the literal text to the special id, and unbabel-comet's concat_sequences drops pad ids.
# ``<mask>`` is left out: in xlmr-tiny its id is past the embedding table (the tokenizer adds
# it after the SentencePiece vocabulary), so unbabel-comet fails with an IndexError (and
# nlgmetrics with an InvalidInputError); in the real XLM-R vocabularies it is inside.
SPECIAL_TOKENS = ["<s>", "</s>", "<pad>", "<unk>"]
SPECIAL_BASE = {"src": "你好，世界。", "mt": "Hello, world.", "ref": "Hello world!"}


def special_rows() -> list[dict[str, str]]:
    rows = []
    for token in SPECIAL_TOKENS:
        for slot in ("src", "mt", "ref"):
            for text in (f"Hello {token} world.", token, f"{token}{token} x {token}"):
                rows.append({**SPECIAL_BASE, slot: text})
        rows.append({"src": f"你好{token}", "mt": f"{token} Hello", "ref": f"Hello {token}"})
    return rows


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def build_encoder(corpora: Path) -> None:
    import sentencepiece as spm
    from transformers import XLMRobertaConfig, XLMRobertaTokenizerFast

    d = corpora / "wmt22" / PAIR
    enc = OUT / ENCODER
    enc.mkdir(parents=True, exist_ok=True)
    text = OUT / "spm_train.txt"
    lines = read_lines(d / f"generaltest2022.{PAIR}.src.zh") + read_lines(d / f"generaltest2022.{PAIR}.ref.A.en")
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(enc / "spm"), vocab_size=1600, model_type="unigram",
        character_coverage=0.98, num_threads=1, seed_sentencepiece_size=100000, shuffle_input_sentence=False,
        hard_vocab_limit=False, bos_id=0, pad_id=1, eos_id=2, unk_id=3,
    )
    text.unlink()
    (enc / "spm.vocab").unlink()
    (enc / "spm.model").rename(enc / "sentencepiece.bpe.model")
    # unbabel-comet pins protobuf 4, too old for sentencepiece's own generated module: the
    # slow-to-fast conversion reads the model proto with transformers' copy instead.
    from transformers.utils import sentencepiece_model_pb2_new

    sys.modules["sentencepiece.sentencepiece_model_pb2"] = sentencepiece_model_pb2_new
    tok = XLMRobertaTokenizerFast(vocab_file=str(enc / "sentencepiece.bpe.model"), model_max_length=512)
    tok.save_pretrained(str(enc))
    (enc / "sentencepiece.bpe.model").unlink()  # tokenizer.json is all the fast tokenizer reads
    XLMRobertaConfig(
        vocab_size=len(tok), hidden_size=24, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        max_position_embeddings=66, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2,
    ).save_pretrained(str(enc))


def perturb(model, head_scale: float) -> None:
    """Random weights where the defaults would be trivial (layer norms 1/0, scalars 0)."""
    import torch

    with torch.no_grad():
        for name, p in model.named_parameters():
            if "LayerNorm" in name:
                p.add_(torch.randn_like(p) * 0.2)
            elif "scalar_parameters" in name:
                p.copy_(torch.randn_like(p))
            elif name.endswith("gamma"):
                p.copy_(1.0 + 0.3 * torch.randn_like(p))
            elif "embeddings" in name:
                p.copy_(torch.randn_like(p) * 0.5)
            elif name.startswith("estimator"):
                p.mul_(head_scale)  # spread the scores out (within +-3, where float32 resolves 1e-6)


def build_checkpoints() -> None:
    import pytorch_lightning as ptl
    import torch
    import yaml
    from comet.models import str2model

    for i, (name, (identifier, options)) in enumerate(CHECKPOINTS.items()):
        torch.manual_seed(SEED + i)
        model = str2model[identifier](pretrained_model=ENCODER, load_pretrained_weights=False, local_files_only=True, **options)
        perturb(model, HEAD_SCALE.get(name, 4.0))
        model.eval()
        target = OUT / name
        (target / "checkpoints").mkdir(parents=True, exist_ok=True)
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


def score_all(corpora: Path) -> dict:
    import comet
    import torch

    torch.set_num_threads(1)
    data = samples(corpora)
    result: dict = {
        "unbabel_comet": comet.__version__, "torch": torch.__version__, "pair": PAIR, "segments": N,
        "systems": SYSTEMS, "edge": EDGE, "special": special_rows(), "batch_size": 16, "models": {},
    }
    for name in CHECKPOINTS:
        model = comet.load_from_checkpoint(str(OUT / name / "checkpoints" / "model.ckpt"), local_files_only=True)
        per_set = {}
        for set_name, rows in data.items():
            if name.startswith("kiwi") or name.startswith("qe"):
                rows = [{"src": r["src"], "mt": r["mt"]} for r in rows]
            pred = model.predict(rows, batch_size=16, gpus=0, progress_bar=False)
            per_set[set_name] = {"scores": [float(x) for x in pred.scores], "system_score": float(pred.system_score)}
        result["models"][name] = per_set
    return result


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    corpora = Path(args[0] if args else REPO.parent / "shared" / "corpora").resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    os.chdir(OUT)  # comet resolves pretrained_model ("xlmr-tiny") from here
    if "--score-only" not in sys.argv:  # --score-only: keep the committed checkpoints, rescore
        build_encoder(corpora)
        build_checkpoints()
    golden = score_all(corpora)
    (OUT / "goldens.json").write_text(json.dumps(golden, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"wrote {OUT} ({size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
