"""torchmetrics adapter: sum-reduced states; a real two-process DDP run (gloo, CPU)
whose synchronised scores equal the single-process scores exactly."""

from __future__ import annotations

import json
import math
import os
import socket

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

import nlgmetrics as nm  # noqa: E402
from nlgmetrics.errors import InvalidInputError, InvalidOptionError  # noqa: E402
from nlgmetrics.integrations.torchmetrics import TorchMetric, from_limbs, to_limbs  # noqa: E402

from conftest import CORPORA, read_lines  # noqa: E402
from differential.bitexact import numpy_mean_bound_ulps  # noqa: E402

N = 61
# (name, options): integer statistics only, float sums, both, a multi-reference metric
CASES = [
    ("bleu", {}),
    ("chrf++", {}),
    ("ter", {}),
    ("rouge", {"use_stemmer": True}),
    ("wer", {"multi_ref": "best"}),
]


def order_free_score(name: str, options: dict, hyps, refs) -> float:
    """The score of the corpus' totals without the per-segment values some metrics keep in
    order (``Stats.sequence``): what summed tensors across processes can carry, so the
    exactly rounded mean or sum. It is the corpus score whenever the order does not matter,
    and within numpy's pairwise-sum bound of it otherwise (checked here)."""
    m = nm.load(name, **options)
    value = m.score_stats(m.stats(hyps, refs).total().replace(sequence=None)).score
    ordered = m.corpus_score(hyps, refs).score
    assert abs(value - ordered) <= numpy_mean_bound_ulps(len(hyps)) * math.ulp(ordered), name
    return value


def wmt_data():
    d = CORPORA / "wmt22" / "zh-en"
    hyps = read_lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.DLUT.en")[:N]
    a = read_lines(d / "generaltest2022.zh-en.ref.A.en")[:N]
    b = read_lines(d / "generaltest2022.zh-en.ref.B.en")[:N]
    # a variable number of references: every third segment has one
    refs = [[x] if i % 3 == 0 else [x, y] for i, (x, y) in enumerate(zip(a, b))]
    return hyps, refs


def _shard_scores(rank: int, world: int) -> dict:
    hyps, refs = wmt_data()
    hyps, refs = hyps[rank::world], refs[rank::world]  # uneven shards: 31 and 30
    out = {}
    for name, options in CASES:
        m = TorchMetric(name, as_score=True, **options)
        for i in range(0, len(hyps), 7):
            m.update(hyps[i : i + 7], refs[i : i + 7])
        s = m.compute()  # torchmetrics all-reduces the states first
        out[name] = [s.score.hex(), s.signature.format()]
    return out


def _ddp_worker(rank: int, world: int, port: int, out_dir: str) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        result = _shard_scores(rank, world)
        with open(os.path.join(out_dir, f"{rank}.json"), "w") as f:
            json.dump(result, f)
    finally:
        dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ddp_two_processes_equal_single_process(corpora, tmp_path):
    mp.spawn(_ddp_worker, args=(2, _free_port(), str(tmp_path)), nprocs=2, join=True)
    hyps, refs = wmt_data()
    for rank in range(2):
        got = json.loads((tmp_path / f"{rank}.json").read_text())
        for name, options in CASES:
            want = nm.load(name, **options).corpus_score(hyps, refs)
            assert got[name] == [order_free_score(name, options, hyps, refs).hex(), want.signature.format()], name


def test_single_process_batches_and_forward(corpora):
    hyps, refs = wmt_data()
    for name, options in CASES + [("meteor", {})]:
        m = TorchMetric(name, **options)
        div = PERCENT.get(name, 1.0)  # torchmetrics' scale: fractions
        batch_value = m(hyps[:10], refs[:10])  # forward: the batch's score, and accumulates
        assert float(batch_value) == order_free_score(name, options, hyps[:10], refs[:10]) / div
        m.update(hyps[10:], refs[10:])
        value = m.compute()
        assert value.dtype == torch.float64
        assert float(value) == order_free_score(name, options, hyps, refs) / div
        m.reset()
        with pytest.raises(InvalidInputError, match="nothing to score"):
            m.compute()


def test_merge_state_of_two_copies(corpora):
    hyps, refs = wmt_data()
    a, b = TorchMetric("rouge"), TorchMetric("rouge")
    a.update(hyps[:25], refs[:25])
    b.update(hyps[25:], refs[25:])
    a.merge_state(b)
    assert float(a.compute()) == order_free_score("rouge", {}, hyps, refs)

# nlgmetrics' percent scores, reported by TorchMetric as torchmetrics does: fractions
PERCENT = {"bleu": 100.0, "chrf++": 100.0, "ter": 100.0}


def test_limbs_are_exact():
    rng = np.random.default_rng(3)
    values = list(rng.standard_normal(500) * 10.0 ** rng.integers(-300, 300, 500))
    values += [1e16, 1.0, -1e16, 5e-324, -5e-324, 1.7e308, -1.7e308, 0.1, 0.2, 0.3]
    shards = [values[i::3] for i in range(3)]
    summed = sum(to_limbs(s) for s in shards)
    assert from_limbs(summed) == math.fsum(values)
    assert from_limbs(to_limbs([0.1] * 10)) == math.fsum([0.1] * 10) == 1.0
    assert from_limbs(to_limbs([])) == 0.0
    with pytest.raises(InvalidInputError, match="finite"):
        to_limbs([float("nan")])


def test_refuses_what_does_not_reduce_by_sum(corpora):
    hyps, refs = wmt_data()
    with pytest.raises(InvalidOptionError, match="do not reduce by sum"):
        TorchMetric("cider").update(hyps[:5], refs[:5])
    with pytest.raises(InvalidOptionError, match="do not reduce by sum"):
        TorchMetric("distinct").update(hyps[:5])
    with pytest.raises(InvalidInputError, match="fit"):
        TorchMetric("nist").update(hyps[:5], refs[:5])
    # with fixed tables they stream
    nist = nm.NIST().fit(refs)
    m = TorchMetric(nist)
    m.update(hyps[:30], refs[:30])
    m.update(hyps[30:], refs[30:])
    assert float(m.compute()) == nist.corpus_score(hyps, refs).score
    df = nm.CiderDF.fit(refs)
    m = TorchMetric("cider", df=df)
    m.update(hyps[:30], refs[:30])
    m.update(hyps[30:], refs[30:])
    assert float(m.compute()) == nm.CIDEr(df=df).corpus_score(hyps, refs).score
    with pytest.raises(InvalidOptionError, match="already built"):
        TorchMetric(nm.BLEU(), tokenize="zh")


def test_scale_is_torchmetrics_scale(corpora):
    # the metrics torchmetrics has report fractions there: the same numbers here
    import torchmetrics.text as tmt

    hyps, refs = wmt_data()
    one = [[r[0]] for r in refs]
    pairs = [
        (TorchMetric("bleu", smooth_method="none"), tmt.SacreBLEUScore(), one),
        (TorchMetric("bleu", smooth_method="none", tokenize="none"), tmt.BLEUScore(), one),
        (TorchMetric("wer"), tmt.WordErrorRate(), [r[0] for r in refs]),
        (TorchMetric("cer"), tmt.CharErrorRate(), [r[0] for r in refs]),
    ]
    for ours, theirs, rs in pairs:
        ours.update(hyps, rs)
        theirs.update(hyps, rs)
        # torchmetrics accumulates in float32 tensors for some of these: a bound, not ==
        assert float(ours.compute()) == pytest.approx(float(theirs.compute()), rel=1e-5), type(theirs).__name__
    # torchmetrics' CHRFScore and TranslationEditRate are other computations (their numbers
    # differ from sacrebleu's by more than rounding): chrF and TER here are sacrebleu's, on
    # torchmetrics' 0-1 scale
    import sacrebleu

    for name, order in (("chrf", 0), ("chrf++", 2)):
        m = TorchMetric(name)
        m.update(hyps, one)
        assert float(m.compute()) == sacrebleu.corpus_chrf(hyps, [[r[0] for r in refs]], word_order=order).score / 100
    m = TorchMetric("ter")
    m.update(hyps, one)
    assert float(m.compute()) == sacrebleu.corpus_ter(hyps, [[r[0] for r in refs]]).score / 100
    native = TorchMetric("bleu", scale="native")
    native.update(hyps, refs)
    assert float(native.compute()) == nm.BLEU().corpus_score(hyps, refs).score
    full = TorchMetric("bleu", as_score=True)
    full.update(hyps, refs)
    assert full.compute().score == nm.BLEU().corpus_score(hyps, refs).score  # the Score keeps nlgmetrics' scale
    with pytest.raises(InvalidOptionError):
        TorchMetric("bleu", scale="percent")
    with pytest.raises(InvalidOptionError):
        TorchMetric("bleu", as_score="yes")


@pytest.mark.parametrize("method", range(5))
def test_nltk_smoothing_methods_0_to_4_stream(corpora, method):
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    hyps, refs = wmt_data()
    m = TorchMetric("bleu", flavour="nltk", smoothing=method)
    for i in range(0, len(hyps), 9):
        m.update(hyps[i : i + 9], refs[i : i + 9])
    want = corpus_bleu([[r.split() for r in rs] for rs in refs], [h.split() for h in hyps],
                       smoothing_function=getattr(SmoothingFunction(), f"method{method}"))
    assert float(m.compute()) == want


@pytest.mark.parametrize("method", [5, 6, 7])
def test_nltk_smoothing_methods_reading_the_last_segment_refuse(corpora, method):
    hyps, refs = wmt_data()
    with pytest.raises(InvalidOptionError, match="last segment"):
        TorchMetric("bleu", flavour="nltk", smoothing=method).update(hyps[:5], refs[:5])
