"""Every number read from a file is read as Python reads it.

The core's reader of evaluate-v2.0.py's no-answer probabilities file against Python's own
``json.loads``, on thousands of generated numbers: random doubles written by ``repr`` /
``json.dumps`` and with more digits, the exact decimal midpoints between neighbouring doubles
(and a hair either side), subnormals, exponents, ``-0``, integers past 2**53 and beyond
float64. The core keeps a value only when it is bit for bit Python's; what it does not keep
(an int past 2**53, ``-0``, a number out of range) takes the general path, and the scores
are the official script's, which compares ints and floats exactly.
"""

from __future__ import annotations

import json
import math
import random
import struct
from decimal import Decimal
from pathlib import Path

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.metrics.qa.squad import _from_files, evaluate_official, evaluate_official_files


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def from_bits(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def finite_doubles(rng: random.Random, n: int, *, subnormal: bool = False) -> list[float]:
    out = []
    while len(out) < n:
        b = rng.getrandbits(64)
        if subnormal:
            b &= (1 << 63) | ((1 << 52) - 1)  # exponent 0
        x = from_bits(b)
        if math.isfinite(x) and x != 0:
            out.append(x)
    return out


def midpoint_literals(rng: random.Random, n: int) -> list[str]:
    """The exact decimal halfway between a double and the next (ties round to even), and the
    shortest decimals a hair below and above it."""
    out = []
    for x in finite_doubles(rng, n) + finite_doubles(rng, n // 4, subnormal=True):
        x = abs(x)
        mid = (Decimal(x) + Decimal(math.nextafter(x, math.inf))) / 2
        if not math.isfinite(math.nextafter(x, math.inf)):
            continue
        e = mid.adjusted() - 40
        out += [format(mid, "e"), format(mid - Decimal(f"1e{e}"), "e"), format(mid + Decimal(f"1e{e}"), "e")]
    return out


def float_literals(seed: str) -> list[str]:
    rng = random.Random(seed)
    xs = finite_doubles(rng, 3000) + finite_doubles(rng, 500, subnormal=True)
    xs += [rng.random() for _ in range(3000)]  # probabilities, as models write them
    lits = [repr(x) for x in xs] + [json.dumps(x) for x in xs[:500]]
    lits += ["%.17g" % x for x in xs[:1000]] + ["%.25e" % x for x in xs[1000:1500]] + ["%.40f" % x for x in xs[6000:6500]]
    lits += midpoint_literals(rng, 1500)
    lits += ["0.22323896460701453", "0.2232389646070145", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
             "1e-400", "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623158e308",
             "0.1", "0.30000000000000004", "1E5", "1e+5", "-1.5E-3", "123456789012345678901234567890.5", "0.000000000000000000001",
             "9007199254740993.0", "1" + "0" * 300 + ".0", "0." + "3" * 800, "0.0", "1.0", "0", "7", "-3", "9007199254740991", "-9007199254740991"]
    return lits


def write_files(tmp: Path, na_text: str, n: int, answered: dict[int, str] | None = None) -> tuple[Path, Path, Path]:
    """A v2.0 dataset of ``n`` questions (odd ones unanswerable), predictions and the
    probabilities file's text."""
    qas = [{"id": f"q{i}", "question": "?", "answers": [] if i % 2 else [{"text": "cat", "answer_start": 0}]} for i in range(n)]
    data = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": "cat", "qas": qas}]}]}
    preds = {f"q{i}": (answered or {}).get(i, "cat" if i % 3 else "") for i in range(n)}
    d, p, na = tmp / "d.json", tmp / "p.json", tmp / "na.json"
    d.write_text(json.dumps(data), encoding="utf-8")
    p.write_text(json.dumps(preds), encoding="utf-8")
    na.write_text(na_text, encoding="utf-8")
    return d, p, na


def na_text(literals: list[str]) -> str:
    return "{" + ", ".join(f'"q{i}": {lit}' for i, lit in enumerate(literals)) + "}"


def general(d: Path, p: Path, na: Path, thresh: float = 1.0) -> dict:
    load = lambda path: json.loads(path.read_bytes())  # noqa: E731
    return evaluate_official(load(d), load(p), load(na), na_prob_thresh=thresh)


@pytest.mark.parametrize("seed", ["a", "b"])
def test_core_reads_floats_as_python_json(tmp_path, seed):
    lits = float_literals(seed)
    # "%.17g" writes some doubles as integer literals: Python reads those as ints, and the
    # ones past 2**53 take the general path (test_integers_past_2_53_are_compared_exactly)
    big = [lit for lit in lits if type(json.loads(lit)) is int and abs(json.loads(lit)) >= 2**53]
    assert all("." not in lit and "e" not in lit.lower() for lit in big)
    lits = [lit for lit in lits if lit not in big]
    assert len(lits) > 10_000
    want = [json.loads(lit) for lit in lits]
    d, p, na = write_files(tmp_path, na_text(lits), len(lits))
    got = _from_files(str(d), str(p), str(na), None, 0)
    assert got is not None  # every literal here is one the core keeps
    values, is_int, order = got[3]
    wrong = [(lit, v, w) for lit, v, w in zip(lits, values.tolist(), want) if bits(v) != bits(float(w))]
    assert wrong == []
    assert is_int.tolist() == [type(w) is int for w in want]
    # the script's search order: sorted(na_probs, key=na_probs.get), stable
    assert order.tolist() == sorted(range(len(lits)), key=lambda i: want[i])
    assert evaluate_official_files(str(d), str(p), str(na)) == general(d, p, na)


def test_the_issues_close_probabilities(tmp_path, capsys):
    # q0 answered right; q1 unanswerable but answered: the official script gives 50.0
    text = '{"q0": 0.22323896460701453, "q1": 0.2232389646070145}'
    d, p, na = write_files(tmp_path, text, 2, answered={0: "cat", 1: "dog"})
    out = evaluate_official_files(str(d), str(p), str(na))
    assert out["best_exact"] == 50.0 and out["best_exact_thresh"] == 0.0
    assert out == general(d, p, na)
    # the threshold between them: q0 is above it (no answer, wrong), q1 is not (answered, wrong)
    out = evaluate_official_files(str(d), str(p), str(na), na_prob_thresh=0.2232389646070145)
    assert out["exact"] == 0.0 and out["HasAns_exact"] == 0.0 and out["NoAns_exact"] == 0.0
    assert main(["squad", "--data", str(d), "--pred", str(p), "--na-prob", str(na), "--na-prob-thresh", "0.2232389646070145"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] == 0.0
    # one ulp below the threshold q0 is not above it: answered right
    out = evaluate_official_files(str(d), str(p), str(na), na_prob_thresh=0.22323896460701453)
    assert out["exact"] == 50.0 and out["HasAns_exact"] == 100.0


def official_best(na: dict, has_ans: dict, exact: dict, preds: dict) -> tuple[float, object]:
    """evaluate-v2.0.py's find_best_thresh, as the script writes it (Python numbers)."""
    num_no_ans = sum(1 for k in has_ans if not has_ans[k])
    cur = best = num_no_ans
    best_thresh = 0.0
    for qid in sorted(na, key=lambda k: na[k]):
        if qid not in exact:
            continue
        if has_ans[qid]:
            diff = exact[qid]
        else:
            diff = -1 if preds[qid] else 0
        cur += diff
        if cur > best:
            best, best_thresh = cur, na[qid]
    return 100.0 * best / len(exact), best_thresh


BIG = [2**53, 2**53 + 1, 2**53 + 2, 2**60 + 1, 2**64 + 1, 10**30 + 1, 10**400, -(2**53) - 1]


@pytest.mark.parametrize("big", BIG, ids=["2^53", "2^53+1", "2^53+2", "2^60+1", "2^64+1", "10^30+1", "10^400", "-(2^53+1)"])
def test_integers_past_2_53_are_compared_exactly(tmp_path, big):
    # q0 (answered right) holds big + 1, q1 (unanswerable, answered) holds big: as floats they
    # tie (or overflow) and the search order turns on the file's order
    for lits in ([str(big + 1), str(big)], [str(big), str(big + 1)], [str(big), f"{float(min(big, 2**1000))!r}"]):
        d, p, na = write_files(tmp_path, na_text(lits), 2, answered={0: "cat", 1: "dog"})
        probs = json.loads(na.read_text())
        want_best = official_best(probs, {"q0": True, "q1": False}, {"q0": 1, "q1": 0}, {"q0": "cat", "q1": "dog"})
        for thresh in (1.0, 0.0, float(min(big, 2**1000)), float(2**53)):
            out = evaluate_official_files(str(d), str(p), str(na), na_prob_thresh=thresh)
            assert out == general(d, p, na, thresh)
            assert (out["best_exact"], out["best_exact_thresh"]) == want_best
            assert type(out["best_exact_thresh"]) is type(want_best[1])
            above = [probs[f"q{i}"] > thresh for i in range(2)]
            assert out["exact"] == 100.0 * ((not above[0]) + above[1]) / 2


def test_the_issues_big_integers(tmp_path):
    lits = ["9007199254740993", "9007199254740992"]
    d, p, na = write_files(tmp_path, na_text(lits), 2, answered={0: "cat", 1: "dog"})
    out = evaluate_official_files(str(d), str(p), str(na))
    assert out["best_exact"] == 50.0 and out["best_exact_thresh"] == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_generated_mixed_numbers_give_the_scripts_best_threshold(tmp_path, seed):
    # near ties of every kind: floats one ulp apart, ints past 2**53 around them, -0
    rng = random.Random(seed)
    base = rng.choice([0.5, 2.0**53, 1e17, 0.22323896460701453])
    pool = [base, math.nextafter(base, 0), math.nextafter(base, math.inf)]
    if base >= 2**53:
        pool += [int(base) + k for k in (-2, -1, 0, 1, 2, 3)]
    n = 40
    lits = [("-0" if rng.random() < 0.05 else json.dumps(rng.choice(pool))) for _ in range(n)]
    answered = {i: rng.choice(["cat", "", "dog"]) for i in range(n)}
    d, p, na = write_files(tmp_path, na_text(lits), n, answered=answered)
    probs = json.loads(na.read_text())
    has = {f"q{i}": i % 2 == 0 for i in range(n)}
    exact = {f"q{i}": int((answered[i] == "cat") if has[f"q{i}"] else answered[i] == "") for i in range(n)}
    want = official_best(probs, has, exact, {f"q{i}": answered[i] for i in range(n)})
    out = evaluate_official_files(str(d), str(p), str(na))
    assert (out["best_exact"], out["best_exact_thresh"]) == want
    assert out == general(d, p, na)
