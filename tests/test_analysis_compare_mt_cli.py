"""The analyses against compare-mt 0.2.10 as its command line computes them: the files
read by compare-mt's own reader (``corpus_utils.load_tokens``), then its report functions.

Lines here are generated with what makes readers differ: empty lines, whitespace-only lines,
runs of spaces, tabs, no-break spaces and the other characters ``str.strip`` removes.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compare_mt import compare_mt_main, corpus_utils
from nlgmetrics.analysis import sentence_buckets, word_accuracy
from nlgmetrics.analysis._common import token_lists

# no "\n" or "\r": those end a line in compare-mt's file reader (universal newlines)
PIECES = ["a", "b", "c", "the", "A", ".", ",", "1", " ", "  ", "\t", "\u00a0", "\x0c", "\x85", "\u2028", "猫", "是"]
lines = st.lists(st.sampled_from(PIECES), max_size=7).map("".join)
blank = st.sampled_from(["", " ", "\t", "  \u00a0 ", "\u2028"])
line_or_blank = st.one_of(lines, blank)


def _write(directory, name, texts):
    path = directory / name
    path.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    return str(path)


def _quiet(call):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


def _compare_mt_word_statistics(directory, refs, outputs, case_insensitive):
    """compare-mt's command line: ``load_tokens`` of each file, then the word report (one
    system at a time: compare-mt caches statistics for one system only)."""
    ref = corpus_utils.load_tokens(_write(directory, "ref", refs))
    stats = []
    for k, output in enumerate(outputs):
        out = corpus_utils.load_tokens(_write(directory, f"out{k}", output))
        report = _quiet(lambda: compare_mt_main.generate_word_accuracy_report(ref, [out], case_insensitive=case_insensitive, to_cache=True))
        stats.append(report["statistics"])
    return stats


def test_the_issue_case_an_empty_reference_line_is_a_word_to_compare_mts_command_line(tmp_path, monkeypatch, capsys):
    # compare-mt reads "" as [""] (line.strip().split(" ")), so its command line counts the
    # empty reference line as a word seen once: F 0.4 in bucket "1", not str.split()'s 0.5
    refs, output = ["", "a b"], ["a", "a c"]
    monkeypatch.setattr(sys, "argv", ["compare-mt", _write(tmp_path, "ref", refs), _write(tmp_path, "out", output),
                                      "--compare_word_accuracies", "bucket_type=freq,output_bucket_details=True"])
    compare_mt_main.main()
    printed = [row.split("\t") for row in capsys.readouterr().out.splitlines()]
    assert [row[:2] + [row[2].split()[0]] for row in printed if row[0] == "1" and len(row) == 3] == [["1", "3", "0.4000"]]
    ours = word_accuracy(refs, {"s": output})
    assert [(w.matches, w.reference_words, w.output_words, w.fmeasure) for w in ours if w.bucket == "1"] == [(1, 3, 2, 0.4)]
    # str.split() (tokenize="none") is the reading where the empty line has no words
    assert [w.fmeasure for w in word_accuracy(refs, {"s": output}, tokenize="none") if w.bucket == "1"] == [0.5]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(line_or_blank, line_or_blank, line_or_blank), min_size=1, max_size=8), st.booleans())
def test_generated_files_word_accuracy_equals_compare_mts_command_line(tmp_path, rows, case_insensitive):
    refs, a, b = (list(x) for x in zip(*rows))
    stats = _compare_mt_word_statistics(tmp_path, refs, [a, b], case_insensitive)
    ours = word_accuracy(refs, {"a": a, "b": b}, case_insensitive=case_insensitive)
    assert [(g.matches, g.reference_words, g.output_words, g.recall, g.precision, g.fmeasure) for g in ours] == [
        (int(m), int(r), int(o), rec, prec, f) for per_system in stats for m, r, o, rec, prec, f in per_system
    ]


def _compare_mt_buckets(ref_tokens, out_tokens, by, cutoffs):
    profile = {"bucket_type": by, "statistic_type": "score", "score_measure": "sacrebleu"}
    if cutoffs is not None:
        profile["bucket_cutoffs"] = ":".join(str(c) for c in cutoffs)
    return _quiet(lambda: compare_mt_main.generate_sentence_bucketed_report(ref_tokens, [out_tokens], to_cache=True, **profile))["stats"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(line_or_blank, lines, lines), min_size=1, max_size=10),
       st.sampled_from(["length", "lengthdiff"]), st.sampled_from([None, (2, 4), (-1, 0, 1, 3)]))
def test_generated_files_sacrebleu_buckets_equal_compare_mts_command_line(tmp_path, rows, by, cutoffs):
    refs, a, b = (list(x) for x in zip(*rows))
    ref = corpus_utils.load_tokens(_write(tmp_path, "ref", refs))
    theirs = [v for o in (a, b) for v in _compare_mt_buckets(ref, corpus_utils.load_tokens(_write(tmp_path, "out", o)), by, cutoffs)]
    ours = sentence_buckets(refs, {"a": a, "b": b}, by=by, statistic="score", metric="sacrebleu", cutoffs=cutoffs)
    assert [bucket.value for bucket in ours] == theirs


@pytest.mark.parametrize("tokenize", ["char", "zh", "13a", "intl"])
@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.tuples(lines, lines), min_size=1, max_size=10))
def test_sacrebleu_buckets_score_the_tokens_compare_mt_reads(tokenize, rows):
    # compare-mt's SacreBleuScorer joins the tokens it read: on char- or zh-tokenized files
    # that is BLEU over characters, far from sacrebleu's 13a BLEU of the untokenized text
    refs, output = [r for r, _ in rows], [o for _, o in rows]
    ref_tokens, out_tokens = token_lists(refs, tokenize, "references"), token_lists(output, tokenize, "output")
    for by in ("length", "lengthdiff"):
        theirs = _compare_mt_buckets(ref_tokens, out_tokens, by, None)
        ours = sentence_buckets(refs, {"s": output}, by=by, statistic="score", metric="sacrebleu", tokenize=tokenize)
        assert [bucket.value for bucket in ours] == theirs


def test_the_issue_case_char_tokens_score_as_compare_mt_scores_them():
    refs = ["猫是动物", "the cat sat", "我们在这里"]
    output = ["猫是动物吗", "a cat sat", "我在这里"]
    ours = sentence_buckets(refs, {"s": output}, by="length", statistic="score", metric="sacrebleu", tokenize="char", cutoffs=[5, 10])
    theirs = _compare_mt_buckets(token_lists(refs, "char", "r"), token_lists(output, "char", "o"), "length", (5, 10))
    assert [b.value for b in ours] == theirs
    assert round(ours[0].value, 2) == 66.87  # the <5 bucket: segment 0, BLEU over its characters
    assert sacrebleu.corpus_bleu([output[0]], [[refs[0]]]).score == 0.0  # 13a of the untokenized text: one "word"
    from nlgmetrics.analysis.sentences import compare_mt_sacrebleu

    assert compare_mt_sacrebleu([], []) == 0.0


@pytest.mark.parametrize("tokenize", ["13a", "char"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(line_or_blank, line_or_blank), min_size=1, max_size=8))
def test_a_named_tokenizer_is_compare_mt_on_the_tokenized_files(tmp_path, tokenize, rows):
    # the report's analyses (13a): compare-mt run on 13a-tokenized files, where an empty
    # line is still one empty word
    from nlgmetrics.tokenizers import tokenize as tokenized

    refs, output = [r for r, _ in rows], [o for _, o in rows]
    files = {name: [" ".join(t.split()) for t in tokenized(tokenize, lines)] for name, lines in (("ref", refs), ("out", output))}
    stats = _compare_mt_word_statistics(tmp_path, files["ref"], [files["out"]], False)
    ours = word_accuracy(refs, {"s": output}, tokenize=tokenize)
    assert [(g.matches, g.reference_words, g.output_words, g.fmeasure) for g in ours] == [
        (int(m), int(r), int(o), f) for m, r, o, _, _, f in stats[0]
    ]
    ref = corpus_utils.load_tokens(_write(tmp_path, "ref", files["ref"]))
    out = corpus_utils.load_tokens(_write(tmp_path, "out", files["out"]))
    for measure in ("bleu", "sacrebleu"):
        profile = {"bucket_type": "length", "statistic_type": "score", "score_measure": measure, "bucket_cutoffs": "1:2:4"}
        theirs = _quiet(lambda: compare_mt_main.generate_sentence_bucketed_report(ref, [out], to_cache=True, **profile))["stats"]
        ours_buckets = sentence_buckets(refs, {"s": output}, by="length", statistic="score", metric=measure, cutoffs=[1, 2, 4], tokenize=tokenize)
        assert [b.value for b in ours_buckets] == theirs
