"""``nlgmetrics judge``: each aggregate's numbers from files equal the analysis functions' (and
the references' goldens, tests/goldens/judge_aggregates/), in every file shape; bad files and
options end with the documented status and one line naming the file and line."""

from __future__ import annotations

import gzip
import io
import json
import math
import sys

import pytest

from conftest import REPO
from nlgmetrics.analysis import (
    arena_hard_leaderboard,
    bradley_terry,
    length_controlled_win_rate,
    mqm_score,
    online_elo,
    parse_gemba_mqm,
    win_rate,
)
from nlgmetrics.cli import judge
from nlgmetrics.cli.checks import RANGES, numeric_actions
from nlgmetrics.cli.main import build_parser, main, subparsers

GOLDENS = REPO / "tests" / "goldens" / "judge_aggregates"
AGGREGATES = subparsers(subparsers(build_parser("judge"))["judge"])


def load(name: str) -> list[dict]:
    return json.loads((GOLDENS / name).read_text(encoding="utf-8"))["cases"]


def run(argv: list, stdin: bytes | None = None, monkeypatch=None) -> tuple[int, str, str]:
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main([str(a) for a in argv])
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def json_run(argv: list, stdin: bytes | None = None) -> dict:
    code, out, err = run([*argv, "-f", "json"], stdin)
    assert code == 0, err
    doc = json.loads(out)
    assert doc.pop("signature").startswith("tool:judge|aggregate:" + str(argv[1]))
    return doc


def fails(argv: list, status: int, *words: str, stdin: bytes | None = None) -> str:
    code, out, err = run(argv, stdin)
    assert (code, out) == (status, ""), (code, out, err)
    assert err.count("\n") == 1 and err.startswith("nlgmetrics: error: "), err
    for word in words:
        assert word in err, (word, err)
    return err


def nulls(value):
    """The JSON form of a result: NaN as null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: nulls(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nulls(v) for v in value]
    return value


def jsonl(path, records) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


# ---- the literals stand for the analysis modules' ----------------------------------------

def test_literals_are_the_analysis_modules():
    from nlgmetrics.analysis import judge as judge_module, judge_lc, judge_ratings

    assert judge.ELO_FLAVOURS == judge_ratings.ELO_FLAVOURS
    assert judge.LC_GLMS == tuple(judge_lc.LC_GLMS)
    assert judge.DEFAULT_BASELINE == judge_ratings.ARENA_HARD_DEFAULT_BASELINE
    assert judge.MQM_FLAVOURS == tuple(judge_module.MQM_FLAVOURS)
    assert tuple(AGGREGATES) == tuple(judge.AGGREGATES)


# ---- win rate -----------------------------------------------------------------------------

@pytest.mark.parametrize("case", load("win_rate.json"), ids=lambda c: f"n{len(c['preferences'])}")
def test_win_rate_equals_the_function_in_every_file_shape(case, tmp_path):
    prefs = case["preferences"]
    expected = nulls(win_rate(prefs))
    assert expected == case["expected"]  # the function is alpaca_eval's
    annotations = [{"instruction": f"i{i}", "generator_2": "m", "preference": p} for i, p in enumerate(prefs)]
    (tmp_path / "a.json").write_text(json.dumps(annotations, indent=2), encoding="utf-8")
    (tmp_path / "col.txt").write_text("".join(f"{p!r}\n" for p in prefs), encoding="utf-8")
    for path in (tmp_path / "a.json", jsonl(tmp_path / "a.jsonl", annotations), tmp_path / "col.txt", jsonl(tmp_path / "n.jsonl", prefs)):
        assert json_run(["judge", "win-rate", path]) == expected, path


def test_win_rate_text_table_stdin_and_gzip(tmp_path):
    code, out, err = run(["judge", "win-rate", "-"], stdin=b"2\n1\n\n1.5\n2\n1.8\n")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:7] == ["win_rate           66.00", "standard_error     18.87", "n_wins             3", "n_wins_base        1",
                         "n_draws            1", "n_total            5", "discrete_win_rate  70.00"]
    assert lines[7].startswith("tool:judge|aggregate:win-rate|equals:alpaca_eval-0.6.6|version:")
    with gzip.open(tmp_path / "p.txt.gz", "wt") as fh:
        fh.write("2\n1\n1.5\n2\n1.8\n")
    assert json_run(["judge", "win-rate", tmp_path / "p.txt.gz"]) == json_run(["judge", "win-rate", "-"], stdin=b"2\n1\n1.5\n2\n1.8\n")


# ---- length-controlled win rate -----------------------------------------------------------

LC_CASES = [c for f in sorted(GOLDENS.glob("length_controlled_*.json")) for c in load(f.name)]


def _lc_annotations(case: dict, with_difficulty: bool = True) -> list[dict]:
    rows = zip(case["preferences"], case["model_lengths"], case["baseline_lengths"], case["instruction_difficulty"])
    return [{"instruction": f"i{i}", "output_1": "b" * base, "output_2": "m" * model, "generator_2": "m", "preference": p,
             **({"instruction_difficulty": d} if with_difficulty else {})} for i, (p, model, base, d) in enumerate(rows)]


@pytest.mark.parametrize("case", LC_CASES, ids=lambda c: f"{c['glm']}-{c['fold_order']}-n{len(c['preferences'])}")
def test_length_controlled_equals_the_function(case, tmp_path):
    pytest.importorskip("sklearn")
    path = tmp_path / "annotations.json"
    path.write_text(json.dumps(_lc_annotations(case)), encoding="utf-8")
    got = json_run(["judge", "length-controlled", path, "--glm", case["glm"], "--fold-order", case["fold_order"]])
    if case["fold_order"] == "stable":  # quicksort's order is this machine's numpy's, the golden records the reference's
        assert got == length_controlled_win_rate(case["preferences"], case["model_lengths"], case["baseline_lengths"],
                                                 case["instruction_difficulty"], glm=case["glm"])
        for key in ("length_controlled_winrate", "lc_standard_error"):
            assert abs(got[key] - case["expected"][key]) <= 1e-9, key
    else:
        assert got == length_controlled_win_rate(case["preferences"], case["model_lengths"], case["baseline_lengths"],
                                                 case["instruction_difficulty"], glm=case["glm"], fold_order="quicksort")
    assert got["win_rate"] == case["expected"]["win_rate"]


def test_length_controlled_reads_difficulties_from_a_column(tmp_path):
    pytest.importorskip("sklearn")
    case = LC_CASES[0]
    path = jsonl(tmp_path / "a.jsonl", _lc_annotations(case, with_difficulty=False))
    column = tmp_path / "difficulty.txt"
    column.write_text("".join(f"{d!r}\n" for d in case["instruction_difficulty"]), encoding="utf-8")
    with_field = tmp_path / "b.json"
    with_field.write_text(json.dumps(_lc_annotations(case)), encoding="utf-8")
    assert json_run(["judge", "length-controlled", path, "--difficulty", column]) == json_run(["judge", "length-controlled", with_field])
    fails(["judge", "length-controlled", path], 1, "a.jsonl:1: no 'instruction_difficulty' field")
    column.write_text("0.5\n", encoding="utf-8")
    fails(["judge", "length-controlled", path, "--difficulty", column], 1, f"1 difficulties for {len(case['preferences'])} records")


def test_length_controlled_without_scikit_learn_names_the_extra(tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    path.write_text(json.dumps(_lc_annotations(LC_CASES[0])), encoding="utf-8")
    monkeypatch.setitem(sys.modules, "sklearn", None)  # `import sklearn` raises ImportError
    # a missing extra is a usage error throughout the command line (cli/guard.py)
    fails(["judge", "length-controlled", path], 2, "pip install 'nlgmetrics[judge]'")


def test_length_controlled_bad_outputs(tmp_path):
    rows = _lc_annotations(LC_CASES[0])
    rows[2]["output_2"] = None
    fails(["judge", "length-controlled", jsonl(tmp_path / "a.jsonl", rows)], 1, "a.jsonl:3: 'output_2' is null, not the output's text")
    del rows[2]["output_2"]
    fails(["judge", "length-controlled", jsonl(tmp_path / "a.jsonl", rows)], 1, "a.jsonl:3: no 'output_2' field")


# ---- Bradley-Terry, Arena-Hard, online Elo ---------------------------------------------------

BT_CASES = load("bradley_terry.json")


@pytest.mark.parametrize("case", BT_CASES, ids=lambda c: f"n{len(c['battles'])}")
def test_bradley_terry_and_arena_hard_equal_the_functions(case, tmp_path):
    path = jsonl(tmp_path / "battles.jsonl", case["battles"])
    options = ["--baseline", case["baseline"], "--rounds", case["rounds"], "--seed", case["seed"]]
    got = json_run(["judge", "bradley-terry", path, *options])
    assert got == nulls(bradley_terry(case["battles"], baseline=case["baseline"], rounds=case["rounds"], seed=case["seed"]))
    board = json_run(["judge", "arena-hard", path, *options])["leaderboard"]
    assert board == case["leaderboard"]  # arena-hard's show_result.py numbers
    assert board == arena_hard_leaderboard(case["battles"], baseline=case["baseline"], rounds=case["rounds"], seed=case["seed"])


def test_bradley_terry_reads_a_json_list_and_scale_options(tmp_path):
    case = BT_CASES[0]
    path = tmp_path / "battles.json"
    path.write_text(json.dumps(case["battles"], indent=1), encoding="utf-8")  # Chatbot Arena's clean_battle file shape
    got = json_run(["judge", "bradley-terry", path, "--rounds", "0", "--baseline", "model-1", "--scale", "800", "--base", "2.5", "--init-rating", "1500"])
    assert got == bradley_terry(case["battles"], baseline="model-1", rounds=0, scale=800, base=2.5, init_rating=1500)


def test_rating_tables(tmp_path):
    battles = [{"model_a": "gpt-4-0314", "model_b": "x", "winner": w} for w in ["model_b"] * 30 + ["model_a"] * 15 + ["tie"] * 5]
    battles += [{"model_a": "gpt-4-0314", "model_b": "y", "winner": w} for w in ["model_b"] * 12 + ["model_a"] * 35]
    path = jsonl(tmp_path / "b.jsonl", battles)
    code, out, _ = run(["judge", "arena-hard", path, "--rounds", "10"])
    board = arena_hard_leaderboard(battles, rounds=10)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["model", "score", "95%", "CI"]
    assert [line.split()[0] for line in lines[1:4]] == ["x", "gpt-4-0314", "y"]  # best first
    x = board["x"]
    assert lines[1].split() == ["x", f"{x['score']:.2f}", f"({x['lower'] - x['score']:+.2f},", f"{x['upper'] - x['score']:+.2f})"]
    code, out, _ = run(["judge", "bradley-terry", path, "--rounds", "0"])
    ratings = bradley_terry(battles, rounds=0)["ratings"]
    assert [line.split() for line in out.splitlines()[:2]] == [["model", "rating"], ["x", f"{ratings['x']:.2f}"]]


@pytest.mark.parametrize("case", load("online_elo.json"), ids=lambda c: f"n{len(c['battles'])}-k{c.get('k', 4)}")
@pytest.mark.parametrize("flavour", ["chatbot-arena-notebook", "fastchat-rating-systems"])
def test_elo_equals_chatbot_arena(case, flavour, tmp_path):
    path = jsonl(tmp_path / "battles.jsonl", case["battles"])
    got = json_run(["judge", "elo", path, "--k", case.get("k", 4), "--flavour", flavour])["ratings"]
    assert got == case[flavour] == online_elo(case["battles"], k=case.get("k", 4), flavour=flavour)


def test_elo_from_stdin_keeps_file_order():
    battles = b'{"model_a": "a", "model_b": "b", "winner": "model_a"}\n{"model_a": "b", "model_b": "c", "winner": "tie"}\n'
    assert json_run(["judge", "elo", "-"], stdin=battles)["ratings"] == online_elo([("a", "b", "model_a"), ("b", "c", "tie")])


# ---- GEMBA-MQM ------------------------------------------------------------------------------

def test_mqm_equals_gemba(tmp_path):
    cases = load("gemba_mqm.json")
    path = jsonl(tmp_path / "answers.jsonl", [{"answer": c["answer"], "system": "s"} for c in cases])
    got = json_run(["judge", "mqm", path, "--per-segment"])
    scores = [c["score"] for c in cases]
    assert got["segments"] == scores
    assert scores == [None if c["answer"] is None else mqm_score(parse_gemba_mqm(c["answer"])) for c in cases]
    scored = [s for s in scores if s is not None]
    assert (got["mqm"], got["n_scored"], got["n_unscored"]) == (sum(scored) / len(scored), len(scored), len(scores) - len(scored))
    strings = jsonl(tmp_path / "strings.jsonl", [c["answer"] for c in cases])  # bare strings, --field for objects
    assert json_run(["judge", "mqm", strings, "--per-segment"]) == got
    renamed = jsonl(tmp_path / "renamed.jsonl", [{"gemba": c["answer"]} for c in cases])
    assert json_run(["judge", "mqm", renamed, "--per-segment", "--field", "gemba"]) == got
    fails(["judge", "mqm", renamed], 1, "renamed.jsonl:1: no 'answer' field")
    fails(["judge", "mqm", jsonl(tmp_path / "n.jsonl", ["Major:\nx", 3])], 1, "n.jsonl:2: the answer is a number")


# ---- bad files: exit 1, one line naming the file and line ---------------------------------------

def test_data_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"preference": 2}\n{"preference": 2\n', encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl:2: not JSON")
    bad.write_text('{"preference": 2}\n\n{"preferenc": 1}\n', encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl:3: no 'preference' field")
    bad.write_text("2\n1\n3\n", encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl:3: preference is 3.0: AlpacaEval preferences lie in [1, 2]")
    bad.write_text("2\nnan\n", encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl:2: preference is NaN")
    bad.write_text("2\ntwo\n", encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl:2: 'two' is neither a number nor a JSON record")
    bad.write_text('[{"preference": 2}, {"preference": "2"}]', encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl: item 2: preference is '2', not a number")
    bad.write_text('{"preference": 2, "generator_2": "m1"}\n{"preference": 1, "generator_2": "m2"}\n', encoding="utf-8")
    fails(["judge", "win-rate", bad], 1, "bad.jsonl:2: generator_2 'm2', but ", "bad.jsonl:1 has 'm1'", "several models")
    battles = [{"model_a": "a", "model_b": "b", "winner": "model_a"}, {"model_a": "b", "model_b": "a", "winner": "model_a"}]
    for aggregate in ("bradley-terry", "arena-hard", "elo"):
        path = jsonl(tmp_path / "b.jsonl", [*battles, {"model_a": "a", "model_b": "b", "winner": "draw"}])
        fails(["judge", aggregate, path, "--baseline", "a"] if aggregate != "elo" else ["judge", aggregate, path], 1,
              "b.jsonl:3: battle: winner 'draw' is not one of")
        path = jsonl(tmp_path / "b.jsonl", [*battles, {"model_a": "a", "model_b": "b"}])
        fails(["judge", aggregate, path], 1, "b.jsonl:3: battle has no 'winner'")
    fails(["judge", "bradley-terry", jsonl(tmp_path / "one.jsonl", battles[:1])], 1, "unbounded")
    fails(["judge", "arena-hard", jsonl(tmp_path / "b.jsonl", battles), "--rounds", "0"], 1, "the baseline 'gpt-4-0314' is in no battle")
    for text in ("", "\n\n", "[]"):
        (tmp_path / "empty.txt").write_text(text, encoding="utf-8")
        fails(["judge", "win-rate", tmp_path / "empty.txt"], 1, "no records")
    fails(["judge", "elo", tmp_path / "missing.jsonl"], 1, "missing.jsonl")
    fails(["judge", "elo", tmp_path], 1)
    (tmp_path / "obj.json").write_text('[{"model_a": "a"}', encoding="utf-8")
    fails(["judge", "elo", tmp_path / "obj.json"], 1, "obj.json:1: not JSON")


@pytest.mark.parametrize("aggregate", list(judge.AGGREGATES))
def test_hostile_files(aggregate, tmp_path):
    hostile = {"utf8.txt": b"\xff\xfe2\n", "nul.txt": b"2\x00\n", "deep.jsonl": b"[" * 100_000 + b"\n",
               "gz.gz": b"\x1f\x8b\x08\x00garbage", "object.json": b'{"a": 1}\n', "list_of_lists.json": b"[[1, 2]]"}
    for name, data in hostile.items():
        (tmp_path / name).write_bytes(data)
        code, out, err = run(["judge", aggregate, tmp_path / name])
        assert code == 1 and out == "" and err.count("\n") == 1 and "internal error" not in err, (name, code, err)


def test_interrupt_is_130(tmp_path, monkeypatch):
    import nlgmetrics.analysis.judge as judge_module

    def interrupted(preferences):
        raise KeyboardInterrupt

    monkeypatch.setattr(judge_module, "win_rate", interrupted)
    (tmp_path / "p.txt").write_text("2\n", encoding="utf-8")
    code, out, err = run(["judge", "win-rate", tmp_path / "p.txt"])
    assert (code, out, err) == (130, "", "nlgmetrics: interrupted\n")


# ---- usage: exit 2 -----------------------------------------------------------------------------

@pytest.mark.parametrize("aggregate", list(judge.AGGREGATES))
def test_every_numeric_option_has_a_range(aggregate):
    local = judge.ranges()
    missing = [a.dest for a in numeric_actions(AGGREGATES[aggregate]) if a.dest not in local and a.dest not in RANGES]
    assert not missing


@pytest.mark.parametrize("aggregate", list(judge.AGGREGATES))
def test_usage_errors(aggregate, tmp_path):
    path = jsonl(tmp_path / "b.jsonl", [{"model_a": "a", "model_b": "b", "winner": "tie", "preference": 2, "answer": ""}])
    base = ["judge", aggregate, path]
    for extra in (["--no-such-flag"], ["stray"], ["-f"], ["--format", "yaml"], ["\udcff"], ["--", "x"]):
        fails(base + extra, 2)
    for action in numeric_actions(AGGREGATES[aggregate]):
        for bad in ("-1", "nan", "inf", "1e400", "99999999999999999999", "abc", ""):
            code, out, err = run(base + [action.option_strings[0], bad])
            if code == 0:  # a value the range allows (init-rating -1, seed 0...)
                continue
            assert code in (1, 2) and out == "" and err.count("\n") == 1, (action.dest, bad, err)
    code, out, err = run(["judge", aggregate, "--help"])
    assert code == 0 and out.startswith(f"usage: nlgmetrics judge {aggregate}") and err == ""


def test_usage_errors_name_the_option(tmp_path):
    path = jsonl(tmp_path / "b.jsonl", [{"model_a": "a", "model_b": "b", "winner": "tie"}])
    fails(["judge"], 2, "AGGREGATE")
    fails(["judge", "winrate", path], 2, "invalid choice")
    fails(["judge", "win-rate"], 2, "FILE")
    fails(["judge", "win-rate", path, "--k", "8"], 2, "unrecognized arguments: --k")  # another aggregate's option
    fails(["judge", "elo", path, "--k", "0"], 2, "argument --k: must be > 0")
    fails(["judge", "elo", path, "--base", "1"], 2, "argument --base: must be > 1")
    fails(["judge", "bradley-terry", path, "--rounds", "-1"], 2, "argument --rounds: must be in [0, 1000000]")
    fails(["judge", "arena-hard", path, "--seed", str(2**32)], 2, "argument --seed")
    fails(["judge", "elo", path, "--flavour", "glicko"], 2, "invalid choice")


# ---- Arena-Hard's judgments as battles ------------------------------------------------------------

JUDGMENTS = [
    {"question_id": "q1", "model": "m1", "games": [{"score": "A>B"}, {"score": "A=B"}]},
    {"question_id": "q2", "model": "m1", "games": [{"score": "B>>A"}, {"score": None}]},
    {"question_id": "q3", "model": "m1", "games": [{"score": "A>>B"}, {"score": "B>A"}]},
    {"question_id": "q1", "model": "m2", "games": [{"score": "B>A"}, {"score": "A>B"}]},
    {"question_id": "q2", "model": "m2", "games": [{"score": "A>B"}, {"score": "B>>A"}]},
]


def _battle(model: str, winner: str) -> dict:
    return {"model_a": "gpt-4-0314", "model_b": model, "winner": winner}


# show_result.py's get_battles_from_judgment, by hand: game 1 has the baseline as A, game 2 as B;
# ">>" counts --weight times; a game without a verdict gives no battle.
EXPECTED_BATTLES = (
    [_battle("m1", "model_a"), _battle("m1", "tie")]
    + [_battle("m1", "model_b")] * 3
    + [_battle("m1", "model_a")] * 3 + [_battle("m1", "model_a")]
    + [_battle("m2", "model_b"), _battle("m2", "model_b")]
    + [_battle("m2", "model_a")] + [_battle("m2", "model_a")] * 3
)


def test_battles_from_judgments_follow_arena_hard():
    from nlgmetrics.analysis.judge_battles import battles_from_judgments

    assert battles_from_judgments(JUDGMENTS) == (EXPECTED_BATTLES, 1)
    battles, unjudged = battles_from_judgments(JUDGMENTS, baseline="b0", weight=1, first_game_only=True)
    assert unjudged == 0
    assert battles == [{"model_a": "b0", "model_b": m, "winner": w} for m, w in
                       [("m1", "model_a"), ("m1", "model_b"), ("m1", "model_a"), ("m2", "model_b"), ("m2", "model_a")]]


def test_arena_hard_reads_judgments(tmp_path):
    path = jsonl(tmp_path / "judgments.jsonl", JUDGMENTS)
    board = json_run(["judge", "arena-hard", path, "--rounds", "0"])
    assert board == {"leaderboard": arena_hard_leaderboard(EXPECTED_BATTLES, rounds=0),
                     "judgments": {"judgments": 5, "battles": 15, "games_without_verdict": 1}}
    got = json_run(["judge", "bradley-terry", path, "--rounds", "0", "--weight", "1", "--first-game-only", "--baseline", "b0"])
    battles = [{"model_a": "b0", "model_b": m, "winner": w} for m, w in
               [("m1", "model_a"), ("m1", "model_b"), ("m1", "model_a"), ("m2", "model_b"), ("m2", "model_a")]]
    assert got["ratings"] == bradley_terry(battles, baseline="b0", rounds=0)["ratings"]
    code, out, _ = run(["judge", "arena-hard", path, "--rounds", "0"])
    assert "5 judgments, 15 battles, 1 games without a verdict" in out
    assert "|weight:3|first_game_only:no|" in out.splitlines()[-1]


def test_judgment_errors(tmp_path):
    bad = [dict(JUDGMENTS[0]), {"question_id": "q2", "model": "m1", "games": [{"score": "A>B"}]}]
    fails(["judge", "arena-hard", jsonl(tmp_path / "j.jsonl", bad)], 1, "j.jsonl:2: judgment: 'games' must list 2 game(s)")
    bad[1] = {"question_id": "q2", "games": []}
    fails(["judge", "arena-hard", jsonl(tmp_path / "j.jsonl", bad)], 1, "j.jsonl:2: judgment has no 'model'")
    none = [{"model": "m", "games": [{"score": None}, {"score": "?"}]}]
    fails(["judge", "arena-hard", jsonl(tmp_path / "n.jsonl", none)], 1, "n.jsonl: no game of the 1 judgments has a verdict")
    battles = jsonl(tmp_path / "b.jsonl", [{"model_a": "a", "model_b": "b", "winner": "tie"}])
    fails(["judge", "bradley-terry", battles, "--weight", "2"], 2, "--weight and --first-game-only read arena-hard judgments")
    fails(["judge", "bradley-terry", battles, "--weight", "0"], 2, "argument --weight: must be in [1, 1000000]")
