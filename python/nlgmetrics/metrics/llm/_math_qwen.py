"""math_equiv flavour ``qwen``: Qwen2.5-Math's ``math_equal`` (evaluation/grader.py) as evalscope
0.17.1 vendors it (``evalscope/metrics/math_parser.py``, which imports ``latex2sympy`` from
latex2sympy2_extended instead of Qwen's own unpublished copy), under a fixed work budget.

The reference compares two stripped answers by strings, by numbers (``float``, ``rel_tol=1e-4``,
a percentage as ``x/100``, ``x`` or ``100x``), part by part for tuples, intervals and matrices,
and last by ``symbolic_equal``: each side through ``parse_latex``, else ``parse_expr``, else
``latex2sympy``, then ``==``, ``equals``, ``simplify(a - b) == 0``, equations, ``N`` and rounded
matrices. Qwen's ``evaluate.py`` stops each pair after 3 s of wall clock (a timeout counts as
wrong); evalscope sets no limit. Here SymPy works only inside :data:`BUDGET`, named in the
signature, so the verdict never depends on the machine:

- an answer longer than ``text`` characters is not stripped, and it or one nested deeper than
  ``nesting`` brackets is compared only as a string (the first, case-insensitive step);
- a side longer than ``chars`` or deeper than ``brackets`` is not parsed, and a parsed value
  larger than ``nodes`` / ``depth`` / ``bits`` / ``terms`` (checked on the unevaluated
  expression first, as for the minerva flavour) is not compared: ``symbolic_equal`` is False,
  what the reference gives when it times out (5 such pairs of the goldens differ from it);
- ``parse_expr`` is SymPy's ``eval`` of the text: it runs only on text without attribute
  access, strings, shifts, and with calls only of the math functions in :data:`_CALLABLE`
  (the reference would run ``input()`` or ``factorint(...)``); other text goes on to
  ``latex2sympy`` as if ``parse_expr`` had failed.
"""
from __future__ import annotations

import re
from math import isclose
from typing import Any

from . import _math_sympy
from ._math_qwen_strings import TEXT_LIMIT, extract_answer, strip_answer_string  # noqa: F401 - re-exported

REFERENCE = "evalscope-0.17.1"
BUDGET = {"text": TEXT_LIMIT, "nesting": 32, "chars": 256, "brackets": 12, "nodes": 300, "depth": 40, "bits": 65536, "terms": 1000}
BUDGET_LABEL = "x{text}.p{nesting}.c{chars}.b{brackets}.n{nodes}.d{depth}.i{bits}.t{terms}".format(**BUDGET) + ".intpoly"

# the only names parse_expr may call here: those its evaluate=False pass leaves unevaluated
# (SymPy's EvaluateFalseTransformer.functions), so the tree budget sees them before they run
_CALLABLE = frozenset("""Abs im re sign arg conjugate acos acot acsc asec asin atan acosh acoth acsch asech asinh
    atanh cos cot csc sec sin tan cosh coth csch sech sinh tanh exp ln log sqrt cbrt""".split())
# attribute access, dunders, strings, shifts (Python ints), lambdas, slices, and "!" (factorial
# notation: SymPy's factorial runs even in the evaluate=False pass)
_UNSAFE_TEXT = re.compile(r"__|['\"`!]|<<|>>|\.\s*[A-Za-z_]|\blambda\b|:")
_CALL = re.compile(r"([A-Za-z_]\w*)\s*\(")


class OutsideBudget(Exception):
    """A side or a value the reference could have spent its timeout on."""


def versions() -> dict[str, str]:
    """sympy, antlr4 and latex2sympy2_extended versions; MissingExtraError without [math]."""
    from importlib.metadata import PackageNotFoundError, version

    from ...errors import MissingExtraError

    sym, antlr = _math_sympy.sympy_versions()  # parse_latex needs antlr4 4.11
    try:
        import latex2sympy2_extended  # noqa: F401

        latex = version("latex2sympy2_extended")
    except (ImportError, PackageNotFoundError):
        raise MissingExtraError("math_equiv flavour 'qwen' needs latex2sympy2_extended: pip install 'nlgmetrics[math]'") from None
    return {"sympy": sym, "antlr": antlr, "latex2sympy": latex}


def _nesting(s: str) -> int:
    return _math_sympy._bracket_depth(s)


def _value_in_budget(value: Any) -> bool:
    import sympy

    if isinstance(value, (list, tuple, set, frozenset)):
        return len(value) <= BUDGET["nodes"] and all(_value_in_budget(v) for v in value)
    if isinstance(value, sympy.MatrixBase):
        return value.rows * value.cols <= BUDGET["nodes"] and all(_value_in_budget(v) for v in value)
    if isinstance(value, sympy.Basic):
        return _math_sympy.tree_in_budget(value, BUDGET) and _math_sympy._limit_span_ok(value)
    return not callable(value) or isinstance(value, type)  # a number, a bool, None, a class: nothing to evaluate


def _parse_expr_allowed(text: str) -> bool:
    return _UNSAFE_TEXT.search(text) is None and all(name in _CALLABLE for name in _CALL.findall(text))


_warm: list[bool] = []


def _warm_up() -> None:
    """Both LaTeX parsers import SymPy modules on their first call (sympy.physics among them),
    which fails under ``evaluate(False)`` and leaves the parser broken: import them first."""
    if not _warm:
        from latex2sympy2_extended import latex2sympy
        from sympy.parsing.latex import parse_latex

        parse_latex("x^2")
        latex2sympy("x^2")
        _warm.append(True)


def _budgeted(parser: str, text: str) -> Any:
    """One parser of the reference's ``_parse`` on one text: parse_expr and latex2sympy first
    without evaluating (measured), then as the reference calls them (measured again);
    parse_latex once (it evaluates nothing)."""
    from sympy.core.parameters import evaluate

    _warm_up()
    if parser == "parse_expr":
        from sympy.parsing.sympy_parser import parse_expr

        if not _parse_expr_allowed(text):
            raise ValueError("not evaluated here")
        unevaluated = parse_expr(text, evaluate=False)
        call = parse_expr
    elif parser == "parse_latex":
        from sympy.parsing.latex import parse_latex

        # SymPy's LaTeX parser builds every node with evaluate=False (as the minerva flavour relies
        # on): its value is measured as it is, without a second (slow, ANTLR) parse
        value = parse_latex(text)
        if not _value_in_budget(value):
            raise OutsideBudget
        return value
    else:
        from latex2sympy2_extended import latex2sympy as call

        with evaluate(False):
            unevaluated = call(text)
    if not _value_in_budget(unevaluated):
        raise OutsideBudget
    value = call(text)
    if not _value_in_budget(value):
        raise OutsideBudget
    return value


def _parse(s: str) -> Any:
    if len(s) > BUDGET["chars"] or _nesting(s) > BUDGET["brackets"]:
        raise OutsideBudget
    unescaped = s.replace("\\\\", "\\")
    # the reference tries the unescaped text, then the text; the same text fails the same way twice
    texts = (unescaped, s) if unescaped != s else (s,)
    for parser in ("parse_latex", "parse_expr", "latex2sympy"):
        for text in texts:
            try:
                return _budgeted(parser, text)
            except OutsideBudget:
                raise
            except Exception:  # noqa: BLE001 - the reference: the next parser
                continue
    return s


def numeric_equal(prediction: float, reference: float) -> bool:
    return isclose(reference, prediction, rel_tol=1e-4)


def symbolic_equal(a: str, b: str) -> bool:
    """The reference's ``symbolic_equal``; False where a side is outside the budget."""
    try:
        x, y = _parse(a), _parse(b)
    except OutsideBudget:
        return False
    return _symbolic_steps(x, y)


def _symbolic_steps(a: Any, b: Any) -> bool:
    from sympy import N, simplify

    try:
        if str(a) == str(b) or a == b:
            return True
    except Exception:  # noqa: BLE001
        pass
    try:
        if a.equals(b) or simplify(a - b) == 0:
            return True
    except Exception:  # noqa: BLE001
        pass
    try:
        if (abs(a.lhs - a.rhs)).equals(abs(b.lhs - b.rhs)):
            return True
    except Exception:  # noqa: BLE001
        pass
    try:
        if numeric_equal(float(N(a)), float(N(b))):
            return True
    except Exception:  # noqa: BLE001
        pass
    try:
        if a.shape == b.shape:
            if a.applyfunc(lambda v: round(v, 3)).equals(b.applyfunc(lambda v: round(v, 3))):
                return True
    except Exception:  # noqa: BLE001
        pass
    return False


def choice_answer_clean(pred: str) -> str:
    pred = pred.strip("\n").rstrip(".").rstrip("/").strip(" ").lstrip(":")
    found = re.findall(r"\b(A|B|C|D|E)\b", pred.upper())
    pred = found[-1] if found else pred.strip().strip(".")
    return pred.rstrip(".").rstrip("/")


def parse_digits(num: Any) -> float | None:
    num = str(num).replace(",", "")
    try:
        return float(num)
    except Exception:  # noqa: BLE001
        if num.endswith("%"):
            num = num[:-1]
            if num.endswith("\\"):
                num = num[:-1]
            try:
                return float(num) / 100
            except Exception:  # noqa: BLE001
                pass
    return None


def _braced_span(line: str) -> str | None:
    """What ``re.findall(r"\\{.*,.*\\}", line)`` finds in one line, in linear time: the greedy
    match runs from the first ``{`` to the last ``}`` when a comma lies between them."""
    start, end = line.find("{"), line.rfind("}")
    if start < 0 or end < 0 or line.find(",", start + 1, end) < 0:
        return None
    return line[start:end + 1]


def str_to_pmatrix(input_str: str) -> str:
    rows = [m for m in map(_braced_span, input_str.strip().split("\n")) if m is not None]
    return ", ".join(r"\begin{pmatrix}" + m.strip("{}").replace(",", "\\") + r"\end{pmatrix}" for m in rows)


_MATRIX_STARTS = ("\\begin{pmatrix}", "\\begin{bmatrix}")
_MATRIX_ENDS = ("\\end{pmatrix}", "\\end{bmatrix}")


def _matrix_lines(s: str) -> list[str]:
    return [line.strip() for line in s[len("\\begin{pmatrix}"):-len("\\end{pmatrix}")].split("\\\\") if line.strip()]


def _matrices_equal(prediction: str, reference: str) -> bool:
    pred_lines, ref_lines = _matrix_lines(prediction), _matrix_lines(reference)
    if len(pred_lines) != len(ref_lines):
        return False
    for pred_line, ref_line in zip(pred_lines, ref_lines):
        pred_parts, ref_parts = pred_line.split("&"), ref_line.split("&")
        if len(pred_parts) != len(ref_parts):
            return False
        if not all([_math_equal(p, r) for p, r in zip(pred_parts, ref_parts)]):
            return False
    return True


def math_equal(prediction: str, reference: str) -> bool:
    """The reference's ``math_equal(prediction, reference)`` (include_percentage, is_close) of two
    stripped answers, within :data:`BUDGET`."""
    if prediction is None or reference is None:
        return False
    if str(prediction.strip().lower()) == str(reference.strip().lower()):
        return True
    if any(len(s) > BUDGET["text"] or _nesting(s) > BUDGET["nesting"] for s in (prediction, reference)):
        return False
    return _math_equal(prediction, reference)


def _math_equal(prediction: Any, reference: Any) -> bool:
    if prediction is None or reference is None:
        return False
    if str(prediction.strip().lower()) == str(reference.strip().lower()):
        return True
    if reference in ["A", "B", "C", "D", "E"] and choice_answer_clean(prediction) == reference:
        return True
    pred_number, ref_number = parse_digits(prediction), parse_digits(reference)
    if pred_number is not None and ref_number is not None:
        for item in (ref_number / 100, ref_number, ref_number * 100):
            try:
                if numeric_equal(pred_number, item):
                    return True
            except Exception:  # noqa: BLE001
                continue
        return False
    if not prediction:
        return False
    reference, prediction = str(reference).strip(), str(prediction).strip()
    if "pmatrix" in prediction and "pmatrix" not in reference:
        reference = str_to_pmatrix(reference)
    pred_str, ref_str = prediction, reference
    if (prediction.startswith("[") and prediction.endswith("]") and not reference.startswith("(")) or (
            prediction.startswith("(") and prediction.endswith(")") and not reference.startswith("[")):
        pred_str, ref_str = pred_str.strip("[]()"), ref_str.strip("[]()")
    for s in ["{", "}", "(", ")"]:
        ref_str, pred_str = ref_str.replace(s, ""), pred_str.replace(s, "")
    if pred_str.lower() == ref_str.lower():
        return True
    bracketed = re.compile(r"(\(|\[).+(\)|\])")
    if bracketed.match(prediction) is not None and bracketed.match(reference) is not None:
        pred_parts, ref_parts = prediction[1:-1].split(","), reference[1:-1].split(",")
        if len(pred_parts) == len(ref_parts) and all([_math_equal(p, r) for p, r in zip(pred_parts, ref_parts)]):
            return True
    if (prediction.startswith(_MATRIX_STARTS) and prediction.endswith(_MATRIX_ENDS)
            and reference.startswith(_MATRIX_STARTS) and reference.endswith(_MATRIX_ENDS)):
        if _matrices_equal(prediction, reference):
            return True
    if prediction.count("=") == 1 and reference.count("=") == 1:
        left, right = prediction.split("=")
        pred = f"{left.strip()} - ({right.strip()})"
        left, right = reference.split("=")
        ref = f"{left.strip()} - ({right.strip()})"
        if symbolic_equal(pred, ref) or symbolic_equal(f"-({pred})", ref):
            return True
    elif prediction.count("=") == 1 and len(prediction.split("=")[0].strip()) <= 2 and "=" not in reference:
        if _math_equal(prediction.split("=")[1], reference):
            return True
    elif reference.count("=") == 1 and len(reference.split("=")[0].strip()) <= 2 and "=" not in prediction:
        if _math_equal(prediction, reference.split("=")[1]):
            return True
    return symbolic_equal(prediction, reference)
