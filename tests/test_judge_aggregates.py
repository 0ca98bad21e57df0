"""Judge aggregates against their references' own numbers (tests/goldens/judge_aggregates/,
made by scripts/goldens/judge_aggregates_goldens.py from alpaca_eval 0.6.6, arena-hard-auto,
FastChat and GEMBA): ``==`` where the computation is closed-form, a stated bound where a fit is."""

from __future__ import annotations

import json
import math

import pytest

from conftest import REPO
from nlgmetrics.analysis import (
    arena_hard_leaderboard,
    bradley_terry,
    length_controlled_win_rate,
    mqm_score,
    online_elo,
    parse_gemba_mqm,
    predict_win_rate,
    win_rate,
)
from nlgmetrics.errors import EmptyInputError, InputTypeError, InvalidInputError, InvalidOptionError

GOLDENS = REPO / "tests" / "goldens" / "judge_aggregates"

# Bradley-Terry: arena-hard fits with scikit-learn's lbfgs (tol=1e-8); we solve the same
# likelihood by Newton to 1e-10 of the gradient. The ratings agree to this many Elo points.
BT_RATING_TOLERANCE = 1e-4
# Length-controlled win rate: the same liblinear fit through scikit-learn, so only the last
# bits of the float sums may differ (percentage points).
LC_TOLERANCE = 1e-9


def load(name: str) -> list[dict]:
    return json.loads((GOLDENS / name).read_text(encoding="utf-8"))["cases"]


def nan_to_none(d: dict) -> dict:
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in d.items()}


# ---- win rate ---------------------------------------------------------------------------------

@pytest.mark.parametrize("case", load("win_rate.json"), ids=lambda c: f"n{len(c['preferences'])}")
def test_win_rate_equals_alpaca_eval(case):
    assert nan_to_none(win_rate(case["preferences"])) == case["expected"]


def test_win_rate_values():
    got = win_rate([1, 2, 1.5, 0, 2])
    assert got["win_rate"] == 60.0
    assert got["n_wins"] == 2 and got["n_wins_base"] == 1 and got["n_draws"] == 2 and got["n_total"] == 5
    assert got["discrete_win_rate"] == 60.0


@pytest.mark.parametrize("bad, error", [
    ([], EmptyInputError),
    ([1, float("nan")], InvalidInputError),
    ([1, 3], InvalidInputError),
    ([0.5], InvalidInputError),
    (["2"], InputTypeError),
    ([True], InputTypeError),
    ("12", InputTypeError),
])
def test_win_rate_bad_input(bad, error):
    with pytest.raises(error):
        win_rate(bad)


# ---- length-controlled win rate -------------------------------------------------------------

LC_CASES = [c for f in sorted(GOLDENS.glob("length_controlled_*.json")) for c in load(f.name)]


@pytest.mark.parametrize("case", LC_CASES, ids=lambda c: f"{c['glm']}-{c['fold_order']}-n{len(c['preferences'])}")
def test_length_controlled_win_rate_equals_alpaca_eval(case):
    pytest.importorskip("sklearn")
    got = length_controlled_win_rate(case["preferences"], case["model_lengths"], case["baseline_lengths"],
                                     case["instruction_difficulty"], glm=case["glm"], fold_order=case["group_argsort"])
    expected = case["expected"]
    for key in ("win_rate", "standard_error", "n_wins", "n_wins_base", "n_draws", "n_total", "discrete_win_rate"):
        assert got[key] == expected[key], key
    for key in ("length_controlled_winrate", "lc_standard_error"):
        assert abs(got[key] - expected[key]) <= LC_TOLERANCE, (key, got[key], expected[key])
    if case["fold_order"] == "stable":  # the named order is the recorded one (quicksort's is numpy's)
        assert length_controlled_win_rate(case["preferences"], case["model_lengths"], case["baseline_lengths"],
                                          case["instruction_difficulty"], glm=case["glm"]) == got


def test_length_controlled_bad_input():
    with pytest.raises(InvalidOptionError):
        length_controlled_win_rate([1, 2], [1, 2], [2, 1], [0.1, 0.2], glm="length_controlled_v2")
    with pytest.raises(InvalidInputError):
        length_controlled_win_rate([1, 2, 1], [1, 2], [2, 1], [0.1, 0.2])
    with pytest.raises(InvalidInputError):
        length_controlled_win_rate([1, 2], [1, -2], [2, 1], [0.1, 0.2])
    with pytest.raises(InvalidInputError):
        length_controlled_win_rate([1, 2], [1, 2], [2, 1], [0.1, float("nan")])
    with pytest.raises(InvalidInputError):  # no spread of lengths: the standardised difference is undefined
        length_controlled_win_rate([1, 2, 1.5], [5, 5, 5], [3, 3, 3], [0.1, 0.2, 0.3])
    with pytest.raises(InvalidOptionError):
        length_controlled_win_rate([1, 2, 1.5, 1, 2], [1, 2, 3, 4, 5], [5, 4, 3, 3, 1], [0] * 5, fold_order=[0, 1, 2, 3, 3])
    with pytest.raises(InvalidOptionError):
        length_controlled_win_rate([1, 2, 1.5, 1, 2], [1, 2, 3, 4, 5], [5, 4, 3, 3, 1], [0] * 5, fold_order="random")


# ---- Bradley-Terry (arena-hard) ----------------------------------------------------------------

BT_CASES = load("bradley_terry.json")


@pytest.mark.parametrize("case", BT_CASES, ids=lambda c: f"n{len(c['battles'])}")
def test_bradley_terry_equals_arena_hard(case):
    got = bradley_terry(case["battles"], baseline=case["baseline"], rounds=case["rounds"], seed=case["seed"])
    assert set(got["ratings"]) == set(case["ratings"])
    for model, rating in case["ratings"].items():
        assert abs(got["ratings"][model] - rating) <= BT_RATING_TOLERANCE, model
    assert len(got["bootstrap"]) == len(case["bootstrap"])
    for mine, theirs in zip(got["bootstrap"], case["bootstrap"]):  # the same resamples, replayed
        for model, rating in theirs.items():
            assert abs(mine[model] - rating) <= BT_RATING_TOLERANCE, model
    for side in ("lower", "upper"):
        for model, rating in case[side].items():
            assert abs(got[side][model] - rating) <= BT_RATING_TOLERANCE, (side, model)


@pytest.mark.parametrize("case", BT_CASES, ids=lambda c: f"n{len(c['battles'])}")
def test_arena_hard_leaderboard_equals_reference(case):
    board = arena_hard_leaderboard(case["battles"], baseline=case["baseline"], rounds=case["rounds"], seed=case["seed"])
    assert board == case["leaderboard"]


@pytest.mark.parametrize("case", BT_CASES, ids=lambda c: f"n{len(c['battles'])}")
def test_predict_win_rate_is_exact(case):
    got = predict_win_rate(case["ratings"])
    assert {a: nan_to_none(row) for a, row in got.items()} == case["predict_win_rate"]


def test_bradley_terry_values():
    battles = [("a", "b", "model_a"), ("a", "b", "model_b"), ("a", "b", "tie"), ("a", "c", "model_a"), ("c", "a", "model_a")]
    ratings = bradley_terry(battles, baseline="a")["ratings"]
    assert ratings["a"] == 1000.0
    assert abs(ratings["b"] - 1000.0) < 1e-9 and abs(ratings["c"] - 1000.0) < 1e-9


@pytest.mark.parametrize("battles, error", [
    ([], EmptyInputError),
    ([("a", "b", "model_a")], InvalidInputError),  # b never wins: no finite rating
    ([("a", "b", "draw")], InvalidInputError),
    ([("a", "a", "tie")], InvalidInputError),
    ([("a", 3, "tie")], InputTypeError),
    ([{"model_a": "a", "winner": "tie"}], InvalidInputError),
    ([("a", "b")], InputTypeError),
])
def test_bradley_terry_bad_input(battles, error):
    with pytest.raises(error):
        bradley_terry(battles)


def test_bradley_terry_bad_options():
    battles = [("a", "b", "tie")]
    with pytest.raises(InvalidOptionError):
        bradley_terry(battles, rounds=-1)
    with pytest.raises(InvalidOptionError):
        bradley_terry(battles, base=1)
    with pytest.raises(InvalidInputError):
        arena_hard_leaderboard(battles, baseline="gpt-4-0314", rounds=0)


# ---- online Elo (Chatbot Arena) ------------------------------------------------------------------

@pytest.mark.parametrize("case", load("online_elo.json"), ids=lambda c: f"n{len(c['battles'])}-k{c.get('k', 4)}")
@pytest.mark.parametrize("flavour", ["chatbot-arena-notebook", "fastchat-rating-systems"])
def test_online_elo_equals_chatbot_arena(case, flavour):
    assert online_elo(case["battles"], k=case.get("k", 4), flavour=flavour) == case[flavour]


def test_online_elo_values():
    assert online_elo([("a", "b", "model_a")]) == {"a": 1002.0, "b": 998.0}
    with pytest.raises(InvalidOptionError):
        online_elo([("a", "b", "tie")], flavour="glicko")
    with pytest.raises(InvalidInputError):
        online_elo([("a", "b", "both bad")])


# ---- GEMBA-MQM --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", load("gemba_mqm.json"), ids=lambda c: repr((c["answer"] or "None")[:20]))
def test_gemba_mqm_equals_gemba(case):
    errors = parse_gemba_mqm(case["answer"])
    if case["answer"] is None:
        assert errors is None
        return
    assert {k: v for k, v in errors.items() if v} == case["errors"]
    assert mqm_score(errors) == case["score"]


def test_mqm_score_values():
    assert mqm_score({"critical": [], "major": ["a", "b"], "minor": ["c"]}) == -11
    assert mqm_score({"minor": list(range(9))}) == -5  # only the first five errors count
    assert mqm_score({"critical": [1], "major": [1]}) == -25  # capped at 25
    with pytest.raises(InvalidOptionError):
        mqm_score({}, flavour="wmt")
    with pytest.raises(InputTypeError):
        mqm_score({"major": 2})
    with pytest.raises(InputTypeError):
        mqm_score(["major"])


# ---- generated cases and edges ----------------------------------------------------------------

def test_bradley_terry_ignores_battle_order_and_scales():
    import random

    rng = random.Random(7)
    battles = [(a, b, rng.choice(["model_a", "model_b", "tie"])) for _ in range(300)
               for a, b in [rng.sample(["p", "q", "r", "s"], 2)]]
    ratings = bradley_terry(battles, baseline="p")["ratings"]
    shuffled = list(battles)
    rng.shuffle(shuffled)
    again = bradley_terry(shuffled, baseline="p")["ratings"]
    assert all(abs(ratings[m] - again[m]) < 1e-9 for m in ratings)
    # scale 800 doubles every distance from the anchor; base e is the natural-log scale
    doubled = bradley_terry(battles, baseline="p", scale=800)["ratings"]
    assert all(abs((doubled[m] - 1000) - 2 * (ratings[m] - 1000)) < 1e-8 for m in ratings)


def test_bootstrap_model_absent_from_a_resample_is_nan():
    battles = [("gpt-4-0314", "x", "model_a"), ("gpt-4-0314", "x", "model_b")] * 20 + [
        ("gpt-4-0314", "rare", "tie")]
    result = bradley_terry(battles, rounds=30, seed=0)
    assert any(math.isnan(s["rare"]) for s in result["bootstrap"])
    assert all(s["gpt-4-0314"] == 1000.0 for s in result["bootstrap"])


def test_predict_win_rate_bad_rating():
    with pytest.raises(InvalidInputError):
        predict_win_rate({"a": 1000.0, "b": float("nan")})
    chances = predict_win_rate({"a": 1100.0, "b": 1000.0})
    assert chances["a"]["b"] == 1 - 1 / (1 + 10 ** ((1100.0 - 1000.0) / 400))
    assert math.isnan(chances["a"]["a"])


def test_far_apart_ratings_give_certain_chances_not_overflow():
    # 10 ** (123302 / 400) overflows a float; the chance is 0 (or 1), as the limit says.
    chances = predict_win_rate({"gpt-4-0314": 0.0, "a": 123302.0})
    assert chances["a"]["gpt-4-0314"] == 1.0
    assert chances["gpt-4-0314"]["a"] == 0.0
    for flavour in ("chatbot-arena-notebook", "fastchat-rating-systems"):
        ratings = online_elo([("a", "b", "model_a"), ("a", "b", "model_b")], k=1e300, flavour=flavour)
        assert all(math.isfinite(v) or math.isinf(v) for v in ratings.values())
    moved = online_elo([("a", "b", "model_a"), ("a", "b", "model_a")], k=1e6)
    # after the first win a leads by 1e6 points: the second win was certain and moves nothing
    assert moved == {"a": 1000 + 0.5e6, "b": 1000 - 0.5e6}


def test_win_rate_accepts_numpy():
    np = pytest.importorskip("numpy")
    assert win_rate(np.array([1.0, 2.0, 2.0]))["win_rate"] == win_rate([1, 2, 2])["win_rate"]
