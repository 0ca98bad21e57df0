"""PER against goldens computed by an independent script that follows Moses
``mert/PerScorer.cpp`` (see tests/goldens/per/PROVENANCE.md), plus properties and errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import read_lines

import nlgmetrics as nm
from nlgmetrics.errors import InvalidInputError, LengthMismatchError

GOLDENS = Path(__file__).parent / "goldens" / "per" / "goldens.json"


def test_goldens(corpora):
    data = json.loads(GOLDENS.read_text(encoding="utf-8"))
    assert len(data) >= 6
    d = corpora / "wmt22"
    for g in data:
        hyps = read_lines(d / g["hyp"])
        refs = read_lines(d / g["ref"])
        s = nm.PER(lowercase=g["lowercase"]).corpus_score(hyps, refs)
        assert (s.correct, s.hyp_len, s.ref_len) == (g["correct"], g["hyp_len"], g["ref_len"])
        assert s.score == pytest.approx(g["per"], rel=1e-12)
        assert float(np.float32(1 - s.score)) == pytest.approx(g["moses_score_float32"], abs=1e-6)


def test_definition_and_edges():
    assert nm.per(["c b a d"], ["a b c"]).score == pytest.approx(1 / 3)
    assert nm.per(["a b"], ["a b"]).score == 0.0
    assert nm.per([""], ["a b"]).score == 1.0
    assert nm.per(["a b"], [""]).score == 1.0  # Moses: score 0 when the reference is empty
    assert nm.per(["猫 猫"], ["猫"]).score == 1.0
    assert nm.PER(lowercase=True).corpus_score(["A b"], ["a B"]).score == 0.0


def test_multi_ref_and_errors():
    with pytest.raises(InvalidInputError):
        nm.per(["a"], [["a", "b"]])
    assert nm.PER(multi_ref="best").corpus_score(["a b"], [["x", "b a"]]).score == 0.0
    with pytest.raises(LengthMismatchError):
        nm.per(["a"], [])


def test_properties():
    preds = ["a b c", "", "the cat", "x y z w"]
    refs = ["a c", "b", "the cat sat", "w"]
    m = nm.PER()
    seg = m.stats(preds, refs)
    assert m.score_stats(seg.take([0]).total() + seg.take([1, 2, 3]).total()).score == m.score_stats(seg).score
    M = m.pairwise(preds, refs)
    for i in range(4):
        for j in range(4):
            assert M[i, j] == m.sentence_scores([preds[i]], [refs[j]])[0]
    assert nm.PER(n_threads=1).corpus_score(preds * 300, refs * 300).score == nm.PER(n_threads=2).corpus_score(preds * 300, refs * 300).score


def _independent():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "goldens" / "make_per_goldens.py"
    spec = importlib.util.spec_from_file_location("make_per_goldens", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


from hypothesis import given, settings, strategies as st  # noqa: E402

_words = st.sampled_from(["a", "b", "c", "A", "猫", "é", "x\ty"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(_words, max_size=8), st.lists(_words, max_size=8), st.sampled_from([" ", "  "])), min_size=1, max_size=6), st.booleans())
def test_hypothesis_against_independent_script(rows, lowercase):
    ref_impl = _independent()
    hyps = [sep.join(h) for h, _, sep in rows]
    refs = [sep.join(r) for _, r, sep in rows]
    stats = [ref_impl.sentence_stats(h, r, lowercase) for h, r in zip(hyps, refs)]
    s = nm.PER(lowercase=lowercase).corpus_score(hyps, refs)
    c, hl, rl = (sum(x[k] for x in stats) for k in range(3))
    assert (s.correct, s.hyp_len, s.ref_len) == (c, hl, rl)
    if rl:
        assert s.score == pytest.approx(ref_impl.moses_score(stats)[1], rel=1e-12)
