"""CodeBLEU's data-flow walks for the brace languages: Java, C#, JavaScript, Go, PHP, Rust (and C
and C++, which PyPI ``codebleu`` 0.7.0 walks with its C# walk over their own grammars).

The references (``parser/DFG.py``: ``DFG_java``, ``DFG_csharp``, ``DFG_javascript``,
``DFG_go``, ``DFG_php``, ``DFG_rust``) are one function copied per language with different node-type names and a few
different steps; here each language is the shared walk with its names and those steps:

- Java and C#: a declarator's name and value, an assignment, ``i++``, an ``if`` whose
  branches merge, a ``for`` walked again after its initialiser, a for-each walked twice;
  C# takes a declarator's name and value by position (two children, else no value).
- JavaScript: only ``assignment_pattern`` and ``augmented_assignment_expression`` are
  assignments (``x = y`` is walked as plain children there, as in the reference), and a
  ``for`` is walked again after a ``variable_declaration`` (``var``, not ``let``).
- JavaScript, Go and PHP: an ``if`` merges the states it started from into every outcome.
- Go: ``var_spec`` declares, ``assignment_statement`` assigns, ``inc_statement`` increments,
  and a ``for`` is walked again from its clause's update on; no while loop.
- PHP: a parameter's default value, ``foreach`` by its ``variable_name`` children, a ``for``
  walked again after an ``assignment_expression`` child.
- Rust: a ``function_item``'s name is defined from its parameters; ``let`` declarations are
  plain children (only ``let_expression`` assigns); ``if``, ``if let`` and ``match`` branch,
  ``while``, ``while let`` and ``loop`` are walked twice, and a ``for`` once (its second pass
  starts after a child type Rust has not).
"""
from __future__ import annotations

from typing import Any, Callable

from ._codebleu_dfg import Walker, by_position, merge_loop_edges, union_states


class JavaWalker(Walker):
    definitions = ("variable_declarator",)
    if_types = ("if_statement", "else")
    assignments: tuple = ("assignment_expression",)
    increments: tuple = ("update_expression",)
    for_types: tuple = ("for_statement",)
    for_init = "local_variable_declaration"
    for_each_types: tuple = ("enhanced_for_statement",)
    for_each_fields = ("name", "value", "body")
    # JavaScript's and Go's if: the entry states join every branch's, else or not
    branch_keeps_entry = False

    def handler(self, node_type: str) -> Callable | None:
        if node_type in self.definitions:
            return self.definition
        if node_type in self.assignments:
            return self.assignment
        if node_type in self.increments:
            return self.update
        if node_type in self.if_types:
            return self.branch
        if node_type in self.for_types:
            return self.for_loop
        if node_type in self.for_each_types:
            return self.for_each
        if node_type in self.while_types:
            return self.while_loop
        return None

    def assignment(self, node: Any, states: dict) -> tuple[list, dict]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        edges, states = self.walk(right, states)
        edges += self.pairs(left, right, "computedFrom", states)
        return by_position(edges), states

    def update(self, node: Any, states: dict) -> tuple[list, dict]:
        return by_position(self.pairs(node, node, "computedFrom", states)), states

    def walk_again_after_init(self, node: Any, states: dict) -> tuple[list, dict]:
        """The second pass of a ``for``: the children after its initialiser."""
        edges: list = []
        after_init = False
        for child in node.children:
            if after_init:
                more, states = self.walk(child, states)
                edges += more
            elif child.type == self.for_init:
                after_init = True
        return edges, states

    def for_loop(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        for child in node.children:
            more, states = self.walk(child, states)
            edges += more
        more, states = self.walk_again_after_init(node, states)
        return merge_loop_edges(edges + more), states

    def for_each(self, node: Any, states: dict) -> tuple[list, dict]:
        name, value, body = (node.child_by_field_name(f) for f in self.for_each_fields)
        edges: list = []
        for _ in range(2):
            more, states = self.walk(value, states)
            edges += more + self.pairs(name, value, "computedFrom", states)
            more, states = self.walk(body, states)
            edges += more
        return merge_loop_edges(edges), states

    def branch(self, node: Any, states: dict) -> tuple[list, dict]:
        edges: list = []
        current = states.copy()
        others = []
        in_else = False
        has_else = "else" in node.type
        for child in node.children:
            has_else = has_else or "else" in child.type
            if child.type not in self.if_types and not in_else:
                more, current = self.walk(child, current)
            else:
                in_else = True
                more, alt = self.walk(child, states)
                others.append(alt)
            edges += more
        others.append(current)
        if not has_else or self.branch_keeps_entry:
            others.append(states)
        return by_position(edges), union_states(others)


class CSharpWalker(JavaWalker):
    increments = ("postfix_unary_expression",)
    for_each_types = ("for_each_statement",)
    for_each_fields = ("left", "right", "body")

    def definition(self, node: Any, states: dict) -> tuple[list, dict]:
        children = node.children
        name = children[0]
        value = children[1] if len(children) == 2 else None
        return self.define(name, value, states)


class JavaScriptWalker(JavaWalker):
    assignments = ("assignment_pattern", "augmented_assignment_expression")
    for_init = "variable_declaration"
    for_each_types = ()
    branch_keeps_entry = True


class GoWalker(JavaWalker):
    definitions = ("var_spec",)
    assignments = ("assignment_statement",)
    increments = ("inc_statement",)
    for_each_types = ()
    while_types = ()
    branch_keeps_entry = True

    def walk_again_after_init(self, node: Any, states: dict) -> tuple[list, dict]:
        """The second pass of a ``for``: its clause's update, then the children after the clause."""
        edges: list = []
        after_clause = False
        for child in node.children:
            if after_clause:
                more, states = self.walk(child, states)
                edges += more
            elif child.type == "for_clause":
                update = child.child_by_field_name("update")
                if update is not None:
                    more, states = self.walk(update, states)
                    edges += more
                after_clause = True
        return edges, states



class PhpWalker(JavaWalker):
    definitions = ("simple_parameter",)
    assignments = ("assignment_expression", "augmented_assignment_expression")
    if_types = ("if_statement", "else_clause")
    for_init = "assignment_expression"
    for_each_types = ("foreach_statement",)
    branch_keeps_entry = True

    def definition(self, node: Any, states: dict) -> tuple[list, dict]:
        return self.define(node.child_by_field_name("name"), node.child_by_field_name("default_value"), states)

    def for_each(self, node: Any, states: dict) -> tuple[list, dict]:
        """``foreach ($xs as $x)``: the first ``variable_name`` child is the value, the second the
        name (a ``$k => $v`` pair is neither; a missing one fails the walk, as it does there)."""
        names = [c for c in node.children if c.type == "variable_name"][:2]
        value, name = (names + [None, None])[:2]
        body = node.child_by_field_name("body")
        edges: list = []
        for _ in range(2):
            more, states = self.walk(value, states)
            edges += more + self.pairs(name, value, "computedFrom", states)
            more, states = self.walk(body, states)
            edges += more
        return merge_loop_edges(edges), states


class RustWalker(JavaWalker):
    definitions = ("function_item",)
    assignments = ("assignment_expression", "compound_assignment_expr", "let_expression")
    increments = ()
    if_types = ("if_expression", "if_let_expression", "match_expression", "else")
    for_types = ("for_expression",)
    for_each_types = ("for_each_statement",)
    for_each_fields = ("left", "right", "body")
    while_types = ("while_expression", "while_let_expression", "loop_expression")

    def definition(self, node: Any, states: dict) -> tuple[list, dict]:
        """A function's name (its second child) "defined from" its third child (the parameters)."""
        children = node.children
        name = children[1]
        value = children[2] if len(children) >= 3 else None
        return self.define(name, value, states)
