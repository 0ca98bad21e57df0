"""chrF / chrF++ (sacrebleu flavour): parity with sacrebleu 2.6.0, properties, errors, CLI."""

from __future__ import annotations

import io
import itertools
import math
import pickle
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF as SacreCHRF
from sacrebleu.utils import sum_of_lists

import nlgmetrics as nm
from nlgmetrics.cli.main import main as cli_main
from nlgmetrics.errors import (
    IncompatibleStatsError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    MissingReferenceError,
)

from conftest import read_lines

PAIRS = ("zh-en", "en-zh", "ja-en", "en-ja")


def sacre_stats(hyps, refs, **opts):
    """sacrebleu's per-segment statistics, corpus score and sentence scores (one pass)."""
    m = SacreCHRF(**opts)
    streams = [list(s) for s in itertools.zip_longest(*refs)]
    stats = m._extract_corpus_statistics(hyps, streams)
    corpus = m._compute_score_from_stats(sum_of_lists(stats)).score
    sent = [m._compute_score_from_stats(s).score for s in stats]
    return np.array(stats, dtype=np.uint64), corpus, np.array(sent)


def assert_parity(hyps, refs, **opts):
    want_stats, want_corpus, want_sent = sacre_stats(hyps, refs, **opts)
    metric = nm.CHRF(**opts)
    seg = metric.stats(hyps, refs)
    np.testing.assert_array_equal(seg.counts, want_stats)
    got = metric.score_stats(seg)
    assert got.score == pytest.approx(want_corpus, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(metric.sentence_scores(hyps, refs), want_sent, rtol=1e-12, atol=1e-12)
    return got


def wmt_system(corpora: Path, pair: str):
    """(system name, hypotheses) of every system of a pair, and the reference streams."""
    d = corpora / "wmt22" / pair
    refs = [read_lines(p) for p in sorted(d.glob(f"generaltest2022.{pair}.ref.*"))]
    systems = [(p.name.split(".hyp.")[1].rsplit(".", 1)[0], read_lines(p)) for p in sorted((d / "system-outputs").glob("*"))]
    return systems, refs


def subsample(n: int, step: int, offset: int) -> list[int]:
    return list(range(offset % step, n, step))


# -- real data --------------------------------------------------------------------------
@pytest.mark.parametrize("pair", PAIRS)
def test_wmt22_every_system_parity(corpora, pair):
    """Every system, one reference and (where there are two) both; chrF and chrF++;
    segment statistics exactly, corpus and sentence scores to 1e-12. Segments are
    subsampled deterministically (a different offset per system) to keep sacrebleu fast."""
    systems, refs = wmt_system(corpora, pair)
    ref_sets = [refs[:1]] + ([refs[:2]] if len(refs) > 1 else [])
    for k, (name, hyps) in enumerate(systems):
        idx = subsample(len(hyps), 30, k)
        h = [hyps[i] for i in idx]
        for rs in ref_sets:
            r = [[s[i] for s in rs] for i in idx]
            for opts in ({}, {"word_order": 2}):
                assert_parity(h, r, **opts)


def test_wmt22_official_chrf(corpora):
    """chrf-all of automatic-scores.tsv (all references, full corpora) within ±0.01."""
    rows = (corpora / "wmt22" / "automatic-scores.tsv").read_text(encoding="utf-8").splitlines()[1:]
    expected = {}
    for row in rows:
        pair, system, _, _, metric, score = row.split("\t")
        if metric == "chrf-all" and pair in PAIRS:
            expected[(pair, system)] = float(score)
    assert len(expected) == 52
    for pair in PAIRS:
        systems, refs = wmt_system(corpora, pair)
        seg_refs = [list(x) for x in zip(*refs)]
        for name, hyps in systems:
            score = nm.chrf(hyps, seg_refs)
            assert abs(score.score - expected[(pair, name)]) <= 0.01, (pair, name, score.score)
            assert score.signature.format().startswith(f"nrefs:{len(refs)}|case:mixed|eff:yes|nc:6|nw:0|space:no|")


OPTION_GRID = [
    dict(char_order=c, word_order=w, beta=b, lowercase=lc, whitespace=ws, eps_smoothing=eps)
    for c, w, b, lc, ws, eps in itertools.product((6, 2), (0, 2), (1, 3), (False, True), (False, True), (False, True))
]


def test_wmt22_option_grid(corpora):
    """Every combination of the options on real segments of two language pairs."""
    cases = []
    for pair, k in (("zh-en", 3), ("en-ja", 5)):
        systems, refs = wmt_system(corpora, pair)
        idx = subsample(len(systems[k][1]), 90, k)
        cases.append(([systems[k][1][i] for i in idx], [[s[i] for s in refs] for i in idx]))
    for opts in OPTION_GRID:
        for h, r in cases:
            assert_parity(h, r, **opts)
    # larger orders and word-only chrF
    h, r = cases[0]
    for opts in ({"char_order": 10, "word_order": 4}, {"char_order": 0, "word_order": 2}, {"char_order": 1}):
        assert_parity(h, r, **opts)


# -- generated inputs -------------------------------------------------------------------
ALPHABET = "aAbBcC ..,,()!?'\"-\t\n\u3000\u00a0xyzÉé你好世界日本語のカタカナ，。İΣς"
text = st.text(alphabet=ALPHABET, max_size=40)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=6),
    opts=st.sampled_from(OPTION_GRID + [{"word_order": 1, "char_order": 3}]),
)
def test_generated_parity(data, opts):
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    if any(len(r) != len(refs[0]) for r in refs):
        # sacrebleu's streams cannot hold a variable number of references without None
        refs = [r[:1] for r in refs]
    assert_parity(hyps, refs, **opts)


EDGE = [
    ("", "abc"), ("abc", ""), ("", ""), ("   ", "  \t "), ("a", "a"), ("a", "b"), ("ab", "abcdefgh"),
    ("The cat", "The cat"), ("the CAT", "The cat"), ("我爱你", "我爱她"), ("(hi)", "(hi)"), ("hi!", "hi !"),
    (".", "."), ("a .", "a."), ("x" * 300, "x" * 299),
]


@pytest.mark.parametrize("hyp,ref", EDGE)
@pytest.mark.parametrize("opts", [{}, {"word_order": 2}, {"eps_smoothing": True, "word_order": 2}, {"whitespace": True, "lowercase": True}])
def test_edge_cases(hyp, ref, opts):
    assert_parity([hyp], [[ref]], **opts)


def test_documented_values():
    hyps = ["The cat sat on the mat.", "It is raining today!"]
    refs = [["The cat is sitting on the mat."], ["It rains today."]]
    assert round(nm.chrf(hyps, refs).score, 2) == 45.83
    assert round(nm.chrf(hyps, refs, word_order=2).score, 2) == 47.71
    assert round(nm.chrf(hyps, refs, word_order=2, eps_smoothing=True).score, 2) == 47.71


def test_best_reference_first_max_and_nhyp_rule():
    m = nm.CHRF()
    # two equally good references: the first one's statistics are kept
    seg = m.stats(["abcd"], [["abxx", "xxcd"]])
    np.testing.assert_array_equal(seg.counts, m.stats(["abcd"], [["abxx"]]).counts)
    # the reference has no 3-gram: n_hyp of order 3 is reported as 0
    row = m.stats(["abcdef"], [["ab"]]).counts[0]
    assert list(row[6:9]) == [0, 0, 0]
    assert list(row[0:3]) == [6, 2, 2]


# -- names and signatures ---------------------------------------------------------------
@pytest.mark.parametrize("opts", [{}, {"word_order": 2}, {"lowercase": True, "whitespace": True, "eps_smoothing": True, "char_order": 4, "word_order": 1}, {"beta": 1}])
def test_signature_and_name_as_sacrebleu(opts):
    hyps, refs = ["a b c", "d e"], [["a b c", "x"], ["d e", "y"]]
    ref_m = SacreCHRF(**opts)
    want = ref_m.corpus_score(hyps, [list(s) for s in zip(*refs)])
    want_sig = str(ref_m.get_signature()).rsplit("|version:", 1)[0]
    got = nm.CHRF(**opts).corpus_score(hyps, refs)
    assert got.name == want.name
    sig = got.signature.format().rsplit("|version:", 1)[0]
    if opts.get("beta", 2) != 2:
        assert sig == want_sig + f"|beta:{opts['beta']}"
    else:
        assert sig == want_sig
    assert got.to_dict()["name"] == want.name


def test_registry_and_alias():
    assert nm.load("chrf").word_order == 0
    pp = nm.load("chrf++")
    assert pp.word_order == 2 and pp.score_name == "chrF2++"
    assert nm.load("chrf++", word_order=1).word_order == 1
    names = {e.name for e in nm.available()}
    assert {"chrf", "chrf++"} <= names


# -- properties ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sample(corpora):
    systems, refs = wmt_system(corpora, "zh-en")
    idx = subsample(len(systems[0][1]), 7, 0)
    return [systems[0][1][i] for i in idx], [[s[i] for s in refs] for i in idx]


def test_merge_and_sharding(sample):
    hyps, refs = sample
    m = nm.CHRF(word_order=2)
    full = m.stats(hyps, refs).total()
    parts = [m.stats(hyps[a:b], refs[a:b]).total() for a, b in ((0, 10), (10, 100), (100, len(hyps)))]
    assert (parts[0] + parts[1]) + parts[2] == parts[0] + (parts[1] + parts[2])
    assert parts[2] + parts[0] + parts[1] == full
    assert sum(parts) == full
    assert m.zero() + full == full
    assert m.score_stats(full).score == m.corpus_score(hyps, refs).score
    streaming = nm.CHRF(word_order=2)
    for a in range(0, len(hyps), 37):
        streaming.update(hyps[a:a + 37], refs[a:a + 37])
    assert streaming.compute().score == m.corpus_score(hyps, refs).score
    other = nm.CHRF(word_order=2).update(hyps[:5], refs[:5])
    merged = nm.CHRF(word_order=2).update(hyps[5:], refs[5:]).merge(other)
    assert merged.compute().score == m.corpus_score(hyps, refs).score
    assert pickle.loads(pickle.dumps(full)) == full
    with pytest.raises(IncompatibleStatsError):
        full + nm.CHRF().stats(hyps[:2], refs[:2]).total()


def test_threads_do_not_matter(sample):
    hyps, refs = sample
    hyps, refs = hyps * 3, refs * 3  # more than one parallel chunk
    results = [nm.CHRF(word_order=2, n_threads=t).stats(hyps, refs).counts for t in (1, 2, 3)]
    for r in results[1:]:
        np.testing.assert_array_equal(results[0], r)


@pytest.mark.parametrize("opts", [{}, {"word_order": 2, "lowercase": True}, {"eps_smoothing": True, "whitespace": True, "beta": 1}])
def test_pairwise_equals_sentence_scores(sample, opts):
    hyps = sample[0][:40] + ["", "  "]
    m = nm.CHRF(**opts)
    mat = m.pairwise(hyps, hyps)
    assert mat.shape == (len(hyps), len(hyps))
    for i in range(0, len(hyps), 3):
        np.testing.assert_array_equal(mat[i], m.sentence_scores([hyps[i]] * len(hyps), hyps))
    assert np.array_equal(mat, nm.CHRF(n_threads=1, **opts).pairwise(hyps, hyps))
    assert m.pairwise([], hyps).shape == (0, len(hyps))


# -- errors -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "opts",
    [{"char_order": -1}, {"char_order": 0, "word_order": 0}, {"char_order": 1.5}, {"word_order": 65}, {"beta": -1}, {"beta": math.nan}, {"beta": "2"}, {"flavour": "nltk"}],
)
def test_bad_options(opts):
    with pytest.raises(InvalidOptionError):
        nm.CHRF(**opts)


def test_bad_inputs():
    m = nm.CHRF()
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(MissingReferenceError):
        m.corpus_score(["a"], [[]])
    with pytest.raises(InputTypeError):
        m.corpus_score([1], [["a"]])
    with pytest.raises(InputTypeError):
        m.corpus_score("abc", [["a"]])
    with pytest.raises(nm.InvalidTextError):
        m.corpus_score(["\ud800"], [["a"]])
    with pytest.raises(nm.InvalidInputError):
        nm.CHRF().compute()


# -- CLI ----------------------------------------------------------------------------------
def run_cli(args):
    out = io.StringIO()
    with redirect_stdout(out):
        code = cli_main(args)
    return code, out.getvalue()


def test_cli_flags(tmp_path, sample):
    hyps, refs = sample
    hyps, refs = hyps[:50], refs[:50]
    h = tmp_path / "h.txt"
    h.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    paths = []
    for k in range(2):
        p = tmp_path / f"r{k}.txt"
        p.write_text("\n".join(r[k] for r in refs) + "\n", encoding="utf-8")
        paths += ["-r", str(p)]
    code, out = run_cli(["score", "-i", str(h), *paths, "-m", "chrf", "chrf++", "-f", "json"])
    assert code == 0
    import json

    res = json.loads(out)
    assert [r["name"] for r in res] == ["chrF2", "chrF2++"]
    assert res[0]["score"] == pytest.approx(SacreCHRF().corpus_score(hyps, [list(s) for s in zip(*refs)]).score, rel=1e-12)
    code, out = run_cli(["score", "-i", str(h), *paths, "-m", "chrf", "--chrf-lowercase", "-cc", "4", "-cw", "1", "--chrf-beta", "1",
                         "--chrf-whitespace", "--chrf-eps-smoothing", "-f", "json"])
    want = SacreCHRF(char_order=4, word_order=1, beta=1, lowercase=True, whitespace=True, eps_smoothing=True)
    got = json.loads(out)[0]
    assert got["name"] == "chrF1+"
    assert got["score"] == pytest.approx(want.corpus_score(hyps, [list(s) for s in zip(*refs)]).score, rel=1e-12)
    assert got["signature"].startswith("nrefs:2|case:lc|eff:no|nc:4|nw:1|space:yes|beta:1|")
    code, out = run_cli(["score", "-i", str(h), *paths, "-m", "chrf", "-sl", "-f", "tsv"])
    assert code == 0 and len(out.splitlines()) == 50
    code, _ = run_cli(["score", "-i", str(h), *paths, "-m", "chrf", "-cc", "0"])
    assert code == 2
