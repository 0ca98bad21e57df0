"""answer_filters against lm-evaluation-harness 0.4.13's own filters and exact_match
(goldens made by scripts/goldens/lm_eval_filters_goldens.py), plus the documented cases."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, NlgMetricsError
from nlgmetrics.metrics.llm import answer_filters as A

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "lm_eval_filters" / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLDENS["pipelines"], ids=lambda c: str(c["steps"])[:60])
def test_pipeline_equals_lm_eval(case):
    pipeline = A.Pipeline("case", case["steps"])
    if "error" in case:  # lm-eval crashes: a typed error here
        with pytest.raises(NlgMetricsError):
            pipeline.apply(case["resps"], case["docs"])
    else:
        assert pipeline.apply(case["resps"], case["docs"]) == case["filtered"]


def test_exact_match_equals_lm_eval():
    for case in GOLDENS["exact_match"]:
        got = A.exact_match([case["prediction"]], [case["reference"]], **case["options"])
        assert got.tolist() == [case["exact_match"]], case
    assert len(GOLDENS["exact_match"]) == 400


def test_gsm8k_presets():
    resps = [["so 3 + 4 = 7.\n#### 1,234."], ["#### 5"], ["no number"], ["costs $12.50, then 7 and -3"]]
    targets = ["Work...\n#### 1234", "#### 6", "[invalid]", "#### -3"]
    strict = A.score_preset("gsm8k/strict-match", resps, targets)
    assert strict["filtered"] == ["1,234.", "5", "[invalid]", "[invalid]"]
    assert strict["exact_match"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert strict["mean"] == 0.5
    flexible = A.score_preset("gsm8k/flexible-extract", resps, targets)
    # the last match: a tuple of two groups gives its first non-empty one
    assert flexible["filtered"] == ["1,234.", "5", "[invalid]", "-3"]
    assert flexible["exact_match"].tolist() == [1.0, 0.0, 1.0, 1.0]


def test_self_consistency_majority_tie_goes_to_first_seen():
    p = A.preset("gsm8k_cot_self_consistency/maj@64")
    resps = [["The answer is 3", "The answer is 4", "The answer is 4", "The answer is 3"], ["x", "The answer is 9"]]
    assert p.apply(resps) == ["3", "[invalid]"]
    assert A.preset("gsm8k_cot_self_consistency/maj@8").filters[0].k == 8


def test_regex_group_select_and_fallback():
    f = A.make_filter("regex", regex_pattern=r"(\d)|([a-z])", group_select=-1, fallback="NONE")
    assert f.apply([["1 b", "", "9", " "]], None) == [["b", "NONE", "9", "NONE"]]
    assert A.make_filter("regex", regex_pattern=r"(x)?(y)?").apply([["zz"]], None) == [["[invalid]"]]  # all groups empty: the fallback


def test_fallback_of_empty_groups_is_stripped_as_lm_eval_does():
    f = A.make_filter("regex", regex_pattern=r"(x)?(y)?", fallback=" none ")
    assert f.apply([["zz", ""]], None) == [["none", "none"]]  # every match has only empty groups
    assert A.make_filter("regex", regex_pattern=r"(q)", fallback=" none ").apply([["zz"]], None) == [[" none "]]  # no match: as given


def test_multi_choice_regex_letters():
    f = A.make_filter("multi_choice_regex", regex_pattern=r"answer is \(([A-D])\)", ignore_case=True, ignore_punctuation=True)
    docs = [{"choices": ["Guilty", "Guilty of Romance", "Paris"]}]
    got = f.apply([["It is guilty of romance!", "answer: C", "The answer is (B)", "nothing"]], docs)
    assert got == [["(B)", "(C)", "B", "[invalid]"]]


def test_bad_input_is_typed():
    with pytest.raises(InvalidOptionError, match="unknown filter"):
        A.make_filter("regexp")
    with pytest.raises(InvalidOptionError, match="does not compile"):
        A.make_filter("regex", regex_pattern="(")
    with pytest.raises(InvalidOptionError):
        A.make_filter("take_first_k")
    with pytest.raises(InvalidInputError, match="document 1 has 1 generations"):
        A.Pipeline("p", [{"function": "take_first_k", "k": 2}]).apply([["a", "b"], ["c"]])
    with pytest.raises(InvalidInputError, match="group_select 3"):
        A.make_filter("regex", regex_pattern="a", group_select=3).apply([["aa"]], None)
    with pytest.raises(InputTypeError, match="needs the documents"):
        A.make_filter("multi_choice_regex").apply([["a"]], None)
    with pytest.raises(InputTypeError):
        A.make_filter("lowercase").apply([[None]], None)
    with pytest.raises(InvalidOptionError, match="unknown answer-filter preset"):
        A.preset("gsm8k/strict")
    with pytest.raises(InputTypeError):
        A.exact_match([1], ["1"])


def test_exact_match_numpy_strings_drop_trailing_nul():
    assert A.exact_match(["5\x00"], ["5"], regexes_to_ignore=[","]).tolist() == [1.0]
    assert A.exact_match(["5\x00"], ["5"], regexes_to_ignore=[]).tolist() == [0.0]
    assert A.exact_match([], []).shape == (0,)
    assert isinstance(A.exact_match(["a"], ["A"], ignore_case=True), np.ndarray)


def test_registry_metric_scores_a_preset():
    import nlgmetrics as nm

    gens = [["so 3 + 4 = 7.\n#### 1,234."], "#### 5", ["costs $12.50, then -3"]]
    targets = ["x\n#### 1234", "#### 6", "#### -3"]
    s = nm.load("extracted_exact_match").corpus_score(gens, targets)
    assert s.score == 1 / 3 and str(s.signature).startswith("preset:gsm8k/strict-match|ref:lm-eval-0.4.13|")
    flexible = nm.load("extracted_exact_match", preset="gsm8k/flexible-extract")
    assert flexible.sentence_scores(gens, targets).tolist() == [1.0, 0.0, 1.0]
    streamed = nm.load("extracted_exact_match", preset="gsm8k/flexible-extract")
    streamed.update(gens[:2], targets[:2]).update(gens[2:], targets[2:])
    assert streamed.compute().score == flexible.corpus_score(gens, targets).score == 2 / 3
    # a number is compared as str (lm-eval casts it); several golds: any of them
    assert nm.load("extracted_exact_match").sentence_scores(["#### 12", "#### 7", "#### 7"], [12, ["#### 6", "#### 7"], ["6"]]).tolist() == [1.0, 1.0, 0.0]
    with pytest.raises(InvalidOptionError, match="unknown preset"):
        nm.load("extracted_exact_match", preset="gsm8k")
    with pytest.raises(NlgMetricsError):
        nm.load("extracted_exact_match").corpus_score([["#### 1"]], [None])


def test_exact_match_with_regexes_to_ignore_equals_lm_eval_s_loop_on_generated_strings():
    """Each pattern compiled once: the same strings as ``re.sub(pattern, "", x)`` rebuilt into a
    numpy array per pattern (trailing NULs dropped each time), on strings made to hit that."""
    import random
    import re as _re

    from nlgmetrics.metrics.llm.answer_filters import exact_match as em

    rng = random.Random(5)
    pieces = ["1", "2,0", "$", "#### ", ".", "\x00", "a", "A", " ", "\n", "é", "x\x00"]
    preds = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(3000)]
    refs = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) for _ in range(3000)]
    patterns = [",", "\\$", "(?s).*#### ", "\\.$", "\x00"]
    p, r = preds, refs
    for s in patterns:
        p = np.array([_re.sub(s, "", x) for x in p])
        r = np.array([_re.sub(s, "", x) for x in r])
    want = (np.char.lower(p) == np.char.lower(r)).astype(np.float64)
    got = em(preds, refs, regexes_to_ignore=patterns, ignore_case=True)
    assert got.tolist() == want.tolist() and 0 < got.sum() < len(got)
