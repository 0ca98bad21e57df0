"""The package's import graph runs one way: CLI/report -> integrations/compat ->
engines/tasks -> metrics/neural/classification/analysis -> foundations -> core.

Every ``import`` / ``from ... import`` statement of every module is read with ``ast``
(lazy imports inside functions and ``TYPE_CHECKING`` blocks included: a lazy upward
import is still a dependency), resolved to the module it loads, and checked against
the layer of the importing module. Import cycles are refused too, except plain
registration (a metric module importing its flavour modules that register with it; the
CLI's ``opts_<family>`` modules are imported by name, on demand). DEVELOPING.md ("Rooms and layers") argues the order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "nlgmetrics"

# Highest first. A module may import its own layer and the layers below it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("interface", ("nlgmetrics", "nlgmetrics.__main__", "nlgmetrics.cli", "nlgmetrics.report")),
    ("faces", ("nlgmetrics.integrations", "nlgmetrics.compat")),
    ("engines", ("nlgmetrics.engines", "nlgmetrics.tasks")),
    ("metrics", ("nlgmetrics.metrics", "nlgmetrics.neural", "nlgmetrics.classification", "nlgmetrics.analysis")),
    (
        "foundations",
        (
            "nlgmetrics.stats",
            "nlgmetrics.signature",
            "nlgmetrics.registry",
            "nlgmetrics._inputs",
            "nlgmetrics._numbers",
            "nlgmetrics.tokenizers",
            "nlgmetrics.script_check",
            "nlgmetrics.io",
            "nlgmetrics._sacrebleu_float32",
            "nlgmetrics._safe_pickle",
            "nlgmetrics._orientation",
            "nlgmetrics.spm_tokenizers",
        ),
    ),
    ("core", ("nlgmetrics._core", "nlgmetrics.errors", "nlgmetrics._resources", "nlgmetrics._locking")),
]

# Cycles allowed: an edge importer -> imported whose only purpose is to let the imported
# module register itself (a metric's flavour subclasses).
REGISTRATION = {
    ("nlgmetrics.metrics.bleu", "nlgmetrics.metrics.bleu_"),
    ("nlgmetrics.metrics.rouge", "nlgmetrics.metrics.rouge155"),
    ("nlgmetrics.metrics.rouge", "nlgmetrics.metrics.rouge_coco"),
    ("nlgmetrics.metrics.rouge", "nlgmetrics.metrics.rouge_pltrdy"),
}


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def _modules() -> dict[str, Path]:
    return {_module_name(p)[0]: p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


MODULES = _modules()
CORE = "nlgmetrics._core"  # the native module: no .py file


def _resolve(target: str) -> str | None:
    """The package module `target` loads (a name imported from a package may be a submodule)."""
    while target and target not in MODULES:
        if target == CORE:
            return target
        target = target.rpartition(".")[0]
    return target or None


def _imports(name: str) -> list[tuple[int, str]]:
    path = MODULES[name]
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = here[: len(here) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from pkg import sub` loads pkg.sub when sub is a module.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES or f"{base}.{alias.name}" == CORE else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target == "nlgmetrics" or target.startswith("nlgmetrics."):
                resolved = _resolve(target)
                if resolved and resolved != name:
                    found.append((node.lineno, resolved))
    return found


def _layer(name: str) -> int:
    best = None
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if name == prefix or (prefix != "nlgmetrics" and name.startswith(prefix + ".")):
                if best is None or len(prefix) > best[1]:
                    best = (rank, len(prefix))
    assert best is not None, f"{name} has no layer: add it to LAYERS in tests/test_layout.py"
    return best[0]


def _graph() -> dict[str, set[str]]:
    return {name: {target for _, target in _imports(name)} for name in MODULES}


def test_every_module_has_a_layer():
    for name in MODULES:
        _layer(name)


def test_no_import_runs_upward():
    upward = []
    for name in MODULES:
        for line, target in _imports(name):
            if _layer(target) < _layer(name):
                upward.append(
                    f"{MODULES[name].relative_to(PACKAGE.parent)}:{line} ({LAYERS[_layer(name)][0]}) imports "
                    f"{target} ({LAYERS[_layer(target)][0]})"
                )
    assert not upward, "upward imports:\n" + "\n".join(upward)


def _registration(importer: str, imported: str) -> bool:
    return any(importer == a and imported.startswith(b) for a, b in REGISTRATION)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles_but_registration():
    graph = {a: {b for b in targets if not _registration(a, b)} for a, targets in _graph().items()}
    # A package's __init__ importing its own submodules (re-exports) is not a cycle with them.
    for name, targets in graph.items():
        if MODULES[name].name == "__init__.py":
            graph[name] = {t for t in targets if not t.startswith(name + ".")}
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_registration_edges_are_really_registration():
    """An allowed edge imports a module for its side effect only: no name of it is used."""
    for importer, prefix in REGISTRATION:
        tree = ast.parse(MODULES[importer].read_text(encoding="utf-8"))
        edges = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and any(f"{importer.rpartition('.')[0]}.{a.name}".startswith(prefix) for a in node.names)
        ]
        assert edges, (importer, prefix)
        bound = {a.asname or a.name for node in edges for a in node.names}
        used = {
            node.value.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        } | {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert not bound & used, (importer, bound & used)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..cli.compare import format_paired\n", ["nlgmetrics.cli.compare"]),
        ("from .. import stats\n", ["nlgmetrics.stats"]),
        ("import nlgmetrics.errors\n", ["nlgmetrics.errors"]),
    ],
)
def test_the_walker_sees_imports(tmp_path, monkeypatch, source, expected):
    """The walker resolves relative, package-member and absolute imports (so the tests above can fail)."""
    fake = PACKAGE / "engines" / "significance.py"
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source if self == fake else Path.read_bytes(self).decode())
    assert [t for _, t in _imports("nlgmetrics.engines.significance")] == expected
    if expected[0].startswith("nlgmetrics.cli"):
        assert _layer(expected[0]) < _layer("nlgmetrics.engines.significance")


def test_every_import_names_a_real_module():
    """A relative import left pointing at a module's old home (``from .metrics`` in a module
    that moved one folder down) resolves to nothing: caught here, lazy imports included."""
    missing = []
    for name, path in MODULES.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.ImportFrom) or not node.level or not node.module:
                continue
            base = ".".join(here[: len(here) - node.level + 1] + [node.module])
            if base not in MODULES and base != CORE:
                missing.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} imports {base}")
    assert not missing, "imports of modules that do not exist:\n" + "\n".join(missing)
