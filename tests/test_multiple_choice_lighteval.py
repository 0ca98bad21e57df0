"""multiple_choice's lighteval scores against lighteval 0.13.0's own LoglikelihoodAcc and
normalize_log_probs (goldens made by scripts/goldens/multiple_choice_lighteval.py running
them), plus merging, how they differ from lm-eval's acc_norm, and bad input."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nlgmetrics as nm
from nlgmetrics.errors import IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.llm._lighteval_mc import LIGHTEVAL_SCORES, lighteval_document
from nlgmetrics.metrics.llm.multiple_choice import MultipleChoice

HERE = Path(__file__).parent / "goldens" / "multiple_choice"
GOLDEN = json.loads((HERE / "lighteval.json").read_text(encoding="utf-8"))
CASES = GOLDEN["cases"]
SAMPLES = HERE / "samples_generated.jsonl"


def _floats(values):
    return None if values is None else [float(v) for v in values]


def _gold(case):
    return tuple(case["gold"]["tuple"]) if isinstance(case["gold"], dict) else case["gold"]


def _expected(case, name):
    ref = case["reference"][name]
    return None if isinstance(ref, dict) else float(ref)


def _defined(name):
    return [c for c in CASES if not isinstance(c["reference"][name], dict)]


def _inputs(cases):
    return ([_floats(c["loglikelihoods"]) for c in cases], [_gold(c) for c in cases], [c["choices"] for c in cases],
            [_floats(c["unconditional"]) for c in cases], [c["token_counts"] for c in cases])


def test_goldens_cover_the_hard_cases():
    refs = [c["reference"] for c in CASES]
    errors = {(k, v["error"]) for r in refs for k, v in r.items() if isinstance(v, dict)}
    assert errors == {("lighteval_acc_norm", "ZeroDivisionError"), ("lighteval_acc_norm_nospace", "IndexError"),
                      ("lighteval_acc_norm_nospace", "ZeroDivisionError"), ("lighteval_acc_norm_token", "ZeroDivisionError"),
                      ("lighteval_acc_norm_pmi", "AssertionError")}
    lls = [v for c in CASES for v in c["loglikelihoods"]]
    assert {"nan", "-inf", "inf"} <= {v for v in lls if isinstance(v, str)}
    assert any(isinstance(c["gold"], list) and len(c["gold"]) > 1 for c in CASES)
    assert any(isinstance(c["gold"], dict) for c in CASES) and any(c["gold"] == [] for c in CASES)
    assert any(isinstance(c["gold"], int) and c["gold"] < 0 for c in CASES)
    assert any(any(ch.startswith(" ") for ch in c["choices"]) for c in CASES)
    assert any(any(len(ch) != len(ch.encode()) for ch in c["choices"]) for c in CASES)
    # the first maximum wins a tie: documents where it decides
    assert sum(1 for c in CASES if len(set(c["loglikelihoods"])) < len(c["loglikelihoods"])) > 100
    # both paths of the statistics: documents scored together by numpy and one by one
    from nlgmetrics.metrics.llm._lighteval_mc import _fast

    fast = sum(1 for c in CASES if _fast(_floats(c["loglikelihoods"]), c["choices"], _gold(c), _floats(c["unconditional"]), c["token_counts"]))
    assert 200 < fast < len(CASES) - 200


def test_every_document_equals_lighteval():
    for c in CASES:
        values, _ = lighteval_document(_floats(c["loglikelihoods"]), c["choices"], _gold(c), _floats(c["unconditional"]),
                                       c["token_counts"], where=f"doc {c['doc_id']}")
        assert values == {name: _expected(c, name) for name in LIGHTEVAL_SCORES}, c["doc_id"]


@pytest.mark.parametrize("name", LIGHTEVAL_SCORES)
def test_corpus_mean_and_per_document_values_equal_lighteval(name):
    cases = _defined(name)
    lls, golds, choices, uncs, tokens = _inputs(cases)
    metric = MultipleChoice(score=name)
    s = metric.corpus_score(lls, golds, choices, uncs, tokens)
    want = GOLDEN["means_over_documents_without_error"][name]
    assert (s.score, s[name], s.documents) == (want["mean"], want["mean"], want["documents"])
    assert metric.sentence_scores(lls, golds, choices, uncs, tokens).tolist() == [float(c["reference"][name]) for c in cases]
    parts = metric.sentence_parts(lls, golds, choices, uncs, tokens)
    for other in parts.keys() - {"score"}:  # every value all these documents define, as lighteval has it
        assert parts[other].tolist() == [_expected(c, other) for c in cases], other
    assert str(s.signature).startswith(f"score:{name}|agg:mean|ref:lighteval-0.13.0|version:nlgmetrics-")


def test_breakdown_has_the_values_every_document_defines():
    cases = [c for c in CASES if all(not isinstance(v, dict) for v in c["reference"].values())]
    assert len(cases) > 150
    s = MultipleChoice(score="lighteval_acc").corpus_score(*_inputs(cases))
    for name in LIGHTEVAL_SCORES:
        assert s[name] == sum(c["reference"][name] for c in cases) / len(cases)
    out_of_range = sum(1 for c in cases if any(not 0 <= g < len(c["choices"])
                                             for g in (_gold(c) if isinstance(_gold(c), (list, tuple)) else [_gold(c)])))
    assert s.gold_out_of_range == out_of_range > 0
    # lighteval_acc needs no lengths: empty choices and no unconditional log-likelihoods are fine
    s = MultipleChoice(score="lighteval_acc").corpus_score([[-1.0, -2.0]], [0], [["", " b"]])
    assert (s.score, "lighteval_acc_norm" in s, "lighteval_acc_norm_nospace" in s, "lighteval_acc_norm_pmi" in s) == (1.0, False, False, False)
    s = MultipleChoice(score="lighteval_acc").corpus_score([[-1.0, -2.0]], [0], [["a", " b"]])
    assert "lighteval_acc_norm_nospace" in s and "lighteval_acc_norm" in s


def test_streaming_and_merging_equal_one_pass():
    cases = _defined("lighteval_acc_norm_token")
    lls, golds, choices, uncs, tokens = _inputs(cases)
    whole = MultipleChoice(score="lighteval_acc_norm_token").corpus_score(lls, golds, choices, uncs, tokens)
    a = MultipleChoice(score="lighteval_acc_norm_token").update(lls[:300], golds[:300], choices[:300], uncs[:300], tokens[:300])
    b = MultipleChoice(score="lighteval_acc_norm_token")
    for doc in zip(lls[300:], golds[300:], choices[300:], uncs[300:], tokens[300:]):
        b.add(loglikelihoods=doc[0], gold=doc[1], choices=doc[2], unconditional=doc[3], token_counts=doc[4])
    merged = a.merge(b).compute()
    assert (merged.score, merged["lighteval_acc"], merged.documents) == (whole.score, whole["lighteval_acc"], whole.documents)
    # lm-eval's statistics and lighteval's do not mix
    lm = MultipleChoice(score="acc_norm")
    with pytest.raises(IncompatibleStatsError):
        lm.score_stats(MultipleChoice(score="lighteval_acc_norm").stats([[-1.0]], [0], [[" a"]]))


def test_lighteval_char_norm_counts_the_leading_space_lm_eval_does_not():
    # lighteval's choices are its continuations: " Paris" is 6 characters (5 with ignore_first_space);
    # lm-eval measures the choice without its target delimiter: "Paris" is 5
    golds, lighteval_choices, lm_eval_choices = [0], [[" Paris", " Lyon"]], [["Paris", "Lyon"]]
    # -6/6 = -1.0 > -5.5/5 = -1.1 and -6/5 = -1.2 > -5.5/4 = -1.375, while -5.5 > -6 raw
    s = MultipleChoice(score="lighteval_acc_norm").corpus_score([[-6.0, -5.5]], golds, lighteval_choices)
    assert (s.score, s["lighteval_acc"], s["lighteval_acc_norm"], s["lighteval_acc_norm_nospace"]) == (1.0, 0.0, 1.0, 1.0)
    # -6.3/6 = -1.05 < -5.2/5 = -1.04, but -6.3/5 = -1.26 > -5.2/4 = -1.3: the space decides
    lls = [[-6.3, -5.2]]
    s = MultipleChoice(score="lighteval_acc_norm").corpus_score(lls, golds, lighteval_choices)
    lm = MultipleChoice(score="acc_norm").corpus_score(lls, golds, lm_eval_choices)
    assert (s["lighteval_acc_norm"], s["lighteval_acc_norm_nospace"], lm["acc_norm"]) == (0.0, 1.0, 1.0)
    # a NaN wins, a tie goes to the earlier choice, several golds count any of them
    s = MultipleChoice(score="lighteval_acc").corpus_score([[-1.0, float("nan"), -0.5], [-2.0, -2.0], [-3.0, -1.0]],
                                                         [1, 1, (0, 1)], [[" a", " b", " c"], [" x", " y"], [" p", " q"]])
    assert s.score == 2 / 3 and MultipleChoice(score="lighteval_acc").sentence_scores(
        [[-2.0, -2.0]], [[0, 1]], [[" x", " y"]]).tolist() == [1.0]


def test_token_counts_bad_input_is_typed():
    lls, golds, choices = [[-1.0, -2.0]], [0], [[" a", " b"]]
    m = MultipleChoice(score="lighteval_acc_norm_token")
    with pytest.raises(InputTypeError, match="needs token_counts"):
        m.corpus_score(lls, golds, choices)
    with pytest.raises(InputTypeError, match="needs token_counts"):
        m.corpus_score(lls * 2, golds * 2, choices * 2, None, [[1, 1], None])
    with pytest.raises(InvalidInputError, match="document 0: lighteval_acc_norm_token is undefined: a choice with 0 tokens"):
        m.corpus_score(lls, golds, choices, None, [[0, 1]])
    with pytest.raises(LengthMismatchError, match="1 token counts but 2 choices"):
        m.corpus_score(lls, golds, choices, None, [[1]])
    with pytest.raises(LengthMismatchError, match="of token_counts"):
        m.corpus_score(lls, golds, choices, None, [[1, 1], [1, 1]])
    with pytest.raises(InvalidInputError, match="not negative"):
        m.corpus_score(lls, golds, choices, None, [[-1, 2]])
    for bad in ([[1.5, 2]], [[True, 2]], ["ab"], [3]):
        with pytest.raises(InputTypeError):
            m.corpus_score(lls, golds, choices, None, bad)
    # zero tokens only matter to the token score
    s = MultipleChoice(score="lighteval_acc_norm").corpus_score(lls, golds, choices, None, [[0, 1]])
    assert s.score == 1.0 and "lighteval_acc_norm_token" not in s
    assert m.corpus_score(lls, golds, choices, None, np.array([[1, 4]])).score == 0.0  # -1/1 < -2/4
    assert m.corpus_score(lls, golds, choices, None, [[3, 1]]).score == 1.0  # -1/3 > -2/1
    # a wrong call of the token score and of the others
    with pytest.raises(InvalidInputError, match="lighteval_acc_norm is undefined: an empty choice"):
        MultipleChoice(score="lighteval_acc_norm").corpus_score([[-1.0, -2.0]], [0], [["", " b"]])
    with pytest.raises(InvalidInputError, match="lighteval_acc_norm_nospace is undefined"):
        MultipleChoice(score="lighteval_acc_norm_nospace").corpus_score([[-1.0, -2.0]], [0], [[" ", " b"]])
    with pytest.raises(InvalidInputError, match="lighteval_acc_norm_pmi is undefined: no unconditional"):
        MultipleChoice(score="lighteval_acc_norm_pmi").corpus_score(lls, golds, choices)
    with pytest.raises(InputTypeError, match="lighteval's gold_index"):
        MultipleChoice(score="lighteval_acc").corpus_score(lls, [1.0], choices)
    with pytest.raises(InputTypeError, match=r"document 0: loglikelihoods\[1\] must be a number"):
        MultipleChoice(score="lighteval_acc").corpus_score([[-1.0, "x"]], golds, choices)
    with pytest.raises(LengthMismatchError, match="1 log-likelihoods but 2 choices"):
        MultipleChoice(score="lighteval_acc").corpus_score([[-1.0]], golds, choices)
    with pytest.raises(LengthMismatchError, match="1 unconditional log-likelihoods but 2 choices"):
        MultipleChoice(score="lighteval_acc_norm_pmi").corpus_score(lls, golds, choices, [[-1.0]])
    with pytest.raises(InvalidInputError, match="no choices"):
        MultipleChoice(score="lighteval_acc").corpus_score([[]], golds, [[]])
    with pytest.raises(InvalidInputError, match="lone surrogate"):
        MultipleChoice(score="lighteval_acc").corpus_score(lls, golds, [[" a", "\ud800"]])
    with pytest.raises(InvalidOptionError, match="lighteval_acc_norm_pmi"):
        MultipleChoice(score="lighteval_char")


def test_registry_and_cli(capsys):
    from nlgmetrics.cli.main import main

    s = nm.load("multiple_choice", score="lighteval_acc_norm_pmi").corpus_score([[-1.0, -2.0]], [1], [[" a", " b"]], [[-0.5, -3.0]])
    assert s.score == 1.0  # -1 - -0.5 = -0.5 < -2 - -3 = 1
    code = main(["score", "-m", "multiple_choice", "--mc-score", "lighteval_acc", "--jsonl", str(SAMPLES), "-f", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["signature"].startswith("score:lighteval_acc|agg:mean|ref:lighteval-0.13.0|")
    assert main(["score", "-m", "multiple_choice", "--jsonl", str(SAMPLES), "-f", "json"]) == 0
    lm = json.loads(capsys.readouterr()[0])[0]
    assert row["score"] == lm["acc"]  # the argmax of the raw log-likelihoods is the same in both frameworks
    code = main(["score", "-m", "multiple_choice", "--mc-score", "lighteval_acc_norm_token", "--jsonl", str(SAMPLES)])
    out, err = capsys.readouterr()
    assert code == 1 and "needs token_counts" in err and len(err.strip().splitlines()) == 1
