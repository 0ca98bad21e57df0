"""ragas_string / ragas_context / tool_call_f1 against ragas 0.4.3's own metric classes
(goldens made by scripts/goldens/ragas_goldens.py), and the string distances against
rapidfuzz itself where it is installed."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nlgmetrics import InputTypeError, InvalidInputError, InvalidOptionError, RagasContext, RagasString, tool_call_f1
from nlgmetrics.metrics.programs._ragas_distances import MEASURES, normalized_distance
from nlgmetrics.registry import load

GOLDENS = Path(__file__).parent / "goldens" / "ragas"
STRING = json.loads((GOLDENS / "string.json").read_text(encoding="utf-8"))
CONTEXT = json.loads((GOLDENS / "context.json").read_text(encoding="utf-8"))


def _metric(name: str) -> RagasString:
    flavour, *opts = name.split(":")
    if flavour == "non_llm_string_similarity":
        return RagasString(flavour, distance_measure=opts[0])
    if flavour == "rouge_score":
        return RagasString(flavour, rouge_type=opts[0], mode=opts[1])
    return RagasString(flavour)


@pytest.mark.parametrize("name", sorted(STRING["values"]))
def test_string_metrics_equal_to_ragas(name):
    responses = [p["response"] for p in STRING["pairs"]]
    refs = [p["reference"] for p in STRING["pairs"]]
    gold = STRING["values"][name]
    m = _metric(name)
    ok = [i for i, v in enumerate(gold) if not isinstance(v, dict)]
    got = m.sentence_scores([responses[i] for i in ok], [[refs[i]] for i in ok]).tolist()
    assert got == [gold[i] for i in ok]
    for i, v in enumerate(gold):
        if isinstance(v, dict):  # ragas raises (sacrebleu's stream lengths): a typed error here
            with pytest.raises(InvalidInputError):
                m.sentence_scores([responses[i]], [[refs[i]]])
    if STRING["means"][name] is not None:
        assert m.corpus_score(responses, [[r] for r in refs]).score == STRING["means"][name]


@pytest.mark.parametrize("name", sorted(k for k in CONTEXT["values"] if not k.startswith("id_based")))
def test_non_llm_context_metrics_equal_to_ragas(name):
    flavour, dist, threshold = name.split(":")
    m = RagasContext(flavour, distance_measure=dist, threshold=float(threshold))
    for s, gold in zip(CONTEXT["samples"], CONTEXT["values"][name]):
        if isinstance(gold, dict):
            with pytest.raises(InvalidInputError, match="empty list"):
                m.stats([s["retrieved"]], [s["reference"]])
        elif gold is None:
            assert m.stats([s["retrieved"]], [s["reference"]]).counts.tolist() == [[0, 1]]
        else:
            assert m.sentence_scores([s["retrieved"]], [s["reference"]]).tolist() == [gold]


@pytest.mark.parametrize("flavour", ["id_based_context_precision", "id_based_context_recall"])
def test_id_based_context_metrics_equal_to_ragas(flavour):
    samples = CONTEXT["id_samples"]
    gold = CONTEXT["values"][flavour]
    m = RagasContext(flavour)
    seg = m.stats([s["retrieved"] for s in samples], [s["reference"] for s in samples])
    got = [None if undefined else v for (_, undefined), v in zip(seg.counts.tolist(), seg.sums[:, 0].tolist())]
    assert got == gold
    s = m.score_stats(seg)
    assert s.score == CONTEXT[f"{flavour}_mean"] and s.undefined == sum(g is None for g in gold)


def test_tool_call_f1_equal_to_ragas():
    for case in json.loads((GOLDENS / "tool_call_f1.json").read_text(encoding="utf-8")):
        assert tool_call_f1([tuple(c) for c in case["actual"]], [tuple(c) for c in case["expected"]]) == case["value"]


rapidfuzz = pytest.importorskip("rapidfuzz")


@settings(max_examples=300, deadline=None)
@given(a=st.text(st.sampled_from(list("abcab é\u0301漢")), max_size=90), b=st.text(st.sampled_from(list("abcab é\u0301漢")), max_size=90))
def test_distances_equal_to_rapidfuzz(a, b):
    from rapidfuzz import distance as d

    ref = {"levenshtein": d.Levenshtein, "hamming": d.Hamming, "jaro": d.Jaro, "jaro_winkler": d.JaroWinkler}
    for m in MEASURES:
        assert normalized_distance(m, a, b) == ref[m].normalized_distance(a, b), m


def test_known_values_registry_and_bad_input():
    assert RagasString("non_llm_string_similarity").sentence_scores(["kitten"], ["sitting"]).tolist() == [1 - 3 / 7]
    assert load("ragas_context", flavour="id_based_context_recall").corpus_score([[1, 2]], [["2", 3]]).score == 0.5
    s = RagasContext("id_based_context_precision").corpus_score([[], [1]], [[1], [1]])
    assert (s.score, s.undefined, s.samples) == (1.0, 1, 2)
    with pytest.raises(InvalidInputError, match="NaN"):
        RagasContext("id_based_context_precision").sentence_scores([[]], [[1]])
    with pytest.raises(InvalidInputError, match="NaN"):
        RagasContext("id_based_context_recall").corpus_score([[1]], [[]])
    with pytest.raises(InvalidOptionError):
        RagasString("faithfulness")
    with pytest.raises(InvalidOptionError):
        RagasContext(threshold=math.nan)
    with pytest.raises(InputTypeError):
        RagasContext().corpus_score(["a"], [["a"]])
    with pytest.raises(InvalidInputError, match="one reference"):
        RagasString().corpus_score(["a"], [["a", "b"]])


def test_cli_ragas_string(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    (tmp_path / "hyp.txt").write_text("kitten\nmartha\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("sitting\nmarhta\n", encoding="utf-8")
    assert main(["score", "-m", "ragas_string", "--ragas-flavour", "non_llm_string_similarity", "--ragas-distance", "jaro_winkler",
                 "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    want = RagasString("non_llm_string_similarity", distance_measure="jaro_winkler").corpus_score(["kitten", "martha"], ["sitting", "marhta"])
    assert out["score"] == want.score and "dist:jaro_winkler" in out["signature"]


def test_multi_ref_first_and_best():
    m = RagasString("non_llm_string_similarity", multi_ref="best")
    assert m.sentence_scores(["kitten"], [["sitting", "kitten"]]).tolist() == [1.0]
    assert RagasString("non_llm_string_similarity", multi_ref="first").sentence_scores(["kitten"], [["sitting", "kitten"]]).tolist() == [1 - 3 / 7]
    assert "multiref:best" in str(m.signature())
