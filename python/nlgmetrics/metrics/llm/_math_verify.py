"""math_equiv flavour ``math-verify``: HuggingFace math-verify 0.9.0's ``parse`` and ``verify``
(the Open LLM Leaderboard's MATH-hard, lm-eval's ``leaderboard_math_hard``) under a fixed work
budget instead of the reference's 5-second ``signal.alarm``.

math-verify is a runtime dependency of the ``[math]`` extra and does the work: its extraction
regexes, ``extract_match`` (latex2sympy2_extended's normaliser and ANTLR parser) and its grader's
``sympy_expr_eq``. This module only replaces the two timeouts with checks made before any
SymPy work, so the verdict never depends on the machine and a hostile answer can neither hang
nor exhaust memory:

- the whole text must be within ``text`` characters (math-verify's regexes scan all of it:
  2 MB of LaTeX takes the reference about a minute; 2**17 characters hold a 32k-token generation);
- each matched candidate's text must be within ``chars`` characters and ``brackets`` nesting
  (ANTLR recurses on nesting) before it is parsed;
- each parsed value must be within ``nodes`` / ``depth`` and ``bits`` (the integers that
  evaluating it could produce, as for the minerva flavour) before SymPy compares it.

A text or candidate outside the budget gives what the reference's timed-out ``parse`` gives:
nothing (``[]``). Two values of which one is outside it are compared only structurally
(SymPy's ``==``, which evaluates nothing): the reference finds ``10^{10^{10}}`` equal to itself
at once by that same ``==``, and times out (False) on the pairs that would need evaluating.
"""
from __future__ import annotations

from itertools import groupby, product
from typing import Any

from ...errors import MissingExtraError
from . import _math_sympy

REFERENCE_VERSION = "0.9.0"
# a longer or deeper candidate is not parsed; a larger parsed value is not compared
BUDGET = {"text": 131072, "chars": 1024, "brackets": 16, "nodes": 2000, "depth": 60, "bits": 65536}
BUDGET_LABEL = "x{text}.c{chars}.b{brackets}.n{nodes}.d{depth}.i{bits}".format(**BUDGET) + ".intpoly"


class OutsideBudget(Exception):
    """A candidate or a parsed value the reference would have spent its alarm on."""


def versions() -> dict[str, str]:
    """math-verify, latex2sympy2_extended, sympy and antlr4 versions; MissingExtraError without [math]."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        import math_verify  # noqa: F401

        found = {name: version(dist) for name, dist in (("math_verify", "math-verify"),
                                                         ("latex2sympy", "latex2sympy2_extended"),
                                                         ("sympy", "sympy"), ("antlr", "antlr4-python3-runtime"))}
    except (ImportError, PackageNotFoundError):
        raise MissingExtraError("math_equiv flavour 'math-verify' needs math-verify 0.9.0: pip install 'nlgmetrics[math]'") from None
    if found["math_verify"] != REFERENCE_VERSION:
        raise MissingExtraError(f"math_equiv flavour 'math-verify' reproduces math-verify {REFERENCE_VERSION}, "
                                f"found {found['math_verify']}: pip install 'nlgmetrics[math]'")
    return found


def _check_text(text: str) -> None:
    if len(text) > BUDGET["chars"] or _math_sympy._bracket_depth(text) > BUDGET["brackets"]:
        raise OutsideBudget


def value_in_budget(value: Any) -> bool:
    import sympy

    if isinstance(value, sympy.MatrixBase):
        return value.rows * value.cols <= BUDGET["nodes"] and all(value_in_budget(entry) for entry in value)
    return _math_sympy.tree_in_budget(value, BUDGET) and _math_sympy._limit_span_ok(value)


def _configs(kind: str) -> list[Any]:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig

    # lm-eval's leaderboard task: the gold solution with LaTeX only, the generation with parse's defaults
    return [LatexExtractionConfig()] if kind == "gold" else [LatexExtractionConfig(), ExprExtractionConfig()]


def _extract(text: str, kind: str) -> list[Any]:
    """math-verify ``extract_target_from_pred`` (fallback "first_match", extraction "any_match"),
    each candidate checked against the budget before it is parsed and after."""
    from math_verify.parser import extract_match, get_extraction_regexes

    if len(text) > BUDGET["text"]:
        raise OutsideBudget

    patterns = sorted(((pattern, target, priority) for regexes, target in get_extraction_regexes(_configs(kind))
                       for pattern, priority in regexes), key=lambda p: p[2])
    extracted: list[Any] = []
    fallbacks: list[str] = []
    for _, group in groupby(patterns, key=lambda p: p[2]):
        matches = sorted(((m, m.start(), m.end(), target) for pattern, target, _ in group for m in pattern.finditer(text)),
                         key=lambda m: (m[2], -m[1]), reverse=True)
        for match, _, _, target in matches:
            _check_text(match.group(0))
            value, fallback = extract_match(match, target)
            if fallback:
                fallbacks.append(fallback)
            if value is not None:
                extracted.append(value)
                break
        if extracted:
            break
    if fallbacks:
        extracted.append(fallbacks[0])
    return extracted


def parse(text: str, kind: str) -> list[Any]:
    """math-verify ``parse`` of a generation (``kind="target"``) or a gold solution (``"gold"``)
    with lm-eval's leaderboard configs; ``[]`` where the reference finds nothing, fails, or
    where the budget stands for its timeout."""
    try:
        return _extract(text, kind)
    except OutsideBudget:
        return []
    except Exception:  # the reference: any error while parsing gives []
        return []


def _compare(gold: Any, target: Any) -> bool:
    """math-verify ``verify``'s comparison of one gold and one target value (its defaults)."""
    import sympy
    from math_verify.grader import sympy_expr_eq

    if isinstance(gold, (sympy.Basic, sympy.MatrixBase)) and isinstance(target, (sympy.Basic, sympy.MatrixBase)):
        if not (value_in_budget(gold) and value_in_budget(target)):
            return bool(gold == target)
        return bool(sympy_expr_eq(gold, target, 6, 15, False, True))
    if isinstance(gold, str) and isinstance(target, str):
        gold, target = gold.strip(), target.strip()
        return len(gold) > 0 and len(target) > 0 and gold == target
    return False


def verify(gold: list[Any], target: list[Any]) -> bool:
    """math-verify ``verify(gold, target)``: any pair of extracted values equal; a pair whose
    comparison raises is not equal."""
    for g, t in product(gold, target):
        try:
            if _compare(g, t):
                return True
        except Exception:  # noqa: BLE001 - the reference: an error in one comparison is False
            continue
    return False
