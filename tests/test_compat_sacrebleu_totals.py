"""sacrebleu's face scores a corpus from its total alone (no bootstrap): BLEU sums in the
core without per-segment arrays (and without numpy). The numbers must equal the
per-segment path's (``stats(...).total()``) bit for bit, on generated text of every kind
the face meets, for every metric of the face."""

from __future__ import annotations

import random

import pytest

from nlgmetrics.compat.sacrebleu.metrics import BLEU, CHRF, TER
from nlgmetrics.errors import InvalidOptionError
from nlgmetrics.metrics.chrf import CHRF as NativeCHRF

ALPHABET = ["the", "cat", "a", "mat", "sat", "on", "猫", "坐", "在", "ß", "İ", "é", "-", ",", ".", "'s", "1,000", "3.5", " ", "  ", "\t", "\u3000", "😀", "\u0301", "ǅ"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) + rng.choice(["", " "]) for _ in range(rng.randrange(0, 12)))


def _corpus(seed: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    n, n_refs = rng.randrange(1, 6), rng.randrange(1, 3)
    return [_text(rng) for _ in range(n)], [[_text(rng) for _ in range(n)] for _ in range(n_refs)]


FACES = [
    lambda: BLEU(), lambda: BLEU(tokenize="intl", lowercase=True), lambda: BLEU(tokenize="zh", smooth_method="floor"),
    lambda: BLEU(tokenize="char", effective_order=True), lambda: BLEU(tokenize="none", smooth_method="add-k", max_ngram_order=2),
    lambda: BLEU(smooth_method="none"), lambda: CHRF(), lambda: CHRF(word_order=2), lambda: TER(), lambda: TER(normalized=True, asian_support=True),
]


@pytest.mark.parametrize("face", range(len(FACES)))
@pytest.mark.parametrize("seed", range(40))
def test_corpus_score_from_the_total_equals_the_per_segment_path(face, seed):
    hyps, refs = _corpus(seed)
    metric = FACES[face]()
    got = metric.corpus_score(hyps, refs)
    per_segment = metric._wrap(metric._native.score_stats(metric._segment_stats(hyps, refs).total()))
    assert got.score == per_segment.score
    assert str(got) == str(per_segment)
    if isinstance(metric, BLEU):
        assert (got.counts, got.totals, got.sys_len, got.ref_len, got.bp) == (per_segment.counts, per_segment.totals, per_segment.sys_len, per_segment.ref_len, per_segment.bp)


def test_known_bleu_value_through_the_total():
    # sacrebleu 2.6: BLEU = 53.73 83.3/60.0/50.0/33.3 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)
    s = BLEU().corpus_score(["the cat sat on a mat"], [["the cat sat on the mat"]])
    assert (round(s.score, 2), s.counts, s.totals, s.sys_len, s.ref_len) == (53.73, [5, 3, 2, 1], [6, 5, 4, 3], 6, 6)


def test_chrf_beta_past_floats_range_is_a_typed_error():
    """chrF checks beta without numpy: an int too large for a float is refused with the
    option error (numpy's check raised a bare TypeError for it)."""
    with pytest.raises(InvalidOptionError, match="beta must be a finite number"):
        NativeCHRF(beta=10**400)
    assert NativeCHRF(beta=3).beta == 3 and NativeCHRF(beta=2.5).beta == 2.5
