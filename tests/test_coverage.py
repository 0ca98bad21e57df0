"""Data-to-text item coverage on the E2E challenge outputs (21 systems)."""

from __future__ import annotations

import csv
import re
import unicodedata

import numpy as np
import pytest

from nlgmetrics import Coverage, coverage, parse_mr
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError


def read_system(path):
    # utf-8-sig: two files start with a BOM; one has CR CR LF line ends (blank rows).
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r]
    return [r[0] for r in rows[1:]], [r[1] for r in rows[1:]]


@pytest.fixture(scope="module")
def e2e(corpora):
    """System outputs paired with the canonical test-set MRs (some systems re-quote MRs)."""
    with open(corpora / "e2e" / "testset.csv", encoding="utf-8", newline="") as f:
        mrs = [r["MR"] for r in csv.DictReader(f)]
    d = corpora / "e2e" / "system_outputs_primary"
    out = {}
    for p in sorted(d.glob("*.tsv")):
        sys_mrs, outs = read_system(p)
        assert [m.strip("'\"") for m in sys_mrs] == mrs, p.name
        out[p.stem] = (mrs, outs)
    return out


def direct(mrs, outputs, match):
    """The rules of the module docstring, written out independently."""
    def norm(s):
        return " ".join(unicodedata.normalize("NFKC", s).casefold().split())

    def toks(s):
        return re.findall(r"\w+|[^\w\s]", s)

    props = []
    for mr, out in zip(mrs, outputs):
        values = [m.group(2) for m in re.finditer(r"([^\[\],]+?)\s*\[([^\]]*)\]", mr)]
        text = norm(out)
        t = toks(text)
        hits = 0
        for v in values:
            v = norm(v)
            if match == "substring":
                hits += v in text
            elif match == "token_subset":
                hits += all(x in t for x in toks(v))
            else:
                k = toks(v)
                hits += any(t[i:i + len(k)] == k for i in range(len(t) - len(k) + 1))
        props.append(hits / len(values))
    return sum(props) / len(props), props


def test_e2e_has_21_systems(e2e):
    assert len(e2e) == 21 and all(len(v[0]) == 630 for v in e2e.values())


@pytest.mark.parametrize("match", ["substring", "token_sequence", "token_subset"])
def test_e2e_against_direct_rules(e2e, match):
    m = Coverage(match=match)
    for name, (mrs, outs) in e2e.items():
        expected, props = direct(mrs, outs, match)
        s = m.corpus_score(outs, mrs)
        assert s.score == pytest.approx(expected, rel=1e-12), name
        assert np.array_equal(m.sentence_scores(outs, mrs), props)
        assert 0 < s.score <= 1 and s.documents == 630


def test_rules_and_parsing():
    assert parse_mr("name[Blue Spice], eatType[coffee shop], priceRange[£20-25]") == [
        ("name", "Blue Spice"), ("eatType", "coffee shop"), ("priceRange", "£20-25")]
    assert Coverage(match="substring").corpus_score(["the barbecue"], [["bar"]]).score == 1.0
    assert Coverage(match="token_sequence").corpus_score(["the barbecue"], [["bar"]]).score == 0.0
    assert Coverage(match="token_subset").corpus_score(["spice is blue"], [["Blue Spice"]]).score == 1.0
    assert Coverage(match="token_sequence").corpus_score(["spice is blue"], [["Blue Spice"]]).score == 0.0
    assert Coverage(lowercase=False).corpus_score(["blue spice"], [["Blue Spice"]]).score == 0.0
    assert Coverage().corpus_score(["ｂｌｕｅ  spice"], [[("name", "Blue Spice")]]).score == 1.0
    assert Coverage(normalize=None).corpus_score(["ｂｌｕｅ spice"], [["Blue Spice"]]).score == 0.0
    s = coverage(["a b", "c"], [["a", "b", "x"], ["c"]])
    assert s.score == (2 / 3 + 1) / 2 and s.micro == 3 / 4
    assert "match:substring" in str(s.signature)


def test_merge():
    m = Coverage()
    a = m.stats(["a b"], [["a", "z"]]).total()
    b = m.stats(["c"], [["c"]]).total()
    assert m.score_stats(a + b).score == m.score_stats(b + a).score == 0.75
    m.update(["a b"], [["a", "z"]]).update(["c"], [["c"]])
    assert m.compute().score == 0.75


def test_errors():
    with pytest.raises(InvalidOptionError):
        Coverage(match="fuzzy")
    with pytest.raises(InvalidOptionError):
        Coverage(normalize="NFX")
    with pytest.raises(LengthMismatchError):
        coverage(["a"], [])
    with pytest.raises(InvalidInputError):
        coverage(["a"], [[]])
    with pytest.raises(InvalidInputError):
        coverage(["a"], ["name[Blue"])
    with pytest.raises(InputTypeError):
        coverage(["a"], [[3]])
    with pytest.raises(InvalidInputError):
        coverage(["a"], [["  "]])


# -- Wiseman et al. 2017 content selection / ordering -----------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402
from pyxdameraulevenshtein import damerau_levenshtein_distance, normalized_damerau_levenshtein_distance  # noqa: E402

from nlgmetrics import ContentSelectionOrdering  # noqa: E402
from nlgmetrics.metrics.coverage import osa_distance  # noqa: E402


def wiseman(pred_docs, gold_docs):
    """``non_rg_metrics.py`` (harvardnlp/data2text) with exact record matching, in Python 3."""
    def dedup(ts):
        return [t for i, t in enumerate(ts) if not any(t == ts[j] for j in range(i))]

    pred_docs = [dedup(p) for p in pred_docs]
    gold_docs = [dedup(g) for g in gold_docs]
    tp = sum(sum(1 for t in p if any(t == u for u in g)) for p, g in zip(pred_docs, gold_docs))
    n_pred = sum(map(len, pred_docs))
    n_gold = sum(map(len, gold_docs))
    total = 0
    for l1, l2 in zip(pred_docs, gold_docs):
        s1 = "".join(chr(i) for i in range(len(l1)))
        s2, nxt = "", len(s1)
        for t in l2:
            found = next((s1[k] for k in range(len(l1)) if t == l1[k]), None)
            if found is None:
                s2 += chr(nxt)
                nxt += 1
            else:
                s2 += found
        total += 1.0 - normalized_damerau_levenshtein_distance(s1, s2)
    return tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0, total / len(pred_docs)


records = st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(0, 3)), max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(records, records), min_size=1, max_size=5))
def test_wiseman_parity(docs):
    pred, gold = [p for p, _ in docs], [g for _, g in docs]
    p, r, co = wiseman(pred, gold)
    s = ContentSelectionOrdering().corpus_score(pred, gold)
    assert (s.precision, s.recall) == (p, r)
    assert s.ordering == pytest.approx(co, rel=1e-12, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.text("abcd", max_size=9), st.text("abcd", max_size=9))
def test_osa_matches_pyxdameraulevenshtein(a, b):
    assert osa_distance(a, b) == damerau_levenshtein_distance(a, b)


def test_content_selection_merge_and_errors():
    m = ContentSelectionOrdering()
    a = m.stats([[("x", 1)]], [[("x", 1), ("y", 2)]]).total()
    b = m.stats([[("z", 1)]], [[("y", 2)]]).total()
    assert m.score_stats(a + b).recall == m.score_stats(b + a).recall == 1 / 3
    with pytest.raises(LengthMismatchError):
        m.corpus_score([[]], [])
    with pytest.raises(InputTypeError):
        m.corpus_score("ab", ["ab"])
