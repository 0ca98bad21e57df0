"""The Open LLM Leaderboard v2 average from lm-eval's ``results`` (the ``leaderboard`` tasks).

Followed: Hugging Face's page "Scores Normalization"
(https://huggingface.co/docs/leaderboards/open_llm_leaderboard/normalization). Each score is
moved onto 0-100 against its random baseline: ``(raw - baseline) / (1 - baseline) * 100``,
``0`` where ``raw < baseline``:

- ``leaderboard_bbh`` and ``leaderboard_musr``: every subtask's ``acc_norm,none`` against
  ``1 / number of choices`` of that subtask, then the plain mean of the subtasks;
- ``leaderboard_gpqa``: the group's ``acc_norm,none`` against 0.25;
- ``leaderboard_mmlu_pro``: ``acc,none`` against 0.1;
- ``leaderboard_math_hard``: the group's ``exact_match,none`` against 0;
- ``leaderboard_ifeval``: the mean of ``prompt_level_strict_acc,none`` and
  ``inst_level_strict_acc,none``, both ×100 (no baseline);
- the average: the plain mean of the six.

The number of choices of a bbh / musr subtask is read from the run (the task config's
``doc_to_choice`` list, else the requests each logged document made), the page's definition.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..errors import InvalidInputError

SOURCE = "huggingface.co/docs/leaderboards/open_llm_leaderboard/normalization"
TASKS = ("leaderboard_bbh", "leaderboard_gpqa", "leaderboard_ifeval", "leaderboard_math_hard",
         "leaderboard_mmlu_pro", "leaderboard_musr")
FIXED = {"leaderboard_gpqa": ("acc_norm,none", 0.25), "leaderboard_mmlu_pro": ("acc,none", 0.1),
         "leaderboard_math_hard": ("exact_match,none", 0.0)}


def normalize_within_range(value: float, lower_bound: float, higher_bound: float = 1.0) -> float:
    """The page's normalisation on 0-100, clipped at 0 below the baseline."""
    if value < lower_bound:
        return 0.0
    return (value - lower_bound) / (higher_bound - lower_bound) * 100


def _value(results: Mapping[str, Any], task: str, key: str) -> float:
    if task not in results:
        raise InvalidInputError(f"open-llm-leaderboard-v2: the run has no {task!r} (it needs {', '.join(TASKS)})")
    value = results[task].get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInputError(f"open-llm-leaderboard-v2: {task} has no {key!r}")
    return float(value)


def _subtasks(results: Mapping[str, Any], family: str) -> list[str]:
    return sorted(t for t in results if t.startswith(family + "_"))


def leaderboard_scores(results: Mapping[str, Any], num_choices: Mapping[str, int]) -> dict[str, float]:
    """``{task: normalised score, ..., "average": mean of the six}`` from lm-eval's
    ``results`` (file or re-scored); ``num_choices``: the bbh / musr subtasks' choices."""
    out: dict[str, float] = {}
    for family in ("leaderboard_bbh", "leaderboard_musr"):
        subs = _subtasks(results, family)
        if not subs:
            raise InvalidInputError(f"open-llm-leaderboard-v2: the run has no {family}_* subtask")
        scores = []
        for sub in subs:
            k = num_choices.get(sub)
            if not isinstance(k, int) or k < 1:
                raise InvalidInputError(f"open-llm-leaderboard-v2: the number of choices of {sub} is unknown")
            scores.append(normalize_within_range(_value(results, sub, "acc_norm,none"), 1 / k))
        out[family] = sum(scores) / len(scores)
    for task, (key, baseline) in FIXED.items():
        out[task] = normalize_within_range(_value(results, task, key), baseline)
    prompt = _value(results, "leaderboard_ifeval", "prompt_level_strict_acc,none") * 100
    inst = _value(results, "leaderboard_ifeval", "inst_level_strict_acc,none") * 100
    out["leaderboard_ifeval"] = (inst + prompt) / 2
    ordered = {t: out[t] for t in TASKS}
    ordered["average"] = sum(ordered.values()) / len(TASKS)
    return ordered
