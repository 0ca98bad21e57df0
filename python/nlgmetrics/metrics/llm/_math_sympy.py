"""minerva_math's SymPy check (lm-evaluation-harness 0.4.13 ``is_equiv``) under a fixed work
budget instead of the reference's 5-second ``signal.alarm``.

The reference: two normalised answers are equivalent when they are the same non-empty
string, else when ``sympy.simplify(parse_latex(a) - parse_latex(b)) == 0``; any error
(unparsable LaTeX, a ``TypeError`` subtracting, a ``RecursionError``) or the timeout gives
False. Its verdict on a slow pair depends on the machine. Here the SymPy step runs only on
pairs inside :data:`BUDGET`, checked before SymPy evaluates anything: a pair outside it is
not equivalent (what the reference gives when it times out, or when its parser runs out of
stack). The limits are far above MATH's answers; ``parse_latex`` builds unevaluated
expressions, so the tree is measured before ``simplify`` evaluates it.
"""
from __future__ import annotations

import math
from typing import Any

from ...errors import MissingExtraError

# Each limit is named in the signature (``budget``): a longer answer, deeper brackets, a larger
# parsed expression, a power or factorial whose integer value would pass the bit limit, a
# sum / product over more terms, or an integral of anything but a polynomial is outside the budget.
BUDGET = {"chars": 256, "brackets": 12, "nodes": 300, "depth": 40, "bits": 65536, "terms": 1000}
# .intpoly: integrals of polynomials only (SymPy's integrators search without end on others)
BUDGET_LABEL = "c{chars}.b{brackets}.n{nodes}.d{depth}.i{bits}.t{terms}".format(**BUDGET) + ".intpoly"
ANTLR_VERSION = "4.11"


def sympy_versions() -> tuple[str, str]:
    """(sympy, antlr4-python3-runtime) versions; MissingExtraError without the [math] extra."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        import sympy  # noqa: F401

        antlr = version("antlr4-python3-runtime")
        sym = version("sympy")
    except (ImportError, PackageNotFoundError):
        raise MissingExtraError("math_equiv flavour 'minerva' needs sympy and antlr4-python3-runtime 4.11: "
                                "pip install 'nlgmetrics[math]'") from None
    if not antlr.startswith(ANTLR_VERSION):
        raise MissingExtraError(f"math_equiv flavour 'minerva' needs antlr4-python3-runtime {ANTLR_VERSION} "
                                f"(sympy's LaTeX parser), found {antlr}: pip install 'nlgmetrics[math]'")
    return sym, antlr


def _bracket_depth(s: str) -> int:
    depth = deepest = 0
    for ch in s:
        if ch in "{([":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "})]":
            depth = max(depth - 1, 0)
    return deepest


def text_in_budget(s: str) -> bool:
    return len(s) <= BUDGET["chars"] and _bracket_depth(s) <= BUDGET["brackets"]


def _integer_bits(value: Any) -> float:
    """An upper bound on the bits of a number's numerator and denominator."""
    p, q = getattr(value, "p", None), getattr(value, "q", None)
    if p is not None and q is not None:
        return float(max(abs(int(p)).bit_length(), abs(int(q)).bit_length()))
    return 64.0  # a Float or another atom: its size does not grow under evaluation


def tree_in_budget(expr: Any, budget: dict[str, int] = BUDGET) -> bool:
    """Walks the unevaluated expression (iteratively, no recursion): node count, depth, and a
    bound on the bits of every integer that evaluating it could produce."""
    import sympy

    bits: dict[int, float] = {}
    stack: list[tuple[Any, int, bool]] = [(expr, 1, False)]
    nodes = 0
    while stack:
        node, depth, done = stack.pop()
        if not done:
            nodes += 1
            if nodes > budget["nodes"] or depth > budget["depth"]:
                return False
            stack.append((node, depth, True))
            stack.extend((a, depth + 1, False) for a in getattr(node, "args", ()) if isinstance(a, sympy.Basic))
            continue
        args = [bits.get(id(a), 64.0) for a in getattr(node, "args", ()) if isinstance(a, sympy.Basic)]
        if isinstance(node, sympy.Number):
            b = _integer_bits(node)
        elif not args:
            b = 1.0  # a symbol or a constant such as pi
        elif isinstance(node, sympy.Pow):
            base, exponent = node.args
            b = args[0] * 2.0 ** min(args[1], 64.0) if not exponent.free_symbols else args[0]
        elif isinstance(node, (sympy.factorial, sympy.binomial)):
            if node.args[0].free_symbols:
                b = args[0]
            else:  # n! < n**n
                n = 2.0 ** min(args[0], 64.0)
                b = n * max(math.log2(n), 1.0)
        elif isinstance(node, (sympy.Sum, sympy.Product)):
            b = sum(args) * budget.get("terms", BUDGET["terms"])  # its terms' spans are checked by _limit_span_ok
        else:  # sums, products and functions: the operands' bits add up at most
            b = sum(args) + len(args)
        if b > budget["bits"]:
            return False
        bits[id(node)] = b
    return True


def _limit_span_ok(expr: Any) -> bool:
    """Sums and products over at most ``terms`` terms; integrals of polynomials only (a small
    integral of anything else sends SymPy's integrators searching without end: the
    reference's alarm stops them, so it is outside the budget here)."""
    import sympy

    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Integral) and not node.function.is_polynomial(*node.variables):
            return False
        if isinstance(node, (sympy.Sum, sympy.Product)):
            for limit in node.limits:
                try:
                    if abs(int(limit[2]) - int(limit[1])) > BUDGET["terms"]:
                        return False
                except (TypeError, ValueError):
                    return False
    return True


def minerva_is_equiv(a: str, b: str) -> bool:
    """lm-eval 0.4.13 minerva_math ``is_equiv`` of two normalised answers, within BUDGET."""
    if a and a == b:
        return True
    if not (text_in_budget(a) and text_in_budget(b)):
        return False
    import sympy
    from sympy.parsing.latex import parse_latex

    try:
        left, right = parse_latex(a), parse_latex(b)
    except Exception:  # the reference: any parse failure (or recursion) is False
        return False
    try:
        if not (tree_in_budget(left) and tree_in_budget(right) and _limit_span_ok(left) and _limit_span_ok(right)):
            return False
        return bool(sympy.simplify(left - right) == 0)
    except Exception:  # a TypeError subtracting, a ValueError simplifying, ...: False
        return False
