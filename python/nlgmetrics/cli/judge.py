"""``nlgmetrics judge``: the aggregates of judge verdicts (nlgmetrics.analysis) from files.

    nlgmetrics judge win-rate annotations.json                 # AlpacaEval's win rate
    nlgmetrics judge length-controlled annotations.json        # AlpacaEval 2.0's LC win rate ([judge] extra)
    nlgmetrics judge bradley-terry battles.jsonl --rounds 100  # ratings with bootstrap intervals
    nlgmetrics judge arena-hard battles.jsonl --baseline gpt-4-0314
    nlgmetrics judge elo battles.jsonl --k 4                   # Chatbot Arena's online Elo
    nlgmetrics judge mqm answers.jsonl                         # GEMBA-MQM error weighting

FILE (``-`` for stdin, ``.gz`` read as text) is a JSON document holding a list of records (
alpaca_eval's ``annotations.json``, Chatbot Arena's battles), JSON lines (one record a line),
or, for ``win-rate``, a plain column of preferences. A record is an object with the fields
named below, a bare number (a preference) or a bare string (a GEMBA answer). This module only
reads and prints: every number comes from :mod:`nlgmetrics.analysis`. An error names the file
and the line (in a JSON document, the item) it comes from.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable

HELP = "aggregates of judge verdicts: AlpacaEval win rates, Arena-Hard / Chatbot Arena ratings, GEMBA-MQM"

ALPACA_EVAL = "alpaca_eval-0.6.6"
ARENA_HARD = "arena-hard-auto"
ELO_FLAVOURS = ("chatbot-arena-notebook", "fastchat-rating-systems")  # analysis.judge_ratings.ELO_FLAVOURS
LC_GLMS = ("length_controlled_noreg", "length_controlled_minimal")  # analysis.judge_lc.LC_GLMS
DEFAULT_BASELINE = "gpt-4-0314"  # analysis.judge_ratings.ARENA_HARD_DEFAULT_BASELINE
MQM_FLAVOURS = ("gemba-mqm",)  # analysis.judge.MQM_FLAVOURS
# (literals, not imports: help must not load numpy; tests/test_cli_judge.py checks them)

AGGREGATES = {
    "win-rate": "AlpacaEval's win rate with ties (records with 'preference', or a column of preferences)",
    "length-controlled": "AlpacaEval 2.0's length-controlled win rate (records with 'preference', 'output_1', 'output_2', 'instruction_difficulty')",
    "bradley-terry": "Arena-Hard's Bradley-Terry ratings with bootstrap intervals (battles: 'model_a', 'model_b', 'winner')",
    "arena-hard": "Arena-Hard's leaderboard: win rate against the baseline with its 95%% interval (battles)",
    "elo": "Chatbot Arena's online Elo, the battles in file order (battles)",
    "mqm": "GEMBA-MQM scores of judge answers (records: the answer string, or objects with --field)",
}


def _r(lo: float, hi: float, lo_open: bool = False) -> Any:
    from .checks import Range

    return Range(lo, hi, lo_open)


def ranges() -> dict[str, Any]:
    """The judge's numeric options, as :data:`.checks.RANGES` (``--seed`` is there)."""
    inf = float("inf")
    return {
        "rounds": _r(0, 1_000_000),  # one Newton fit per round
        "weight": _r(1, 1_000_000),
        "elo_k": _r(0.0, inf, lo_open=True),
        "scale": _r(0.0, inf, lo_open=True),
        "base": _r(1.0, inf, lo_open=True),
        "init_rating": _r(-inf, inf),
    }


def add_parser(sub: Any) -> None:
    c = sub.add_parser("judge", help=HELP, description=HELP + ". nlgmetrics never calls a judge: give it the verdicts.")
    kinds = c.add_subparsers(dest="aggregate", metavar="AGGREGATE", required=True)
    for name, text in AGGREGATES.items():
        p = kinds.add_parser(name, help=text, description=text.replace("%%", "%"))
        p.add_argument("file", metavar="FILE", help="the verdicts: a JSON list, JSON lines, or (win-rate) a column of numbers; - for stdin")
        _OPTIONS[name](p)
        p.add_argument("-f", "--format", choices=["text", "json"], default="text", help="text: a table (default); json: the numbers and the signature")


def _no_options(p: argparse.ArgumentParser) -> None:
    pass


def _lc_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--difficulty", metavar="DIFFICULTY_FILE", default=None,
                   help="each record's instruction difficulty, one number a line in the records' order (instead of their 'instruction_difficulty' field)")
    p.add_argument("--glm", choices=LC_GLMS, default=LC_GLMS[0], help=f"alpaca_eval's GLM (default {LC_GLMS[0]})")
    p.add_argument("--fold-order", dest="fold_order", choices=["stable", "quicksort"], default="stable",
                   help="how GroupKFold orders the verdicts: stable (scikit-learn >= 1.9, default) or quicksort (1.4-1.8)")


def _scale_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scale", type=float, default=400.0, help="rating points per factor of --base in the odds (default 400)")
    p.add_argument("--base", type=float, default=10.0, help="the odds' base (default 10)")
    p.add_argument("--init-rating", dest="init_rating", type=float, default=1000.0, help="the starting (or mean) rating (default 1000)")


def _bootstrap_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--baseline", default=DEFAULT_BASELINE, help=f"the model anchored at 1000 (default {DEFAULT_BASELINE}, Arena-Hard's)")
    p.add_argument("--rounds", type=int, default=100, help="bootstrap resamples of the battles (default 100, as arena-hard; 0: none)")
    p.add_argument("--seed", type=int, default=42, help="numpy RandomState seed of the resamples (default 42, as arena-hard)")
    p.add_argument("--weight", type=int, default=None,
                   help="judgments: battles a 'much better' verdict (A>>B) counts for (default 3, as arena-hard's --weight)")
    p.add_argument("--first-game-only", dest="first_game_only", action="store_true", help="judgments: read game 1 only (arena-hard's --first-game-only)")


def _bt_options(p: argparse.ArgumentParser) -> None:
    _bootstrap_options(p)
    _scale_options(p)


def _elo_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--k", dest="elo_k", type=float, default=4.0, help="K factor (default 4, as Chatbot Arena)")
    p.add_argument("--flavour", "--flavor", dest="flavour", choices=ELO_FLAVOURS, default=ELO_FLAVOURS[0],
                   help="chatbot-arena-notebook (default: base ** (diff / scale)) or fastchat-rating-systems (exp(alpha * diff))")
    _scale_options(p)


def _mqm_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--field", default="answer", help="the field of an object record holding the judge's answer (default answer)")
    p.add_argument("--flavour", "--flavor", dest="flavour", choices=MQM_FLAVOURS, default=MQM_FLAVOURS[0], help="the error weights (gemba-mqm: GEMBA's)")
    p.add_argument("--per-segment", dest="per_segment", action="store_true", help="each answer's score too")


_OPTIONS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "win-rate": _no_options, "length-controlled": _lc_options, "bradley-terry": _bt_options,
    "arena-hard": _bootstrap_options, "elo": _elo_options, "mqm": _mqm_options,
}


# -- reading -------------------------------------------------------------------------------
class Record:
    __slots__ = ("where", "value")

    def __init__(self, where: str, value: Any):
        self.where, self.value = where, value


def _data_error(message: str) -> Exception:
    from ..errors import InvalidInputError

    return InvalidInputError(message)


def read_records(path: str, numbers: bool = False) -> list[Record]:
    """The records of ``path``: a JSON document's list items, or one per non-blank line
    (JSON, or with ``numbers`` a bare number such as ``1.5`` or ``nan``)."""
    from ..io.text import parse_json, read_lines

    name = _name(path)
    lines = read_lines(path)
    first = next((line.lstrip() for line in lines if line.strip()), "")
    if not first:
        raise _data_error(f"{name}: no records")
    if first.startswith("["):
        data = parse_json("\n".join(lines), name)
        if not isinstance(data, list):
            raise _data_error(f"{name}: expected a JSON list of records")
        if not data:
            raise _data_error(f"{name}: no records")
        return [Record(f"{name}: item {i + 1}", v) for i, v in enumerate(data)]
    records = []
    for lineno, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        if numbers and text[:1] not in "{[\"":
            try:
                records.append(Record(f"{name}:{lineno}", float(text)))
            except ValueError:
                raise _data_error(f"{name}:{lineno}: {text[:40]!r} is neither a number nor a JSON record") from None
            continue
        records.append(Record(f"{name}:{lineno}", parse_json(text, name, line=lineno)))
    return records


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _field(record: Record, key: str) -> Any:
    if not isinstance(record.value, dict):
        raise _data_error(f"{record.where}: expected an object with {key!r}, got {_kind(record.value)}")
    if key not in record.value:
        raise _data_error(f"{record.where}: no {key!r} field")
    return record.value[key]


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")


def _one_model(records: list[Record]) -> None:
    """alpaca_eval scores one model's annotations: records of several (``generator_2``)
    would pool them into one wrong number."""
    named = [r for r in records if isinstance(r.value, dict) and isinstance(r.value.get("generator_2"), str)]
    other = next((r for r in named if r.value["generator_2"] != named[0].value["generator_2"]), None)
    if other is not None:
        raise _data_error(f"{other.where}: generator_2 {other.value['generator_2']!r}, but {named[0].where} has "
                          f"{named[0].value['generator_2']!r}: the annotations are of several models; give one model's")


def _located(call: Callable[[], Any], records: list[Record], noun: str) -> Any:
    """``call()``, its error's ``<noun> <index>`` (the analysis function's position) read
    as the record's file and line."""
    import re

    from ..errors import NlgMetricsError

    try:
        return call()
    except NlgMetricsError as e:
        m = re.match(rf"{noun} (\d+)(.*)", str(e), re.S)
        if m is None or int(m[1]) >= len(records):
            raise
        raise type(e)(f"{records[int(m[1])].where}: {noun}{m[2]}") from None


def _preferences(records: list[Record]) -> list[Any]:
    _one_model(records)
    return [r.value if not isinstance(r.value, dict) else _field(r, "preference") for r in records]


def _output_length(record: Record, key: str) -> int:
    text = _field(record, key)
    if not isinstance(text, str):
        raise _data_error(f"{record.where}: {key!r} is {_kind(text)}, not the output's text")
    return len(text)  # characters, alpaca_eval's str.len()


def _difficulties(args: argparse.Namespace, records: list[Record]) -> list[Any]:
    if args.difficulty is None:
        return [_field(r, "instruction_difficulty") for r in records]
    column = read_records(args.difficulty, numbers=True)
    if len(column) != len(records):
        raise _data_error(f"{args.difficulty}: {len(column)} difficulties for {len(records)} records")
    for c in column:
        if isinstance(c.value, bool) or not isinstance(c.value, (int, float)):
            raise _data_error(f"{c.where}: expected a number, got {_kind(c.value)}")
    return [c.value for c in column]


# -- each aggregate ------------------------------------------------------------------------
def _win_rate(args: argparse.Namespace, records: list[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    from ..analysis.judge import win_rate

    prefs = _preferences(records)
    return _located(lambda: win_rate(prefs), records, "preference"), {"equals": ALPACA_EVAL}


def _length_controlled(args: argparse.Namespace, records: list[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    prefs = _preferences(records)
    model = [_output_length(r, "output_2") for r in records]
    baseline = [_output_length(r, "output_1") for r in records]
    difficulty = _difficulties(args, records)
    from ..analysis.judge_lc import length_controlled_win_rate

    result = _located(lambda: length_controlled_win_rate(prefs, model, baseline, difficulty, glm=args.glm, fold_order=args.fold_order),
                      records, "preference")
    import sklearn

    return result, {"glm": args.glm, "folds": args.fold_order, "sklearn": sklearn.__version__, "equals": ALPACA_EVAL}


def _battles(records: list[Record], args: argparse.Namespace | None = None) -> tuple[list[Any], list[Record], dict[str, Any]]:
    """The battles of the records (the analysis function checks their fields and winners),
    each with its record; arena-hard's judgments (objects with ``games``) become battles as
    its ``show_result.py`` makes them. Also what the signature and output say of judgments."""
    judgments = args is not None and isinstance(records[0].value, dict) and "games" in records[0].value
    if not judgments:
        if args is not None and (args.weight is not None or args.first_game_only):
            from .guard import UsageError

            raise UsageError(f"--weight and --first-game-only read arena-hard judgments (objects with 'games'); {records[0].where} is a battle")
        return [r.value for r in records], records, {}
    from ..analysis.judge_battles import battles_from_judgments

    weight = 3 if args.weight is None else args.weight
    battles, where, unjudged = [], [], 0
    for r in records:
        made, skipped = _located(lambda: battles_from_judgments([r.value], baseline=args.baseline, weight=weight,
                                                                first_game_only=args.first_game_only), [r], "judgment")
        battles.extend(made)
        where.extend([r] * len(made))
        unjudged += skipped
    if not battles:
        raise _data_error(f"{_name(args.file)}: no game of the {len(records)} judgments has a verdict")
    summary = {"judgments": len(records), "battles": len(battles), "games_without_verdict": unjudged}
    return battles, where, {"weight": weight, "first_game_only": args.first_game_only, "summary": summary}


def _bradley_terry(args: argparse.Namespace, records: list[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    from ..analysis.judge_ratings import bradley_terry

    battles, where, judged = _battles(records, args)
    result = _located(lambda: bradley_terry(battles, baseline=args.baseline, rounds=args.rounds, seed=args.seed,
                                            scale=args.scale, base=args.base, init_rating=args.init_rating), where, "battle")
    return _with_judgments(result, judged), {"baseline": args.baseline, "rounds": args.rounds, "seed": args.seed, **_scale_items(args),
                                             **_judgment_items(judged), "equals": ARENA_HARD}


def _arena_hard(args: argparse.Namespace, records: list[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    from ..analysis.judge_ratings import arena_hard_leaderboard

    battles, where, judged = _battles(records, args)
    result = _located(lambda: arena_hard_leaderboard(battles, baseline=args.baseline, rounds=args.rounds, seed=args.seed), where, "battle")
    return _with_judgments({"leaderboard": result}, judged), {"baseline": args.baseline, "rounds": args.rounds, "seed": args.seed,
                                                              **_judgment_items(judged), "equals": ARENA_HARD}


def _with_judgments(result: dict[str, Any], judged: dict[str, Any]) -> dict[str, Any]:
    return {**result, "judgments": judged["summary"]} if judged else result


def _judgment_items(judged: dict[str, Any]) -> dict[str, Any]:
    return {"weight": judged["weight"], "first_game_only": judged["first_game_only"]} if judged else {}


def _elo(args: argparse.Namespace, records: list[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    from ..analysis.judge_ratings import online_elo

    battles = [r.value for r in records]  # the analysis function checks fields and winners
    result = _located(lambda: online_elo(battles, k=args.elo_k, scale=args.scale, base=args.base, init_rating=args.init_rating,
                                         flavour=args.flavour), records, "battle")
    return {"ratings": result}, {"flavour": args.flavour, "k": args.elo_k, **_scale_items(args)}


def _mqm(args: argparse.Namespace, records: list[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    from ..analysis.judge import mqm_score, parse_gemba_mqm
    from ..errors import NlgMetricsError

    scores: list[int | None] = []
    for r in records:
        answer = _field(r, args.field) if isinstance(r.value, dict) else r.value
        if answer is not None and not isinstance(answer, str):
            raise _data_error(f"{r.where}: the answer is {_kind(answer)}, not the judge's text (or null)")
        try:
            errors = parse_gemba_mqm(answer)
            scores.append(None if errors is None else mqm_score(errors, flavour=args.flavour))
        except NlgMetricsError as e:
            raise type(e)(f"{r.where}: {e}") from None
        except (KeyError, IndexError, TypeError, ValueError) as e:  # GEMBA's JSON answer without its parts
            raise _data_error(f"{r.where}: not a GEMBA-MQM answer ({type(e).__name__}: {e})") from None
    scored = [s for s in scores if s is not None]
    result: dict[str, Any] = {"mqm": sum(scored) / len(scored) if scored else None, "n_scored": len(scored),
                              "n_unscored": len(scores) - len(scored)}
    if args.per_segment:
        result["segments"] = scores
    return result, {"flavour": args.flavour}


def _scale_items(args: argparse.Namespace) -> dict[str, Any]:
    return {"scale": args.scale, "base": args.base, "init": args.init_rating}


_RUN = {"win-rate": _win_rate, "length-controlled": _length_controlled, "bradley-terry": _bradley_terry,
        "arena-hard": _arena_hard, "elo": _elo, "mqm": _mqm}


# -- running and printing ------------------------------------------------------------------
def check_ranges(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    from .checks import RANGES, flag, numeric_actions
    from .guard import UsageError

    local = ranges()
    for action in numeric_actions(parser):
        rng = local.get(action.dest, RANGES.get(action.dest))
        value = getattr(args, action.dest, None)
        if rng is not None and value is not None and not rng.holds(value):
            raise UsageError(f"argument {flag(action)}: must be {rng.describe()}, got {value!r}")


def signature(aggregate: str, items: dict[str, Any]) -> str:
    from ..signature import Signature

    return Signature({"tool": "judge", "aggregate": aggregate, **items}).format()


def run(args: argparse.Namespace, out, err, parser: argparse.ArgumentParser | None = None) -> int:
    if parser is not None:  # the judge parser: its aggregate's parser declares the numeric options
        chosen = next(a.choices[args.aggregate] for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        check_ranges(chosen, args)
    records = read_records(args.file, numbers=args.aggregate == "win-rate")
    if not records:
        raise _data_error(f"{args.file}: no records")
    result, items = _RUN[args.aggregate](args, records)
    sig = signature(args.aggregate, items)
    if args.format == "json":
        from .jsonout import json_text

        out.write(json_text({**result, "signature": sig}, indent=2) + "\n")
        return 0
    lines = _table(args.aggregate, result)
    if "judgments" in result:
        j = result["judgments"]
        lines.append(f"{j['judgments']} judgments, {j['battles']} battles, {j['games_without_verdict']} games without a verdict")
    out.write("\n".join([*lines, sig]) + "\n")
    return 0


def _number(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "-" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.2f}" if value == value else "nan"


def _table(aggregate: str, result: dict[str, Any]) -> list[str]:
    if aggregate in ("win-rate", "length-controlled"):
        width = max(map(len, result))
        return [f"{key:<{width}}  {_number(value)}" for key, value in result.items()]
    if aggregate == "mqm":
        rows = [f"mqm         {_number(result['mqm'])}", f"n_scored    {result['n_scored']}", f"n_unscored  {result['n_unscored']}"]
        return [*(f"{i + 1}\t{_number(s)}" for i, s in enumerate(result.get("segments", []))), *rows]
    if aggregate == "arena-hard":
        board = result["leaderboard"]
        header, rows = ["model", "score", "95% CI"], []
        for model in sorted(board, key=lambda m: -board[m]["score"]):
            row = board[model]
            ci = f"({row['lower'] - row['score']:+.2f}, {row['upper'] - row['score']:+.2f})" if "lower" in row else "-"
            rows.append([model, _number(row["score"]), ci])
        return _columns(header, rows)
    ratings = result["ratings"]
    header = ["model", "rating"] + (["lower", "upper"] if "lower" in result else [])
    rows = [[m, _number(ratings[m])] + ([_number(result["lower"][m]), _number(result["upper"][m])] if "lower" in result else [])
            for m in sorted(ratings, key=lambda m: -ratings[m])]
    return _columns(header, rows)


def _columns(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[j]) for r in [header, *rows]) for j in range(len(header))]
    return ["  ".join(cell.ljust(w) if j == 0 else cell.rjust(w) for j, (cell, w) in enumerate(zip(r, widths))).rstrip() for r in [header, *rows]]
