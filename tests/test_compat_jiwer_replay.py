"""jiwer 4.0's own test cases (its repository's tests/test_measures.py, test_cer.py,
test_empty_ref.py, test_alignment.py and test_transforms.py), replayed as data against
``nlgmetrics.compat.jiwer``: each case asserts jiwer's expected value with its tolerance and
equality (==) with the installed jiwer itself (numbers, alignments' printed text,
transform outputs, raised error types).

Not replayed: test_speed.py and test_large_vocab.py (timings and a generated vocabulary
beyond the character range; speed is measured in benches/) and test_count_errors.py's
exact layout of the error tables, which tests/test_compat_jiwer.py compares with jiwer.
"""

from __future__ import annotations

import pytest

from nlgmetrics.compat import jiwer as compat

jiwer = pytest.importorskip("jiwer")


def measures(wer, mer, wil):
    return {"wer": wer, "mer": mer, "wip": 1 - wil, "wil": wil}


# (reference, hypothesis, expected measures) -- test_measures.py, both transforms
MEASURE_CASES = [
    ("This is a test", "This is a test", measures(0, 0, 0)),
    ("This is a test", "", measures(1, 1, 1)),
    ("This is a test", "This test", measures(0.5, 0.5, 0.5)),
    ("This is a test", ["This is a test"], measures(0, 0, 0)),
    ("This is a test", [""], measures(1, 1, 1)),
    ("This is a test", ["This test"], measures(0.5, 0.5, 0.5)),
    (["This is a test"], "This is a test", measures(0, 0, 0)),
    (["This is a test"], "", measures(1, 1, 1)),
    (["This is a test"], "This test", measures(0.5, 0.5, 0.5)),
    (["This is a test"], ["This is a test"], measures(0, 0, 0)),
    (["This is a test"], [""], measures(1, 1, 1)),
    (["This is a test"], ["This test"], measures(0.5, 0.5, 0.5)),
    ("X", "X", measures(0, 0, 0)),
    ("X", "X X Y Y", measures(3, 0.75, 0.75)),
    ("X Y X", "X Z", measures(2 / 3, 2 / 3, 5 / 6)),
    ("X", "Y", measures(1, 1, 1)),
    ("X", "Y Z", measures(2, 1, 1)),
]
CONTIGUOUS_ONLY = [
    (["hello", "this", "sentence", "is fractured"], ["this sentence"], measures(0.6, 0.6, 0.6)),
    ("i am a short ground truth", "i am a considerably longer and very much incorrect hypothesis", measures(7 / 6, 0.7, 0.85)),
    (["i", "am i good"], ["i am", "i good"], measures(0.0, 0.0, 0)),
    (["am i good", "i"], ["i good", "i am"], measures(0.5, 0.4, 7 / 16)),
]


def _as_dict(out):
    return {"wer": out.wer, "mer": out.mer, "wip": out.wip, "wil": out.wil}


def _same_output(ours, theirs):
    for k in ("wer", "mer", "wil", "wip", "hits", "substitutions", "deletions", "insertions"):
        assert getattr(ours, k) == getattr(theirs, k), k
    assert ours.references == theirs.references and ours.hypotheses == theirs.hypotheses


@pytest.mark.parametrize("ref,hyp,expected", MEASURE_CASES + CONTIGUOUS_ONLY)
def test_measures_contiguous(ref, hyp, expected):
    kw = {"reference_transform": compat.transformations.wer_contiguous, "hypothesis_transform": compat.transformations.wer_contiguous}
    ours = compat.process_words(reference=ref, hypothesis=hyp, **kw)
    assert _as_dict(ours) == pytest.approx(expected, abs=1e-15)
    theirs = jiwer.process_words(reference=ref, hypothesis=hyp, reference_transform=jiwer.transformations.wer_contiguous,
                                 hypothesis_transform=jiwer.transformations.wer_contiguous)
    _same_output(ours, theirs)


@pytest.mark.parametrize("ref,hyp,expected", MEASURE_CASES)
def test_measures_default_transform(ref, hyp, expected):
    ours = compat.process_words(reference=ref, hypothesis=hyp)
    assert _as_dict(ours) == pytest.approx(expected, abs=1e-15)
    _same_output(ours, jiwer.process_words(reference=ref, hypothesis=hyp))
    for name in ("wer", "mer", "wil", "wip"):
        assert getattr(compat, name)(ref, hyp) == getattr(jiwer, name)(ref, hyp) == pytest.approx(expected[name], abs=1e-15)


def test_different_sentence_counts_fail_as_jiwer():
    """test_fail_on_different_sentence_length (measures and CER): a ValueError."""
    ref, hyp = ["hello", "this", "sentence", "is fractured"], ["this sentence"]
    for name in ("process_words", "wer", "wil", "wip", "mer", "cer"):
        with pytest.raises(ValueError):
            getattr(jiwer, name)(ref, hyp)
        with pytest.raises(ValueError):
            getattr(compat, name)(ref, hyp)


def test_fractured_equals_contiguous():
    """test_different_sentence_length_unequal_type: the contiguous transform joins sentences."""
    kw = {"reference_transform": compat.transformations.wer_contiguous, "hypothesis_transform": compat.transformations.wer_contiguous}
    x = compat.process_words(["i like monthy python", "what do you mean african or european swallow"],
                             ["i like", "python", "what you mean", "or swallow"], **kw)
    y = compat.process_words("i like monthy python what do you mean african or european swallow",
                             "i like python what you mean or swallow", **kw)
    assert _as_dict(x) == pytest.approx(_as_dict(y), abs=1e-9)


CER_CASES = [
    ("This is a test", "This is a test", 0 / 14), ("This is a test", "", 14 / 14), ("This is a test", "This test", 5 / 14),
    ("This is a test", ["This is a test"], 0 / 14), ("This is a test", [""], 14 / 14), ("This is a test", ["This test"], 5 / 14),
    (["This is a test"], "This is a test", 0 / 14), (["This is a test"], "", 14 / 14), (["This is a test"], "This test", 5 / 14),
    (["This is a test"], ["This is a test"], 0 / 14), (["This is a test"], [""], 14 / 14), (["This is a test"], ["This test"], 5 / 14),
    ("X", "X", 0), ("X", "X X Y Y", 6), ("X Y X", "X Z", 3 / 5), ("X", "Y", 1), ("X", "Y Z", 3),
    (["i", "am i good"], ["i am", "i good"], 0.6), (["am i good", "i"], ["i good", "i am"], 0.6),
]


@pytest.mark.parametrize("ref,hyp,expected", CER_CASES)
def test_cer(ref, hyp, expected):
    got = compat.cer(reference=ref, hypothesis=hyp)
    assert isinstance(got, float) and got == pytest.approx(expected, abs=1e-15)
    assert got == jiwer.cer(reference=ref, hypothesis=hyp)


# test_empty_ref.py
EMPTY_CASES = [("", "")] + [([""] * i, [""] * i) for i in range(1, 10)] + [
    ("", "hello"), ("hello", ""), (["hello world", ""], ["hello world", "done"]), (["hello world", ""], ["hello world", ""]),
] + [("", " ".join(str(j) for j in range(i))) for i in range(2, 11)]


@pytest.mark.parametrize("ref,hyp", EMPTY_CASES)
def test_empty_references(ref, hyp):
    _same_output(compat.process_words(reference=ref, hypothesis=hyp), jiwer.process_words(reference=ref, hypothesis=hyp))
    ours, theirs = compat.process_characters(ref, hyp), jiwer.process_characters(ref, hyp)
    assert ours.cer == theirs.cer


def test_empty_reference_values():
    out = compat.process_words(reference="", hypothesis="hello")
    assert (out.insertions, out.wer, out.mer, out.wip, out.wil) == (1, 1, 1, 0, 1)
    out = compat.process_words(reference=["hello world", ""], hypothesis=["hello world", "done"])
    assert (out.insertions, out.wer, out.mer, out.wil, out.wip) == (1, pytest.approx(1 / 2), pytest.approx(1 / 3), pytest.approx(1 / 3), pytest.approx(2 / 3))
    assert compat.process_characters("", "").cer == 0


# test_alignment.py: the printed alignments, words and characters
ALIGNMENT_CASES = [
    ("this is a", "this is a test", {}),
    ("this is a test", "this is a", {}),
    ("this is a test", "this was a test", {}),
    ("this is a test of skill", "this was a messy test", {}),
    ("this test will  have a high word error rate", "no it will not", {"show_measures": True}),
    ("empty", "", {}),
    (["one", "two"], ["1", "2"], {}),
    (["perfect", "one", "two", "three"], ["perfect", "1", "2", "three"], {"skip_correct": True}),
    ("", "", {}),
    ("", "inserted", {}),
    ("this sentence could be split", "this sentence will be split by ai", {"line_width": 30}),
    ("this is a test", "this iz a test", {}),
]


@pytest.mark.parametrize("ref,hyp,kw", ALIGNMENT_CASES)
@pytest.mark.parametrize("level", ["process_words", "process_characters"])
def test_alignment_text(ref, hyp, kw, level):
    options = {"show_measures": False, **kw}
    ours = compat.visualize_alignment(getattr(compat, level)(ref, hyp), **options)
    assert ours == jiwer.visualize_alignment(getattr(jiwer, level)(ref, hyp), **options)
    assert [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in s]
            for s in getattr(compat, level)(ref, hyp).alignments] == \
        [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in s]
         for s in getattr(jiwer, level)(ref, hyp).alignments]


# test_transforms.py: (transform class name, constructor arguments, [(input, expected output)])
TRANSFORM_CASES = [
    ("ReduceToSingleSentence", (), [("this is a test", "this is a test"), ("", ""), (["this is one", "is two"], ["this is one is two"]),
                                    (["one", "two", "three", "", "five six"], ["one two three five six"]), ([""], [])]),
    ("ReduceToSingleSentence", ("_",), [("this_is_a_test", "this_is_a_test"), ("", ""), (["this_is_one", "is_two"], ["this_is_one_is_two"]),
                                        (["one", "two", "three", "", "five_six"], ["one_two_three_five_six"]), ([""], [])]),
    ("ReduceToListOfListOfWords", (), [("this is a test", [["this", "is", "a", "test"]]), ("", [[]]),
                                       (["this is one", "is two"], [["this", "is", "one"], ["is", "two"]]),
                                       (["one", "two", "three", "", "five six"], [["one"], ["two"], ["three"], [], ["five", "six"]])]),
    ("ReduceToListOfListOfChars", (), [("this is a test", [list("this is a test")]), ("", [[]]),
                                       (["this is one", "is two"], [list("this is one"), list("is two")])]),
    ("RemoveSpecificWords", (["yhe", "yeah", "a", "he", "the"],), [
        (["yhe about that bug"], ["  about that bug"]), (["yeah about that bug"], ["  about that bug"]), (["one bug"], ["one bug"]),
        (["yhe", "about", "bug"], [" ", "about", "bug"]), (["yeah", "about", "bug"], [" ", "about", "bug"]), (["one", "bug"], ["one", "bug"]),
        (["yhe about bug"], ["  about bug"]), (["yeah about bug"], ["  about bug"]), (["about bug yhe"], ["about bug  "]),
        (["he asked a helpful question"], ["  asked   helpful question"]), (["normal sentence"], ["normal sentence"]),
        ("yhe awesome", "  awesome"), ("the apple is not a pear", "  apple is not   pear"), ("yhe", " ")]),
    ("RemoveWhiteSpace", (), [("this is an example", "thisisanexample"), ("hello\tworld\n\r", "helloworld")]),
    ("RemoveWhiteSpace", (True,), [("this is an example", "this is an example"), ("hello\tworld\n\r", "hello world  ")]),
    ("RemovePunctuation", (), [("this is an example!", "this is an example"), ("hello. goodbye", "hello goodbye"),
                               ("this sentence has no punctuation", "this sentence has no punctuation"),
                               ("word༆’'", "word"), ("‘no’", "no"), ("“yes”", "yes")]),
    ("RemoveMultipleSpaces", (), [(["this is   an   example "], ["this is an example "]), (["  hello goodbye  "], [" hello goodbye "]),
                                  (["  "], [" "])]),
    ("SubstituteWords", ({"pretty": "awesome", "you": "i", "'re": " am", "foo": "bar"},),
     [(["you're pretty"], ["i am awesome"]), (["your book"], ["your book"]), (["foobar"], ["foobar"])]),
    ("SubstituteRegexes", ({r"doom": r"sacr", r"\b(\w+)ed\b": r"\1"},),
     [(["is the world doomed or loved?"], ["is the world sacr or lov?"]), (["the sun is loved"], ["the sun is lov"]),
      (["edibles are allegedly cultivated"], ["edibles are allegedly cultivat"])]),
    ("Strip", (), [([" this is an example "], ["this is an example"]), (["  hello goodbye  "], ["hello goodbye"]), (["  "], [""]),
                   (["                       "], [""])]),
    ("RemoveEmptyStrings", (), [([""], []), (["this is an example"], ["this is an example"]), ([" "], []), (["                "], [])]),
    ("ExpandCommonEnglishContractions", (), [(["she'll make sure you can't make it"], ["she will make sure you can not make it"]),
                                             (["let's party!"], ["let us party!"])]),
    ("ToLowerCase", (), [(["You're PRETTY"], ["you're pretty"])]),
    ("ToUpperCase", (), [(["You're amazing"], ["YOU'RE AMAZING"])]),
    ("RemoveKaldiNonWords", (), [(["you <unk> like [laugh]"], ["you  like "])]),
]


@pytest.mark.parametrize("name,args,cases", TRANSFORM_CASES, ids=[f"{c[0]}{len(c[1]) and '-args' or ''}" for c in TRANSFORM_CASES])
def test_transforms(name, args, cases):
    ours, theirs = getattr(compat, name)(*args), getattr(jiwer, name)(*args)
    for inp, expected in cases:
        assert ours(inp) == expected == theirs(inp), inp
