"""WER/CER/MER/WIL/WIP: parity with jiwer 4.0.0 (measures and H/S/D/I), properties, errors."""

from __future__ import annotations

import json

import jiwer
import numpy as np
import pytest
from conftest import read_lines
from hypothesis import given, settings, strategies as st

import nlgmetrics as nm
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, LengthMismatchError

MEASURES = {"wer": nm.WER, "mer": nm.MER, "wil": nm.WIL, "wip": nm.WIP}


def jiwer_counts(refs, hyps, transform=jiwer.wer_default):
    o = jiwer.process_words(refs, hyps, reference_transform=transform, hypothesis_transform=transform)
    return o, [o.hits, o.substitutions, o.deletions, o.insertions]


def check(preds, refs, transform="default"):
    jt = jiwer.wer_default if transform == "default" else jiwer.wer_standardize
    o, want = jiwer_counts(refs, preds, jt)
    s = nm.WER(transform=transform).corpus_score(preds, refs)
    assert [s.hits, s.substitutions, s.deletions, s.insertions] == want
    for name, cls in MEASURES.items():
        assert cls(transform=transform).corpus_score(preds, refs).score == pytest.approx(getattr(o, name), rel=1e-12, abs=1e-15)
    return o


def test_spec_example():
    o = check(["the cat sit on mat", "hello big world"], ["the cat sat on the mat", "hello world"])
    assert (o.hits, o.substitutions, o.deletions, o.insertions) == (6, 1, 1, 1)
    assert nm.cer(["ab cd"], [" ab  cd "]).score == jiwer.cer(" ab  cd ", "ab cd")


def test_earnings21_long_documents(corpora):
    # whole earnings calls (2k-16k words): exercises RapidFuzz's Hirschberg split
    d = corpora / "earnings21_asr"
    refs = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "references.jsonl", encoding="utf-8")}
    hyps = {json.loads(x)["id"]: json.loads(x)["text"] for x in open(d / "hyp_microsoft.jsonl", encoding="utf-8")}
    ids = sorted(refs)[:12]
    check([hyps[i] for i in ids], [refs[i] for i in ids])
    check([hyps[i] for i in ids[:4]], [refs[i] for i in ids[:4]], transform="standardize")
    # CER on a few hundred characters per call
    P = [hyps[i][:600] for i in ids]
    R = [refs[i][:600] for i in ids]
    o = jiwer.process_characters(R, P)
    s = nm.CER().corpus_score(P, R)
    assert (s.hits, s.substitutions, s.deletions, s.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
    assert s.score == pytest.approx(o.cer, rel=1e-12)


def test_wmt22_segments(corpora):
    d = corpora / "wmt22" / "zh-en"
    refs = read_lines(d / "generaltest2022.zh-en.ref.A.en")
    for system in ["Online-B", "DLUT"]:
        hyps = read_lines(d / "system-outputs" / f"generaltest2022.zh-en.hyp.{system}.en")
        check(hyps, refs)
        check(hyps[:300], refs[:300], transform="standardize")
        o = jiwer.process_characters(refs[:400], hyps[:400])
        assert nm.cer(hyps[:400], refs[:400]).score == pytest.approx(o.cer, rel=1e-12)
        # per-segment alignments equal jiwer's chunks
        ours = nm.WER().alignments(hyps[:200], refs[:200])
        theirs = jiwer.process_words(refs[:200], hyps[:200]).alignments
        for a, b in zip(ours, theirs):
            assert [(c.type, c.ref_start, c.ref_end, c.hyp_start, c.hyp_end) for c in a] == [
                (c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in b
            ]


words = st.sampled_from(["a", "b", "c", "The", "the", "猫", "é", "can't", "<unk>", "[x]", "d"])
seps = st.sampled_from([" ", "  ", "\t", " \n ", "\u3000", "\xa0 "])


@st.composite
def sentence(draw):
    ws = draw(st.lists(words, max_size=12))
    out = draw(st.sampled_from(["", " ", "\t"]))
    for w in ws:
        out += w + draw(seps)
    return out


@settings(max_examples=250, deadline=None)
@given(st.lists(st.tuples(sentence(), sentence()), min_size=1, max_size=6), st.sampled_from(["default", "standardize"]))
def test_hypothesis_parity(pairs, transform):
    preds = [p for p, _ in pairs]
    refs = [r for _, r in pairs]
    check(preds, refs, transform)
    o = jiwer.process_characters(refs, preds)
    s = nm.CER().corpus_score(preds, refs)
    assert (s.hits, s.substitutions, s.deletions, s.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
    assert s.score == pytest.approx(o.cer, rel=1e-12)


def test_empty_reference_rule():
    assert nm.wer(["x y z"], [""]).score == 3.0 == jiwer.wer("", "x y z")
    assert nm.wer(["x y z", "a b"], ["", "a b"]).score == 1.5
    assert nm.mer([""], [""]).score == 0.0 and nm.wip([""], [""]).score == 1.0
    assert nm.mer(["a"], [""]).score == 1.0 and nm.wil(["a"], [""]).score == 1.0


def test_multi_reference():
    with pytest.raises(InvalidInputError):
        nm.wer(["a b"], [["a b", "a c"]])
    s = nm.WER(multi_ref="best").corpus_score(["a b c"], [["x y z", "a b d", "a b e"]])
    assert (s.hits, s.substitutions) == (2, 1)


def test_errors():
    with pytest.raises(LengthMismatchError):
        nm.wer(["a"], ["a", "b"])
    with pytest.raises(InvalidOptionError):
        nm.WER(transform="nope")
    with pytest.raises(InvalidOptionError):
        nm.CER(transform="standardize")
    with pytest.raises(TypeError):
        nm.wer([1], ["a"])


def test_properties():
    preds = ["a b c", "", "the cat", "x y z w", "a a a"]
    refs = ["a c", "b", "the cat sat", "", "a b a"]
    m = nm.WER()
    seg = m.stats(preds, refs)
    total = seg.total()
    assert m.score_stats(seg.take([0, 1]).total() + seg.take([2, 3, 4]).total()).score == m.score_stats(total).score
    assert (0 + total) == total
    a, b, c = (seg.row(i) for i in range(3))
    assert (a + b) + c == a + (b + c) and a + b == b + a
    for n in (1, 2):
        assert nm.WER(n_threads=n).corpus_score(preds * 200, refs * 200).score == m.corpus_score(preds, refs).score
    for cls in (nm.WER, nm.MER, nm.WIP, nm.CER):
        M = cls().pairwise(preds, refs)
        for i, p in enumerate(preds):
            for j, r in enumerate(refs):
                assert M[i, j] == cls().sentence_scores([p], [r])[0]
    sent = m.sentence_scores(preds, refs)
    assert sent[3] == 4.0  # empty reference: the insertion count
    m.update(preds[:2], refs[:2]).update(preds[2:], refs[2:])
    assert m.compute().score == nm.wer(preds, refs).score


def test_cli(tmp_path, capsys):
    import json as _json

    from nlgmetrics.cli import main

    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("the cat sit on mat\nhello big world\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    assert main(["score", "-i", str(hyp), "-r", str(ref), "-m", "wer", "cer", "mer", "wil", "wip", "per", "nist", "-f", "json"]) == 0
    res = {r["name"]: r for r in _json.loads(capsys.readouterr().out)}
    assert res["WER"]["score"] == 0.375 and res["WER"]["hits"] == 6
    assert set(res) == {"WER", "CER", "MER", "WIL", "WIP", "PER", "NIST"}
    assert main(["score", "-i", str(hyp), "-r", str(ref), "-m", "nist", "--nist-flavour", "nltk", "--nist-n", "2", "-f", "json"]) == 0
    capsys.readouterr()
    assert main(["score", "-i", str(hyp), "-r", str(ref), "-m", "wer", "--wer-transform", "x"]) == 2
    assert main(["score", "-i", str(hyp), "-r", str(ref), "-r", str(ref), "-m", "wer"]) == 1  # two references: error
