"""Aggregates of judge verdicts: win rate with ties and GEMBA-MQM error weighting.

nlgmetrics never calls a judge: these functions take the verdicts a judge gave.

- :func:`win_rate`: AlpacaEval's ``get_winrate`` / ``pairwise_to_winrate`` (alpaca_eval 0.6.6).
- :func:`mqm_score`, :func:`parse_gemba_mqm`: GEMBA-MQM's ``parse_mqm_answer`` scoring
  (MicrosoftTranslator/GEMBA, unchanged since the commit that added GEMBA-MQM).

Ratings (Bradley-Terry, Elo) are in :mod:`.judge_ratings`, the length-controlled win rate in
:mod:`.judge_lc`.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from typing import Any, Mapping, Sequence

from ..errors import EmptyInputError, InputTypeError, InvalidInputError, InvalidOptionError

__all__ = ["win_rate", "mqm_score", "parse_gemba_mqm", "MQM_FLAVOURS"]


def _preference_values(preferences: Sequence[Any]) -> list[float]:
    """Preferences as floats; 0 (AlpacaEval's old draw code) reads as 1.5, as alpaca_eval does."""
    if isinstance(preferences, (str, bytes)) or not hasattr(preferences, "__len__"):
        raise InputTypeError("preferences must be a sequence of numbers in [1, 2] (0 or 1.5 for a draw)")
    values = []
    for i, p in enumerate(preferences):
        if isinstance(p, bool) or not isinstance(p, (int, float)) and not hasattr(p, "__float__"):
            raise InputTypeError(f"preference {i} is {p!r}, not a number")
        value = float(p)
        if math.isnan(value):
            raise InvalidInputError(f"preference {i} is NaN: drop the unjudged pairs first")
        if value == 0.0:
            value = 1.5
        if not 1.0 <= value <= 2.0:
            raise InvalidInputError(f"preference {i} is {p!r}: AlpacaEval preferences lie in [1, 2] (0 or 1.5 = draw)")
        values.append(value)
    if not values:
        raise EmptyInputError("win_rate of no preferences")
    return values


def _sem_pandas(values: Sequence[float]) -> float:
    """The standard error exactly as pandas computes it (numpy's var of the array), so
    the last bit matches alpaca_eval's ``predictions.sem()``."""
    import numpy as np

    n = len(values)
    if n < 2:
        return math.nan
    array = np.asarray(values, dtype=float)
    return float(np.sqrt(_nanvar(array)) / np.sqrt(n))


def _nanvar(array):
    # pandas.core.nanops.nanvar with ddof=1: mean by sum/count, then sum of squared deviations
    import numpy as np

    count = array.size
    avg = array.sum(dtype=np.float64) / count
    sqr = (avg - array) ** 2
    return sqr.sum(dtype=np.float64) / (count - 1)


def win_rate(preferences: Sequence[Any]) -> dict[str, float | int]:
    """AlpacaEval's win rate of the model against the baseline, equal to alpaca_eval's
    ``get_winrate`` / ``pairwise_to_winrate``.

    ``preferences`` holds one judge verdict per instruction: 1 = the baseline wins, 2 = the
    model wins, 1.5 (or 0) = a draw, or any float in [1, 2] (a weighted judge's probability).
    Returns ``win_rate`` and ``standard_error`` (percent; the mean and standard error of
    ``preference - 1``), ``n_wins``, ``n_wins_base``, ``n_draws``, ``n_total`` and
    ``discrete_win_rate`` (each preference rounded to a win, loss or draw first).
    """
    values = _preference_values(preferences)
    shifted = [v - 1 for v in values]
    import numpy as np

    array = np.asarray(shifted, dtype=float)
    out: dict[str, float | int] = {
        "win_rate": float(array.sum() / array.size * 100),
        "standard_error": _sem_pandas(shifted) * 100,
        "n_wins": sum(1 for v in shifted if v > 0.5),
        "n_wins_base": sum(1 for v in shifted if v < 0.5),
        "n_draws": sum(1 for v in values if v == 1.5),
        "n_total": len(values),
    }
    out["discrete_win_rate"] = _discrete_win_rate(values)
    return out


def _discrete_win_rate(values: Sequence[float]) -> float:
    # ZeroOneScoringRule: 1.5 -> 0 (draw), then round half to even to an integer preference
    import numpy as np

    rounded = np.round(np.asarray([0.0 if v == 1.5 else v for v in values], dtype=float)).astype(np.int64)
    rounded = np.where(rounded == 0, 1.5, rounded.astype(float)) - 1
    return float(rounded.sum() / rounded.size * 100)


# GEMBA-MQM --------------------------------------------------------------------------------

MQM_FLAVOURS = {
    # MicrosoftTranslator/GEMBA gemba/gemba_mqm_utils.py: critical 25, major 5, minor 1, only the
    # first five errors (critical first, then major, then minor) count, the total capped at 25.
    "gemba-mqm": {"weights": {"critical": 25, "major": 5, "minor": 1}, "max_errors": 5, "cap": 25},
}
_SEVERITIES = ("critical", "major", "minor")


def mqm_score(errors: Mapping[str, Sequence[Any]], flavour: str = "gemba-mqm") -> int:
    """The MQM score (0 or negative; higher is better) of one segment's errors by severity,
    ``{"critical": [...], "major": [...], "minor": [...]}`` (only the counts matter; other
    keys are ignored, as GEMBA ignores them). Equal to GEMBA's ``parse_mqm_answer``."""
    if flavour not in MQM_FLAVOURS:
        raise InvalidOptionError(f"unknown MQM flavour {flavour!r}; known: {sorted(MQM_FLAVOURS)}")
    if not isinstance(errors, Mapping):
        raise InputTypeError("errors must map a severity ('critical', 'major', 'minor') to a list of errors")
    rule = MQM_FLAVOURS[flavour]
    total = 0
    counted = 0
    for severity in _SEVERITIES:
        listed = errors.get(severity)
        if listed is None:
            continue
        if isinstance(listed, (str, bytes)) or not hasattr(listed, "__len__"):
            raise InputTypeError(f"errors[{severity!r}] must be a list of errors, not {type(listed).__name__}")
        for _ in listed:
            if counted < rule["max_errors"]:
                total += rule["weights"][severity]
                counted += 1
    return -min(total, rule["cap"])


_ERROR_CLASS_PREFIXES = ("accuracy", "fluency", "locale convention", "style", "terminology", "non-translation", "other")


def parse_gemba_mqm(answer: str | None) -> dict[str, list] | None:
    """The errors by severity in a GEMBA-MQM judge answer, read as GEMBA's
    ``parse_mqm_answer`` reads it (the "Critical:/Major:/Minor:" text answer, or the JSON
    ``{"improved translation": ..., "errors": ...}`` answer). ``None`` stays ``None``.
    ``mqm_score(parse_gemba_mqm(answer))`` is GEMBA's score of the answer."""
    if answer is None:
        return None
    x = str(answer)
    if x.startswith('{"improved translation"'):
        try:
            parsed = json.loads(x)
        except ValueError:
            parsed = _parse_broken_json(x)
        errors = parsed["errors"]
        if not isinstance(errors, Mapping):
            raise InvalidInputError("the judge answer's 'errors' is not an object of severities")
        return {k: list(v) for k, v in errors.items() if k in _SEVERITIES}
    errors: dict[str, list] = {"critical": [], "major": [], "minor": []}
    level = None
    for line in x.lower().split("\n"):
        line = line.strip()
        if "no-error" in line or "no error" in line or line == "":
            continue
        if line in ("critical:", "major:", "minor:"):
            level = line[:-1]
            continue
        if level is None:
            continue  # GEMBA prints "No error level" and skips the line
        errors["critical" if "non-translation" in line else level].append(line)
    return errors


def _parse_broken_json(x: str) -> dict:
    errors: dict = defaultdict(list)
    improved = ""
    if '"errors": ' in x and "improved translation" in x:
        data = x.split('", "errors": ')
        if len(data) != 2:
            return {"improved translation": improved, "errors": errors}
        improved = data[0].split('"improved translation": "')[1]
        try:
            errors = json.loads(data[1][:-1])
        except ValueError:
            last = None
            for word in re.findall(r"\b\w+\b", data[1][:-1].lower()):
                if word in _SEVERITIES:
                    last = word
                elif last is not None and word == "class":
                    errors[last].append({"class": "other"})
    return {"improved translation": improved, "errors": errors}
