"""Every stateful object may be shared between threads: concurrent ``update`` / ``add_batch``
/ ``merge`` calls lose no batch, and the result equals the same batches fed from one
thread. Text metrics come from the registry, so a newly registered metric is covered the
day it is added (``FEEDERS`` only names the few whose ``update`` takes other arguments).
The switch interval is shortened so that a read-modify-write race would show at once.
"""

from __future__ import annotations

import pickle
import sys
import threading
from typing import Any, Callable

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.integrations import evaluate
from nlgmetrics.classification.streaming import BinnedCurves, ExactCurves, StreamingConfusion
from nlgmetrics.metrics.coverage import Coverage
from nlgmetrics.metrics.perplexity import Perplexity

N_THREADS = 4
N_BATCHES = 24
BATCH = 3

WORDS = "the a cat dog sat ran on in mat park sun today is was big small red".split()


def _corpus(seed: int = 0) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(seed)
    n = N_BATCHES * BATCH

    def sentence() -> str:
        return " ".join(rng.choice(WORDS, size=int(rng.integers(4, 9))))

    preds = [sentence() for _ in range(n)]
    refs = [[sentence()] for _ in range(n)]  # one each: jiwer-style measures take one
    return preds, refs


PREDS, REFS = _corpus()


def _sql_database() -> str:
    """A small SQLite file for execution_accuracy's batches (made once, read-only afterwards)."""
    import sqlite3
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp(prefix="nlgm-concurrency-")) / "words.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE words (w TEXT, n INTEGER)")
        conn.executemany("INSERT INTO words VALUES (?, ?)", [(f"w{i}", i % 7) for i in range(50)])
    conn.close()
    return str(path)


SQL_DB = _sql_database()


def _retrieval_batch(k: int) -> tuple[dict, dict]:
    """(run, qrels) of batch ``k``: every query is judged (a non-relevant "pad" document), so
    each segment is one evaluated query."""
    run, qrels = {}, {}
    for i, (p, r) in enumerate(zip(*BATCHES[k])):
        qid = f"q{k * BATCH + i:04d}"
        ref = r[0] if isinstance(r, (list, tuple)) else r
        run[qid] = {"pad": -1e9} | {w: -float(j) for j, w in enumerate(p.split())}
        qrels[qid] = {"pad": 0} | {w: 1 for w in ref.split()}
    return run, qrels
BATCHES = [(PREDS[i : i + BATCH], REFS[i : i + BATCH]) for i in range(0, len(PREDS), BATCH)]
TABLES = [[["name", w] for w in p.split()[:3]] for p in PREDS]


@pytest.fixture(autouse=True)
def _fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _run_threads(jobs: list[Callable[[], Any]]) -> None:
    """Run the jobs on N_THREADS threads, started together; re-raise the first error."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(N_THREADS)
    chunks = [jobs[k::N_THREADS] for k in range(N_THREADS)]

    def work(mine: list[Callable[[], Any]]) -> None:
        barrier.wait()
        try:
            for job in mine:
                job()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(c,)) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


_rng = np.random.default_rng(5)
LOGPROBS = [-_rng.random(int(_rng.integers(1, 9))) for _ in PREDS]
ITEMS = [p.split()[:2] for p in PREDS]
RECORDS = [[(w, "x") for w in p.split()[:3]] for p in PREDS]


def _slice(seq: list[Any], k: int) -> list[Any]:
    return seq[k * BATCH : (k + 1) * BATCH]


# How each registered metric takes one batch; anything else is update(predictions, references).
FEEDERS: dict[str, Callable[[Any, int], Any]] = {
    "perplexity": lambda m, k: m.update(_slice(LOGPROBS, k)),
    "coverage": lambda m, k: m.update(BATCHES[k][0], _slice(ITEMS, k)),
    "content_selection_ordering": lambda m, k: m.update(_slice(RECORDS, k), list(reversed(_slice(RECORDS, k)))),
    "distinct": lambda m, k: m.update(BATCHES[k][0]),
    "parent": lambda m, k: m.update(*BATCHES[k], TABLES[k * BATCH : (k + 1) * BATCH]),
    # SARI reads sources: each segment's first reference stands in for it
    "sari": lambda m, k: m.update(*BATCHES[k], sources=[r[0] if isinstance(r, (list, tuple)) else r for r in BATCHES[k][1]]),
    # per-problem (n, c) and per-document (loglikelihood, count) numbers
    "pass_at_k": lambda m, k: m.update([len(p.split()) for p in BATCHES[k][0]], [len(p.split()) // 2 for p in BATCHES[k][0]]),
    **{name: (lambda m, k: m.update(list(_slice([float(x.sum()) for x in LOGPROBS], k)), [len(p.encode()) for p in BATCHES[k][0]]))
       for name in ("word_perplexity", "byte_perplexity", "bits_per_byte")},
    "lm_eval_perplexity": lambda m, k: m.update(list(_slice([float(x.sum()) for x in LOGPROBS], k))),
    **{name: (lambda m, k: m.update([len(p.split()) for p in BATCHES[k][0]], [len(p.split()) // 2 for p in BATCHES[k][0]]))
       for name in ("pass_hat_k", "g_pass_at_k")},
    # repeated sampling: per-problem sample correctness (avg@k), answers and golds (maj@k)
    "avg_at_k": lambda m, k: m.update([[len(w) % 2 for w in p.split()] or [0] for p in BATCHES[k][0]]),
    "maj_at_k": lambda m, k: m.update([p.split() or [""] for p in BATCHES[k][0]], [(p.split() or [""])[0] for p in BATCHES[k][0]]),
    "multiple_choice": lambda m, k: m.update([[-float(len(w)) for w in p.split()] or [0.0] for p in BATCHES[k][0]], [0] * len(BATCHES[k][0]), [p.split() or [""] for p in BATCHES[k][0]]),
    # text-to-SQL: a query per segment (its word count picks the filter), against a fixed gold
    "execution_accuracy": lambda m, k: m.update([f"SELECT w FROM words WHERE n = {len(p.split()) % 7}" for p in BATCHES[k][0]],
                                                ["SELECT w FROM words WHERE n = 3"] * len(BATCHES[k][0]), [SQL_DB] * len(BATCHES[k][0])),
    # retrieval: a query per segment, its words ranked in order against its reference's words
    "retrieval": lambda m, k: m.update(*_retrieval_batch(k)),
    # ragas context metrics: each segment's words retrieved, its reference's words as the reference contexts
    "ragas_context": lambda m, k: m.update([p.split() for p in BATCHES[k][0]],
                                           [(r[0] if isinstance(r, (list, tuple)) else r).split() or ["x"] for r in BATCHES[k][1]]),
    # IFEval: each response against lm-eval docs of two instructions
    "ifeval": lambda m, k: m.update(BATCHES[k][0], [{"instruction_id_list": ["punctuation:no_comma", "length_constraints:number_words"],
                                                     "kwargs": [{}, {"relation": "at least", "num_words": 4}], "prompt": ""}] * len(BATCHES[k][0])),
}
# Built with their corpus-wide weights fixed (their update needs them).
BUILDERS: dict[str, Callable[[], Any]] = {
    "nist": lambda: nlgmetrics.load("nist").fit(REFS),
}
# Metrics that do not stream: update() refuses (tested), corpus_score is shared instead.
NON_STREAMING = {"self_bleu"}
# Neural metrics need a model; building one per test is not cheap (test_bertscore.py and
# test_bleurt.py cover their faces with tiny local models).
SKIPPED_KINDS = {"neural"}


def _text_entries() -> list[str]:
    return [e.name for e in nlgmetrics.available() if e.kind not in SKIPPED_KINDS]


def _build(name: str) -> Any:
    return BUILDERS[name]() if name in BUILDERS else nlgmetrics.load(name)


def _feed(name: str, metric: Any, k: int) -> Any:
    feeder = FEEDERS.get(name)
    return feeder(metric, k) if feeder else metric.update(*BATCHES[k])


def test_registry_is_covered():
    names = _text_entries()
    assert {"bleu", "chrf", "cider", "meteor", "nist", "distinct", "parent", "ter", "wer"} <= set(names)


@pytest.mark.parametrize("name", _text_entries())
def test_concurrent_updates_lose_no_batch(name):
    if name in NON_STREAMING:
        metric = _build(name)
        with pytest.raises(nlgmetrics.NlgMetricsError):
            _feed(name, metric, 0)
        want = metric.corpus_score(PREDS).score
        got: list[float] = []
        _run_threads([lambda: got.append(metric.corpus_score(PREDS).score) for _ in range(N_THREADS)])
        assert got == [want] * N_THREADS
        return
    serial = _build(name)
    for k in range(N_BATCHES):
        _feed(name, serial, k)
    shared = _build(name)
    _run_threads([lambda k=k: _feed(name, shared, k) for k in range(N_BATCHES)])
    assert shared.state.n_segments == serial.state.n_segments == len(PREDS)
    want = _expected_score(shared, serial)
    assert shared.compute().score == want
    # the state survives pickling (locks are kept outside the object)
    clone = pickle.loads(pickle.dumps(shared))
    assert clone.compute().score == want
    _feed(name, clone, 0)
    assert clone.state.n_segments == len(PREDS) + BATCH


@pytest.mark.parametrize("name", ["bleu", "chrf", "cider"])
def test_concurrent_merges_and_reads(name):
    parts = []
    for k in range(N_BATCHES):
        m = _build(name)
        _feed(name, m, k)
        parts.append(m)
    shared = _build(name)
    reads: list[int] = []
    jobs: list[Callable[[], Any]] = []
    for p in parts:
        jobs.append(lambda p=p: shared.merge(p))
        jobs.append(lambda: reads.append(shared.state.n_segments))
    _run_threads(jobs)
    assert shared.state.n_segments == len(PREDS)
    assert all(0 <= r <= len(PREDS) for r in reads)
    serial = _build(name)
    for p in parts:
        serial.merge(p)
    assert shared.compute().score == _expected_score(shared, serial)


def _expected_score(shared: Any, serial: Any) -> Any:
    """What ``shared`` (fed by threads in any order) must score, given ``serial`` (fed in order).

    A metric whose reference reduces per-segment values in order (np.mean, or a sum one
    segment after another) keeps them in order, and its last bits depend on that order:
    every segment's values must be there and the score within the bound of reordering (the
    bounds on the metrics' pages). Any other metric gives the same bits."""
    want = serial.compute().score
    if serial.state.sequence is None:
        return want
    rows = lambda seq: sorted(map(repr, seq.tolist()))  # noqa: E731
    assert rows(shared.state.sequence) == rows(serial.state.sequence)
    return pytest.approx(want, rel=(len(PREDS) + 20) * sys.float_info.epsilon)


def _labels(seed: int, n: int = 600):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 3)
    return y, s


@pytest.mark.parametrize("make", [ExactCurves, lambda: BinnedCurves(n_bins=64)], ids=["exact", "binned"])
def test_concurrent_curve_updates(make):
    y, s = _labels(1)
    parts = [(y[i : i + 25], s[i : i + 25]) for i in range(0, len(y), 25)]
    serial, shared = make(), make()
    for p in parts:
        serial.update(*p)
    _run_threads([lambda p=p: shared.update(*p) for p in parts])
    assert shared.state == serial.state
    assert shared.compute().score == serial.compute().score
    assert pickle.loads(pickle.dumps(shared)).compute().score == serial.compute().score


@pytest.mark.parametrize("weighted", [False, True])
def test_concurrent_confusion_updates(weighted):
    rng = np.random.default_rng(2)
    y, p, w = rng.integers(0, 3, 600), rng.integers(0, 3, 600), rng.random(600)
    parts = [slice(i, i + 25) for i in range(0, 600, 25)]

    def feed(m, sl):
        return m.update(y[sl], p[sl], w[sl]) if weighted else m.update(y[sl], p[sl])

    serial, shared = StreamingConfusion([0, 1, 2], weighted=weighted), StreamingConfusion([0, 1, 2], weighted=weighted)
    for sl in parts:
        feed(serial, sl)
    _run_threads([lambda sl=sl: feed(shared, sl) for sl in parts])
    np.testing.assert_array_equal(shared.matrix(), serial.matrix())
    assert shared.state.n_segments == 600


def test_concurrent_perplexity_and_coverage():
    rng = np.random.default_rng(3)
    logprobs = [-rng.random(int(rng.integers(1, 9))) for _ in range(N_BATCHES * BATCH)]
    serial, shared = Perplexity(), Perplexity()
    for k in range(N_BATCHES):
        serial.update(logprobs[k * BATCH : (k + 1) * BATCH])
    _run_threads([lambda k=k: shared.update(logprobs[k * BATCH : (k + 1) * BATCH]) for k in range(N_BATCHES)])
    assert shared.compute().score == serial.compute().score
    items = [p.split()[:2] for p in PREDS]
    serial_c, shared_c = Coverage(), Coverage()
    for k in range(N_BATCHES):
        serial_c.update(PREDS[k * BATCH : (k + 1) * BATCH], items[k * BATCH : (k + 1) * BATCH])
    _run_threads([lambda k=k: shared_c.update(PREDS[k * BATCH : (k + 1) * BATCH], items[k * BATCH : (k + 1) * BATCH]) for k in range(N_BATCHES)])
    assert shared_c.state.n_segments == len(PREDS)
    assert shared_c.compute().score == serial_c.compute().score


def test_concurrent_evaluate_add_batch_and_add():
    module = evaluate.load("sacrebleu")
    jobs: list[Callable[[], Any]] = [lambda k=k: module.add_batch(predictions=BATCHES[k][0], references=BATCHES[k][1]) for k in range(N_BATCHES)]
    jobs += [lambda: module.add(prediction=PREDS[0], reference=REFS[0])] * 8
    _run_threads(jobs)
    order_free = evaluate.load("sacrebleu").compute(predictions=PREDS + [PREDS[0]] * 8, references=REFS + [REFS[0]] * 8)
    assert module.compute()["score"] == pytest.approx(order_free["score"], abs=0)
    assert pickle.loads(pickle.dumps(evaluate.load("chrf"))).name == "chrf"


def test_concurrent_torchmetrics_updates():
    pytest.importorskip("torchmetrics")
    from nlgmetrics.integrations.torchmetrics import TorchMetric

    serial, shared = TorchMetric("bleu"), TorchMetric("bleu")
    for p, r in BATCHES:
        serial.update(p, r)
    _run_threads([lambda b=b: shared.update(*b) for b in BATCHES])
    assert int(shared.n_segments) == len(PREDS)
    assert float(shared.compute()) == float(serial.compute())


# -- objects shared read-mostly between threads: tables, rewards, neural caches ---------
def _same_on_every_thread(call: Callable[[], Any], atol: float = 0.0) -> None:
    """`call` on N_THREADS threads at once, several times each, equals `call` alone (to
    `atol`: float32 encoders differ in the last bits with how texts are batched)."""
    want = np.asarray(call())
    got: list[Any] = []
    _run_threads([lambda: got.append(np.asarray(call())) for _ in range(N_THREADS * 3)])
    assert len(got) == N_THREADS * 3
    for g in got:
        np.testing.assert_allclose(g, want, rtol=0, atol=atol) if atol else np.testing.assert_array_equal(g, want)


def test_a_shared_cider_df_and_reward_score_the_same_on_every_thread():
    from nlgmetrics.tasks.rewards import CiderReward
    from nlgmetrics.metrics.cider import CiderDF

    df = CiderDF.fit(REFS, tokenize="none")
    cider = nlgmetrics.load("cider", df=df, tokenize="none")
    reward = CiderReward(df)
    _same_on_every_thread(lambda: cider.sentence_scores(PREDS, REFS))
    _same_on_every_thread(lambda: reward.scores(PREDS, REFS))
    _same_on_every_thread(lambda: sorted(df.to_counts().items()))


def test_a_comet_cache_shared_between_threads_keeps_every_score():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from conftest import REPO

    gold = REPO / "tests" / "goldens" / "comet"
    sources = [p.upper() for p in PREDS[:12]]
    # a cache smaller than one call: every thread evicts what the others just read
    comet = nlgmetrics.COMET(gold / "da-sparsemax-avg", encoder=gold / "xlmr-tiny", device="cpu", cache_size=5)
    fresh = nlgmetrics.COMET(gold / "da-sparsemax-avg", encoder=gold / "xlmr-tiny", device="cpu", cache_size=0)
    want = fresh.sentence_scores(PREDS[:12], [r[0] for r in REFS[:12]], sources=sources)
    _same_on_every_thread(lambda: comet.sentence_scores(PREDS[:12], [r[0] for r in REFS[:12]], sources=sources), atol=1e-6)
    np.testing.assert_allclose(comet.sentence_scores(PREDS[:12], [r[0] for r in REFS[:12]], sources=sources), want, rtol=0, atol=1e-6)


# -- every face: compat.* modules, TorchMetric, nlgmetrics.integrations.evaluate -----------------------
# Bounded: FACE_THREADS threads x FACE_BATCHES one-example batches each; exact totals.
FACE_THREADS = 8
FACE_BATCHES = 50


def _face_jobs(add: Callable[[int], Any]) -> None:
    """``add(i)`` for i in 0..FACE_THREADS*FACE_BATCHES-1, FACE_BATCHES per thread, started together."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(FACE_THREADS)

    def work(t: int) -> None:
        barrier.wait()
        try:
            for b in range(FACE_BATCHES):
                add(t * FACE_BATCHES + b)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(FACE_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


N_FACE = FACE_THREADS * FACE_BATCHES
FACE_TEXTS = [f"{WORDS[i % len(WORDS)]} {i} {WORDS[(i * 7) % len(WORDS)]}" for i in range(N_FACE)]


@pytest.mark.parametrize("face", ["compat", "native"])
def test_evaluate_faces_keep_predictions_and_references_aligned(face):
    # every prediction equals its own reference: one misaligned pair and exact_match < 1
    from nlgmetrics.compat import evaluate as compat_evaluate

    load = compat_evaluate.load if face == "compat" else evaluate.load
    module = load("exact_match")
    _face_jobs(lambda i: module.add_batch(predictions=[FACE_TEXTS[i]], references=[FACE_TEXTS[i]]))
    got = module.compute()
    assert float(got["exact_match"] if face == "compat" else got["score"]) == 1.0
    # and add() from threads: all N_FACE examples arrive, aligned
    module = load("exact_match")
    _face_jobs(lambda i: module.add(prediction=FACE_TEXTS[i], reference=FACE_TEXTS[i]))
    assert len(module._predictions) == len(module._references) == N_FACE
    assert all(p == r for p, r in zip(module._predictions, module._references))
    got = module.compute()
    assert float(got["exact_match"] if face == "compat" else got["score"]) == 1.0


def test_compat_evaluate_sacrebleu_from_threads_equals_one_call():
    from nlgmetrics.compat import evaluate as compat_evaluate

    preds = [PREDS[i % len(PREDS)] for i in range(N_FACE)]
    refs = [REFS[i % len(REFS)] for i in range(N_FACE)]
    module = compat_evaluate.load("sacrebleu")
    _face_jobs(lambda i: module.add_batch(predictions=[preds[i]], references=[refs[i]]))
    got = module.compute()
    want = compat_evaluate.load("sacrebleu").compute(predictions=preds, references=refs)
    # BLEU sums counts: order-free, so the threaded total is the one-call total exactly
    assert got["counts"] == want["counts"] and got["totals"] == want["totals"]
    assert got["score"] == want["score"]


def test_torchmetric_from_threads_counts_every_segment():
    pytest.importorskip("torchmetrics")
    from nlgmetrics.integrations.torchmetrics import TorchMetric

    preds = [PREDS[i % len(PREDS)] for i in range(N_FACE)]
    refs = [REFS[i % len(REFS)] for i in range(N_FACE)]
    for name in ("bleu", "wer"):
        shared = TorchMetric(name)
        _face_jobs(lambda i: shared.update([preds[i]], [refs[i]]))
        assert int(shared.n_segments) == N_FACE
        serial = nlgmetrics.load(name)
        serial.update(preds, refs)
        np.testing.assert_array_equal(shared.stats.counts, serial.state.counts)
        one_call = TorchMetric(name)
        one_call.update(preds, refs)
        assert float(shared.compute()) == float(one_call.compute())


def test_compat_rouge_score_aggregator_from_threads():
    from nlgmetrics.compat.rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    scores = [scorer.score(REFS[i % len(REFS)][0], PREDS[i % len(PREDS)]) for i in range(N_FACE)]
    agg = scoring.BootstrapAggregator(n_samples=10)
    _face_jobs(lambda i: agg.add_scores(scores[i]))
    assert len(agg._scores["rouge1"]) == len(agg._scores["rougeL"]) == N_FACE
    # rows stay aligned across types: row k of rouge1 and of rougeL come from one example
    pairs = {(id(s["rouge1"]), id(s["rougeL"])) for s in scores}
    assert all((id(a), id(b)) in pairs for a, b in zip(agg._scores["rouge1"], agg._scores["rougeL"]))


def test_compat_sacrebleu_and_pycocoevalcap_objects_shared_between_threads():
    from nlgmetrics.compat import pycocoevalcap
    from nlgmetrics.compat.sacrebleu.metrics import BLEU, CHRF, TER

    streams = [[r[0] for r in REFS]]
    for metric in (BLEU(), CHRF(), TER()):
        want = metric.corpus_score(PREDS, streams).score
        got: list[float] = []
        _face_jobs(lambda i: got.append(metric.corpus_score(PREDS, streams).score) if i % 25 == 0 else None)
        assert got == [want] * (N_FACE // 25)
    gts = {k: r for k, r in enumerate(REFS)}
    res = {k: [p] for k, p in enumerate(PREDS)}
    cider = pycocoevalcap.Cider()
    want = cider.compute_score(gts, res)[0]
    got = []
    _face_jobs(lambda i: got.append(cider.compute_score(gts, res)[0]) if i % 25 == 0 else None)
    assert got == [want] * (N_FACE // 25)


def test_compat_jiwer_functions_from_threads():
    from nlgmetrics.compat import jiwer

    refs = [r[0] for r in REFS]
    want = jiwer.wer(refs, PREDS)
    got: list[float] = []
    _face_jobs(lambda i: got.append(jiwer.wer(refs, PREDS)) if i % 25 == 0 else None)
    assert got == [want] * (N_FACE // 25)
