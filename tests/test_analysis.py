"""compare-mt's analyses (nlgmetrics.analysis) against compare-mt 0.2.10 itself.

The shared WMT22 zh-en systems are tokenized with sacrebleu's 13a tokenizer (both sides get
the same token lists), then compare-mt's own bucketers and n-gram counters run on them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compare_mt import bucketers, compare_mt_main, ngram_utils, reporters, stat_utils
from nlgmetrics import InvalidOptionError, LengthMismatchError
from nlgmetrics.analysis import ngram_differences, sentence_buckets, sentence_examples, word_accuracy
from nlgmetrics.tokenizers import tokenize
from wmt import load_pair

N_SEGMENTS = 600


@pytest.fixture(scope="module")
def zh_en():
    pair = load_pair("zh-en")
    refs = [line for line in tokenize("13a", pair.refs[0][:N_SEGMENTS])]
    names = sorted(pair.systems)[:3]
    systems = {name: tokenize("13a", pair.systems[name][:N_SEGMENTS]) for name in names}
    return refs, systems


def _split(lines):
    # as compare-mt reads its files (corpus_utils.iterate_tokens): an empty line is [""]
    return [line.strip().split(" ") for line in lines]


def _word_report(refs, systems, **options):
    bucketer = bucketers.FreqWordBucketer(freq_data=_split(refs), **options)
    statistics, *_ = bucketer.calc_statistics(_split(refs), [_split(s) for s in systems.values()])
    return bucketer.bucket_strs, statistics


@pytest.mark.parametrize("case_insensitive", [False, True])
def test_word_accuracy_equals_compare_mt(zh_en, case_insensitive):
    refs, systems = zh_en
    labels, statistics = _word_report(refs, systems, case_insensitive=case_insensitive)
    ours = word_accuracy(refs, systems, case_insensitive=case_insensitive)
    assert len(ours) == len(systems) * len(labels)
    for s, name in enumerate(systems):
        for b, label in enumerate(labels):
            got = ours[s * len(labels) + b]
            matches, ref_count, out_count, recall, precision, fmeas = statistics[s][b]
            assert (got.system, got.bucket) == (name, label)
            assert (got.matches, got.reference_words, got.output_words) == (matches, ref_count, out_count)
            assert (got.recall, got.precision, got.fmeasure) == (recall, precision, fmeas)


def test_word_accuracy_with_training_frequencies_and_cutoffs(zh_en):
    refs, systems = zh_en
    training = tokenize("13a", load_pair("zh-en").refs[1])  # another reference stream as a "training corpus"
    counts = {}
    for line in training:
        for w in line.split():
            counts[w] = counts.get(w, 0) + 1
    cutoffs = [1, 3, 10, 50]
    bucketer = bucketers.FreqWordBucketer(freq_counts=counts, bucket_cutoffs=cutoffs)
    statistics, *_ = bucketer.calc_statistics(_split(refs), [_split(s) for s in systems.values()])
    from_counts = word_accuracy(refs, systems, frequencies=counts, cutoffs=cutoffs)
    from_corpus = word_accuracy(refs, systems, frequencies=training, cutoffs=cutoffs)
    assert from_counts == from_corpus
    flat = [row for per_system in statistics for row in per_system]
    assert [(g.matches, g.reference_words, g.output_words, g.fmeasure) for g in from_counts] == [
        (m, r, o, f) for m, r, o, _, _, f in flat
    ]
    assert [g.bucket for g in from_counts[: len(bucketer.bucket_strs)]] == bucketer.bucket_strs


@pytest.mark.parametrize("by", ["length", "lengthdiff"])
def test_sentence_buckets_equal_compare_mt(zh_en, by):
    refs, systems = zh_en
    bucketer = bucketers.create_sentence_bucketer_from_profile(by)
    ours = sentence_buckets(refs, systems, by=by)
    n = len(bucketer.bucket_strs)
    for s, (name, output) in enumerate(systems.items()):
        corpus = bucketer.create_bucketed_corpus(_split(output), ref=_split(refs))
        for b, (outs, _, _) in enumerate(corpus):
            got = ours[s * n + b]
            assert (got.system, got.bucket, got.count) == (name, bucketer.bucket_strs[b], len(outs))
            assert [_split(output)[i] for i in got.segments] == outs


def test_sentence_buckets_by_score_use_the_metric(zh_en):
    from nlgmetrics import CHRF

    refs, systems = zh_en
    name, output = next(iter(systems.items()))
    chrf = CHRF()
    scores = chrf.sentence_scores(output, [[r] for r in refs])
    buckets = sentence_buckets(refs, {name: output}, by="score", statistic="score", metric=chrf)
    assert [b.bucket for b in buckets] == ["<10.0"] + [f"[{10.0 * k},{10.0 * (k + 1)})" for k in range(1, 9)] + [">=90.0"]
    assert sum(b.count for b in buckets) == len(output)
    for b in buckets:
        lower = float(b.bucket.strip("<>=[)").split(",")[0]) if not b.bucket.startswith("<") else float("-inf")
        assert all(scores[i] >= lower for i in b.segments)
        if b.segments:
            assert b.value == chrf.corpus_score([output[i] for i in b.segments], [[refs[i]] for i in b.segments]).score


@pytest.mark.parametrize("compare", ["match", "over", "under"])
def test_ngram_differences_equal_compare_mt(zh_en, compare):
    refs, systems = zh_en
    (a_name, a), (b_name, b) = list(systems.items())[:2]
    counts_a = ngram_utils.compare_ngrams(_split(refs), _split(a))
    counts_b = ngram_utils.compare_ngrams(_split(refs), _split(b))
    index = {"match": 1, "over": 2, "under": 3}[compare]
    theirs = stat_utils.extract_salient_features(counts_a[index], counts_b[index], alpha=1.0)
    best_a, best_b = ngram_differences(refs, a, b, compare=compare, top=None)
    assert {d.ngram: d.score for d in best_a} == theirs
    assert [d.score for d in best_a] == sorted(theirs.values(), reverse=True)
    assert {d.ngram: (d.count_a, d.count_b) for d in best_a} == {k: (counts_a[index][k], counts_b[index][k]) for k in theirs}
    top_a, top_b = ngram_differences(refs, a, b, compare=compare, top=50)
    assert top_a == best_a[:50] and [d.score for d in top_b] == sorted(theirs.values())[:50]


def _compare_mt_examples(refs, a, b, count, **options):
    """compare-mt's sentence example lists: (segment, score A, score B), A's then B's."""
    import contextlib
    import io
    import warnings

    reporters.sys_names = ["a", "b"]  # compare-mt's report prints them (a module global)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk warns about zero n-gram counts
        report = compare_mt_main.generate_sentence_examples(_split(refs), [_split(a), _split(b)], report_length=count, **options)
    (ranked,) = report.scorediff_lists
    as_rows = [(i, s1, s2) for _, s1, s2, _, _, i in ranked]
    return as_rows[:count], as_rows[-count:]


def _rows(examples):
    return [(e.segment, e.score_a, e.score_b) for e in examples]


@pytest.mark.parametrize("case_insensitive", [False, True])
def test_sentence_examples_equal_compare_mt(zh_en, case_insensitive):
    refs, systems = zh_en
    outputs = list(systems.values())
    for a, b in ((outputs[0], outputs[1]), (outputs[1], outputs[0]), (outputs[0], outputs[2])):
        theirs_a, theirs_b = _compare_mt_examples(refs, a, b, 10, case_insensitive=case_insensitive)
        ours_a, ours_b = sentence_examples(refs, a, b, case_insensitive=case_insensitive)
        assert _rows(ours_a) == theirs_a and _rows(ours_b) == theirs_b[::-1]  # B's strongest first
        assert ours_a[0].difference < 0 < ours_b[0].difference
        assert [e.difference for e in ours_a] == [e.score_b - e.score_a for e in ours_a]
    # the whole order, de-duplication included (one segment of the 600 repeats an earlier one)
    everything, _ = sentence_examples(refs, outputs[0], outputs[1], count=len(refs))
    theirs, _ = _compare_mt_examples(refs, outputs[0], outputs[1], len(refs))
    assert _rows(everything) == theirs and len(everything) < len(refs)


def test_sentence_examples_from_raw_text_tokenize_as_compare_mt_reads_tokens(zh_en):
    pair = load_pair("zh-en")
    names = sorted(pair.systems)[:2]
    raw_refs, a, b = pair.refs[0][:200], pair.systems[names[0]][:200], pair.systems[names[1]][:200]
    theirs_a, theirs_b = _compare_mt_examples(tokenize("13a", raw_refs), tokenize("13a", a), tokenize("13a", b), 5)
    ours_a, ours_b = sentence_examples(raw_refs, a, b, count=5, tokenize="13a")
    assert _rows(ours_a) == theirs_a and _rows(ours_b) == theirs_b[::-1]


words = st.lists(st.sampled_from(["a", "b", "c", "the", "A", "B"]), max_size=8).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(words, words, words), min_size=1, max_size=12), st.integers(1, 8), st.booleans())
def test_generated_sentence_examples_match_compare_mt(rows, count, case_insensitive):
    # few words: repeated segments (skipped), tied scores (ordered by the next keys) and,
    # with few segments, A's and B's lists overlapping, as compare-mt's do
    refs, a, b = (list(x) for x in zip(*rows))
    theirs_a, theirs_b = _compare_mt_examples(refs, a, b, count, case_insensitive=case_insensitive)
    ours_a, ours_b = sentence_examples(refs, a, b, count=count, case_insensitive=case_insensitive)
    assert _rows(ours_a) == theirs_a and _rows(ours_b) == theirs_b[::-1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(words, words, words), min_size=1, max_size=8))
def test_generated_corpora_match_compare_mt(rows):
    refs, a, b = (list(x) for x in zip(*rows))
    labels, statistics = _word_report(refs, {"a": a, "b": b}, case_insensitive=True)
    ours = word_accuracy(refs, {"a": a, "b": b}, case_insensitive=True)
    assert [(g.matches, g.reference_words, g.output_words) for g in ours] == [
        tuple(int(x) for x in row[:3]) for per_system in statistics for row in per_system
    ]
    counts_a = ngram_utils.compare_ngrams(_split(refs), _split(a))
    counts_b = ngram_utils.compare_ngrams(_split(refs), _split(b))
    best_a, _ = ngram_differences(refs, a, b, compare="under", top=None)
    assert {d.ngram: d.score for d in best_a} == stat_utils.extract_salient_features(counts_a[3], counts_b[3])


def test_bad_options_are_typed_errors():
    refs, outs = ["a b"], ["a"]
    with pytest.raises(InvalidOptionError):
        word_accuracy(refs, {"x": outs}, cutoffs=[5, 2])
    with pytest.raises(InvalidOptionError):
        word_accuracy(refs, ["a"])  # a list of texts, not a list of systems
    with pytest.raises(LengthMismatchError):
        word_accuracy(refs, {"x": ["a", "b"]})
    with pytest.raises(InvalidOptionError):
        sentence_buckets(refs, {"x": outs}, by="width")
    with pytest.raises(InvalidOptionError):
        ngram_differences(refs, outs, outs, compare="both")
    with pytest.raises(InvalidOptionError):
        ngram_differences(refs, outs, outs, min_n=3, max_n=2)
    with pytest.raises(InvalidOptionError):
        word_accuracy(refs, {"x": outs}, frequencies={"a": -1})
    for count in (0, -1, 2.0, True):
        with pytest.raises(InvalidOptionError):
            sentence_examples(refs, outs, outs, count=count)
    with pytest.raises(LengthMismatchError):
        sentence_examples(refs, outs, ["a", "b"])


def test_the_report_shows_the_analyses(tmp_path, zh_en):
    import re

    from nlgmetrics.cli import main

    refs, systems = zh_en
    pair = load_pair("zh-en")
    names = sorted(pair.systems)[:2]
    paths = []
    for name in names:
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(pair.systems[name][:200]) + "\n", encoding="utf-8")
        paths.append(str(path))
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join(pair.refs[0][:200]) + "\n", encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["report", "-r", str(ref), "-i", *paths, "-m", "bleu", "--confidence-n", "20", "-o", str(out), "--quiet"]) == 0
    html = out.read_text(encoding="utf-8")
    expected = word_accuracy(pair.refs[0][:200], {n: pair.systems[n][:200] for n in names}, tokenize="13a")
    shown = re.findall(r'data-system="([^"]+)" data-field="word-fmeasure" data-bucket="([^"]+)" data-value="([^"]+)"', html)
    assert len(shown) == len(expected)
    assert {(s, b): float(v) for s, b, v in shown} == {(w.system, w.bucket.replace("<", "&lt;").replace(">", "&gt;")): w.fmeasure for w in expected}
    assert html.count('data-field="ngram-score"') == 20


def test_report_names_systems_by_the_distinct_part_of_their_files_or_by_names(tmp_path):
    from nlgmetrics.cli import main
    from nlgmetrics.report.text import display_names

    assert display_names(["out/wmt22.zh-en.hyp.sys1.en", "out/wmt22.zh-en.hyp.sys2.en"]) == {
        "out/wmt22.zh-en.hyp.sys1.en": "sys1", "out/wmt22.zh-en.hyp.sys2.en": "sys2"}
    assert display_names(["a/x.txt", "b/x.txt"]) == {"a/x.txt": "a/x.txt", "b/x.txt": "b/x.txt"}
    assert display_names(["sys10.txt", "sys11.txt"]) == {"sys10.txt": "sys10", "sys11.txt": "sys11"}
    ref, a, b = (tmp_path / n for n in ("ref.txt", "long-system-name-a.txt", "long-system-name-b.txt"))
    ref.write_text("the cat sat\na dog\n", encoding="utf-8")
    a.write_text("the cat sat\na dog\n", encoding="utf-8")
    b.write_text("a cat sat\nthe dog\n", encoding="utf-8")
    out = tmp_path / "r.html"
    args = ["report", "-r", str(ref), "-i", str(a), str(b), "-m", "chrf", "-cin", "10", "-o", str(out), "--quiet"]
    assert main(args + ["--names", "Base", "Ours"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Base (baseline)" in html and ">Ours<" in html
    assert main(args + ["--names", "Only-one"]) == 2


def test_the_report_buckets_bleu_by_reference_length(tmp_path):
    import re

    from nlgmetrics import BLEU
    from nlgmetrics.cli import main

    pair = load_pair("zh-en")
    name = sorted(pair.systems)[0]
    hyp, ref, out = tmp_path / "sys.txt", tmp_path / "ref.txt", tmp_path / "r.html"
    hyp.write_text("\n".join(pair.systems[name][:150]) + "\n", encoding="utf-8")
    ref.write_text("\n".join(pair.refs[0][:150]) + "\n", encoding="utf-8")
    assert main(["report", "-r", str(ref), "-i", str(hyp), "-m", "chrf", "-cin", "10", "-o", str(out), "--quiet"]) == 0
    html = out.read_text(encoding="utf-8")
    shown = dict(re.findall(r'data-field="length-bucket-bleu" data-bucket="([^"]+)" data-value="([^"]+)"', html))
    buckets = sentence_buckets(pair.refs[0][:150], {"sys": pair.systems[name][:150]}, by="length", tokenize="13a")
    # each bucket's BLEU is compare-mt's BleuScorer on the 13a tokens, as the page says
    from compare_mt import scorers

    refs13a, outs13a = _split(tokenize("13a", pair.refs[0][:150])), _split(tokenize("13a", pair.systems[name][:150]))
    for b in buckets:
        label = b.bucket.replace("<", "&lt;").replace(">", "&gt;")
        expected = scorers.BleuScorer().score_corpus([refs13a[i] for i in b.segments], [outs13a[i] for i in b.segments])[0]
        assert float(shown[label]) == expected
    assert BLEU  # (sacrebleu's BLEU is what the buckets used to show)


# -- compare-mt's own split and BLEU --------------------------------------------------------
def _cm_split(lines):
    return [line.strip().split(" ") for line in lines]  # compare-mt's corpus_utils


def test_default_split_is_compare_mts_on_raw_text():
    # double spaces and no-break spaces: str.split() and compare-mt's split(' ') differ
    refs = ["the  cat sat", "a\u00a0dog ran ", " x y", "", "one two  three four"]
    out = ["the cat  sat", "a dog\u00a0ran", "x  y ", "z", "one two three"]
    bucketer = bucketers.create_sentence_bucketer_from_profile("lengthdiff")
    corpus = bucketer.create_bucketed_corpus(_cm_split(out), ref=_cm_split(refs))
    ours = sentence_buckets(refs, {"s": out}, by="lengthdiff")
    for b, (outs, _, _) in enumerate(corpus):
        assert [_cm_split(out)[i] for i in ours[b].segments] == outs
    assert sentence_buckets(refs, {"s": out}, by="lengthdiff", tokenize="none") != ours  # the old split differs here
    words = word_accuracy(refs, {"s": out})
    fb = bucketers.FreqWordBucketer(freq_data=_cm_split(refs))
    stats, *_ = fb.calc_statistics(_cm_split(refs), [_cm_split(out)])
    assert [(w.matches, w.reference_words, w.output_words, w.fmeasure) for w in words] == [(m, r, o, f) for m, r, o, _, _, f in stats[0]]


@pytest.mark.parametrize("raw", [False, True])
def test_length_bucket_bleu_equals_compare_mts(zh_en, raw):
    from compare_mt import scorers

    if raw:  # the files as given (no 13a): compare-mt's split of the raw lines
        pair = load_pair("zh-en")
        refs = pair.refs[0][:N_SEGMENTS]
        systems = {n: pair.systems[n][:N_SEGMENTS] for n in sorted(pair.systems)[:2]}
    else:
        refs, systems = zh_en
    bucketer = bucketers.create_sentence_bucketer_from_profile("length")
    ours = sentence_buckets(refs, systems, by="length", statistic="score")
    n = len(bucketer.bucket_strs)
    for s, (name, output) in enumerate(systems.items()):
        corpus = bucketer.create_bucketed_corpus(_cm_split(output), ref=_cm_split(refs))
        for b, (outs, rs, _) in enumerate(corpus):
            assert ours[s * n + b].value == scorers.BleuScorer().score_corpus(rs, outs)[0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from("a b c d e".split()), max_size=8), st.lists(st.sampled_from("a b c d x".split()), max_size=8)), max_size=6))
def test_compare_mt_bleu_on_generated_tokens(pairs):
    from compare_mt import scorers

    from nlgmetrics.analysis.sentences import compare_mt_bleu

    refs, outs = [r for r, _ in pairs], [o for _, o in pairs]
    assert compare_mt_bleu(refs, outs) == scorers.BleuScorer().score_corpus(refs, outs)[0]


def test_surrogates_in_analysis_inputs_are_typed_errors():
    from nlgmetrics import InvalidTextError

    for call in (lambda: sentence_buckets(["\ud800"], {"s": ["a"]}), lambda: word_accuracy(["a"], {"s": ["\udfff b"]}),
                 lambda: ngram_differences(["a"], ["\ud800"], ["b"]), lambda: sentence_examples(["a b"], ["\ud800"], ["a"])):
        with pytest.raises(InvalidTextError):
            call()
