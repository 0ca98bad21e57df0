"""CodeBLEU's data-flow walk for Ruby, as PyPI ``codebleu`` 0.7.0's ``DFG_ruby`` does it.

Its assignments read as Python's (several names from as many values, each name computed from
all the names of its value); the differences:

- the states a node's walk receives are not copied first (only a token's are), so an
  assignment or a keyword parameter defines its name in the caller's states too;
- ``if``, ``elsif``, ``else``, ``unless`` and ``when`` branch, and every child of one of those
  types is walked from the branch's entry states (no "after the first else" rule);
- ``a += b`` (``operator_assignment``) is its first child computed from its last;
- ``for x in xs`` defines ``x`` from ``xs`` and is walked twice; ``while`` is walked as plain
  children (only ``while_modifier`` and ``until`` loop there);
- comments are kept: 0.7.0 strips nothing from Ruby.
"""
from __future__ import annotations

from typing import Any, Callable

from ._codebleu_dfg import PythonWalker, by_position, is_token, merge_loop_edges, union_states


class RubyWalker(PythonWalker):
    definitions = ("keyword_parameter",)
    if_types = ("if", "elsif", "else", "unless", "when")
    while_types = ("while_modifier", "until")
    do_first = ()

    def walk(self, node: Any, states: dict) -> tuple[list, dict]:
        if is_token(node):
            return self.token(node, states.copy())
        handler = self.handler(node.type)
        if handler is not None:
            return handler(node, states)
        return self.children_in_order(node, states)

    def handler(self, node_type: str) -> Callable | None:
        if node_type in self.definitions:
            return self.definition
        if node_type in ("assignment", "operator_assignment"):
            return self.assignment
        if node_type in self.if_types:
            return self.branch
        if node_type == "for":
            return self.for_loop
        if node_type in self.while_types:
            return self.while_loop
        return None

    def assignment(self, node: Any, states: dict) -> tuple[list, dict]:
        lefts, rights = self._sides(node)
        if node.type == "operator_assignment":
            lefts, rights = [node.children[0]], [node.children[-1]]
        edges, states = self._assign(lefts, rights, states)
        return by_position(edges), states

    def for_loop(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        for _ in range(2):
            pattern, value = node.child_by_field_name("pattern"), node.child_by_field_name("value")
            more, states = self._assign([pattern], [value], states)
            edges += more
            more, states = self.walk(node.child_by_field_name("body"), states)
            edges += more
        return merge_loop_edges(edges), states

    def branch(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        current = states.copy()
        others = []
        has_else = "else" in node.type
        for child in node.children:
            has_else = has_else or "else" in child.type
            if child.type not in self.if_types:
                more, current = self.walk(child, current)
            else:
                more, alt = self.walk(child, states)
                others.append(alt)
            edges += more
        others.append(current)
        if not has_else:
            others.append(states)
        return by_position(edges), union_states(others)
