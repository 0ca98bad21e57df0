"""What :mod:`nlgmetrics.tasks.lm_eval_folder` checks in an lm-eval output folder before it
re-scores anything: the results file's sections have the shapes lm-eval writes (and its
groups no cycle), each samples record names its document once per filter, and each logged
value is of the kind its aggregation reads. Each refusal is an :class:`InvalidInputError`
naming the file (and, for a samples record, the line)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import InvalidInputError

# the results file's sections read here: each an object of objects (or, for group_subtasks,
# of lists of names); checked once so that no later step meets a list where it reads a key
_SECTIONS_OF_OBJECTS = ("results", "configs", "groups", "higher_is_better")
_SECTIONS_OF_VALUES = ("versions", "n-shot")


def check_shape(data: dict, path: Path) -> None:
    for key in _SECTIONS_OF_OBJECTS + _SECTIONS_OF_VALUES + ("group_subtasks", "config"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise InvalidInputError(f'{path}: "{key}" must be an object, got {type(data[key]).__name__}')
    for key in _SECTIONS_OF_OBJECTS:
        for name, entry in (data.get(key) or {}).items():
            if not isinstance(entry, dict):
                raise InvalidInputError(f'{path}: {key}[{name!r}] must be an object, got {type(entry).__name__}')
    subtasks = data.get("group_subtasks") or {}
    for group, children in subtasks.items():
        if not isinstance(children, list) or not all(isinstance(c, str) for c in children):
            raise InvalidInputError(f"{path}: group_subtasks[{group!r}] must be a list of task names")
    _check_acyclic(subtasks, path)


def _check_acyclic(subtasks: dict, path: Path) -> None:
    """A group that contains itself (directly or through others) has no leaves to score."""
    done: set[str] = set()
    for start in subtasks:
        trail, stack = [start], [iter(subtasks[start])]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                done.add(trail.pop())
                stack.pop()
            elif child in trail:
                raise InvalidInputError(f"{path}: group_subtasks has a cycle: {' -> '.join([*trail[trail.index(child):], child])}")
            elif child in subtasks and child not in done:
                trail.append(child)
                stack.append(iter(subtasks[child]))


def check_record(rec: Any, at: str, lineno: int, seen: dict[tuple[str, int], int]) -> None:
    """One samples line (``at``: ``file:line``); ``seen``: ``(filter, doc_id)`` -> first line."""
    if not isinstance(rec, dict):
        raise InvalidInputError(f"{at}: expected an lm-eval sample object")
    filt = rec.get("filter", "none")
    if not isinstance(filt, str):
        raise InvalidInputError(f'{at}: "filter" must be the filter\'s name, got {filt!r}')
    if "doc_id" not in rec:
        raise InvalidInputError(f'{at}: missing "doc_id"')
    doc_id = rec["doc_id"]
    if isinstance(doc_id, bool) or not isinstance(doc_id, int):
        raise InvalidInputError(f'{at}: "doc_id" must be an integer, got {doc_id!r}')
    # lm-eval logs each document once per filter: a repeat is a second run pasted in
    if (filt, doc_id) in seen:
        raise InvalidInputError(f"{at}: doc_id {doc_id} of filter {filt!r} again (first on line {seen[(filt, doc_id)]})")
    seen[(filt, doc_id)] = lineno


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float))  # bool included: lm-eval's mean counts True as 1


def logged_value(value: Any, aggregation: str, where: str) -> Any:
    """A value a record logs, as the aggregation reads it: a number for ``mean``, a list of
    numbers for ifeval's instruction-level mean, a tuple for the others (pairs, lists)."""
    if aggregation == "mean" and not _is_number(value):
        raise InvalidInputError(f"{where} must be a number (its aggregation is the mean), got {value!r:.60}")
    if aggregation == "inst_level_acc" and not (isinstance(value, list) and all(_is_number(v) for v in value)):
        raise InvalidInputError(f"{where} must be a list of per-instruction values, got {value!r:.60}")
    return tuple(value) if isinstance(value, list) else value
