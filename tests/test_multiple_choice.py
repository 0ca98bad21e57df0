"""multiple_choice against lm-eval 0.4.13's own ConfigurableTask.process_results and mean
(goldens made by scripts/goldens/multiple_choice_goldens.py running them), plus streaming,
merging, input forms, lm-eval's samples files and bad input."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nlgmetrics as nm
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.llm.multiple_choice import MultipleChoice, read_lm_eval_samples, score_document

HERE = Path(__file__).parent / "goldens" / "multiple_choice"
GOLDEN = json.loads((HERE / "process_results.json").read_text(encoding="utf-8"))
CASES = GOLDEN["cases"]
OK = [c for c in CASES if "error" not in c["reference"]]
SAMPLES = HERE / "samples_generated.jsonl"


def _floats(values):
    return None if values is None else [float(v) for v in values]


def _doc(case):
    return _floats(case["loglikelihoods"]), case["choices"], case["gold"], _floats(case["unconditional"])


def test_goldens_cover_the_hard_cases():
    lls = [v for c in CASES for v in c["loglikelihoods"]]
    assert "-inf" in lls and "nan" in lls
    assert any(len(c) != len(c.encode()) for case in CASES for c in case["choices"])
    assert any("" in c["choices"] for c in CASES)
    assert any(isinstance(c["gold"], list) and len(c["gold"]) > 1 for c in OK)
    assert any(isinstance(c["gold"], str) for c in OK)
    ties = [c for c in OK if len(set(c["loglikelihoods"])) < len(c["loglikelihoods"])]
    assert len(ties) > 100
    # the three scores disagree somewhere, so each is checked on its own
    assert {(c["reference"]["acc"], c["reference"]["acc_norm"], c["reference"]["acc_bytes"]) for c in OK} >= {(1.0, 0.0, 0.0), (0.0, 1.0, 1.0), (0.0, 1.0, 0.0)}


@pytest.mark.parametrize("i", range(0, len(CASES)))
def test_each_document_equals_lm_eval(i):
    case = CASES[i]
    ref = case["reference"]
    got = score_document(*_doc(case))
    if "error" in ref:  # lm-eval: acc_mutual_info with several golds is numpy's ambiguous truth value
        assert ref["error"] == "ValueError" and isinstance(case["gold"], list) and len(case["gold"]) > 1
        lls, unc = _doc(case)[0], _doc(case)[3]
        assert got.acc_mutual_info == (1.0 if int(np.argmax([a - b for a, b in zip(lls, unc)])) in case["gold"] else 0.0)
        return
    assert (got.acc, got.acc_norm, got.acc_bytes) == (ref["acc"], ref["acc_norm"], ref["acc_bytes"])
    assert got.acc_mutual_info == ref.get("acc_mutual_info")


def test_corpus_means_equal_lm_eval_mean():
    want = GOLDEN["means_over_documents_without_error"]
    lls, choices, golds, uncs = zip(*map(_doc, OK))
    for score in ("acc", "acc_norm", "acc_bytes"):
        s = nm.load("multiple_choice", score=score).corpus_score(list(lls), list(golds), list(choices))
        assert s.score == s[score] == want[score]
        assert s.documents == len(OK)
    mi = [c for c in OK if c["unconditional"] is not None]
    lls, choices, golds, uncs = zip(*map(_doc, mi))
    s = MultipleChoice(score="acc_mutual_info").corpus_score(list(lls), list(golds), list(choices), list(uncs))
    assert s.score == want["acc_mutual_info"] == 0.3020527859237537
    assert str(s.signature).startswith("score:acc_mutual_info|agg:mean|ref:lm-eval-0.4.13|version:nlgmetrics-")


def test_streaming_merging_and_sentence_values():
    lls, choices, golds, uncs = (list(x) for x in zip(*map(_doc, OK)))
    whole = MultipleChoice(score="acc_norm").corpus_score(lls, golds, choices)
    m = MultipleChoice(score="acc_norm")
    for a in range(0, len(OK), 37):
        m.update(lls[a:a + 37], golds[a:a + 37], choices[a:a + 37])
    assert m.compute().score == whole.score
    half = len(OK) // 2
    s1 = MultipleChoice(score="acc_norm").stats(lls[:half], golds[:half], choices[:half]).total()
    s2 = MultipleChoice(score="acc_norm").stats(lls[half:], golds[half:], choices[half:]).total()
    assert MultipleChoice(score="acc_norm").score_stats(s1 + s2).score == whole.score
    per = MultipleChoice(score="acc_norm").sentence_scores(lls, golds, choices)
    assert per.tolist() == [c["reference"]["acc_norm"] for c in OK]
    parts = MultipleChoice().sentence_parts(lls, golds, choices)
    assert parts["acc_bytes"].tolist() == [c["reference"]["acc_bytes"] for c in OK]
    one = MultipleChoice()
    for c in OK[:5]:
        one.add(loglikelihoods=_doc(c)[0], gold=c["gold"], choices=c["choices"])
    assert one.compute().documents == 5


def test_batched_documents_equal_one_by_one():
    """The metric scores plain documents together (numpy argmax along rows): the same values
    as score_document on every golden document, unconditional ones included."""
    lls, choices, golds, uncs = (list(x) for x in zip(*map(_doc, CASES)))
    seg = MultipleChoice().stats(lls, golds, choices, uncs)
    for i, case in enumerate(CASES):
        r = score_document(*_doc(case))
        want = [1, r.acc, r.acc_norm, r.acc_bytes, r.acc_mutual_info or 0.0, r.acc_mutual_info is not None, not r.gold_in_range]
        assert seg.counts[i].tolist() == want, i
    assert sum(type(g) is int and 0 <= g < len(c) for g, c in zip(golds, choices)) > 250  # the batched path ran


def test_ties_nan_empty_choices_and_bytes_against_characters():
    # ties: the first maximum (numpy argmax)
    assert score_document([-1.0, -1.0], ["a", "b"], 1).acc == 0.0
    assert score_document([-1.0, -1.0], ["a", "b"], 0).acc == 1.0
    # a NaN wins over every number; -inf never does
    assert score_document([-1.0, float("nan"), -0.5], ["a", "b", "c"], 1).acc == 1.0
    assert score_document([float("-inf"), -50.0], ["a", "b"], 1).acc == 1.0
    # an empty choice: -2/0 is -inf (loses); 0/0 is NaN (wins)
    assert score_document([-2.0, -3.0], ["", "abc"], 1).acc_norm == 1.0
    assert score_document([0.0, -3.0], ["", "abc"], 0).acc_norm == 1.0
    # "é" is 1 character but 2 bytes: -1.5/1 < -2/2 by characters, -1.5/2 > -2/2 by bytes
    r = score_document([-1.5, -2.0], ["é", "ab"], 0)
    assert (r.acc, r.acc_norm, r.acc_bytes) == (1.0, 0.0, 1.0)
    # several golds, a gold text, out of range
    assert score_document([-3.0, -1.0, -2.0], ["a", "b", "c"], [0, 1]).acc == 1.0
    assert score_document([-3.0, -1.0, -2.0], ["a", "b", "c"], "b").acc == 1.0
    r = score_document([-3.0, -1.0], ["a", "b"], 7)
    assert (r.acc, r.gold_in_range) == (0.0, False)
    s = MultipleChoice().corpus_score([[-3.0, -1.0], [-1.0, -2.0]], [7, 0], [["a", "b"], ["a", "b"]])
    assert (s.score, s.gold_out_of_range) == (0.5, 1)


def test_input_forms_agree():
    lls = [[-1.0, -2.5, -1.5], [-4.0, -1.5, -1.0]]
    choices = [["a", "bb", "ccc"], ["x", "yy", "z"]]
    want = MultipleChoice(score="acc_norm").corpus_score(lls, [2, 1], choices)
    pairs = [[(v, False) for v in row] for row in lls]  # lm-eval's (loglikelihood, is_greedy)
    assert dict(MultipleChoice(score="acc_norm").corpus_score(pairs, [2, 1], choices)) == dict(want)
    assert dict(MultipleChoice(score="acc_norm").corpus_score(np.array(lls), np.array([2, 1]), choices)) == dict(want)
    assert dict(MultipleChoice(score="acc_norm").corpus_score(lls, ["ccc", "yy"], choices)) == dict(want)
    assert (want.score, want["acc"], want["acc_bytes"]) == (1.0, 0.0, 1.0)


def test_read_lm_eval_samples_recomputes_the_logged_values():
    r = read_lm_eval_samples(SAMPLES)
    assert len(r.doc_ids) == 190
    assert sum(v is not None for v in r.logged["acc_mutual_info"]) == 102
    # the only differences: a gold text that is all digits ("1"), which lm-eval logs as
    # str(target) like an index; read back as the index (doc_to_target's isdigit rule)
    assert sorted({m[0] for m in r.mismatches}) == [130, 144]
    for i, doc in enumerate(r.doc_ids):
        if doc in (130, 144):
            continue
        for metric in ("acc", "acc_norm", "acc_bytes", "acc_mutual_info"):
            assert r.recomputed[metric][i] == r.logged[metric][i]
    keep = [i for i, d in enumerate(r.doc_ids) if d not in (130, 144)]
    s = MultipleChoice(score="acc_norm").corpus_score([r.loglikelihoods[i] for i in keep], [r.golds[i] for i in keep],
                                                      [r.choices[i] for i in keep])
    logged = [r.logged["acc_norm"][i] for i in keep]
    assert s.score == sum(logged) / len(logged)  # lm-eval's mean of the logged values


def test_bad_input_is_typed(tmp_path):
    m = MultipleChoice()
    with pytest.raises(InputTypeError, match="choices"):
        m.corpus_score([[-1.0]], [0])
    with pytest.raises(LengthMismatchError):
        m.corpus_score([[-1.0, -2.0]], [0], [["a"]])
    with pytest.raises(LengthMismatchError):
        m.corpus_score([[-1.0]], [0, 1], [["a"]])
    with pytest.raises(InvalidInputError, match="no choices"):
        m.corpus_score([[]], [0], [[]])
    with pytest.raises(InputTypeError):
        m.corpus_score([[-1.0]], [True], [["a"]])
    with pytest.raises(InputTypeError):
        m.corpus_score([["x"]], [0], [["a"]])
    with pytest.raises(InvalidInputError, match="surrogate"):
        m.corpus_score([[-1.0]], [0], [["\ud800"]])
    with pytest.raises(InvalidInputError, match="no documents"):
        m.corpus_score([], [], [])
    with pytest.raises(InvalidOptionError):
        MultipleChoice(score="f1")
    with pytest.raises(InvalidInputError, match="unconditional"):
        MultipleChoice(score="acc_mutual_info").corpus_score([[-1.0]], [0], [["a"]])
    with pytest.raises(InvalidOptionError):
        m.pairwise(["a"], ["b"])
    before = m.update([[-1.0, -2.0]], [0], [["a", "b"]]).compute().score
    with pytest.raises(InputTypeError):
        m.update([[-1.0, "x"]], [0], [["a", "b"]])
    assert m.compute().score == before == 1.0
    bad = tmp_path / "samples_t.jsonl"
    lines = SAMPLES.read_text(encoding="utf-8").splitlines()
    bad.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"samples_t.jsonl:2: not JSON"):
        read_lm_eval_samples(bad)
    rec = json.loads(lines[0])
    del rec["target"]
    bad.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r':1: missing "target"'):
        read_lm_eval_samples(bad)


def test_registered_with_its_kind():
    kinds = {e.name: e.kind for e in nm.available()}
    assert kinds["multiple_choice"] == "multiple_choice"
    assert nm.MultipleChoice is MultipleChoice


def run_cli(argv, capsys) -> tuple[int, str, str]:
    from nlgmetrics.cli.main import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_scores_an_lm_eval_samples_file(tmp_path, capsys):
    r = read_lm_eval_samples(SAMPLES)
    want = MultipleChoice(score="acc_norm").corpus_score(r.loglikelihoods, r.golds, r.choices)
    code, out, err = run_cli(["score", "-m", "multiple_choice", "--mc-score", "acc_norm", "--jsonl", SAMPLES, "-f", "json"], capsys)
    assert code == 0, err
    row = json.loads(out)[0]
    assert [row["score"], row["acc"], row["acc_bytes"], row["documents"]] == [want.score, want["acc"], want["acc_bytes"], 190]
    assert row["logged_mismatches"] == 6  # docs 130 and 144: acc, acc_norm, acc_bytes each
    assert row["signature"].startswith("score:acc_norm|agg:mean|ref:lm-eval-0.4.13|version:nlgmetrics-")
    code, out, err = run_cli(["score", "-m", "multiple_choice", "--jsonl", SAMPLES, "-sl", "-f", "json"], capsys)
    assert code == 0, err
    assert [json.loads(line)["score"] for line in out.splitlines()] == r.recomputed["acc"]  # one JSON line per document
    # acc_mutual_info: only some documents logged the unconditional requests: a data error
    code, out, err = run_cli(["score", "-m", "multiple_choice", "--mc-score", "acc_mutual_info", "--jsonl", SAMPLES], capsys)
    assert code == 1 and "102 of 190" in err and len(err.strip().splitlines()) == 1
    bad = tmp_path / "samples_bad.jsonl"
    bad.write_text(SAMPLES.read_text(encoding="utf-8").splitlines()[0] + "\n{\n", encoding="utf-8")
    code, out, err = run_cli(["score", "-m", "multiple_choice", "--jsonl", bad], capsys)
    assert code == 1 and "samples_bad.jsonl:2" in err
    code, out, err = run_cli(["score", "-m", "multiple_choice", "-i", bad, "-r", bad], capsys)
    assert code == 2
