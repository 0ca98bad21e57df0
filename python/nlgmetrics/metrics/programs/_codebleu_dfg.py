"""CodeBLEU's data-flow graphs (Ren et al. 2020, GraphCodeBERT's extraction): the shared walk, and Python's.

The brace languages' walks are in ``_codebleu_dfg_braces``.

An edge is ``(name, token_position, relation, source_names, source_positions)``; ``states``
maps a variable to the positions that last defined it. The walk reproduces the reference's
(microsoft/CodeXGLUE ``parser/DFG.py``, unchanged in PyPI ``codebleu`` 0.7.0) decisions node
type by node type, including its quirks: a loop body is walked twice, branches merge their
states, and the names of a loop's merged edges pass through a ``set`` (so their order, and the
data-flow match of a few snippets, follow Python's string hashing as the reference's do).
"""
from __future__ import annotations

from typing import Any, Callable

LEAF_BLOCKS = ("string_literal", "string", "character_literal")


def is_token(node: Any) -> bool:
    """A node the reference treats as one code token (a leaf, or a whole string literal)."""
    return (node.child_count == 0 or node.type in LEAF_BLOCKS) and node.type != "comment"


def variable_spans(node: Any, index_to_code: dict) -> list:
    """The token spans under ``node`` whose text differs from their node type (names, literals)."""
    if is_token(node):
        span = (node.start_point, node.end_point)
        return [span] if node.type != index_to_code[span][1] else []
    out: list = []
    for child in node.children:
        out += variable_spans(child, index_to_code)
    return out


def by_position(edges: list) -> list:
    return sorted(edges, key=lambda e: e[1])


def merge_loop_edges(edges: list) -> list:
    """One edge per (name, position, relation); a loop walked twice adds its sources."""
    merged: dict = {}
    for name, pos, rel, src_names, src_pos in edges:
        key = (name, pos, rel)
        if key not in merged:
            merged[key] = [src_names, src_pos]
        else:
            merged[key][0] = list(set(merged[key][0] + src_names))
            merged[key][1] = sorted(set(merged[key][1] + src_pos))
    return by_position([(k[0], k[1], k[2], v[0], v[1]) for k, v in sorted(merged.items(), key=lambda t: t[0][1])])


def union_states(all_states: list) -> dict:
    union: dict = {}
    for st in all_states:
        for key, positions in st.items():
            if key in union:
                union[key] += positions
            else:
                union[key] = positions.copy()
    return {k: sorted(set(v)) for k, v in union.items()}


class Walker:
    """The walk shared by every language; subclasses name their node types."""

    definitions: tuple = ()
    if_types: tuple = ()
    while_types = ("while_statement",)
    do_first: tuple = ()

    def __init__(self, index_to_code: dict):
        self.code = index_to_code

    def walk(self, node: Any, states: dict) -> tuple[list, dict]:
        states = states.copy()
        if is_token(node):
            return self.token(node, states)
        handler = self.handler(node.type)
        if handler is not None:
            return handler(node, states)
        return self.children_in_order(node, states)

    def handler(self, node_type: str) -> Callable | None:
        if node_type in self.definitions:
            return self.definition
        if node_type in self.if_types:
            return self.branch
        if node_type in self.while_types:
            return self.while_loop
        return None

    def token(self, node: Any, states: dict) -> tuple[list, dict]:
        pos, text = self.code[(node.start_point, node.end_point)]
        if node.type == text:
            return [], states
        if text in states:
            return [(text, pos, "comesFrom", [text], states[text].copy())], states
        if node.type == "identifier":
            states[text] = [pos]
        return [(text, pos, "comesFrom", [], [])], states

    def pairs(self, left: Any, right: Any, relation: str, states: dict) -> list:
        """Each name under ``left`` from each name under ``right``; the names now defined there."""
        edges = []
        rights = variable_spans(right, self.code)
        for span in variable_spans(left, self.code):
            pos, text = self.code[span]
            for rspan in rights:
                rpos, rtext = self.code[rspan]
                edges.append((text, pos, relation, [rtext], [rpos]))
            states[text] = [pos]
        return edges

    def definition(self, node: Any, states: dict) -> tuple[list, dict]:
        return self.define(node.child_by_field_name("name"), node.child_by_field_name("value"), states)

    def define(self, name: Any, value: Any, states: dict) -> tuple[list, dict]:
        """Each name under ``name`` from each name under ``value`` (or from nothing)."""
        if value is None:
            edges = []
            for span in variable_spans(name, self.code):
                pos, text = self.code[span]
                edges.append((text, pos, "comesFrom", [], []))
                states[text] = [pos]
            return by_position(edges), states
        edges, states = self.walk(value, states)
        edges += self.pairs(name, value, "comesFrom", states)
        return by_position(edges), states

    def while_loop(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        for _ in range(2):
            for child in node.children:
                more, states = self.walk(child, states)
                edges += more
        return merge_loop_edges(edges), states

    def children_in_order(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        children = node.children  # a new list at each access
        order = children if not self.do_first else [c for c in children if c.type in self.do_first] + [c for c in children if c.type not in self.do_first]
        for child in order:
            more, states = self.walk(child, states)
            edges += more
        return by_position(edges), states

    def branch(self, node: Any, states: dict) -> tuple[list, dict]:
        raise NotImplementedError


class PythonWalker(Walker):
    definitions = ("default_parameter",)
    if_types = ("if_statement",)
    do_first = ("for_in_clause",)

    def handler(self, node_type: str) -> Callable | None:
        if node_type in ("assignment", "augmented_assignment", "for_in_clause"):
            return self.assignment
        if node_type == "for_statement":
            return self.for_loop
        return super().handler(node_type)

    def _sides(self, node: Any) -> tuple[list, list]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        lefts = [c for c in left.children if c.type != ","]
        rights = [c for c in right.children if c.type != ","]
        if len(rights) != len(lefts):
            lefts, rights = [left], [right]
        return lefts or [left], rights or [right]

    def _assign(self, lefts: list, rights: list, states: dict) -> tuple[list, dict]:
        edges: list = []
        for node in rights:
            more, states = self.walk(node, states)
            edges += more
        for left, right in zip(lefts, rights):
            sources = variable_spans(right, self.code)
            for span in variable_spans(left, self.code):
                pos, text = self.code[span]
                edges.append((text, pos, "computedFrom", [self.code[s][1] for s in sources], [self.code[s][0] for s in sources]))
                states[text] = [pos]
        return edges, states

    def assignment(self, node: Any, states: dict) -> tuple[list, dict]:
        if node.type == "for_in_clause":
            lefts, rights = [node.child_by_field_name("left")], [node.children[-1]]
        elif node.child_by_field_name("right") is None:
            return [], states
        else:
            lefts, rights = self._sides(node)
        edges, states = self._assign(lefts, rights, states)
        return by_position(edges), states

    def for_loop(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        for _ in range(2):
            more, states = self._assign(*self._sides(node), states)
            edges += more
            if node.children[-1].type == "block":
                more, states = self.walk(node.children[-1], states)
                edges += more
        return merge_loop_edges(edges), states

    def branch(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        current = states.copy()
        others = []
        has_else = False
        for child in node.children:
            has_else = has_else or "else" in child.type
            if child.type in ("elif_clause", "else_clause"):
                more, alt = self.walk(child, states)
                others.append(alt)
            else:
                more, current = self.walk(child, current)
            edges += more
        others.append(current)
        if not has_else:
            others.append(states)
        return by_position(edges), union_states(others)
