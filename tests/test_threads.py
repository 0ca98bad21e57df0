"""Results never depend on the number of threads: for every metric, per-segment
statistics and pairwise matrices with n_threads = 1, 2 and 0 (all cores) are identical."""

from __future__ import annotations

import numpy as np
import pytest

from wmt import by_segment, load_pair

from nlgmetrics import CiderDF, available, load

ONE_REF = {"wer", "cer", "mer", "wil", "wip", "per"}
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
