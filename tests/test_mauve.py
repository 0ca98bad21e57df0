"""MAUVE against mauve-text 0.4.0's ``compute_mauve``: ``==`` on the same features and seed,
and from texts with the same (tiny, local) model."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from conftest import CORPORA, read_lines

mauve_ref = pytest.importorskip("mauve")
torch = pytest.importorskip("torch")
torch.set_num_threads(1)

import nlgmetrics  # noqa: E402
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, InvalidTextError, MissingExtraError  # noqa: E402
from nlgmetrics.neural.mauve import MAUVE  # noqa: E402

FIELDS = ("mauve", "frontier_integral", "mauve_star", "frontier_integral_star")


def assert_same(ours, ref) -> None:
    assert ours.score == ref.mauve
    for f in FIELDS[1:]:
        assert ours[f] == getattr(ref, f), f
    assert ours.num_buckets == ref.num_buckets
    assert np.array_equal(ours.p_hist, ref.p_hist) and np.array_equal(ours.q_hist, ref.q_hist)
    assert np.array_equal(ours.divergence_curve, ref.divergence_curve)


def features(seed, n_p, n_q, d, shift=0.3, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_p, d)).astype(dtype), (rng.normal(size=(n_q, d)) + shift).astype(dtype)


@pytest.mark.parametrize("options", [
    {},
    {"num_buckets": 7, "seed": 3},
    {"pca_max_data": 100, "kmeans_num_redo": 1, "kmeans_max_iter": 20, "mauve_scaling_factor": 2, "divergence_curve_discretization_size": 10},
    {"kmeans_explained_var": 0.5, "num_buckets": 2},
])
def test_parity_on_features(options):
    p, q = features(0, 120, 90, 24)
    assert_same(MAUVE(**options).score_features(p, q), mauve_ref.compute_mauve(p_features=p, q_features=q, **options))


def test_parity_edge_features():
    # float64 features, identical sets, disjoint sets, duplicate rows, tiny sets
    p, q = features(1, 40, 60, 8, dtype=np.float64)
    assert_same(MAUVE().score_features(p, q), mauve_ref.compute_mauve(p_features=p, q_features=q))
    assert_same(MAUVE().score_features(p, p), mauve_ref.compute_mauve(p_features=p, q_features=p))
    far = q + 100.0
    assert_same(MAUVE().score_features(p, far), mauve_ref.compute_mauve(p_features=p, q_features=far))
    dup = np.repeat(p[:5], 6, axis=0)
    assert_same(MAUVE().score_features(dup, q[:30]), mauve_ref.compute_mauve(p_features=dup, q_features=q[:30]))
    small_p, small_q = features(2, 3, 4, 5)
    assert_same(MAUVE().score_features(small_p, small_q), mauve_ref.compute_mauve(p_features=small_p, q_features=small_q))
    assert MAUVE().score_features(p, p).score == pytest.approx(1.0)


def test_statistics_merge_by_concatenation():
    p, q = features(3, 100, 80, 16)
    m = MAUVE()
    whole = m.score_features(p, q)
    shards = m.stats_from_features(p[:30], q[:50]) + m.stats_from_features(p[30:], np.zeros((0, 16), np.float32)) + m.stats_from_features(p[:0], q[50:])
    assert m.score_stats(shards).score == whole.score
    assert tuple(int(c) for c in shards.counts) == (100, 80)
    assert shards.sequence.dtype == np.float32  # float32 features kept as they are


def test_merge_past_the_sequence_limit_is_a_typed_error(monkeypatch):
    from nlgmetrics.stats import _totals as stats_module  # where the limit is read

    p, q = features(6, 40, 40, 16)
    m = MAUVE()
    monkeypatch.setattr(stats_module, "SEQUENCE_LIMIT_BYTES", 1024)
    merged = m.stats_from_features(p[:20], q[:20]) + m.stats_from_features(p[20:], q[20:])
    with pytest.raises(InvalidInputError, match="one call"):
        m.score_stats(merged)


@pytest.fixture(scope="module")
def gpt2_dir(tmp_path_factory):
    from neural_models import tiny_gpt2

    return tiny_gpt2(tmp_path_factory.mktemp("mauve") / "tiny-gpt2", seed=5)  # mauve-text wants "gpt2" in the name


def texts():
    d = CORPORA / "wmt22" / "zh-en"
    p = read_lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.Online-B.en")[:70]
    q = read_lines(d / "generaltest2022.zh-en.ref.A.en")[100:160]
    adversarial = ["", "   ", "你好，世界。", "ＡＢＣ　全角", "😀 é ß ﬁ", "the the the the", "the the the the", "a" * 300]
    return p + adversarial, q + adversarial[::-1]


@pytest.mark.parametrize("batch_size", [1, 4])
def test_parity_from_texts(gpt2_dir, batch_size):
    p, q = texts()
    ours = MAUVE(gpt2_dir, max_text_length=32, batch_size=batch_size, device="cpu").corpus_score(p, q)
    ref = mauve_ref.compute_mauve(p_text=p, q_text=q, featurize_model_name=str(gpt2_dir), device_id=-1, max_text_length=32, batch_size=batch_size)
    assert_same(ours, ref)
    # the features themselves, empty texts dropped as mauve-text drops them
    from mauve.compute_mauve import get_features_from_input

    want = get_features_from_input(None, None, p, str(gpt2_dir), 32, -1, name="p", batch_size=batch_size)
    got = MAUVE(gpt2_dir, max_text_length=32, batch_size=batch_size, device="cpu").features(p)
    assert got.dtype == want.dtype and np.array_equal(got, want) and len(got) == len([t for t in p if t])


def test_update_and_references_as_lists(gpt2_dir):
    p, q = texts()
    m = MAUVE(gpt2_dir, max_text_length=32, device="cpu")
    whole = m.corpus_score(p, q).score
    m.update(p[:40], q[:10]).update(p[40:], [[t] for t in q[10:]])
    assert m.compute().score == whole


def test_registry_and_signature():
    m = nlgmetrics.load("mauve", num_buckets=5)
    assert isinstance(m, MAUVE)
    p, q = features(4, 50, 50, 8)
    sig = m.score_features(p, q).signature.format()
    assert "buckets:5" in sig and "seed:25" in sig and "model:features" in sig


def test_errors(monkeypatch):
    p, q = features(5, 30, 30, 8)
    with pytest.raises(InvalidInputError, match="dimensions"):
        MAUVE().score_features(p, q[:, :4])
    with pytest.raises(InvalidInputError, match="NaN"):
        MAUVE().score_features(np.full_like(p, np.nan), q)
    with pytest.raises(InputTypeError):
        MAUVE().score_features(p[0], q)
    with pytest.raises(InvalidInputError, match="at least one"):
        MAUVE().score_features(p[:0], q)
    with pytest.raises(InvalidInputError, match="buckets"):
        MAUVE(num_buckets=100).score_features(p[:3], q[:3])
    with pytest.raises(InvalidOptionError, match="model="):
        MAUVE().corpus_score(["a b"], ["c d"])
    with pytest.raises(InvalidOptionError):
        MAUVE().sentence_scores(["a b"], ["c d"])
    with pytest.raises(InvalidTextError):
        MAUVE("unused").features(["ok", "bad \ud800"])
    for bad in ({"num_buckets": 0}, {"num_buckets": "many"}, {"kmeans_explained_var": 1.0}, {"pca_max_data": 0},
                {"mauve_scaling_factor": -1}, {"seed": -1}, {"batch_size": 0}, {"dtype": "int8"}):
        with pytest.raises(InvalidOptionError):
            MAUVE(**bad)
    monkeypatch.setitem(sys.modules, "faiss", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[mauve\]"):
        MAUVE().score_features(p, q)


def test_command_line_equals_the_api(gpt2_dir, tmp_path):
    """``score -m mauve --mauve-model DIR``: -i generations, -r human texts (read as sets),
    the number the API gives; without a model, one line and exit 2."""
    import json
    import subprocess
    import sys

    p, q = texts()
    n = min(len(p), len(q))
    (tmp_path / "p.txt").write_text("".join(t + "\n" for t in p[:n]), encoding="utf-8")
    (tmp_path / "q.txt").write_text("".join(t + "\n" for t in q[:n]), encoding="utf-8")
    base = [sys.executable, "-m", "nlgmetrics", "score", "-m", "mauve", "-i", str(tmp_path / "p.txt"), "-r", str(tmp_path / "q.txt")]
    out = subprocess.run(base + ["--mauve-model", str(gpt2_dir), "--mauve-max-text-length", "32", "--mauve-device", "cpu", "-f", "json"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    rows = got if isinstance(got, list) else [got]
    from nlgmetrics.io.text import read_lines

    # the lines as the command line reads every text file (sacrebleu's convention strips
    # each line: the whitespace-only text becomes empty, which MAUVE drops)
    p_lines, q_lines = read_lines(str(tmp_path / "p.txt")), read_lines(str(tmp_path / "q.txt"))
    want = MAUVE(gpt2_dir, max_text_length=32, device="cpu").corpus_score(p_lines, q_lines).score
    assert [r["score"] for r in rows if "score" in r][0] == want
    missing = subprocess.run(base, capture_output=True, text=True, timeout=600)
    assert missing.returncode == 2 and "--mauve-model" in missing.stderr and len(missing.stderr.strip().splitlines()) == 1
