"""SQuAD v1.1 / v2.0 against the official evaluation scripts.

The goldens (tests/goldens/squad, made by scripts/goldens/make_squad_goldens.py) hold the
output of evaluate-v1.1.py and evaluate-v2.0.py run as programs on real captions, Chinese
translations and adversarial text; the hypothesis tests compare the normalisation with
the scripts' ``normalize_answer`` steps run by Python's own ``str.lower`` and ``re``.
"""

from __future__ import annotations

import collections
import json
import math
import pickle
import re
import string
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nlgmetrics
from nlgmetrics import SQuAD, SQuADv2
from nlgmetrics.cli.main import main
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from nlgmetrics.metrics.qa.squad import evaluate_official, normalize_answer

GOLDENS = Path(__file__).parent / "goldens" / "squad"
CASES = ("coco", "zh", "adversarial")


# -- the scripts' functions, step for step (Python's own str and re do the work) ----------------
def ref_normalize(s: str) -> str:
    s = s.lower()
    exclude = set(string.punctuation)
    s = "".join(ch for ch in s if ch not in exclude)
    s = re.sub(re.compile(r"\b(a|an|the)\b", re.UNICODE), " ", s)
    return " ".join(s.split())


def ref_f1_v1(pred: str, gold: str):
    p, g = ref_normalize(pred).split(), ref_normalize(gold).split()
    same = sum((collections.Counter(p) & collections.Counter(g)).values())
    if same == 0:
        return 0
    precision, recall = 1.0 * same / len(p), 1.0 * same / len(g)
    return (2 * precision * recall) / (precision + recall)


def ref_f1_v2(gold: str, pred: str):
    g = ref_normalize(gold).split() if gold else []
    p = ref_normalize(pred).split() if pred else []
    same = sum((collections.Counter(g) & collections.Counter(p)).values())
    if len(g) == 0 or len(p) == 0:
        return int(g == p)
    if same == 0:
        return 0
    precision, recall = 1.0 * same / len(p), 1.0 * same / len(g)
    return (2 * precision * recall) / (precision + recall)


def ref_v1(preds, golds):
    f1 = em = total = 0
    for p, gs in zip(preds, golds):
        total += 1
        em += max(ref_normalize(p) == ref_normalize(g) for g in gs)
        f1 += max(ref_f1_v1(p, g) for g in gs)
    return {"exact_match": 100.0 * em / total, "f1": 100.0 * f1 / total}


def load_case(name: str) -> dict:
    d = GOLDENS / name
    return {f: json.loads((d / f).read_text(encoding="utf-8")) for f in ("dev-v1.1.json", "dev-v2.0.json", "pred.json", "pred-v1.1.json", "na_prob.json", "expected.json")}


def questions(dataset: dict) -> list[tuple[str, list[str]]]:
    return [(qa["id"], [a["text"] for a in qa["answers"]]) for art in dataset["data"] for p in art["paragraphs"] for qa in p["qas"]]


# -- normalisation --------------------------------------------------------------------------------
def test_normalize_goldens():
    pairs = json.loads((GOLDENS / "normalize.json").read_text(encoding="utf-8"))
    assert len(pairs) > 3000
    texts = [t for t, _ in pairs]
    assert normalize_answer(texts) == [n for _, n in pairs]


TEXT = st.lists(st.sampled_from(list("aAnNtThHeE ,.-_'\t\u3000\xa0\x1c北京ΣσİéＴｈｅ，。😀\u0301١²x") + ["the", "an", "a", " a ", "The"]), max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=20) | TEXT, max_size=8))
def test_normalize_matches_python(texts):
    assert normalize_answer(texts) == [ref_normalize(t) for t in texts]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=4)), min_size=1, max_size=12))
def test_v1_matches_script_functions(rows):
    preds = [p for p, _ in rows]
    golds = [g for _, g in rows]
    assert SQuAD(n_threads=1).corpus_score(preds, golds).official == ref_v1(preds, golds)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, st.lists(TEXT, max_size=4), st.sampled_from([0.0, 0.3, 0.5, 0.9, 1.0])), min_size=1, max_size=12))
def test_v2_matches_script_functions(rows):
    preds = [p for p, _, _ in rows]
    golds = [g for _, g, _ in rows]
    na = [x for _, _, x in rows]
    ids = [f"q{i}" for i in range(len(rows))]
    dataset = {"version": "v2.0", "data": [{"paragraphs": [{"qas": [{"id": q, "answers": [{"text": t} for t in g]} for q, g in zip(ids, golds)]}]}]}
    got = evaluate_official(dataset, dict(zip(ids, preds)), dict(zip(ids, na)), na_prob_thresh=0.5)
    assert got == ref_v2_official(dataset, dict(zip(ids, preds)), dict(zip(ids, na)), 0.5)
    score = SQuADv2(na_prob_thresh=0.5).corpus_score(preds, golds, na_probs=na)
    assert score.official == got


def ref_v2_official(dataset, preds, na_probs, thresh):
    """evaluate-v2.0.py's main() on in-memory inputs (its functions, transcribed)."""
    qs = questions(dataset)
    has = {q: bool(g) for q, g in qs}
    exact, f1 = {}, {}
    for q, g in qs:
        golds = [a for a in g if ref_normalize(a)] or [""]
        exact[q] = max(int(ref_normalize(a) == ref_normalize(preds[q])) for a in golds)
        f1[q] = max(ref_f1_v2(a, preds[q]) for a in golds)

    def thr(scores):
        return {q: float(not has[q]) if na_probs[q] > thresh else s for q, s in scores.items()}

    et, ft = thr(exact), thr(f1)

    def block(ids):
        return {"exact": 100.0 * sum(et[k] for k in ids) / len(ids), "f1": 100.0 * sum(ft[k] for k in ids) / len(ids), "total": len(ids)}

    out = {"exact": 100.0 * sum(et.values()) / len(et), "f1": 100.0 * sum(ft.values()) / len(ft), "total": len(et)}
    for prefix, ids in (("HasAns", [k for k, v in has.items() if v]), ("NoAns", [k for k, v in has.items() if not v])):
        if ids:
            out.update({f"{prefix}_{k}": v for k, v in block(ids).items()})
    for name, scores in (("exact", exact), ("f1", f1)):
        cur = best = sum(1 for k in has if not has[k])
        at = 0.0
        for q in sorted(na_probs, key=lambda k: na_probs[k]):
            cur += scores[q] if has[q] else (-1 if preds[q] else 0)
            if cur > best:
                best, at = cur, na_probs[q]
        out[f"best_{name}"] = 100.0 * best / len(scores)
        out[f"best_{name}_thresh"] = at
    return out


# -- the official scripts' own output --------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("run", ["v1.1", "v2.0", "v2.0-na", "v2.0-na-t0.5"])
def test_cli_matches_official_scripts(case, run, capsys, monkeypatch):
    monkeypatch.chdir(GOLDENS / case)
    expected = load_case(case)["expected.json"][run]
    assert expected["returncode"] == 0
    args = expected["args"]
    argv = ["squad", "--data", args[0], "--pred", args[1]]
    rest = args[2:]
    if "-n" in rest:
        argv += ["--na-prob", rest[rest.index("-n") + 1]]
    if "-t" in rest:
        argv += ["--na-prob-thresh", rest[rest.index("-t") + 1]]
    assert main(argv) == 0
    got = capsys.readouterr()
    assert got.out == expected["stdout"]  # the same text: keys, order, float repr
    assert got.err == expected["stderr"]  # the scripts' messages (unanswered questions)


@pytest.mark.parametrize("case", CASES)
def test_api_matches_official_scripts(case):
    c = load_case(case)
    exp = c["expected.json"]
    qs = questions(c["dev-v1.1.json"])
    preds = [c["pred-v1.1.json"].get(q) for q, _ in qs]
    got = SQuAD().corpus_score(preds, [g for _, g in qs])
    assert got.official == json.loads(exp["v1.1"]["stdout"])
    assert (got.exact_match, got.f1, got.score) == (got.official["exact_match"], got.official["f1"], got.official["f1"])
    # v2.0 (ids unique in these cases except the adversarial's duplicates, which the script keys by id)
    by_id = dict(questions(c["dev-v2.0.json"]))
    ids = list(by_id)
    preds2 = [c["pred.json"][q] for q in ids]
    golds2 = [by_id[q] for q in ids]
    na = [c["na_prob.json"][q] for q in ids]
    assert SQuADv2().corpus_score(preds2, golds2).official == json.loads(exp["v2.0"]["stdout"])
    with_na = SQuADv2().corpus_score(preds2, golds2, na_probs=na).official
    want = json.loads(exp["v2.0-na"]["stdout"])
    # ties among the probabilities follow the file's order; here the file is in dataset order
    assert with_na == want
    assert SQuADv2(na_prob_thresh=0.5).corpus_score(preds2, golds2, na_probs=na).official == json.loads(exp["v2.0-na-t0.5"]["stdout"])


def test_evaluate_dict_shapes():
    c = load_case("zh")
    qs = list(dict(questions(c["dev-v2.0.json"])).items())
    refs = [{"id": q, "answers": {"text": g, "answer_start": [0] * len(g)}} for q, g in qs]
    preds = [{"id": q, "prediction_text": c["pred.json"][q], "no_answer_probability": c["na_prob.json"][q]} for q, _ in qs]
    assert SQuADv2().compute(predictions=preds, references=refs).official == json.loads(c["expected.json"]["v2.0-na"]["stdout"])
    v1_refs = [{"id": q, "answers": {"text": g}} for q, g in questions(c["dev-v1.1.json"])]
    v1_preds = [{"id": q, "prediction_text": t} for q, t in c["pred.json"].items()]
    assert SQuAD().compute(predictions=v1_preds, references=v1_refs).official == json.loads(c["expected.json"]["v1.1"]["stdout"])


class _Dict(dict):
    """A dict subclass: the core reads the exact JSON shapes only, so this takes the Python walk."""


def _python_shapes(obj):
    if isinstance(obj, dict):
        return _Dict({k: _python_shapes(v) for k, v in obj.items()})
    if isinstance(obj, list):
        return [_python_shapes(v) for v in obj]
    return obj


def _both_paths(dataset, preds, na=None, **options):
    """evaluate_official through the core's reader and through the Python walk: results
    (as JSON text, so 1 and 1.0 differ) and the messages each path gave."""
    out = []
    for data in (dataset, _python_shapes(dataset)):
        said = []
        got = evaluate_official(data, preds, na, warn=said.append, **options)
        out.append((json.dumps(got), said))
    return out


@pytest.mark.parametrize("case", CASES)
def test_core_dataset_reader_equals_the_python_walk(case):
    from nlgmetrics import _core

    c = load_case(case)
    runs = [(c["dev-v1.1.json"], c["pred-v1.1.json"], None, {}), (c["dev-v1.1.json"], c["pred.json"], None, {}),
            (c["dev-v2.0.json"], c["pred.json"], None, {}), (c["dev-v2.0.json"], c["pred.json"], c["na_prob.json"], {}),
            (c["dev-v2.0.json"], c["pred.json"], c["na_prob.json"], {"na_prob_thresh": 0.5})]
    for dataset, preds, na, options in runs:
        fast, slow = _both_paths(dataset, preds, na, **options)
        assert fast == slow
    # the core did read the exact shapes, and declined the others
    ids, golds = _core.squad_dataset_questions(c["dev-v2.0.json"]["data"])
    assert list(zip(ids, golds)) == questions(c["dev-v2.0.json"])
    assert _core.squad_dataset_questions(_python_shapes(c["dev-v2.0.json"])["data"]) is None
    assert _core.squad_dataset_v1(_python_shapes(c["dev-v1.1.json"])["data"], c["pred-v1.1.json"]) is None


def test_dataset_reader_edge_cases():
    from nlgmetrics import _core

    qa = lambda q, *answers: {"id": q, "answers": [{"text": a} for a in answers]}  # noqa: E731
    data = [{"paragraphs": [{"qas": [qa("a", "The Cat!"), qa("b"), qa("a", "x y"), qa("c", "北京", "ＡＢＣ")]}]}]
    v2 = {"version": "v2.0", "data": data}
    preds = {"a": "cat", "b": "", "c": "ＡＢＣ"}
    # duplicates keyed by id (first place, last answers), an unanswerable question, int probabilities
    fast, slow = _both_paths(v2, preds, {"c": 1, "a": 0.25, "b": 0})
    assert fast == slow
    ids, (rows, f1, ref_counts) = _core.squad_dataset_v2(data, preds)
    assert ids == ["a", "b", "c"] and ref_counts.tolist() == [1, 0, 2]  # "a": first place, last answers
    assert f1.tolist() == [0.0, 1.0, 1.0]
    assert _core.squad_dataset_v2(data, {"a": "cat", "c": "x"}) is None  # "b" unanswered: the Python path warns
    assert _core.squad_dataset_v2(_python_shapes(v2)["data"], preds) is None
    assert json.loads(fast[0])["best_exact_thresh"] in (0, 0.25, 1)
    # a question without a prediction nor a probability: 0.0, and the script's message
    fast, slow = _both_paths(v2, {"a": "cat", "c": "x"}, {"a": 0.5, "c": 0.5})
    assert fast == slow and fast[1] == ["Missing prediction for b"]
    # v1.1: the core declines missing predictions and questions without answers
    v1 = {"version": "1.1", "data": [{"paragraphs": [{"qas": [qa("a", "The Cat!"), qa("c", "北京")]}]}]}
    assert _core.squad_dataset_v1(v1["data"], {"a": "cat"}) is None
    assert _core.squad_dataset_v1(v1["data"], {"a": "cat", "c": 3}) is None
    assert _core.squad_dataset_v1(data, {"a": "cat", "b": "", "c": "x"}) is None  # "b" has no answers
    fast, slow = _both_paths(v1, {"a": "cat"})
    assert fast == slow and fast[1] == ["Unanswered question c will receive score 0."]
    fast, slow = _both_paths(v1, {"a": "the cat", "c": "北京"})
    assert fast == slow and json.loads(fast[0]) == {"exact_match": 100.0, "f1": 100.0}
    with pytest.raises(InvalidInputError, match="not a string"):
        evaluate_official(v1, {"a": "cat", "c": 3})
    for bad in (True, None, float("nan"), "0.5"):
        with pytest.raises(InvalidInputError, match="not a number"):
            evaluate_official(v2, preds, {"a": 0.1, "b": bad, "c": 0.2})
    with pytest.raises(InvalidInputError, match="no probability"):
        evaluate_official(v2, preds, {"a": 0.1, "c": 0.2})
    # an int beyond float64 is compared as the script compares it (above every float), not an OverflowError
    huge = evaluate_official(v2, preds, {"a": 10**400, "b": 0, "c": 0})
    same = evaluate_official(v2, preds, {"a": 2.0, "b": 0, "c": 0})  # above the threshold and sorted last too
    assert huge == {k: (10**400 if k.endswith("_thresh") and v == 2.0 else v) for k, v in same.items()}
    assert _core.squad_dataset_questions(None) is None
    assert _core.squad_dataset_questions([{"paragraphs": [{"qas": [{"id": 1, "answers": []}]}]}]) is None


# -- statistics: merge, streaming, bootstrap ------------------------------------------------------------
def _coco_v2():
    c = load_case("coco")
    by_id = dict(questions(c["dev-v2.0.json"]))
    ids = list(by_id)
    return [c["pred.json"][q] for q in ids], [by_id[q] for q in ids], [c["na_prob.json"][q] for q in ids], json.loads(c["expected.json"]["v2.0-na"]["stdout"])


def test_streaming_and_merge_give_the_same_bits():
    preds, golds, na, want = _coco_v2()
    m = SQuADv2()
    for i in range(0, len(preds), 97):
        m.update(preds[i : i + 97], golds[i : i + 97], na[i : i + 97])
    assert m.compute().official == want
    a, b = SQuADv2(), SQuADv2()
    a.update(preds[:250], golds[:250], na[:250])
    b.update(preds[250:], golds[250:], na[250:])
    assert a.merge(b).compute().official == want
    state = pickle.loads(pickle.dumps(a.state))
    assert SQuADv2().score_stats(state).official == want
    v1 = SQuAD()
    for i in range(0, len(preds), 50):
        v1.update(preds[i : i + 50], [g or ["x"] for g in golds[i : i + 50]])
    assert v1.compute().official == SQuAD(n_threads=1).corpus_score(preds, [g or ["x"] for g in golds]).official


def test_sums_alone_are_within_the_bound():
    preds, golds, na, want = _coco_v2()
    total = SQuADv2().stats(preds, golds, na).total().replace(sequence=None)
    s = SQuADv2().score_stats(total)
    assert s.exact == want["exact"] and s.HasAns_total == want["HasAns_total"]
    assert math.isclose(s.f1, want["f1"], rel_tol=len(preds) * 2**-52)
    assert "best_f1" not in s.official


def test_sentence_scores_bootstrap_and_registry():
    preds, golds, na, want = _coco_v2()
    sc = SQuADv2().sentence_scores(preds, golds)
    assert sc.shape == (len(preds),) and math.isclose(float(np.mean(sc)), want["f1"], rel_tol=1e-12)
    refs = [g or ["x"] for g in golds[:200]]
    ci = nlgmetrics.bootstrap_ci(SQuAD(), SQuAD().stats(preds[:200], refs), n_resamples=200, seed=1)
    point = SQuAD().corpus_score(preds[:200], refs).score
    assert ci.lower <= point <= ci.upper and ci.lower < ci.upper and ci.score.score == point
    ci2 = nlgmetrics.bootstrap_ci(SQuADv2(), SQuADv2().stats(preds, golds, na), n_resamples=100, seed=1)
    assert ci2.lower < want["f1"] < ci2.upper and ci2.score.score == want["f1"]
    test = nlgmetrics.paired_test(SQuAD(), refs, preds[:200], {"gold": [r[0] for r in refs]}, n_samples=100, seed=1)
    assert test.systems[0].score == point and test.systems[1].score == 100.0 and test.systems[1].p_value < 0.05
    assert nlgmetrics.load("squad").name == "squad" and nlgmetrics.load("squad_v2", na_prob_thresh=0.5).na_prob_thresh == 0.5
    assert SQuADv2().signature().format() != SQuAD().signature().format()
    assert "flavour:v2.0" in SQuADv2().signature().format()


def test_threads_do_not_change_results():
    preds, golds, na, _ = _coco_v2()
    one = SQuADv2(n_threads=1).stats(preds, golds, na)
    four = SQuADv2(n_threads=4).stats(preds, golds, na)
    assert np.array_equal(one.counts, four.counts) and np.array_equal(one.sums, four.sums)


# -- edge cases and errors --------------------------------------------------------------------------------
def test_edge_cases():
    # empty prediction against empty gold: v1.1 scores F1 0 (and exact 1), v2.0 scores both 1
    assert SQuAD().corpus_score([""], [["the"]]).official == {"exact_match": 100.0, "f1": 0.0}
    assert SQuADv2().corpus_score([""], [["the"]]).official["f1"] == 100.0
    assert SQuADv2().corpus_score(["  "], [[]]).official["NoAns_exact"] == 100.0
    # a missing prediction (None) scores 0 and counts
    assert SQuAD().corpus_score([None, "x"], [["x"], ["x"]]).official == {"exact_match": 50.0, "f1": 50.0}
    s = SQuADv2().corpus_score([None, ""], [[], []], na_probs=[0.0, 0.0])
    assert (s.exact, s.total, s.best_exact) == (50.0, 2, 100.0)
    # a single string is one gold answer; tuples work too
    assert SQuAD().corpus_score(["x"], ["x"]).exact_match == 100.0
    assert SQuAD().corpus_score(["x"], [("y", "x")]).exact_match == 100.0


def test_errors():
    with pytest.raises(InvalidInputError, match="no gold answer"):
        SQuAD().corpus_score(["x"], [[]])
    with pytest.raises(InvalidInputError, match="no questions"):
        SQuAD().corpus_score([], [])
    with pytest.raises(LengthMismatchError):
        SQuAD().corpus_score(["x", "y"], [["x"]])
    with pytest.raises(InputTypeError):
        SQuAD().corpus_score([3], [["x"]])
    with pytest.raises(InputTypeError):
        SQuAD().corpus_score(["x"], [[3]])
    with pytest.raises(InputTypeError):
        SQuAD().corpus_score("x", ["x"])
    with pytest.raises(InvalidOptionError):
        SQuAD().corpus_score(["x"], [["x"]], na_probs=[0.5])
    with pytest.raises(InvalidInputError, match="NaN"):
        SQuADv2().corpus_score(["x"], [["x"]], na_probs=[float("nan")])
    with pytest.raises(LengthMismatchError):
        SQuADv2().corpus_score(["x"], [["x"]], na_probs=[0.1, 0.2])
    with pytest.raises(InvalidOptionError):
        SQuADv2(na_prob_thresh="high")
    m = SQuADv2()
    m.update(["x"], [["x"]], [0.5])
    m.update(["x"], [["x"]])
    with pytest.raises(InvalidInputError, match="for all or none"):
        m.compute()
    with pytest.raises(InvalidInputError, match="nothing to score"):
        SQuAD().compute()


def test_cli_errors(tmp_path, capsys):
    data = tmp_path / "dev.json"
    data.write_text(json.dumps({"version": "v2.0", "data": [{"paragraphs": [{"qas": [{"id": "a", "answers": []}, {"id": "b", "answers": [{"text": "x"}]}]}]}]}))
    bad = tmp_path / "pred.json"
    bad.write_text('{"a": "x",\n "b": }')
    assert main(["squad", "--data", str(data), "--pred", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pred.json" in err and "line 2 column 7" in err
    pred = tmp_path / "p.json"
    pred.write_text('{"b": "x"}')
    assert main(["squad", "--data", str(data), "--pred", str(pred)]) == 0
    got = capsys.readouterr()
    assert got.err == "Missing prediction for a\n"
    assert json.loads(got.out)["total"] == 2 and json.loads(got.out)["exact"] == 50.0
    na = tmp_path / "na.json"
    na.write_text('{"b": 0.5}')
    assert main(["squad", "--data", str(data), "--pred", str(pred), "--na-prob", str(na), "--out-file", str(tmp_path / "o.json")]) == 0
    assert json.loads((tmp_path / "o.json").read_text())["best_f1_thresh"] in (0.0, 0.5)
    na.write_text('{"x": 0.5}')
    assert main(["squad", "--data", str(data), "--pred", str(pred), "--na-prob", str(na)]) == 1
    assert "no probability for question b" in capsys.readouterr().err
    assert main(["squad", "--data", str(data), "--pred", str(pred), "--version", "1.1", "--na-prob", str(na)]) == 2
    assert main(["squad", "--data", str(tmp_path / "missing.json"), "--pred", str(pred)]) == 1
    pred.write_text('{"b": 3}')
    assert main(["squad", "--data", str(data), "--pred", str(pred)]) == 1
    assert "not a string" in capsys.readouterr().err


def test_word_table_is_pythons_re_word_class():
    """The core's ``\\w`` table against Python's ``re`` on every code point: ``"the" + c``
    keeps its article exactly when ``c`` continues the word."""
    word = re.compile(r"\w")
    cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    got = normalize_answer(["the" + chr(c) for c in cps])
    wrong = [hex(c) for c, n in zip(cps, got) if chr(c) not in string.punctuation and n.startswith("the") != (word.match(chr(c)) is not None)]
    assert not wrong, wrong[:20]
    # and str.lower of every code point (Python's Unicode database, not Rust's newer one)
    texts = ["X" + chr(c) + chr(c).upper() for c in cps]
    wrong = [ascii(t) for t, n in zip(texts, normalize_answer(texts)) if n != ref_normalize(t)]
    assert not wrong, wrong[:20]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(["x", "y", "z", "w", "the", "X,", "y.", "北京", "ß"]), min_size=20, max_size=90).map(" ".join),
                          st.lists(st.lists(st.sampled_from(["x", "y", "z", "q", "a", "Y", "北京"]), min_size=20, max_size=90).map(" ".join), min_size=1, max_size=3)),
                min_size=1, max_size=5))
def test_long_answers_match_script_functions(rows):
    """Answers long enough for the sorted token count (short ones pair tokens directly)."""
    preds = [p for p, _ in rows]
    golds = [g for _, g in rows]
    assert SQuAD(n_threads=1).corpus_score(preds, golds).official == ref_v1(preds, golds)
