"""Every cache of loaded models keys on the content of the model's files.

For each model metric, a model directory is scored, then its weights are changed in one
of three ways: the file edited in place, replaced by another file with the old mtime put
back (``shutil.copy2`` then ``os.utime``: what ``cp -p`` of a same-dated file leaves), or
the directory reached through a symbolic link that is swapped to another model. The next
score (same metric object, and a new one) must be the new model's, never the cached old
model's.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from conftest import REPO
from metricx_models import expand
from neural_models import tiny_bert, tiny_bleurt, tiny_gpt2

from nlgmetrics import BERTScore, BLEURT, COMET, HFPerplexity
from nlgmetrics.neural.mauve import MAUVE
from nlgmetrics.neural.metricx import MetricX

torch.set_num_threads(1)
METRICX = REPO / "tests" / "goldens" / "metricx"
COMET_GOLD = REPO / "tests" / "goldens" / "comet"
TEXTS = ["the cat sat on the mat", "a dog was in the house today"]


def _scaled_safetensors(source, target, name):
    shutil.copytree(source, target)
    state = load_file(target / "model.safetensors")
    state[name] = state[name] * 1.5
    save_file(state, str(target / "model.safetensors"), metadata={"format": "pt"})
    return target


def _comet_variant(target):
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", target)
    ckpt = target / "checkpoints" / "model.ckpt"
    data = torch.load(ckpt, weights_only=False)
    data["state_dict"]["estimator.ff.0.weight"] = data["state_dict"]["estimator.ff.0.weight"] * 1.5
    torch.save(data, ckpt)
    return target


def _features(metric):
    return lambda d: np.asarray(metric(d))


CASES = {
    "bertscore": (lambda root: (tiny_bert(root / "a"), tiny_bert(root / "b", seed=1)), "model.safetensors",
                  lambda m: BERTScore(str(m), layer=2, device="cpu"), lambda metric: metric.sentence_scores(TEXTS, TEXTS[::-1])),
    "perplexity": (lambda root: (tiny_gpt2(root / "a"), tiny_gpt2(root / "b", seed=1)), "model.safetensors",
                   lambda m: HFPerplexity(str(m), device="cpu"), lambda metric: metric.sentence_scores(TEXTS)),
    "mauve": (lambda root: (tiny_gpt2(root / "a"), tiny_gpt2(root / "b", seed=1)), "model.safetensors",
              lambda m: MAUVE(str(m), device="cpu"), lambda metric: metric.features(TEXTS)),
    "bleurt": (lambda root: (tiny_bleurt(root / "a"), tiny_bleurt(root / "b", seed=1)), "model.safetensors",
               lambda m: BLEURT(str(m), device="cpu"), lambda metric: metric.sentence_scores(TEXTS, TEXTS[::-1])),
    "metricx": (lambda root: (expand(METRICX / "metricx23-tiny", root / "a"),
                              _scaled_safetensors(expand(METRICX / "metricx23-tiny", root / "a0"), root / "b", "decoder.final_layer_norm.weight")),
                "model.safetensors",
                lambda m: MetricX(str(m), version="metricx-23", tokenizer=METRICX / "tokenizer", device="cpu"),
                lambda metric: metric.sentence_scores(TEXTS, TEXTS[::-1])),
    "comet": (lambda root: (shutil.copytree(COMET_GOLD / "da-softmax-norm-max", root / "a"), _comet_variant(root / "b")),
              "checkpoints/model.ckpt",
              lambda m: COMET(str(m), encoder=COMET_GOLD / "xlmr-tiny", device="cpu"),
              lambda metric: metric.sentence_scores(TEXTS, TEXTS[::-1], sources=TEXTS)),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return {name: case[0](tmp_path_factory.mktemp(name)) for name, case in CASES.items()}


def _replace(mode, live, a, b, weights):
    if mode == "edit-in-place":
        with open(live / weights, "r+b") as f:
            f.write((b / weights).read_bytes())
            f.truncate()
    elif mode == "copy-keeping-mtime":
        before = os.stat(live / weights)
        shutil.copy2(b / weights, live / weights)
        os.utime(live / weights, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert os.stat(live / weights).st_mtime_ns == before.st_mtime_ns
    else:  # a symbolic link to the model directory, swapped atomically to the other model
        tmp = live.parent / "swap"
        os.symlink(b, tmp)
        os.replace(tmp, live)


@pytest.mark.parametrize("mode", ["edit-in-place", "copy-keeping-mtime", "symlink-swap"])
@pytest.mark.parametrize("name", list(CASES))
def test_new_weights_are_used(built, tmp_path, name, mode):
    _, weights, make, score = CASES[name]
    a, b = built[name]
    want_a, want_b = np.asarray(score(make(a))), np.asarray(score(make(b)))
    assert not np.array_equal(want_a, want_b)
    if mode == "symlink-swap":
        live = tmp_path / "live"
        os.symlink(a, live)
    else:
        live = tmp_path / "live"
        shutil.copytree(a, live)
    metric = make(live)
    assert np.array_equal(np.asarray(score(metric)), want_a)
    _replace(mode, live, a, b, weights)
    assert np.array_equal(np.asarray(score(metric)), want_b)  # the same object
    assert np.array_equal(np.asarray(score(make(live))), want_b)  # a new one
