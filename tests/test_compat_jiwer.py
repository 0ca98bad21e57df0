"""``nlgmetrics.compat.jiwer`` against jiwer 4.0.0: outputs equal (``repr``: values, types,
alignments) and printed visualisations equal, on Earnings-21 calls, WMT22 segments and
generated text, with the named and custom transform chains."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jiwer = pytest.importorskip("jiwer")

from nlgmetrics.compat import jiwer as compat  # noqa: E402
from conftest import read_lines  # noqa: E402


def _same(refs, hyps, *transforms, characters=False):
    fn = "process_characters" if characters else "process_words"
    ours = getattr(compat, fn)(refs, hyps, *transforms[1]) if transforms else getattr(compat, fn)(refs, hyps)
    theirs = getattr(jiwer, fn)(refs, hyps, *transforms[0]) if transforms else getattr(jiwer, fn)(refs, hyps)
    assert repr(ours) == repr(theirs)
    for kw in ({}, {"show_measures": False}, {"skip_correct": False, "line_width": 40}):
        assert compat.visualize_alignment(ours, **kw) == jiwer.visualize_alignment(theirs, **kw)
    assert compat.visualize_error_counts(ours, top_k=5) == jiwer.visualize_error_counts(theirs, top_k=5)
    return ours


def test_earnings21_and_wmt22(corpora):
    d = corpora / "earnings21_asr"
    refs = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "references.jsonl", encoding="utf-8")}
    hyps = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "hyp_google.jsonl", encoding="utf-8")}
    ids = sorted(refs)[:4]
    _same([refs[i] for i in ids], [hyps[i] for i in ids])
    _same([refs[i][:500] for i in ids], [hyps[i][:500] for i in ids], characters=True)
    w = corpora / "wmt22" / "zh-en"
    r, h = read_lines(w / "generaltest2022.zh-en.ref.A.en")[:300], read_lines(w / "system-outputs" / "generaltest2022.zh-en.hyp.DLUT.en")[:300]
    _same(r, h)
    _same(r, h, (jiwer.wer_standardize, jiwer.wer_standardize), (compat.wer_standardize, compat.wer_standardize))
    for fn in ("wer", "mer", "wil", "wip", "cer"):
        assert getattr(compat, fn)(r, h) == getattr(jiwer, fn)(r, h), fn


def _chain(module):
    return module.Compose([
        module.ToLowerCase(), module.ExpandCommonEnglishContractions(), module.RemoveKaldiNonWords(),
        module.SubstituteWords({"colour": "color"}), module.SubstituteRegexes({r"\d+": "<num>"}),
        module.RemovePunctuation(), module.RemoveSpecificWords(["uh", "um"]), module.RemoveWhiteSpace(replace_by_space=True),
        module.RemoveMultipleSpaces(), module.Strip(), module.RemoveEmptyStrings(), module.ReduceToListOfListOfWords(),
    ])  # fmt: skip


def test_custom_chains_and_contiguous():
    refs = ["Uh, I can't see the colour [noise] 42!", "   ", "It's <unk> fine"]
    hyps = ["i cannot see the color 41", "", "its fine, um"]
    _same(refs, hyps, (_chain(jiwer), _chain(jiwer)), (_chain(compat), _chain(compat)))
    _same(refs, ["a", "b"], (jiwer.wer_contiguous, jiwer.wer_contiguous), (compat.wer_contiguous, compat.wer_contiguous))
    _same(refs, ["a", "b"], (jiwer.cer_contiguous, jiwer.cer_contiguous), (compat.cer_contiguous, compat.cer_contiguous), characters=True)
    upper = (jiwer.Compose([jiwer.ToUpperCase(), jiwer.ReduceToSingleSentence("|"), jiwer.ReduceToListOfListOfChars()]),) * 2
    upper_c = (compat.Compose([compat.ToUpperCase(), compat.ReduceToSingleSentence("|"), compat.ReduceToListOfListOfChars()]),) * 2
    _same(refs, hyps, upper, upper_c, characters=True)


def test_empty_reference_rules_and_errors():
    for r, h in (("", ""), ("", "a b c"), ("a b", ""), (["", ""], ["x", ""])):
        _same(r, h)
        assert compat.wer(r, h) == jiwer.wer(r, h) and type(compat.wer(r, h)) is type(jiwer.wer(r, h))
    with pytest.raises(ValueError, match="lengths must match"):
        compat.process_words(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="list of list"):
        compat.process_words("a", "b", compat.ToLowerCase(), compat.ToLowerCase())
    chunk = compat.AlignmentChunk("replace", 0, 1, 0, 1)
    assert chunk.type == "substitute" and chunk.ref_end_idx == 1


words = st.sampled_from(["a", "b", "the", "The", "cat", "", " ", "  ", "é", "can't", "x."])
texts = st.lists(words, max_size=10).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(pairs=st.lists(st.tuples(texts, texts), min_size=1, max_size=4))
def test_hypothesis_outputs_equal(pairs):
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    _same(refs, hyps)
    _same(refs, hyps, characters=True)
