"""ROUGE (all flavours): statistics properties, faces, errors and the CLI."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics import ROUGE, RougeLsumWarning, RougeTokenizerWarning
from nlgmetrics.cli.main import main
from nlgmetrics.errors import (
    IncompatibleStatsError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
)

PREDS = ["the cat sat on the mat", "a dog ran\nin the park", "", "hello world", "the the the", "one two three four five"]
REFS = [["the cat is on the mat"], ["the dog ran in a park", "a dog runs"], ["x"], ["hello there world"], ["the"], ["five four three two one"]]
METRICS = [
    lambda **kw: ROUGE(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"], **kw),
    lambda **kw: ROUGE(rouge_types=["rougeL"], use_stemmer=True, tokenizer="unicode", **kw),
    lambda **kw: ROUGE("rouge155", rouge_types=["rouge1", "rougeL", "rougeW", "rougeSU4"], stemming=True, **kw),
    lambda **kw: ROUGE("coco", **kw),
]


@pytest.mark.parametrize("make", METRICS)
def test_merge_sharding_and_identity(make):
    m = make()
    total = m.stats(PREDS, REFS).total()
    shards = [m.stats(PREDS[a:b], REFS[a:b]).total() for a, b in [(0, 2), (2, 3), (3, 6)]]
    assert sum(shards) == total
    # counts and sums merge commutatively; the per-segment values a flavour keeps in order
    # for numpy's pairwise mean (Stats.sequence) come in merge order
    swapped = shards[2] + shards[0] + shards[1]
    assert swapped.replace(sequence=None) == total.replace(sequence=None)
    if total.sequence is not None:
        assert np.array_equal(swapped.sequence, np.concatenate([shards[2].sequence, shards[0].sequence, shards[1].sequence]))
    assert (shards[0] + shards[1]) + shards[2] == shards[0] + (shards[1] + shards[2])
    assert total + m.zero() == total
    assert m.score_stats(total).score == m.corpus_score(PREDS, REFS).score
    assert pickle.loads(pickle.dumps(total)) == total
    streamed = make()
    for a, b in [(0, 1), (1, 4), (4, 6)]:
        streamed.update(PREDS[a:b], REFS[a:b])
    assert streamed.compute().score == m.corpus_score(PREDS, REFS).score
    other = make().update(PREDS[:3], REFS[:3])
    assert make().update(PREDS[3:], REFS[3:]).merge(other).compute().score == pytest.approx(m.corpus_score(PREDS, REFS).score, rel=1e-15)


@pytest.mark.parametrize("make", METRICS)
def test_pairwise_equals_sentence_scores(make):
    m = make()
    cands = [p for p in PREDS if p] + ["the dog"]
    refs = [r[0] for r in REFS]
    M = m.pairwise(cands, refs)
    for i, c in enumerate(cands):
        for j, r in enumerate(refs):
            assert M[i, j] == m.sentence_scores([c], [[r]])[0]


@pytest.mark.parametrize("make", METRICS)
def test_independent_of_n_threads(make, corpora):
    rows = [json.loads(line) for line in open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8").readlines()[:700]]
    preds = ["\n".join(r["pointer-gen"]) for r in rows]
    refs = [["\n".join(r["reference"]), "\n".join(r["baseline"])] for r in rows]
    one = make(n_threads=1).stats(preds, refs)
    two = make(n_threads=2).stats(preds, refs)
    np.testing.assert_array_equal(one.sums, two.sums)
    np.testing.assert_array_equal(make(n_threads=1).pairwise(preds[:40], preds[:30]), make(n_threads=2).pairwise(preds[:40], preds[:30]))


def test_faces_agree():
    f = nlgmetrics.rouge(PREDS, REFS).score
    assert nlgmetrics.load("rouge").corpus_score(PREDS, REFS).score == f
    assert ROUGE().compute(predictions=PREDS, references=REFS).score == f
    s = ROUGE().corpus_score(PREDS, REFS)
    d = s.to_dict()
    assert d["types"]["rouge1"]["fmeasure"] == s.types["rouge1"].fmeasure
    assert set(ROUGE.flavours) == {"rouge-score", "rouge155", "coco", "pltrdy", "rouge-chinese"}
    prf = ROUGE().sentence_prf(PREDS, REFS)
    np.testing.assert_array_equal(prf["rouge1"].fmeasure, ROUGE().sentence_scores(PREDS, REFS))


def test_incompatible_stats_do_not_merge():
    a = ROUGE(rouge_types=["rouge1"]).stats(PREDS, REFS).total()
    b = ROUGE(rouge_types=["rouge2"]).stats(PREDS, REFS).total()
    with pytest.raises(IncompatibleStatsError):
        a + b
    with pytest.raises(IncompatibleStatsError):
        ROUGE(rouge_types=["rouge1"], use_stemmer=True).score_stats(a)


def test_errors():
    with pytest.raises(InvalidOptionError):
        ROUGE("nope")
    with pytest.raises(InvalidOptionError):
        ROUGE(rouge_types=["rouge10"])
    with pytest.raises(InvalidOptionError):
        ROUGE(rouge_types=["rouge1", "rouge1"])
    with pytest.raises(InvalidOptionError):
        ROUGE(tokenizer="13a")
    with pytest.raises(LengthMismatchError):
        ROUGE().corpus_score(["a", "b"], ["a"])
    with pytest.raises(MissingReferenceError):
        ROUGE().corpus_score(["a"], [[]])
    with pytest.raises(InputTypeError):
        ROUGE().corpus_score([1], ["a"])
    with pytest.raises(InputTypeError):
        ROUGE().corpus_score("a", ["a"])
    with pytest.raises(InvalidTextError):
        ROUGE().corpus_score(["\ud800"], ["a"])
    with pytest.raises(InvalidInputError):
        ROUGE().corpus_score([], [])
    with pytest.raises(InvalidInputError):
        ROUGE().compute()
    with pytest.raises(InvalidOptionError):
        ROUGE().bootstrap(PREDS, REFS, confidence_interval=2)
    with pytest.raises(InvalidOptionError):
        nlgmetrics._core.rouge_tokenize("a", "nope")


def test_signature():
    s = ROUGE(use_stemmer=True).corpus_score(PREDS, REFS).signature
    assert s.format() == f"nrefs:var|flavour:rouge-score|types:rouge1+rouge2+rougeL+rougeLsum|tok:rouge-score|stem:porter-nltk|agg:mean|version:nlgmetrics-{nlgmetrics.__version__}"


def run_cli(tmp_path, capsys, hyps, refs, *args):
    h = tmp_path / "hyp.txt"
    r = tmp_path / "ref.txt"
    h.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    r.write_text("\n".join(refs) + "\n", encoding="utf-8")
    code = main(["score", "-i", str(h), "-r", str(r), "-m", "rouge", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli(tmp_path, capsys):
    hyps = ["the cat sat on the mat", "hello world"]
    refs = ["the cat is on the mat", "hello there world"]
    code, out, err = run_cli(tmp_path, capsys, hyps, refs, "--rouge-types", "rouge1", "rougeL", "--rouge-stemmer", "-f", "json")
    assert code == 0
    d = json.loads(out)[0]
    want = ROUGE(rouge_types=["rouge1", "rougeL"], use_stemmer=True).corpus_score(hyps, refs)
    assert d["score"] == want.score and d["types"]["rougeL"]["fmeasure"] == want.types["rougeL"].fmeasure
    code, out, err = run_cli(tmp_path, capsys, hyps, refs, "--rouge-flavour", "rouge155", "--rouge-types", "rouge2", "rougeSU4", "--rouge-formula", "B", "-f", "json")
    assert code == 0 and json.loads(out)[0]["signature_fields"]["formula"] == "B"
    code, out, err = run_cli(tmp_path, capsys, hyps, refs, "--rouge-flavour", "coco", "-sl", "-f", "tsv")
    assert code == 0 and len(out.splitlines()) == 2


def test_cli_warns_when_the_tokenizer_deletes_the_input(tmp_path, capsys):
    hyps = ["我爱北京天安门", "東京は日本の首都です"]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from nlgmetrics.cli import main; sys.exit(main())",
         "score", "-m", "rouge", "-r", "h.txt", "-i", "h.txt", "-b"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert float(proc.stdout.strip()) == 0.0
    assert "RougeTokenizerWarning" in proc.stderr and "unicode" in proc.stderr
    code, out, err = run_cli(tmp_path, capsys, hyps, hyps, "--rouge-tokenizer", "unicode", "-b")
    assert code == 0 and float(out.strip()) == 1.0


def test_warning_category():
    with pytest.warns(RougeTokenizerWarning, match="unicode"):
        ROUGE().corpus_score(["我爱北京天安门"], ["我爱北京天安门"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", RougeLsumWarning)  # (one-line texts: tests/test_rouge_split_summaries.py)
        ROUGE(tokenizer="unicode").corpus_score(["我爱北京天安门"], ["我爱北京天安门"])
        ROUGE().corpus_score(["café naïve"], ["the cat"])  # mostly ASCII letters: no warning
