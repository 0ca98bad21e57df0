"""Model-based metrics on one GPU: nlgmetrics vs each reference's own scoring code, same
checkpoint, same data, same machine, one process.

Nothing is downloaded: the models are built here with random weights at the dimensions of
the released checkpoints (XLM-R large: 24 layers, hidden 1024, 16 heads, FFN 4096), over
the small SentencePiece vocabulary of tests/goldens/comet/xlmr-tiny, with the references'
own model classes. Speed depends on the dimensions, not on the weights; the agreement
columns compare the two tools on the same weights.

Cases (each runs only if its reference imports):

- ``comet``: unbabel-comet's ``RegressionMetric`` (wmt22-comet-da's architecture:
  estimator 6144 -> 3072 -> 1024 -> 1). unbabel-comet scores each system with one
  ``predict(gpus=1)`` call; nlgmetrics with one ``score_systems`` call over all systems
  (sources and references encoded once).
- ``bertscore``: bert_score 0.3.13's ``BERTScorer`` against ``BERTScore`` (layer 17, as
  bert_score uses for xlm-roberta-large), warm objects on both sides.
- ``xcomet`` / ``metricx``: added when their reference scoring code is importable.

Usage (data: a folder with src.txt, ref.txt and sys.<name>.txt, one segment a line):

    python benches/bench_gpu.py --data DIR [--n 2000] [--only comet bertscore]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TINY_VOCAB = REPO / "tests" / "goldens" / "comet" / "xlmr-tiny"
LARGE = dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096)
# --smoke: a check of this script on a machine without a GPU (small dimensions, CPU)
SMALL = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128)
DIMS = LARGE
DEVICE = "cuda"


def read(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


def load_data(folder: Path, n: int, k: int) -> tuple[list[str], list[str], dict[str, list[str]]]:
    src, ref = read(folder / "src.txt", n), read(folder / "ref.txt", n)
    systems = {p.name[4:-4]: read(p, n) for p in sorted(folder.glob("sys.*.txt"))[:k]}
    return src, ref, systems


def sync() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


def timed(f):
    sync()
    t = time.perf_counter()
    out = f()
    sync()
    return out, time.perf_counter() - t


def encoder_dir(target: Path, dims: dict) -> Path:
    """An XLM-R encoder directory (config + the tiny SentencePiece tokenizer files)."""
    from transformers import XLMRobertaConfig

    target.mkdir(parents=True, exist_ok=True)
    for f in TINY_VOCAB.iterdir():
        if f.name != "config.json":
            shutil.copy(f, target / f.name)
    vocab = json.loads((TINY_VOCAB / "config.json").read_text())["vocab_size"]
    XLMRobertaConfig(vocab_size=vocab, max_position_embeddings=514, type_vocab_size=1, pad_token_id=1, bos_token_id=0,
                     eos_token_id=2, **dims).save_pretrained(str(target))
    return target


def save_comet(model, target: Path) -> None:
    import pytorch_lightning as ptl
    import yaml

    (target / "checkpoints").mkdir(parents=True, exist_ok=True)
    trainer = ptl.Trainer(logger=False, accelerator="cpu", enable_progress_bar=False, enable_checkpointing=False)
    trainer.strategy.connect(model)
    trainer.save_checkpoint(str(target / "checkpoints" / "model.ckpt"))
    (target / "hparams.yaml").write_text(yaml.dump(dict(model.hparams)), encoding="utf-8")


def header(title: str) -> None:
    print(f"\n### {title}\n", flush=True)
    print("| case | reference s | nlgmetrics s | reference segs/s | nlgmetrics segs/s | speed-up | max abs diff |")
    print("|---|---:|---:|---:|---:|---:|---:|", flush=True)


def row(case: str, n: int, ref_s: float, ours_s: float, diff: float) -> None:
    print(f"| {case} | {ref_s:.2f} | {ours_s:.2f} | {n / ref_s:.0f} | {n / ours_s:.0f} | {ref_s / ours_s:.1f}x | {diff:.1e} |", flush=True)


def case_comet(tmp: Path, src, ref, systems, batch: int) -> None:
    import comet
    import numpy as np
    import torch
    from comet.models import RegressionMetric

    from nlgmetrics import COMET

    enc = encoder_dir(tmp / "comet-enc", DIMS)
    torch.manual_seed(0)
    model = RegressionMetric(pretrained_model=str(enc), load_pretrained_weights=False, local_files_only=True, layer="mix",
                             layer_transformation="sparsemax", layer_norm=False, pool="avg", hidden_sizes=[3072, 1024])
    target = tmp / "comet"
    save_comet(model, target)
    del model
    header("COMET (regression, XLM-R large dimensions)")
    n = sum(len(h) for h in systems.values())
    theirs = comet.load_from_checkpoint(str(target / "checkpoints" / "model.ckpt"), local_files_only=True)
    warm = [{"src": s, "mt": h, "ref": r} for s, h, r in zip(src[:64], ref[:64], ref[:64])]
    theirs.predict(warm, batch_size=batch, gpus=int(DEVICE == "cuda"), progress_bar=False)

    def peer():
        return {name: np.array(theirs.predict([{"src": s, "mt": h, "ref": r} for s, h, r in zip(src, hyps, ref)],
                                             batch_size=batch, gpus=int(DEVICE == "cuda"), progress_bar=False).scores) for name, hyps in systems.items()}

    peer_scores, peer_s = timed(peer)
    del theirs
    torch.cuda.empty_cache()
    for dtype in ("float32", "bfloat16"):
        ours = COMET(str(target), encoder=str(enc), device=DEVICE, dtype=dtype, batch_size=batch)
        ours.sentence_scores(ref[:64], ref[:64], sources=src[:64])  # load + CUDA warm-up, as above
        if hasattr(ours, "clear_cache"):
            ours.clear_cache()
        out, ours_s = timed(lambda: {name: ours.sentence_scores(hyps, ref, sources=src) for name, hyps in systems.items()})
        diff = max(float(np.abs(out[s] - peer_scores[s]).max()) for s in systems)
        row(f"{len(systems)} systems x {len(src)}, {dtype}, system by system", n, peer_s, ours_s, diff)
        if hasattr(ours, "score_systems"):
            fresh = COMET(str(target), encoder=str(enc), device=DEVICE, dtype=dtype, batch_size=batch)
            fresh.sentence_scores(ref[:64], ref[:64], sources=src[:64])
            if hasattr(fresh, "clear_cache"):
                fresh.clear_cache()
            _, all_s = timed(lambda: fresh.score_systems(src, ref, systems))
            row(f"{len(systems)} systems x {len(src)}, {dtype}, score_systems", n, peer_s, all_s, diff)
            del fresh
        del ours
        torch.cuda.empty_cache()


def case_bertscore(tmp: Path, src, ref, systems, batch: int) -> None:
    import bert_score
    import numpy as np
    import torch
    from transformers import XLMRobertaModel, XLMRobertaConfig

    from nlgmetrics.neural.bertscore import BERTScore

    enc = encoder_dir(tmp / "bs-enc", DIMS)
    torch.manual_seed(0)
    XLMRobertaModel(XLMRobertaConfig.from_pretrained(str(enc)), add_pooling_layer=False).save_pretrained(str(enc))
    header("BERTScore (XLM-R large dimensions, layer 17)")
    hyps = [h for v in systems.values() for h in v]
    refs = [r for _ in systems for r in ref]
    scorer = bert_score.BERTScorer(model_type=str(enc), num_layers=DIMS["num_hidden_layers"] * 17 // 24, batch_size=batch, device=DEVICE, use_fast_tokenizer=True)
    scorer.score(hyps[:64], refs[:64])
    peer, peer_s = timed(lambda: scorer.score(hyps, refs)[2].numpy())
    del scorer
    torch.cuda.empty_cache()
    for dtype in ("float32", "bfloat16"):
        ours = BERTScore(str(enc), layer=DIMS["num_hidden_layers"] * 17 // 24, device=DEVICE, batch_size=batch, dtype=dtype, use_fast_tokenizer=True)
        ours.prf(hyps[:64], refs[:64])
        if hasattr(ours, "clear_cache"):
            ours.clear_cache()
        out, ours_s = timed(lambda: ours.prf(hyps, refs)[2])
        row(f"{len(hyps)} pairs, {dtype}", len(hyps), peer_s, ours_s, float(np.abs(np.asarray(out) - peer).max()))
        del ours
        torch.cuda.empty_cache()


def case_xcomet(tmp: Path, src, ref, systems, batch: int) -> None:
    import comet
    import numpy as np
    import torch
    from comet.models import str2model
    from transformers import XLMRobertaTokenizerFast, XLMRobertaXLConfig

    from nlgmetrics.neural.xcomet import XCOMET

    systems = dict(list(systems.items())[:2])  # three encoder passes a segment: two systems keep the run short
    enc = tmp / "xcomet-enc"
    enc.mkdir(parents=True, exist_ok=True)
    for f in TINY_VOCAB.iterdir():
        if f.name != "config.json":
            shutil.copy(f, enc / f.name)
    tok = XLMRobertaTokenizerFast.from_pretrained(str(enc))
    XLMRobertaXLConfig(vocab_size=max(len(tok), tok.mask_token_id + 1), max_position_embeddings=514, type_vocab_size=1,
                       pad_token_id=1, bos_token_id=0, eos_token_id=2, **DIMS).save_pretrained(str(enc))
    torch.manual_seed(0)
    model = str2model["xcomet_metric"](pretrained_model=str(enc), encoder_model="XLM-RoBERTa-XL", load_pretrained_weights=False,
                                       local_files_only=True, sent_layer="mix", layer_transformation="sparsemax", layer_norm=False,
                                       word_layer=DIMS["num_hidden_layers"], hidden_sizes=[3072, 1024], activations="Tanh")
    with torch.no_grad():  # spread the word-level tags so that spans appear (as the golden checkpoints do)
        model.hidden2tag.weight.mul_(6.0)
        model.hidden2tag.bias.copy_(torch.tensor([2.5, 0.0, -0.3, -0.6]))
    target = tmp / "xcomet"
    save_comet(model, target)
    del model
    header("xCOMET (XCOMET architecture with an XLM-R XL encoder at XLM-R large dimensions; scores and error spans)")
    n = sum(len(h) for h in systems.values())
    theirs = comet.load_from_checkpoint(str(target / "checkpoints" / "model.ckpt"), local_files_only=True)
    theirs.predict([{"src": s, "mt": r, "ref": r} for s, r in zip(src[:64], ref[:64])], batch_size=batch, gpus=int(DEVICE == "cuda"), progress_bar=False)

    def peer():
        out = {}
        for name, hyps in systems.items():
            p = theirs.predict([{"src": s, "mt": h, "ref": r} for s, h, r in zip(src, hyps, ref)], batch_size=batch,
                               gpus=int(DEVICE == "cuda"), progress_bar=False)
            out[name] = (np.array(p.scores), p.metadata.error_spans)
        return out

    peer_out, peer_s = timed(peer)
    del theirs
    if DEVICE == "cuda":
        torch.cuda.empty_cache()
    ours = XCOMET(str(target), encoder=str(enc), device=DEVICE, batch_size=batch)
    ours.predict(ref[:64], ref[:64], sources=src[:64])
    out, ours_s = timed(lambda: {name: ours.predict(hyps, ref, sources=src) for name, hyps in systems.items()})
    diff = max(float(np.abs(out[s].scores - peer_out[s][0]).max()) for s in systems)
    same = sum(len(a) == len(b) and all(x["start"] == y["start"] and x["end"] == y["end"] and x["severity"] == y["severity"]
                                        for x, y in zip(a, b))
               for s in systems for a, b in zip(out[s].error_spans, peer_out[s][1]))
    row(f"{len(systems)} systems x {len(src)}, float32 (segments with identical spans: {same}/{n})", n, peer_s, ours_s, diff)


def case_metricx(tmp: Path, src, ref, systems, batch: int) -> None:
    """MetricX-24 (mT5-large dimensions, the Hybrid-Large checkpoints' size), nlgmetrics only:
    the repository's predict needs transformers 4.30 and datasets, which this machine lacks,
    so the row gives throughput and the deviation of batched and bfloat16 scoring from the
    exact batch-1 float32 scores on a sample."""
    import numpy as np
    import torch
    from safetensors.torch import save_file
    from transformers import MT5Config, MT5ForConditionalGeneration

    from nlgmetrics.neural.metricx import MetricX

    dims = dict(d_model=1024, d_kv=64, d_ff=2816, num_layers=24, num_decoder_layers=24, num_heads=16) if DIMS is LARGE else \
        dict(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_decoder_layers=2, num_heads=4)
    config = MT5Config(vocab_size=250112, feed_forward_proj="gated-gelu", tie_word_embeddings=False, decoder_start_token_id=0,
                       eos_token_id=1, pad_token_id=0, architectures=["MT5ForRegression"], torch_dtype="float32", **dims)
    torch.manual_seed(0)
    model = MT5ForConditionalGeneration(config)
    target = tmp / "metricx"
    target.mkdir(parents=True, exist_ok=True)
    config.save_pretrained(str(target))
    save_file({k: v.clone().contiguous() for k, v in model.state_dict().items()}, str(target / "model.safetensors"), metadata={"format": "pt"})
    del model
    tokenizer = REPO / "tests" / "goldens" / "metricx" / "tokenizer"
    print("\n### MetricX-24 (mT5-large dimensions), nlgmetrics only\n", flush=True)
    print("| case | segments | seconds | segs/s | max abs diff vs batch 1 float32 (first 256) |")
    print("|---|---:|---:|---:|---:|", flush=True)
    sample = 256
    exact = MetricX(str(target), tokenizer=str(tokenizer), batch_size=1, device=DEVICE, dtype="float32")
    first = next(iter(systems.values()))
    base = exact.sentence_scores(first[:sample], ref[:sample], sources=src[:sample])
    del exact
    n = sum(len(h) for h in systems.values())
    for bs, dtype in ((1, "float32"), (batch, "float32"), (batch, "bfloat16")):
        m = MetricX(str(target), tokenizer=str(tokenizer), batch_size=bs, device=DEVICE, dtype=dtype)
        part = m.sentence_scores(first[:sample], ref[:sample], sources=src[:sample])
        if bs == 1:
            k = min(len(first), 512)  # one segment a call: a sample is enough for its rate
            _, secs = timed(lambda: m.sentence_scores(first[:k], ref[:k], sources=src[:k]))
            count = k
        else:
            _, secs = timed(lambda: m.score_systems(src, ref, systems))
            count = n
        print(f"| batch {bs}, {dtype} | {count} | {secs:.2f} | {count / secs:.0f} | {float(np.abs(part - base).max()):.1e} |", flush=True)
        del m
        if DEVICE == "cuda":
            torch.cuda.empty_cache()


CASES = {"comet": case_comet, "bertscore": case_bertscore, "xcomet": case_xcomet, "metricx": case_metricx}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--n", type=int, default=2000, help="segments per system")
    ap.add_argument("--k", type=int, default=4, help="systems")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--only", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--smoke", action="store_true", help="small dimensions on CPU: checks the script, times nothing useful")
    a = ap.parse_args()
    import torch

    global DIMS, DEVICE
    if a.smoke:
        DIMS, DEVICE = SMALL, "cpu"
    print(f"{torch.cuda.get_device_name(0) if DEVICE == 'cuda' else 'CPU'}, torch {torch.__version__}, batch size {a.batch_size}.", flush=True)
    src, ref, systems = load_data(a.data, a.n, a.k)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.only:
            try:
                CASES[name](Path(tmp), src, ref, systems, a.batch_size)
            except Exception:  # one case failing must not lose the others' rows
                failed += 1
                print(f"\n{name} failed:", file=sys.stderr)
                traceback.print_exc()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
