"""CodeBLEU's parse-tree parts: the syntax match and the data-flow match counts of one pair.

Parsing is tree-sitter's with the grammar wheels pinned in the ``[code]`` extra (the versions
PyPI ``codebleu`` 0.7.0 runs with: ``tree-sitter`` 0.22, grammars 0.21, C++'s 0.22). Token positions are
tree-sitter's (row, byte column) and, as in the reference, a token's text is the line sliced
at those byte columns as if they counted characters (so non-ASCII lines give shifted tokens
there, and here).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...errors import MissingExtraError
from ._codebleu_depth import references_read, room_for, tree_depth
from ._codebleu_dfg import PythonWalker, is_token
from ._codebleu_dfg_braces import CSharpWalker, GoWalker, JavaScriptWalker, JavaWalker, PhpWalker, RustWalker
from ._codebleu_dfg_ruby import RubyWalker

# language: (grammar module, data-flow walk); PyPI codebleu 0.7.0 walks C and C++ with C#'s walk
LANGUAGES = {
    "python": ("tree_sitter_python", PythonWalker),
    "java": ("tree_sitter_java", JavaWalker),
    "javascript": ("tree_sitter_javascript", JavaScriptWalker),
    "c_sharp": ("tree_sitter_c_sharp", CSharpWalker),
    "go": ("tree_sitter_go", GoWalker),
    "c": ("tree_sitter_c", CSharpWalker),
    "cpp": ("tree_sitter_cpp", CSharpWalker),
    "php": ("tree_sitter_php", PhpWalker),
    "ruby": ("tree_sitter_ruby", RubyWalker),
    "rust": ("tree_sitter_rust", RustWalker),
}
GRAMMARS = {language: grammar for language, (grammar, _) in LANGUAGES.items()}


@lru_cache(maxsize=None)
def grammar_versions(language: str) -> str:
    """``tree-sitter 0.22.3 + tree-sitter-java 0.21.0``: what a signature records."""
    from importlib.metadata import version

    grammar = GRAMMARS[language].replace("_", "-")
    return f"tree-sitter-{version('tree-sitter')}+{grammar}-{version(grammar)}"


@lru_cache(maxsize=None)
def parser_for(language: str) -> Any:
    try:
        import importlib

        import tree_sitter

        grammar = importlib.import_module(GRAMMARS[language])
    except ImportError:
        raise MissingExtraError(f"codebleu for {language} needs tree-sitter and its grammar: pip install 'nlgmetrics[code]'") from None
    parser = tree_sitter.Parser()
    # tree-sitter-php has two grammars (PHP in HTML text, PHP only) and no language(): 0.7.0
    # falls back to language_php(), the first
    pointer = grammar.language() if hasattr(grammar, "language") else grammar.language_php()
    parser.language = tree_sitter.Language(pointer)
    return parser


def parse(code: str, language: str) -> Any:
    return parser_for(language).parse(code.encode("utf-8")).root_node


def _subtrees(root: Any) -> list[str]:
    """The S-expression of every node with children, in the reference's stack order."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(str(node))
        stack.extend(c for c in node.children if c.child_count)
    return out


def syntax_counts(candidate: str, reference: str, language: str) -> tuple[int, int]:
    """(reference subtrees also in the candidate, reference subtrees)."""
    found = set(_subtrees(parse(candidate, language)))
    ref = _subtrees(parse(reference, language))
    return sum(1 for s in ref if s in found), len(ref)


def _token_spans(node: Any) -> list:
    if is_token(node):
        return [(node.start_point, node.end_point)]
    out: list = []
    for child in node.children:
        out += _token_spans(child)
    return out


def _span_text(span: Any, lines: list[str]) -> str:
    (r0, c0), (r1, c1) = span
    if r0 == r1:
        return lines[r0][c0:c1]
    return lines[r0][c0:] + "".join(lines[r0 + 1 : r1]) + lines[r1][:c1]


def _walk(code: str, root: Any, language: str) -> list:
    spans = _token_spans(root)
    lines = code.split("\n")
    index_to_code = {span: (i, _span_text(span, lines)) for i, span in enumerate(spans)}
    try:
        edges, _ = LANGUAGES[language][1](index_to_code).walk(root, {})
    except Exception:  # the reference drops the graph of a snippet its walk cannot read
        edges = []
    return edges


def _raw_edges(code: str, language: str, flavour: str) -> list:
    try:
        root = parse(code, language)
        depth = tree_depth(root)
        if not references_read(depth, flavour):  # their recursion would have failed
            return []
        with room_for(depth):
            edges = _walk(code, root, language)
        edges = sorted(edges, key=lambda e: e[1])
        linked = set()
        for e in edges:
            if e[-1]:
                linked.add(e[1])
            linked.update(e[-1])
        return [e for e in edges if e[1] in linked]
    except MissingExtraError:
        raise
    except Exception:
        return []


def data_flow(code: str, language: str, flavour: str = "codebleu-0.7") -> list:
    """The graph's edges with a source or a user, one per position (sources merged)."""
    by_pos: dict = {}
    for e in _raw_edges(code, language, flavour):
        old = by_pos.get(e[1])
        by_pos[e[1]] = e if old is None else (e[0], e[1], e[2], list(set(old[3] + e[3])), list(set(old[4] + e[4])))
    return list(by_pos.values())


def normalize(edges: list) -> list:
    """Variables renamed ``var_0, var_1, ...`` in order of appearance (sources first)."""
    names: dict = {}
    out = []
    for name, _, relation, sources, _ in edges:
        for n in sources + [name]:
            if n not in names:
                names[n] = f"var_{len(names)}"
        out.append((names[name], relation, [names[n] for n in sources]))
    return out


def dataflow_counts(candidate: str, reference: str, language: str, flavour: str = "codebleu-0.7") -> tuple[int, int]:
    """(reference edges matched one-to-one in the candidate, reference edges)."""
    cand = normalize(data_flow(candidate, language, flavour))
    ref = normalize(data_flow(reference, language, flavour))
    matched = 0
    for edge in ref:
        if edge in cand:
            matched += 1
            cand.remove(edge)
    return matched, len(ref)
