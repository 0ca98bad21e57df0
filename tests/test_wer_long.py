"""Long-form WER/CER (2k-16k words, tens of thousands of characters): the counts and
alignments equal jiwer 4.0.0's (`==`) where RapidFuzz splits the problem (Hirschberg),
on generated transcripts with 5-30 % errors and on adversarial pairs."""

from __future__ import annotations

import random

import jiwer
import pytest

import nlgmetrics as nm
from nlgmetrics.compat import jiwer as compat_jiwer


def transcript(rng: random.Random, n_words: int, vocab: list[str]) -> str:
    return " ".join(rng.choice(vocab) for _ in range(n_words))


def misrecognised(rng: random.Random, text: str, rate: float, vocab: list[str]) -> str:
    """ASR-like errors at `rate`: half substitutions, a quarter deletions, a quarter insertions."""
    out = []
    for w in text.split():
        r = rng.random()
        if r < rate / 2:
            out.append(rng.choice(vocab))
        elif r < rate * 3 / 4:
            continue
        elif r < rate:
            out.extend([w, rng.choice(vocab)])
        else:
            out.append(w)
    return " ".join(out)


def long_pairs() -> list[tuple[str, str, str]]:
    rng = random.Random(37)
    zipf = [f"w{i}" for i in range(3000)]
    few = ["the", "a", "uh", "and", "to"]  # repeated words: many equal-cost alignments
    cases = []
    for n_words, rate in ((2000, 0.05), (6000, 0.15), (16000, 0.3)):
        ref = transcript(rng, n_words, zipf)
        cases.append((f"{n_words} words {rate:.0%}", ref, misrecognised(rng, ref, rate, zipf)))
    ref = transcript(rng, 5000, few)
    cases.append(("5000 words of 5 repeated, 20%", ref, misrecognised(rng, ref, 0.2, few)))
    cases.append(("totally different", transcript(rng, 3000, few), transcript(rng, 2500, zipf)))
    ref = transcript(rng, 4000, zipf)
    cut = ref.split()
    burst = " ".join(cut[:1500] + [rng.choice(few) for _ in range(2500)] + cut[1500:])
    cases.append(("a 2500-word insertion", ref, burst))
    cases.append(("a 2500-word deletion", burst, ref))
    cases.append(("empty hypothesis", ref, ""))
    cases.append(("empty reference", "", ref))
    return cases


CASES = long_pairs()


def counts(o) -> tuple[int, int, int, int]:
    return (o.hits, o.substitutions, o.deletions, o.insertions)


@pytest.mark.parametrize("label,ref,hyp", CASES, ids=[c[0] for c in CASES])
def test_long_word_counts_equal_jiwer(label, ref, hyp):
    o = jiwer.process_words(ref, hyp)
    assert counts(nm.WER(n_threads=1).corpus_score([hyp], [ref])) == counts(o)
    face = compat_jiwer.process_words(ref, hyp)
    assert counts(face) == counts(o)
    assert face.alignments == [[compat_jiwer.AlignmentChunk(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in o.alignments[0]]]


@pytest.mark.parametrize("label,ref,hyp", CASES[:6], ids=[c[0] for c in CASES[:6]])
def test_long_character_counts_equal_jiwer(label, ref, hyp):
    # whole documents as characters: 10k-100k symbols, the Hirschberg route
    ref, hyp = ref[:60_000], hyp[:60_000]
    o = jiwer.process_characters(ref, hyp)
    ours = nm.CER(n_threads=1).corpus_score([hyp], [ref])
    assert counts(ours) == counts(o)
    assert ours.score == o.cer
    assert counts(compat_jiwer.process_characters(ref, hyp)) == counts(o)


# the face's stock path runs the core's chains on the raw texts: whitespace of every kind
_words = ["a", "b", "The", "the", "猫", "é", "can't", "0", ""]
_seps = [" ", "  ", "\t", " \n ", "\u3000", "\xa0 ", "\r\n", "\u2028", "\x1c"]


def test_face_stock_chains_on_odd_whitespace():
    rng = random.Random(3)
    for _ in range(300):
        refs, hyps = [], []
        for _ in range(rng.randint(1, 4)):
            refs.append("".join(rng.choice(_words) + rng.choice(_seps) for _ in range(rng.randint(0, 8))))
            hyps.append("".join(rng.choice(_words) + rng.choice(_seps) for _ in range(rng.randint(0, 8))))
        for ours, theirs in ((compat_jiwer.process_words, jiwer.process_words), (compat_jiwer.process_characters, jiwer.process_characters)):
            try:
                want = theirs(refs, hyps)
            except ValueError as e:
                with pytest.raises(ValueError, match=str(e)[:40].replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
                    ours(refs, hyps)
                continue
            assert repr(ours(refs, hyps)) == repr(want), (refs, hyps)


@pytest.mark.parametrize("label,ref,hyp", CASES[:3] + CASES[4:5], ids=[c[0] for c in CASES[:3] + CASES[4:5]])
def test_long_character_face_equals_jiwer_whole_output(label, ref, hyp):
    # counts read first (no chunks built), then every field: the repr holds the alignment
    ref, hyp = ref[:40_000], hyp[:40_000]
    want = jiwer.process_characters(ref, hyp)
    ours = compat_jiwer.process_characters(ref, hyp)
    assert (ours.cer, *counts(ours)) == (want.cer, *counts(want))
    assert repr(ours) == repr(want)


def test_long_face_corpus_of_documents_equals_jiwer():
    # several whole documents in one call: segment indices of the chunks, corpus counts
    refs = [c[1] for c in CASES[:4]]
    hyps = [c[2] for c in CASES[:4]]
    for ours, theirs in ((compat_jiwer.process_words, jiwer.process_words),
                         (compat_jiwer.process_characters, jiwer.process_characters)):
        want = theirs(refs, [h[:30_000] for h in hyps])
        got = ours(refs, [h[:30_000] for h in hyps])
        assert counts(got) == counts(want)
        assert repr(got) == repr(want)


def test_face_builds_alignments_only_when_read():
    # a long document's counts cost one alignment in the core, not tens of thousands of
    # chunk objects; the deferred fields behave as plain dataclass fields once read
    import copy
    import dataclasses
    import pickle

    label, ref, hyp = CASES[1]
    out = compat_jiwer.process_characters(ref, hyp)
    assert "alignments" not in vars(out) and "references" not in vars(out)
    want = jiwer.process_characters(ref, hyp)
    assert counts(out) == counts(want)
    assert "alignments" not in vars(out)
    assert pickle.loads(pickle.dumps(out)) == out
    assert "alignments" in vars(out) and "_pending" not in vars(out)
    fresh = compat_jiwer.process_words(ref, hyp)
    assert copy.deepcopy(fresh) == fresh
    assert dataclasses.asdict(compat_jiwer.process_words(ref, hyp))["references"] == jiwer.process_words(ref, hyp).references
    assert out.references == want.references and out.hypotheses == want.hypotheses
    assert len(out.alignments[0]) == len(want.alignments[0]) > 1000
