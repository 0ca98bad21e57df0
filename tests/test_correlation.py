"""Meta-evaluation: correlations equal scipy.stats; WMT22 ja-en DA judgments at system
and segment level with bootstrap intervals; the correlate CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from test_significance_helpers import wmt_systems
from nlgmetrics import BLEU
from nlgmetrics.cli import main
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.engines.meta import kendall, kendall_like, pairwise_accuracy, pearson, segment_level, spearman, system_level

values = st.lists(st.integers(-5, 5) | st.floats(-100, 100, allow_nan=False, width=32), min_size=3, max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_correlations_equal_scipy(data):
    x = data.draw(values)
    y = data.draw(st.lists(st.integers(-5, 5) | st.floats(-100, 100, allow_nan=False, width=32), min_size=len(x), max_size=len(x)))
    a, b = np.array(x, float), np.array(y, float)
    pairs = [
        (pearson, lambda: scipy.stats.pearsonr(a, b)[0]),
        (spearman, lambda: scipy.stats.spearmanr(a, b)[0]),
        (kendall, lambda: scipy.stats.kendalltau(a, b)[0]),
        (lambda u, v: kendall(u, v, "c"), lambda: scipy.stats.kendalltau(a, b, variant="c")[0]),
    ]
    for ours, theirs in pairs:
        with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
            __import__("warnings").simplefilter("ignore")
            want = float(theirs())
        got = ours(a, b)
        if np.isnan(want):
            assert np.isnan(got)
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


def _ja_en_human(corpora):
    d = corpora / "wmt22" / "humaneval-DA-toen"
    sys_scores = {}
    for line in (d / "ad-sys-scores-ja-en.csv").read_text().splitlines()[1:]:
        raw, z, n, name, n_all = line.split()
        sys_scores[name.rsplit(".", 1)[0]] = float(z)
    rows = [l.split("\t") for l in (d / "ja-en.seg-scores.with-txt-line.tsv").read_text().splitlines()[1:]]
    return sys_scores, rows


@pytest.fixture(scope="module")
def ja_en(corpora):
    ref, systems = wmt_systems(corpora, "ja-en", n_systems=14, n_segments=2008)
    return ref, systems, *_ja_en_human(corpora)


def test_system_level_wmt22_ja_en(ja_en):
    ref, systems, human, _ = ja_en
    m = BLEU()
    stats = {n: m.stats(h, ref) for n, h in systems.items()}
    res = system_level(m, stats, human, n_resamples=200, seed=1)
    scores = [m.score_stats(stats[n]).score for n in stats]
    assert res.value == pytest.approx(scipy.stats.pearsonr(scores, [human[n] for n in stats])[0], rel=1e-12)
    assert res.n == 14 and res.lower <= res.value <= res.upper
    ken = system_level(m, stats, human, correlation="kendall", n_resamples=0)
    assert ken.value == pytest.approx(scipy.stats.kendalltau(scores, [human[n] for n in stats])[0], rel=1e-12)
    assert system_level(m, stats, human, correlation="pairwise-accuracy", n_resamples=0).value == pytest.approx(
        pairwise_accuracy(scores, [human[n] for n in stats]))


def test_segment_level_wmt22_ja_en(ja_en):
    ref, systems, _, rows = ja_en
    m = BLEU(effective_order=True)
    sent = {n: m.sentence_scores(h, ref) for n, h in systems.items()}
    ms = np.array([sent[r[0]][int(r[4]) - 1] for r in rows])
    hs = np.array([float(r[5]) for r in rows])
    groups = np.array([int(r[4]) for r in rows])
    res = segment_level(ms, hs, correlation="pearson", groups=groups, n_resamples=100, seed=2)
    assert res.value == pytest.approx(scipy.stats.pearsonr(ms, hs)[0], rel=1e-12)
    assert res.lower < res.value < res.upper
    tau = segment_level(ms, hs, correlation="kendall", n_resamples=0)
    assert tau.value == pytest.approx(scipy.stats.kendalltau(ms, hs)[0], rel=1e-12)
    like = segment_level(ms, hs, groups=groups, correlation="kendall-like", n_resamples=300, seed=2)
    assert like.value == kendall_like(ms, hs, groups)
    assert -1 < like.lower <= like.value <= like.upper < 1
    # brute-force DARR on a few groups
    sel = np.isin(groups, np.unique(groups)[:40])
    c = d = 0
    for g in np.unique(groups[sel]):
        idx = np.flatnonzero(groups == g)
        for i in idx:
            for j in idx:
                if hs[i] - hs[j] > 25:
                    c, d = (c + 1, d) if ms[i] > ms[j] else (c, d + 1)
    assert kendall_like(ms[sel], hs[sel], groups[sel]) == (c - d) / (c + d)


def test_errors():
    with pytest.raises(LengthMismatchError):
        pearson([1, 2, 3], [1, 2])
    with pytest.raises(InvalidInputError):
        pearson([1], [1])
    with pytest.raises(InvalidInputError):
        spearman([1, 2, float("nan")], [1, 2, 3])
    with pytest.raises(InvalidOptionError):
        segment_level([1, 2, 3], [1, 2, 3], correlation="cosine")
    with pytest.raises(InvalidInputError):
        segment_level([1, 2, 3], [1, 2, 3], correlation="kendall-like")
    with pytest.raises(InvalidOptionError):
        kendall([1, 2, 3], [1, 2, 3], variant="a")


def test_correlate_cli(ja_en, corpora, tmp_path, capsys):
    ref, systems, human, rows = ja_en
    d = corpora / "wmt22" / "ja-en"
    names = list(systems)[:6]
    files = [str(d / "system-outputs" / f"generaltest2022.ja-en.hyp.{n}.en") for n in names]
    hum = tmp_path / "human.tsv"
    hum.write_text("system\tscore\n" + "".join(f"{n}\t{human[n]}\n" for n in names))
    refp = str(d / "generaltest2022.ja-en.ref.A.en")
    assert main(["correlate", "-r", refp, "-i", *files, "--names", *names, "--human", str(hum), "-f", "json", "--confidence-n", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    m = BLEU()
    scores = [m.corpus_score(systems[n], ref).score for n in names]
    assert out[0]["value"] == pytest.approx(scipy.stats.pearsonr(scores, [human[n] for n in names])[0], rel=1e-12)
    seg = tmp_path / "seg.tsv"
    seg.write_text("".join(f"{r[0]}\t{r[4]}\t{r[5]}\n" for r in rows if r[0] in names[:3]))
    assert main(["correlate", "-r", refp, "-i", *files[:3], "--names", *names[:3], "--human", str(seg), "--level", "segment", "--confidence-n", "0"]) == 0
    assert "kendall-like" in capsys.readouterr().out
    assert main(["correlate", "-r", refp, "-i", *files[:3], "--human", str(tmp_path / "missing.tsv")]) == 1


def test_docstring_examples():
    import doctest

    import nlgmetrics.engines.meta
    import nlgmetrics.engines.significance

    for mod in (nlgmetrics.engines.meta, nlgmetrics.engines.significance):
        result = doctest.testmod(mod)
        assert result.attempted > 0 and result.failed == 0
