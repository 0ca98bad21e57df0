"""PARENT: golden values of the reference implementation (google-research/language
table_text_eval.py) on E2E system outputs, a direct statement of the formulas on
hypothesis inputs, merging, input forms, errors and the command line."""

from __future__ import annotations

import csv
import json
import math
import pickle
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nlgmetrics
from nlgmetrics import Parent, parent, parse_mr
from nlgmetrics.cli.main import main as cli_main
from nlgmetrics.errors import (
    InputTypeError, InvalidInputError, InvalidOptionError, InvalidTextError, LengthMismatchError, MissingReferenceError,
)

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "parent" / "parent_e2e.json").read_text())


@pytest.fixture(scope="module")
def e2e(corpora):
    """Test-set MRs, their grouped references, and the outputs of the golden systems."""
    d = corpora / "e2e"
    with open(d / "testset.csv", encoding="utf-8", newline="") as f:
        mrs = [r["MR"] for r in csv.DictReader(f)]
    grouped: dict[str, list[str]] = {}
    with open(d / "testset_w_refs.csv", encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            grouped.setdefault(r["mr"], []).append(r["ref"])
    systems = {}
    for key in GOLDENS["results"]:
        name = key.split("/")[1]
        with open(d / "system_outputs_primary" / f"{name}.tsv", encoding="utf-8-sig", newline="") as f:
            rows = [r for r in csv.reader(f, delimiter="\t") if r]
        systems[name] = [r[1] for r in rows[1:]]
    return mrs, [grouped[m] for m in mrs], systems


def triples(mr: str) -> list[tuple[str, str, str]]:
    pairs = parse_mr(mr)
    name = dict(pairs)["name"]
    return [(name, a, v) for a, v in pairs if a != "name"]


def test_goldens_cover_systems_and_options():
    keys = GOLDENS["results"]
    assert len({k.split("/")[1] for k in keys}) >= 5
    assert {k.split("/")[2] for k in keys} == set(GOLDENS["configs"])
    assert any(k.startswith("triples/") for k in keys)
    assert all(len(v["segment_f"]) == 630 for v in keys.values())


@pytest.mark.parametrize("key", sorted(GOLDENS["results"]))
def test_reference_goldens(e2e, key):
    mrs, refs, systems = e2e
    kind, system, config = key.split("/")
    gold = GOLDENS["results"][key]
    tables = mrs if kind == "pairs" else [triples(m) for m in mrs]
    m = Parent(**GOLDENS["configs"][config])
    seg = m.stats(systems[system], refs, tables)
    # per segment: bit-identical to the reference
    assert np.array_equal(m._sentence_scores(seg), np.array(gold["segment_f"]))
    s = m.score_stats(seg.total())
    # corpus: the reference sums left to right, nlgmetrics exactly
    for field in ("precision", "recall", "f"):
        assert getattr(s, field) == pytest.approx(gold[field], rel=1e-12, abs=0), field
    assert s.score == s.f and s.segments == 630


# -- the formulas, stated directly ----------------------------------------------------------
def direct_parent(pred, refs, table, lam, smoothing, max_order):
    """PARENT of one segment from the paper's definitions, in the reference's float order."""
    pred = pred.lower().split()
    table = [[m.lower().split() for m in entry] for entry in table]
    values = [e[1] if len(e) == 2 else e[0] + e[2] for e in table]
    vocab = {t for v in values for t in v}

    def entail(g):
        return sum(t in vocab for t in g) / len(g)

    def lcs(x, y):
        row = [0] * (len(y) + 1)
        for a in x:
            prev_diag, row[0] = 0, 0
            for j, b in enumerate(y, 1):
                prev_diag, row[j] = row[j], prev_diag + 1 if a == b else max(row[j], row[j - 1])
        return row[-1]

    def mention(text):
        return sum(lcs(v, text) / len(v) for v in values) / len(values)

    def grams(seq, n):
        return Counter(tuple(seq[i:i + n]) for i in range(len(seq) - n + 1))

    best = None
    for ref in refs:
        ref = ref.lower().split()
        ps, rs = [], []
        for n in range(1, max_order + 1):
            pc, rc = grams(pred, n), grams(ref, n)
            num = den = 0.0
            for g, c in pc.items():
                den += c
                q = min(1.0, rc[g] / c)
                num += c * (q + (1.0 - q) * entail(g))
            ps.append(num / den if den else 0.0)
            num = den = 0.0
            for g, c in rc.items():
                q = min(1.0, pc[g] / c)
                den += c * entail(g)
                num += c * entail(g) * q
            rs.append(num / den if den else 1.0)
        ps = ps[:1] + [p or smoothing for p in ps[1:]]
        rs = rs[:1] + [r or smoothing for r in rs[1:]]
        w = 1.0 / max_order
        p = 0.0 if 0.0 in ps else math.exp(math.fsum(w * math.log(x) for x in ps))
        ref_rec = smoothing if 0.0 in rs else math.exp(math.fsum(w * math.log(x) for x in rs))
        table_rec = mention(pred) or smoothing
        if ref_rec == 0.0 or table_rec == 0.0:
            r = 0.0
        else:
            lw = 1.0 - mention(ref) if lam is None else lam
            r = math.exp((1.0 - lw) * math.log(ref_rec) + lw * math.log(table_rec))
        f = 2.0 * p * r / (p + r + 1e-8)
        if best is None or f > best[2]:
            best = (p, r, f, ref_rec, table_rec)
    return best


WORDS = st.sampled_from(["a", "b", "c", "D", "e", "f"])
TEXT = st.lists(WORDS, max_size=9).map(" ".join)
PAIR = st.tuples(WORDS, st.lists(WORDS, min_size=1, max_size=3).map(" ".join))
TRIPLE = st.tuples(st.lists(WORDS, min_size=1, max_size=2).map(" ".join), WORDS, st.lists(WORDS, max_size=2).map(" ".join))
SEGMENT = st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3), st.one_of(st.lists(PAIR, min_size=1, max_size=4), st.lists(TRIPLE, min_size=1, max_size=4)))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(SEGMENT, min_size=1, max_size=6),
    st.sampled_from([None, 0.0, 0.5, 1.0]),
    st.sampled_from([0.0, 0.00001, 0.1]),
    st.integers(1, 4),
)
def test_direct_statement(segments, lam, smoothing, max_order):
    preds = [s[0] for s in segments]
    refs = [s[1] for s in segments]
    tables = [s[2] for s in segments]
    m = Parent(lambda_weight=lam, smoothing=smoothing, max_order=max_order)
    seg = m.stats(preds, refs, tables)
    expected = np.array([direct_parent(p, r, t, lam, smoothing, max_order) for p, r, t in zip(preds, refs, tables)])
    assert np.array_equal(seg.sums, expected)
    s = m.score_stats(seg.total())
    assert s.score == pytest.approx(expected[:, 2].mean(), rel=1e-12, abs=1e-300)


def test_known_values():
    table = [("name", "michael dahlquist"), ("birth date", "december 22 1965"), ("occupation", "drummer")]
    pred = "michael dahlquist ( december 22 , 1965 ) was a drummer"
    ref = "michael dahlquist ( december 22 , 1965 -- march 14 , 2005 ) was an american drummer"
    s = Parent().corpus_score([pred], [[ref]], [table])
    # every value is in the prediction; "(", ")", "was", "a" are neither in the table nor all in the reference
    assert s.table_recall == 1.0 and round(s.precision, 4) == 0.7510 and round(s.recall, 4) == 0.8981
    assert s.score == pytest.approx(2 * s.precision * s.recall / (s.precision + s.recall + 1e-8), rel=1e-15)


def test_merge_shards_and_pickle(e2e):
    mrs, refs, systems = e2e
    outs, refs, mrs = systems["tgen"][:200], refs[:200], mrs[:200]
    m = Parent(lambda_weight=None)
    whole = m.corpus_score(outs, refs, mrs)
    parts = [m.stats(outs[i:i + 70], refs[i:i + 70], mrs[i:i + 70]).total() for i in range(0, 200, 70)]
    assert m.score_stats(sum(parts)).score == whole.score
    assert m.score_stats(pickle.loads(pickle.dumps(sum(parts)))).score == whole.score
    streamed = Parent(lambda_weight=None)
    for i in range(0, 200, 70):
        streamed.update(outs[i:i + 70], refs[i:i + 70], mrs[i:i + 70])
    assert streamed.compute().score == whole.score
    assert Parent(n_threads=1).corpus_score(outs, refs, mrs).score == Parent(n_threads=2).corpus_score(outs, refs, mrs).score


def test_input_forms_and_options():
    pred, refs = "Blue Spice is a coffee shop.", ["Blue Spice is a coffee shop in the city centre."]
    mr = "name[Blue Spice], eatType[coffee shop], area[city centre]"
    pairs = parse_mr(mr)
    a = Parent().corpus_score([pred], [refs], [mr]).score
    assert a == Parent().corpus_score([pred], [refs], [pairs]).score == Parent().corpus_score([pred], [refs[0]], [dict(pairs)]).score
    assert parent([pred], [refs], [mr]).score == a
    assert nlgmetrics.load("parent", lambda_weight=None).corpus_score([pred], [refs], [mr]).score != a
    assert Parent(lowercase=False).corpus_score(["BLUE spice"], [["blue spice"]], [[("name", "blue spice")]]).precision < 1
    sig = Parent(lambda_weight=None).corpus_score([pred], [refs], [mr]).signature.format()
    assert "lambda:auto" in sig and "entail:overlap" in sig and "nrefs:1" in sig
    assert Parent().sentence_scores([pred, "x"], [refs, refs], [mr, mr]).shape == (2,)


@pytest.mark.parametrize("options", [{"lambda_weight": 1.5}, {"lambda_weight": "a"}, {"smoothing": -1},
                                     {"max_order": 0}, {"max_order": 2.0}, {"n_threads": -1}])
def test_bad_options(options):
    with pytest.raises(InvalidOptionError):
        Parent(**options)


def test_errors():
    m = Parent()
    ok = [("name", "x")]
    with pytest.raises(InputTypeError):
        m.corpus_score(["a"], [["a"]])
    with pytest.raises(LengthMismatchError):
        m.corpus_score(["a", "b"], [["a"], ["b"]], [ok])
    with pytest.raises(InvalidInputError, match="empty"):
        m.corpus_score(["a"], [["a"]], [[]])
    with pytest.raises(InvalidInputError, match="pair"):
        m.corpus_score(["a"], [["a"]], [[("name", "x"), ("h", "r", "t")]])
    with pytest.raises(InvalidInputError, match="empty value"):
        m.corpus_score(["a"], [["a"]], [[("name", "  ")]])
    with pytest.raises(InputTypeError):
        m.corpus_score(["a"], [["a"]], [[("name",)]])
    with pytest.raises(InputTypeError):
        m.corpus_score(["a"], [["a"]], [[("name", 3)]])
    with pytest.raises(InputTypeError):
        m.corpus_score(["a"], [["a"]], [5])
    with pytest.raises(MissingReferenceError):
        m.corpus_score(["a"], [[]], [ok])
    with pytest.raises(InvalidTextError):
        m.corpus_score(["a\ud800"], [["a"]], [ok])
    with pytest.raises(InvalidOptionError):
        m.pairwise(["a"], ["b"])
    with pytest.raises(InvalidInputError):
        Parent().compute()


def test_cli_jsonl(tmp_path, capsys, e2e):
    mrs, refs, systems = e2e
    path = tmp_path / "d2t.jsonl"
    rows = [{"prediction": p, "references": r, "table": t} for p, r, t in zip(systems["tgen"][:40], refs, mrs)]
    rows[1]["table"] = parse_mr(mrs[1])  # records as JSON lists
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert cli_main(["score", "--jsonl", str(path), "-m", "parent", "bleu", "-f", "json", "--parent-lambda", "auto"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = Parent(lambda_weight=None).corpus_score(systems["tgen"][:40], refs[:40], mrs[:40])
    assert out[0]["name"] == "PARENT" and out[0]["score"] == expected.score and out[0]["recall"] == expected.recall
    assert out[1]["name"] == "BLEU"
    assert cli_main(["score", "--jsonl", str(path), "-m", "parent", "-sl", "-f", "json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["score"] for x in lines] == list(Parent().sentence_scores(systems["tgen"][:40], refs[:40], mrs[:40]))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"prediction": "a", "references": ["a"]}) + "\n", encoding="utf-8")
    assert cli_main(["score", "--jsonl", str(bad), "-m", "parent"]) == 1
    assert "table" in capsys.readouterr().err
    hyp = tmp_path / "h.txt"
    hyp.write_text("a\n", encoding="utf-8")
    assert cli_main(["score", "-i", str(hyp), "-r", str(hyp), "-m", "parent"]) == 2
