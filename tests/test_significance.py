"""Bootstrap CIs and paired tests: parity with sacrebleu 2.6.0 (method="sacrebleu") on
WMT22 systems, and properties of the default (exact) method and of the Poisson scheme."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest

from test_significance_helpers import MeanLength, wmt_systems
from nlgmetrics import BLEU, _core
from nlgmetrics.errors import IncompatibleStatsError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.engines.significance import bootstrap_ci, paired_test, paired_test_stats, poisson_totals


@pytest.fixture(scope="module")
def zh_en(corpora):
    return wmt_systems(corpora, "zh-en", n_systems=4, n_segments=700)


@pytest.mark.parametrize("seed", [12345, 7])
def test_confidence_interval_equals_sacrebleu(zh_en, seed, monkeypatch):
    ref, systems = zh_en
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    for hyps in list(systems.values())[:2]:
        sb = SacreBLEU()
        want = sb.corpus_score(hyps, [ref], n_bootstrap=1000)
        m = BLEU()
        got = bootstrap_ci(m, m.stats(hyps, ref), seed=seed, method="sacrebleu")
        assert got.score.score == want.score
        assert got.mean == want._mean  # statistics.mean, bit for bit
        assert got.ci == want._ci
        assert got.signature.format().rsplit("|", 1)[0] == str(sb.get_signature()).rsplit("|", 1)[0]


@pytest.mark.parametrize("test,n", [("bs", 1000), ("ar", 2000)])
def test_paired_tests_equal_sacrebleu(zh_en, test, n):
    ref, systems = zh_en
    named = list(systems.items())
    sb = SacreBLEU()
    sigs, want = PairedTest(named, {"BLEU": sb}, [ref], test_type=test, n_samples=n)()
    got = paired_test(BLEU(), ref, named[0], named[1:], test=test, n_samples=n, method="sacrebleu")
    for w, g in zip(want["BLEU"], got.systems):
        assert (g.score, g.p_value, g.mean, g.ci) == (w.score, w.p_value, w.mean, w.ci)
    assert got.signature.format().rsplit("|", 1)[0] == str(sigs["BLEU"]).rsplit("|", 1)[0]


def test_ar_with_confidence_equals_sacrebleu(zh_en):
    ref, systems = zh_en
    named = list(systems.items())[:3]
    sigs, want = PairedTest(named, {"BLEU": SacreBLEU()}, [ref], test_type="ar", n_samples=500, n_ar_confidence=300)()
    got = paired_test(BLEU(), ref, named[0], named[1:], test="ar", n_samples=500, ar_confidence_n=300, method="sacrebleu")
    for w, g in zip(want["BLEU"], got.systems):
        assert (g.score, g.p_value, g.mean, g.ci) == (w.score, w.p_value, w.mean, w.ci)
    assert got.signature.format().rsplit("|", 1)[0] == str(sigs["BLEU"]).rsplit("|", 1)[0]


def test_default_method_is_close_to_sacrebleu_and_records_its_draws(zh_en):
    ref, systems = zh_en
    m = BLEU()
    st = m.stats(next(iter(systems.values())), ref)
    ours = bootstrap_ci(m, st)
    theirs = bootstrap_ci(m, st, method="sacrebleu")
    assert abs(ours.mean - theirs.mean) < 0.5 and abs(ours.ci - theirs.ci) < 0.5
    assert "resampling:philox" in ours.signature.format()
    assert ours.lower <= ours.mean <= ours.upper
    # exact sums: the resample scores are the scores of explicitly resampled statistics
    idx = _core.sig_multinomial_indices(12345, 3, len(st), 0)
    for r in range(3):
        assert ours.scores[r] == m.score_stats(st.take(idx[r])).score


def test_philox_equals_numpy():
    for counter, key in [([1, 0, 0, 0], [0, 0]), ([5, 6, 7, 8], [11, 12]), ([2**64 - 1, 3, 0, 1], [2**63, 1])]:
        c0 = counter[0] - 1 + (counter[1] << 64) + (counter[2] << 128) + (counter[3] << 192)
        if counter[0] == 0:
            continue
        bg = np.random.Philox(key=key[0] + (key[1] << 64), counter=c0)
        assert [int(x) for x in bg.random_raw(4)] == list(_core.sig_philox4x64(counter, key))


def test_p_values_in_range_and_identical_systems(zh_en):
    ref, systems = zh_en
    hyps = next(iter(systems.values()))
    for test, n in [("bs", 300), ("ar", 400)]:
        for method in ["nlgmetrics", "sacrebleu"]:
            res = paired_test(BLEU(), ref, ("a", hyps), [("same", hyps)] + list(systems.items())[1:], test=test, n_samples=n, method=method)
            for row in res.systems[1:]:
                assert 0 < row.p_value <= 1
            # identical systems: diff = 0 and every resampled statistic is 0 (bs: d_i = 0;
            # ar: |A - B| = 0), so none is strictly greater: p = (0 + 1) / (N + 1), the
            # formula's floor (multeval's strict ">"; sacrebleu gives the same).
            assert res.systems[1].p_value == 1 / (n + 1)


def test_results_do_not_depend_on_threads(zh_en):
    ref, systems = zh_en
    named = list(systems.items())
    base = None
    for t in [1, 2, 3]:
        m = BLEU(n_threads=t)
        got = [paired_test(m, ref, named[0], named[1:], test=test, n_samples=200, n_threads=t) for test in ("bs", "ar")]
        ci = bootstrap_ci(m, m.stats(named[0][1], ref), resampling="poisson", n_resamples=200, n_threads=t)
        key = [[(r.score, r.p_value, r.mean, r.ci) for r in g.systems] for g in got] + [ci.scores.tolist()]
        base = base or key
        assert key == base


def test_poisson_is_shard_invariant_with_float_statistics(zh_en):
    ref, systems = zh_en
    hyps = next(iter(systems.values()))
    for metric in (BLEU(), MeanLength()):
        st = metric.stats(hyps, ref)
        whole = poisson_totals(metric, st, n_resamples=150, seed=3)
        perm = np.random.default_rng(0).permutation(len(st))
        parts = np.array_split(perm, 3)
        shards = [poisson_totals(metric, st.take(p), segment_ids=p, n_resamples=150, seed=3) for p in parts]
        merged = shards[2] + shards[0] + shards[1]
        assert np.array_equal(merged.counts, whole.counts)
        assert np.array_equal(merged.sums(), whole.sums())
        assert np.array_equal(merged.scores(metric), whole.scores(metric))


def test_generic_metric_through_default_scorer(zh_en):
    ref, systems = zh_en
    named = list(systems.items())
    m = MeanLength()
    st = m.stats(named[0][1], ref)
    ci = bootstrap_ci(m, st, n_resamples=100, seed=5)
    idx = _core.sig_multinomial_indices(5, 100, len(st), 0)
    for r in (0, 57):
        assert ci.scores[r] == m.score_stats(st.take(idx[r])).score  # exact float sums
    res = paired_test(m, ref, named[0], named[1:], test="ar", n_samples=300)
    assert all(0 < r.p_value <= 1 for r in res.systems[1:])
    sb = bootstrap_ci(m, st, n_resamples=100, method="sacrebleu")  # float32 totals path
    assert abs(sb.mean - ci.mean) < 0.05


def test_errors(zh_en):
    ref, systems = zh_en
    hyps = next(iter(systems.values()))
    m = BLEU()
    st = m.stats(hyps, ref)
    with pytest.raises(InvalidOptionError):
        bootstrap_ci(m, st, n_resamples=0)
    with pytest.raises(InvalidOptionError):
        bootstrap_ci(m, st, seed=-1)
    with pytest.raises(InvalidOptionError):
        bootstrap_ci(m, st, method="moses")
    with pytest.raises(InvalidOptionError):
        bootstrap_ci(m, st, method="sacrebleu", resampling="poisson")
    with pytest.raises(InvalidInputError):
        bootstrap_ci(m, st.take([]))
    with pytest.raises(IncompatibleStatsError):
        bootstrap_ci(BLEU(lowercase=True), st)
    with pytest.raises(LengthMismatchError):
        paired_test_stats(m, st, {"short": st.take(range(10))})
    with pytest.raises(InvalidInputError):
        paired_test_stats(m, st, {})
    with pytest.raises(InvalidOptionError):
        paired_test_stats(m, st, {"x": st}, test="t-test")
    with pytest.raises(InvalidInputError):
        poisson_totals(m, st.take([0, 1]), segment_ids=[4, 4])
    with pytest.raises(IncompatibleStatsError):
        poisson_totals(m, st, seed=1, n_resamples=10) + poisson_totals(m, st, seed=2, n_resamples=10)
    with pytest.raises(InvalidInputError):
        _core.sig_totals_u64("indices", np.array([[0, 99]], dtype=np.int64), st.counts[:5].copy())


def test_seed_none_is_recorded(zh_en):
    ref, systems = zh_en
    m = BLEU()
    st = m.stats(next(iter(systems.values()))[:50], ref[:50])
    ci = bootstrap_ci(m, st, seed=None, n_resamples=50)
    seed = int(ci.signature.as_dict()["seed"])
    again = bootstrap_ci(m, st, seed=seed, n_resamples=50)
    assert np.array_equal(ci.scores, again.scores)
    assert bootstrap_ci(m, st, seed=None, n_resamples=50, method="sacrebleu").signature.as_dict()["seed"] == "none"


@pytest.mark.parametrize("name", ["rouge", "meteor"])
def test_resampled_means_divide_by_the_segments_drawn(name):
    """A metric whose score is a mean over segments (ROUGE) resamples with the number of
    segments drawn; each resample scores as the corpus of the segments it drew."""
    from nlgmetrics import load
    from nlgmetrics.engines.significance import _draw_indices, bootstrap_ci

    hyps = ["the cat sat on the mat", "a dog ran", "hello there world", "green eggs and ham", "it rains"]
    refs = [["the cat is on the mat"], ["the dog ran fast"], ["hello world"], ["green ham and eggs"], ["it is raining"]]
    metric = load(name)
    stats = metric.stats(hyps, refs)
    ci = bootstrap_ci(metric, stats, n_resamples=20, seed=7)
    for r, drawn in enumerate(_draw_indices("nlgmetrics", 7, 20, len(hyps), 0)):
        assert ci.scores[r] == pytest.approx(metric.score_stats(stats.take(drawn)).score, rel=1e-12, abs=1e-15)
