"""TER's shift search against sacrebleu 2.6.0 on adversarial pairs, and its cost bound.

The core evaluates shift candidates with bit-parallel rows where the unrestricted edit
distance provably equals sacrebleu's banded one, and with banded rows that meet
backward distances elsewhere; these tests drive every one of those paths with pairs
made of few distinct words (many equal phrases, so many candidates and rounds), block
moves, rotations past the band's half-width and references longer than 64 words.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.lib_ter import translation_edit_rate

import nlgmetrics as nm

from differential.parity_results import record


def ours(hyps: list[list[str]], refs: list[list[str]]) -> list[int]:
    stats = nm.TER(case_sensitive=True).stats([" ".join(h) for h in hyps], [[" ".join(r)] for r in refs])
    return stats.counts[:, 0].tolist()


@st.composite
def shifted_pairs(draw, max_len: int):
    """A reference over 2-8 distinct words and a hypothesis made from it by block moves,
    deletions, insertions and substitutions."""
    vocab = [f"w{i}" for i in range(draw(st.integers(2, 8)))]
    word = st.sampled_from(vocab)
    ref = draw(st.lists(word, max_size=max_len))
    hyp = list(ref)
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["move", "move", "delete", "insert", "replace"]))
        if kind == "move" and len(hyp) > 1:
            a = draw(st.integers(0, len(hyp) - 1))
            block = hyp[a:a + draw(st.integers(1, 12))]
            del hyp[a:a + len(block)]
            at = draw(st.integers(0, len(hyp)))
            hyp[at:at] = block
        elif kind == "delete" and hyp:
            del hyp[draw(st.integers(0, len(hyp) - 1))]
        elif kind == "insert":
            hyp.insert(draw(st.integers(0, len(hyp))), draw(word))
        elif hyp:
            hyp[draw(st.integers(0, len(hyp) - 1))] = draw(word)
    return hyp, ref


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(pairs=st.lists(shifted_pairs(40), min_size=1, max_size=4))
def test_shift_heavy_pairs_match_sacrebleu(pairs):
    want = [translation_edit_rate(h, r)[0] for h, r in pairs]
    assert ours([h for h, _ in pairs], [r for _, r in pairs]) == want


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(pair=shifted_pairs(90))
def test_references_over_64_words_match_sacrebleu(pair):
    hyp, ref = pair
    assert ours([hyp], [ref]) == [translation_edit_rate(hyp, ref)[0]]


def test_rotations_past_the_band_match_sacrebleu():
    """A hypothesis rotated by more than the band's half-width (25): the best unrestricted
    alignment leaves the band, so sacrebleu's banded distance and trace must be used."""
    import random

    rng = random.Random(11)
    hyps, refs = [], []
    for m in (30, 45, 60, 64, 65, 80):
        for vocab in (3, 20, 1000):
            ref = [f"w{rng.randrange(vocab)}" for _ in range(m)]
            k = rng.randrange(20, m)
            hyps.append((ref[k:] + ref[:k])[: m - rng.randrange(4)])
            refs.append(ref)
    want = [translation_edit_rate(h, r)[0] for h, r in zip(hyps, refs)]
    assert ours(hyps, refs) == want
    record(metric="TER", flavour="sacrebleu", reference="sacrebleu 2.6.0 lib_ter (shift-heavy generated pairs)",
           inputs="rotations past the band, 30-80 words, 3-1000 distinct words", values=len(want), max_diff=0.0)


# sacrebleu's own cost on such a pair is hours (every candidate re-runs the banded
# distance over the whole pair once its 10,000-row cache is full); ours is linear in
# the pair per round: a 100,000-word unrelated pair takes a fraction of a second.
_HUGE = textwrap.dedent("""
    import random, time
    import nlgmetrics as nm
    rng = random.Random(0)
    a = " ".join(f"w{int(3000 * rng.random() ** 3)}" for _ in range(100_000))
    b = " ".join(f"w{int(3000 * rng.random() ** 3)}" for _ in range(100_000))
    print(int(nm.TER().stats([a], [[b]]).counts[0, 0]))
""")


def test_a_huge_unrelated_pair_finishes_within_its_bound():
    proc = subprocess.run([sys.executable, "-c", _HUGE], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    edits = int(proc.stdout)
    # unrelated text: nearly every word is an edit, never more than the longer side
    assert 90_000 <= edits <= 100_000
