"""MBR selection: utility matrices equal the reference tools' sentence scores, the
direction is right per metric, and any object with ``pairwise`` plugs in."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from rouge_score import rouge_scorer

from wmt import load_pair

from nlgmetrics import CiderDF, CIDEr, InvalidInputError, InvalidOptionError, LengthMismatchError, load
from nlgmetrics.tasks.mbr import expected_utility, higher_is_better, select, utility_matrix


@pytest.fixture(scope="module")
def inputs():
    """Real MBR-like candidate sets: the WMT22 zh-en systems' outputs of one source."""
    pair = load_pair("zh-en")
    systems = list(pair.systems.values())
    return [[s[i] for s in systems] for i in (3, 17, 40, 101)]


def reference_matrix(name, cands, refs):
    if name == "chrf":
        return np.array([[sacrebleu.sentence_chrf(c, [r]).score for r in refs] for c in cands])
    if name == "bleu":
        return np.array([[sacrebleu.sentence_bleu(c, [r]).score for r in refs] for c in cands])
    if name == "ter":
        return np.array([[sacrebleu.sentence_ter(c, [r]).score for r in refs] for c in cands])
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    return np.array([[scorer.score(r, c)["rougeL"].fmeasure for r in refs] for c in cands])


@pytest.mark.parametrize("name", ["chrf", "bleu", "ter", "rouge"])
def test_choice_matches_the_reference_tools(inputs, name):
    for cands in inputs:
        ref = reference_matrix(name, cands, cands)
        result = select(cands, metric=name)
        sign = -1.0 if name == "ter" else 1.0
        np.testing.assert_allclose(result.utility, sign * ref, rtol=0, atol=1e-9)
        eu = np.array([math.fsum(row) / len(cands) for row in (sign * ref).tolist()])
        assert result.index == int(np.argmax(eu))
        assert result.candidate == cands[result.index]
        assert result.higher_is_better is (name != "ter")
        assert result.n_pairs == len(cands) ** 2 and result.seconds_per_pair > 0


def test_ter_picks_the_lowest_expected_error():
    cands = ["a b c d", "a b c d", "x y z", "a b x d"]
    result = select(cands, metric="ter")
    mean_ter = [np.mean([sacrebleu.sentence_ter(c, [r]).score for r in cands]) for c in cands]
    assert result.index == int(np.argmin(mean_ter)) == 0  # tie between 0 and 1: lowest index


def test_cider_fits_df_on_the_pseudo_references(inputs):
    cands = inputs[0]
    df = CiderDF.fit([[r] for r in cands])
    expected = CIDEr(df=df).pairwise(cands, cands)
    result = select(cands, metric="cider")
    assert (result.utility == expected).all()
    assert select(cands, metric=CIDEr(df=df)).index == result.index


class Overlap:
    """A stand-in for a neural metric (BERTScore): any object with ``pairwise``."""

    name = "overlap"

    def pairwise(self, candidates, references):
        return np.array([[len(set(c.split()) & set(r.split())) / max(1, len(set(c.split()) | set(r.split()))) for r in references] for c in candidates])


class Distance(Overlap):
    higher_is_better = False

    def pairwise(self, candidates, references):
        return 1.0 - super().pairwise(candidates, references)


def test_any_pairwise_object_and_its_direction():
    cands = ["the cat sat", "the cat sat on the mat", "dogs run", "the cat on the mat"]
    refs = ["the cat sat on a mat", "a cat on the mat", "the cat sat"]
    up = select(cands, refs, metric=Overlap())
    down = select(cands, refs, metric=Distance())
    assert up.index == down.index
    np.testing.assert_allclose(down.utility, up.utility - 1.0)
    assert higher_is_better(Distance()) is False and higher_is_better(load("wer")) is False and higher_is_better(load("chrf"))


def test_weights_and_expected_utility():
    u = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert expected_utility(u).tolist() == [0.5, 0.5]
    assert expected_utility(u, [1.0, 3.0]).tolist() == [0.25, 0.75]
    assert select(["a b", "c d"], ["a b", "c d"], metric=Overlap(), weights=[1, 3]).index == 1
    with pytest.raises(LengthMismatchError):
        expected_utility(u, [1.0])
    with pytest.raises(InvalidInputError):
        expected_utility(u, [0.0, 0.0])


def test_thread_count_does_not_change_the_matrix(inputs):
    cands = inputs[1] * 4
    for name in ("chrf", "bleu", "ter", "rouge"):
        mats = [utility_matrix(cands, cands, load(name, n_threads=t))[0] for t in (1, 2, 0)]
        assert (mats[0] == mats[1]).all() and (mats[0] == mats[2]).all()


def test_errors():
    with pytest.raises(InvalidInputError, match="at least one"):
        select([], metric="chrf")
    with pytest.raises(InvalidOptionError, match="pairwise"):
        select(["a"], metric=object())
    with pytest.raises(InvalidOptionError, match="options apply"):
        select(["a"], metric=Overlap(), beta=2)

    class Wrong(Overlap):
        def pairwise(self, candidates, references):
            return np.zeros(3)

    with pytest.raises(InvalidInputError, match="shape"):
        select(["a", "b"], metric=Wrong())

    class NaN(Overlap):
        def pairwise(self, candidates, references):
            return np.full((len(candidates), len(references)), np.nan)

    with pytest.raises(InvalidInputError, match="non-finite"):
        select(["a"], metric=NaN())
