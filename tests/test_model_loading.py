"""Every model metric loads a model whole or refuses it with our typed error.

Tiny models are built here (tests/neural_models.py, tests/metricx_models.py), damaged in
one way each (a weight tensor removed, the safetensors file or the pickled file truncated,
a tensor of the wrong shape, an integer tensor where a weight is, an unknown tensor inside
the model's own modules) and loaded through each metric: the answer is an
InvalidOptionError naming the file and the tensor, never a score computed with randomly
initialised weights and never a raw KeyError / RuntimeError.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from conftest import REPO
from metricx_models import expand
from neural_models import tiny_bert, tiny_bleurt, tiny_gpt2

from nlgmetrics import BERTScore, BLEURT, HFPerplexity
from nlgmetrics.errors import InvalidOptionError
from nlgmetrics.neural import mauve as mauve_module
from nlgmetrics.neural.metricx import MetricX

torch.set_num_threads(1)
METRICX = REPO / "tests" / "goldens" / "metricx"
TEXTS = ["the cat sat on the mat", "a dog was in the house today"]


def bertscore(d):
    return BERTScore(str(d), layer=2, device="cpu").sentence_scores(TEXTS, TEXTS)


def perplexity(d):
    return HFPerplexity(str(d), device="cpu").sentence_scores(TEXTS)


def mauve_features(d):
    mauve_module._CACHE.clear()
    tok, net = mauve_module._load(str(d), "cpu", "float32")
    with torch.no_grad():
        return net(torch.tensor([[5, 6, 7]])).last_hidden_state.numpy()


def bleurt(d):
    return BLEURT(str(d), device="cpu").sentence_scores(TEXTS, TEXTS)


def metricx(d):
    return MetricX(str(d), version="metricx-23", tokenizer=METRICX / "tokenizer", device="cpu").sentence_scores(TEXTS, TEXTS)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("whole")
    return {
        "bertscore": (tiny_bert(root / "bert"), bertscore, "encoder.layer.1.attention.self.query.weight"),
        "perplexity": (tiny_gpt2(root / "gpt2"), perplexity, "transformer.h.1.mlp.c_fc.weight"),
        "mauve": (tiny_gpt2(root / "gpt2-mauve", seed=1), mauve_features, "transformer.h.0.attn.c_proj.weight"),
        "bleurt": (tiny_bleurt(root / "bleurt"), bleurt, "bleurt.encoder.layer.1.output.dense.weight"),
        "metricx": (expand(METRICX / "metricx23-tiny", root / "metricx"), metricx, "decoder.block.1.layer.0.SelfAttention.q.weight"),
    }


def damaged(models, tmp_path, name):
    source, run, tensor = models[name]
    target = tmp_path / name
    shutil.copytree(source, target)
    return target, run, tensor


def rewrite(directory, change):
    state = load_file(directory / "model.safetensors")
    change(state)
    save_file({k: v.contiguous() for k, v in state.items()}, str(directory / "model.safetensors"), metadata={"format": "pt"})


NAMES = ["bertscore", "perplexity", "mauve", "bleurt", "metricx"]


@pytest.mark.parametrize("name", NAMES)
def test_whole_model_scores(models, name):
    source, run, _ = models[name]
    first, second = run(source), run(source)
    assert np.array_equal(np.asarray(first), np.asarray(second))


@pytest.mark.parametrize("name", NAMES)
def test_missing_tensor_is_refused(models, tmp_path, name):
    d, run, tensor = damaged(models, tmp_path, name)
    rewrite(d, lambda s: s.pop(tensor))
    with pytest.raises(InvalidOptionError, match=r"model\.safetensors.*lack.*" + tensor.split(".", 1)[1].replace(".", r"\.")):
        run(d)


@pytest.mark.parametrize("name", NAMES)
def test_wrong_shape_is_refused(models, tmp_path, name):
    d, run, tensor = damaged(models, tmp_path, name)
    rewrite(d, lambda s: s.__setitem__(tensor, s[tensor][:, :-1]))
    with pytest.raises(InvalidOptionError, match=r"model\.safetensors.* hold .*" + tensor.split(".", 1)[1].replace(".", r"\.") + r".* of shape"):
        run(d)


@pytest.mark.parametrize("name", NAMES)
def test_integer_weight_is_refused(models, tmp_path, name):
    d, run, tensor = damaged(models, tmp_path, name)
    rewrite(d, lambda s: s.__setitem__(tensor, s[tensor].to(torch.int32)))
    with pytest.raises(InvalidOptionError, match=r"model\.safetensors.* hold .*" + tensor.split(".", 1)[1].replace(".", r"\.") + " as int32"):
        run(d)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_tensor_inside_the_model_is_refused(models, tmp_path, name):
    d, run, tensor = damaged(models, tmp_path, name)
    extra = tensor.rsplit(".", 1)[0] + ".extra"
    rewrite(d, lambda s: s.__setitem__(extra, torch.zeros(3)))
    with pytest.raises(InvalidOptionError, match=r"model\.safetensors.* hold .*" + extra.split(".", 1)[1].replace(".", r"\.") + ", which the model does not have"):
        run(d)


@pytest.mark.parametrize("name", NAMES)
def test_truncated_safetensors_is_refused(models, tmp_path, name):
    d, run, _ = damaged(models, tmp_path, name)
    data = (d / "model.safetensors").read_bytes()
    (d / "model.safetensors").write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidOptionError, match=r"cannot read the weights .*model\.safetensors"):
        run(d)


@pytest.mark.parametrize("name", NAMES)
def test_bad_safetensors_header_is_refused(models, tmp_path, name):
    d, run, _ = damaged(models, tmp_path, name)
    data = bytearray((d / "model.safetensors").read_bytes())
    data[8:12] = b"{{{{"
    (d / "model.safetensors").write_bytes(bytes(data))
    with pytest.raises(InvalidOptionError, match=r"cannot read the weights .*model\.safetensors"):
        run(d)


@pytest.mark.parametrize("name", NAMES)
def test_pickled_weights_damaged_the_same_way(models, tmp_path, name):
    """The same tensors as pytorch_model.bin: whole they score as safetensors do; missing a
    tensor or truncated they are refused naming the file."""
    source, run, tensor = models[name]
    d = tmp_path / name
    shutil.copytree(source, d)
    state = load_file(d / "model.safetensors")
    (d / "model.safetensors").unlink()
    torch.save(state, d / "pytorch_model.bin")
    assert np.array_equal(np.asarray(run(d)), np.asarray(run(source)))
    torch.save({k: v for k, v in state.items() if k != tensor}, d / "pytorch_model.bin")
    with pytest.raises(InvalidOptionError, match=r"pytorch_model\.bin.*lack"):
        run(d)
    torch.save(state, d / "pytorch_model.bin")
    data = (d / "pytorch_model.bin").read_bytes()
    (d / "pytorch_model.bin").write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidOptionError, match=r"cannot read the weights .*pytorch_model\.bin"):
        run(d)


def test_bertscore_pooler_may_be_absent(models, tmp_path):
    """A checkpoint without BERT's pooler (RoBERTa's masked-LM checkpoints) scores as one
    with it: BERTScore never computes the pooler, which is dropped, not initialised."""
    d, run, _ = damaged(models, tmp_path, "bertscore")
    rewrite(d, lambda s: [s.pop(k) for k in list(s) if k.startswith("pooler.")])
    assert np.array_equal(run(d), run(models["bertscore"][0]))


def test_pretraining_heads_are_ignored(models, tmp_path):
    """Tensors of modules the encoder does not have (a masked-LM head) are ignored, as
    transformers' AutoModel ignores them."""
    d, run, _ = damaged(models, tmp_path, "bertscore")
    rewrite(d, lambda s: s.update({"cls.predictions.bias": torch.zeros(5), "cls.predictions.transform.dense.weight": torch.zeros(2, 2)}))
    assert np.array_equal(run(d), run(models["bertscore"][0]))


def test_bleurt_float64_checkpoint_computes_in_float32(models, tmp_path):
    """bleurt-pytorch builds float32 modules and casts a float64 file into them."""
    from bleurt_pytorch import BleurtForSequenceClassification, BleurtTokenizer

    d, run, _ = damaged(models, tmp_path, "bleurt")
    rewrite(d, lambda s: s.update({k: v.double() for k, v in s.items() if v.is_floating_point()}))
    config = json.loads((d / "config.json").read_text(encoding="utf-8"))
    config["torch_dtype"] = config["dtype"] = "float64"  # as save_pretrained of a float64 model writes it
    (d / "config.json").write_text(json.dumps(config), encoding="utf-8")
    model = BleurtForSequenceClassification.from_pretrained(str(d)).eval()
    tok = BleurtTokenizer.from_pretrained(str(d))
    want = []
    with torch.no_grad():
        for t in TEXTS:
            want.append(model(**tok([t], [t], return_tensors="pt")).logits.flatten().item())
    got = BLEURT(str(d), device="cpu", batch_size=1).sentence_scores(TEXTS, TEXTS)
    assert model.classifier.weight.dtype == torch.float32 and got.tolist() == want


COMET_GOLD = REPO / "tests" / "goldens" / "comet"
COMET_TENSOR = "encoder.model.encoder.layer.0.attention.self.query.weight"
COMET_DAMAGE = {
    "missing": (lambda s: s.pop(COMET_TENSOR), r"lack " + COMET_TENSOR),
    "shape": (lambda s: s.__setitem__(COMET_TENSOR, s[COMET_TENSOR][:, :-1]), r"hold " + COMET_TENSOR + " of shape"),
    "integer": (lambda s: s.__setitem__(COMET_TENSOR, s[COMET_TENSOR].to(torch.int32)), r"hold " + COMET_TENSOR + " as int32"),
    "unknown": (lambda s: s.__setitem__("encoder.model.encoder.layer.0.extra", torch.zeros(3)), r"hold encoder\.model\.encoder\.layer\.0\.extra, which"),
}


@pytest.mark.parametrize("damage", list(COMET_DAMAGE))
def test_comet_checkpoint_is_loaded_whole_or_refused(tmp_path, damage):
    from nlgmetrics import COMET

    d = tmp_path / "comet"
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", d)
    ckpt = d / "checkpoints" / "model.ckpt"
    data = torch.load(ckpt, weights_only=False)
    change, message = COMET_DAMAGE[damage]
    change(data["state_dict"])
    torch.save(data, ckpt)
    with pytest.raises(InvalidOptionError, match=r"model\.ckpt.*" + message.replace(".", r"\.").replace(r"\\.", r"\.")):
        COMET(str(d), encoder=COMET_GOLD / "xlmr-tiny", device="cpu").sentence_scores(["a cat"], ["a dog"], sources=["a"])


def test_old_gpt2_mask_buffers_are_not_weights(models, tmp_path):
    """Old GPT-2 files store each layer's causal mask (bool) and masked_bias: buffers the
    model rebuilds, not weights; they load and score as the file without them."""
    d, run, _ = damaged(models, tmp_path, "perplexity")
    rewrite(d, lambda s: s.update({f"transformer.h.{i}.attn.bias": torch.tril(torch.ones(32, 32, dtype=torch.bool)).view(1, 1, 32, 32) for i in range(2)}
                                  | {f"transformer.h.{i}.attn.masked_bias": torch.tensor(-1e4) for i in range(2)}))
    assert np.array_equal(run(d), run(models["perplexity"][0]))


@pytest.mark.parametrize("tensor", ["estimator.ff.0.weight", "estimator.ff.3.weight", "estimator.ff.3.bias"])
def test_comet_head_of_the_wrong_shape_is_refused(tmp_path, tensor):
    from nlgmetrics import COMET

    d = tmp_path / "comet"
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", d)
    ckpt = d / "checkpoints" / "model.ckpt"
    data = torch.load(ckpt, weights_only=False)
    t = data["state_dict"][tensor]
    data["state_dict"][tensor] = t[:-1] if t.dim() == 1 else t[:, :-1]
    torch.save(data, ckpt)
    with pytest.raises(InvalidOptionError, match=r"model\.ckpt.* hold " + tensor.rsplit(".", 1)[0].replace(".", r"\.") + r"\.weight of shape .*do not fit"):
        COMET(str(d), encoder=COMET_GOLD / "xlmr-tiny", device="cpu").sentence_scores(["a cat"], ["a dog"], sources=["a"])
