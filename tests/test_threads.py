"""Results never depend on the number of threads: for every metric, per-segment
statistics and pairwise matrices with n_threads = 1, 2 and 0 (all cores) are identical."""

from __future__ import annotations

import numpy as np
import pytest

from wmt import by_segment, load_pair

from nlgmetrics import CiderDF, available, load
from registry_cases import ONE_REF as ONE_REF_METRICS

ONE_REF = ONE_REF_METRICS
NOT_PAIRS = {"self_bleu"}
TEXT_METRICS = sorted(e.name for e in available() if e.text and e.name not in NOT_PAIRS)
# metrics whose pairwise matrix is defined (CIDEr needs a fixed df; Distinct has none)
PAIRWISE = sorted(set(TEXT_METRICS) - {"distinct"})


@pytest.fixture(scope="module")
def corpus():
    pair = load_pair("zh-en")
    hyps = next(iter(pair.systems.values()))[:500]
    return hyps, by_segment([s[:500] for s in pair.refs])


def make(name, n_threads, refs=None):
    if name == "cider" and refs is not None:
        return load(name, n_threads=n_threads, df=CiderDF.fit([[r] for r in refs]))
    return load(name, n_threads=n_threads)


@pytest.mark.parametrize("name", TEXT_METRICS)
def test_segment_statistics(corpus, name):
    hyps, refs = corpus
    if name in ONE_REF:
        refs = [r[:1] for r in refs]
    segs = [make(name, t).stats(hyps, refs) for t in (1, 2, 0)]
    for s in segs[1:]:
        assert np.array_equal(s.counts, segs[0].counts)
        assert (s.sums is None and segs[0].sums is None) or np.array_equal(s.sums, segs[0].sums)
        assert s.total() == segs[0].total()


@pytest.mark.parametrize("name", PAIRWISE)
def test_pairwise_matrix(corpus, name):
    hyps, refs = corpus
    cands, pseudo = hyps[:60], [r[0] for r in refs[:40]]
    mats = [make(name, t, pseudo).pairwise(cands, pseudo) for t in (1, 2, 0)]
    assert mats[0].shape == (60, 40)
    for m in mats[1:]:
        assert np.array_equal(m, mats[0])


# --- resource bounds: thread requests are capped and pools reused ---------------------------

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402

from nlgmetrics import BLEU  # noqa: E402
from nlgmetrics._resources import max_threads  # noqa: E402
from nlgmetrics.errors import InvalidOptionError  # noqa: E402
from nlgmetrics.engines.significance import bootstrap_ci  # noqa: E402


@pytest.mark.parametrize("huge", [2**40, 2**64, 2**200])
def test_huge_thread_requests_are_capped_at_the_cores(huge):
    m = BLEU(n_threads=huge)
    assert m.n_threads == max_threads()
    hyps, refs = ["the cat sat on a mat"] * 600, [["the cat sat on the mat"]] * 600
    assert m.corpus_score(hyps, refs).score == BLEU(n_threads=1).corpus_score(hyps, refs).score
    st = m.stats(hyps[:20], refs[:20])
    assert bootstrap_ci(m, st, n_resamples=50, n_threads=huge).ci == bootstrap_ci(m, st, n_resamples=50, n_threads=1).ci


@pytest.mark.parametrize("bad", [-1, -(2**70), 1.5, "4", None, True])
def test_invalid_thread_counts_are_option_errors(bad):
    with pytest.raises(InvalidOptionError, match="n_threads"):
        BLEU(n_threads=bad)
    with pytest.raises(InvalidOptionError, match="n_threads"):
        bootstrap_ci(BLEU(), BLEU().stats(["a b"], [["a b"]]), n_threads=bad)


THREAD_COUNT_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from nlgmetrics import _core, load
    def live():
        return len(os.listdir("/proc/self/task"))
    hyps, refs = ["the cat sat on a mat %d" % i for i in range(600)], [["the cat sat on the mat"]] * 600
    load("bleu").corpus_score(hyps, refs)  # rayon's global pool
    before = live()
    for n in list(range(1, 40)) + [2**40, 2**62, 0, 3, 2**40]:
        load("bleu", n_threads=n).corpus_score(hyps, refs)
        load("chrf", n_threads=n).corpus_score(hyps, refs)
        _core.tokenize("13a", hyps, min(n, 2**63))  # the core caps on its own as well
    print(before, live())
    """
)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
def test_live_threads_stay_bounded_over_many_thread_counts():
    # A subprocess with a timeout: a regression must not flood the test machine.
    out = subprocess.run([sys.executable, "-c", THREAD_COUNT_SCRIPT], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    before, after = map(int, out.stdout.split())
    cores = os.cpu_count() or 1
    # Global pool (already counted in `before`) + at most two cached sized pools of < cores threads.
    assert after - before <= 2 * cores, (before, after)


@pytest.mark.parametrize("call", ["tokenize", "ptb_tokenize", "coco_evaluate", "cider_df_fit", "cider_reward"])
def test_every_public_function_taking_n_threads_caps_it(call):
    from nlgmetrics import CiderDF, tokenizers
    from nlgmetrics.tasks import coco
    from nlgmetrics.tasks.rewards import CiderReward

    huge = 2**64
    calls = {
        "tokenize": lambda n: tokenizers.tokenize("13a", ["a b."], n_threads=n),
        "ptb_tokenize": lambda n: coco.ptb_tokenize(["A b, c."], n_threads=n),
        "coco_evaluate": lambda n: coco.evaluate(
            {"annotations": [{"image_id": 1, "caption": "a cat"}, {"image_id": 2, "caption": "a dog"}]},
            [{"image_id": 1, "caption": "a cat"}, {"image_id": 2, "caption": "the dog"}], n_threads=n).eval.get("CIDEr"),
        "cider_df_fit": lambda n: CiderDF.fit([["a cat"], ["a dog"]], n_threads=n).n,
        "cider_reward": lambda n: CiderReward(CiderDF.fit([["a cat"], ["a dog"]]), n_threads=n).n_threads,
    }
    if call == "cider_reward":
        assert calls[call](huge) >= 1
    else:
        assert calls[call](huge) == calls[call](1)
    with pytest.raises(InvalidOptionError):
        calls[call](-1)


def test_state_lock_survives_garbage_collection_inside_it():
    """A collection while the lock table's guard is held runs other objects' finalizers on
    the same thread (they take the guard too): with a plain Lock this deadlocked. Forced
    here with a collection on every allocation; bounded by a subprocess timeout."""
    import subprocess
    import sys

    script = (
        "import gc\n"
        "from nlgmetrics._locking import state_lock\n"
        "class Box:\n"
        "    def __init__(self): self.me = self  # a cycle: freed by the collector, not by refcount\n"
        "gc.set_threshold(1)\n"
        "for _ in range(20000):\n"
        "    state_lock(Box())\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
