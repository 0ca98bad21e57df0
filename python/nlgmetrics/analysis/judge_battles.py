"""Arena-Hard's judgments as battles: ``get_battles_from_judgment`` of arena-hard-auto's
``show_result.py`` (the release that fits Bradley-Terry with scikit-learn, commit 0489bf3).

A judgment (one line of ``model_judgment/<judge>/<model>.jsonl``) holds ``model`` and two
``games``, each with the judge's ``score``: ``A>>B``, ``A>B``, ``A=B``, ``B>A`` or ``B>>A``.
In game 1 the baseline's answer is A, in game 2 it is B. Each verdict becomes battles of the
baseline (``model_a``) against the model (``model_b``): one battle, or ``weight`` battles for
a "much better" verdict (``>>``). A score that is none of these (the judge gave no verdict)
becomes no battle, as in the reference; :func:`battles_from_judgments` counts them.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..errors import InputTypeError, InvalidInputError, InvalidOptionError

__all__ = ["battles_from_judgments", "JUDGMENT_SCORES"]

# score -> (winner in game 1, winner in game 2, a "much better" verdict)
JUDGMENT_SCORES = {
    "A=B": ("tie", "tie", False),
    "A>B": ("model_a", "model_b", False),
    "A>>B": ("model_a", "model_b", True),
    "B>A": ("model_b", "model_a", False),
    "B>>A": ("model_b", "model_a", True),
}


def battles_from_judgments(
    judgments: Sequence[Mapping[str, Any]],
    baseline: str = "gpt-4-0314",
    weight: int = 3,
    first_game_only: bool = False,
) -> tuple[list[dict[str, str]], int]:
    """The battles of arena-hard's judgments, in the reference's order (judgment by judgment,
    game 1 then game 2), and the number of games without a verdict (which give none)."""
    if isinstance(weight, bool) or not isinstance(weight, int) or weight < 1:
        raise InvalidOptionError(f"weight must be a positive integer, got {weight!r}")
    if not isinstance(baseline, str):
        raise InputTypeError(f"baseline must be a model name, got {baseline!r}")
    if isinstance(judgments, (str, bytes, Mapping)) or not isinstance(judgments, Iterable):
        raise InputTypeError(f"judgments must be a list of judgment objects, got {type(judgments).__name__}")
    battles: list[dict[str, str]] = []
    unjudged = 0
    for i, judgment in enumerate(judgments):
        if not isinstance(judgment, Mapping):
            raise InputTypeError(f"judgment {i} is {type(judgment).__name__}, not an object with 'model' and 'games'")
        for key in ("model", "games"):
            if key not in judgment:
                raise InvalidInputError(f"judgment {i} has no {key!r}")
        model, games = judgment["model"], judgment["games"]
        if not isinstance(model, str):
            raise InputTypeError(f"judgment {i}: model {model!r} is not a name")
        wanted = 1 if first_game_only else 2
        if not isinstance(games, Sequence) or isinstance(games, str) or len(games) < wanted:
            raise InvalidInputError(f"judgment {i}: 'games' must list {wanted} game(s), got {games!r:.80}")
        for game_index in range(wanted):
            game = games[game_index]
            score = game.get("score") if isinstance(game, Mapping) else None
            verdict = JUDGMENT_SCORES.get(score) if isinstance(score, str) else None
            if verdict is None:
                unjudged += 1
                continue
            battle = {"model_a": baseline, "model_b": model, "winner": verdict[game_index]}
            battles.extend(dict(battle) for _ in range(weight if verdict[2] else 1))
    return battles, unjudged
