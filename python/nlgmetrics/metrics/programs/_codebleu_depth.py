"""How deep a parse tree the references' data-flow walk reads, and stack room for ours.

The references walk a parse tree recursively, one Python frame a tree level; past the
interpreter's recursion limit they raise RecursionError, catch it, and the snippet has no data
flow. Ours takes more frames a level, so on its own it would give up on snippets nested a few
hundred deep that the references still read. So a snippet whose tree is deeper than the
references could walk from the caller's stack depth has no data flow, and any other is walked
with the recursion limit raised as far as this walk needs (and put back after).
"""
from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator

# Frames from the caller's to the references' recursive walks: calc_codebleu,
# corpus_dataflow_match, get_data_flow (PyPI codebleu 0.7.0); CodeXGLUE's script calls
# corpus_dataflow_match at its top level.
REFERENCE_FRAMES = {"codebleu-0.7": 3, "codexglue": 2}
# Their walks reach this many frames beyond the tree's depth (measured: called from a
# script's top level, 0.7.0 reads a tree of depth 993 and not 994 under the limit of 1000).
REFERENCE_SLACK = 3
# This walk: walk -> handler -> walk, and a definition's or branch's own frame.
FRAMES_PER_LEVEL = 4

_lock = threading.Lock()
_users = 0
_saved_limit = 0


def tree_depth(root: Any) -> int:
    """Levels of the tree (the root alone is 1)."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.children)
    return deepest


def _stack_depth(frame: Any) -> int:
    n = 0
    while frame is not None:
        n += 1
        frame = frame.f_back
    return n


def caller_depth() -> int:
    """Frames up to the innermost one outside nlgmetrics (the call site a reference would have)."""
    frame = sys._getframe(1)
    while frame is not None and str(frame.f_globals.get("__name__", "")).startswith("nlgmetrics"):
        frame = frame.f_back
    return _stack_depth(frame)


def user_limit() -> int:
    """The recursion limit the user set (not the one raised here for a walk)."""
    with _lock:
        return _saved_limit if _users else sys.getrecursionlimit()


def references_read(depth: int, flavour: str) -> bool:
    return caller_depth() + REFERENCE_FRAMES[flavour] + depth + REFERENCE_SLACK <= user_limit()


@contextmanager
def room_for(depth: int) -> Iterator[None]:
    """The recursion limit raised, if need be, for a walk of a tree ``depth`` levels deep."""
    global _users, _saved_limit
    needed = _stack_depth(sys._getframe()) + FRAMES_PER_LEVEL * depth + 100
    with _lock:
        if _users == 0:
            _saved_limit = sys.getrecursionlimit()
        _users += 1
        if sys.getrecursionlimit() < needed:
            sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                sys.setrecursionlimit(_saved_limit)
