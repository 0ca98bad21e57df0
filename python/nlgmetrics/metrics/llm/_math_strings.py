"""The string side of MATH answer checking, with lm-evaluation-harness 0.4.13's semantics
(``tasks/hendrycks_math/utils.py`` and ``tasks/minerva_math/utils.py``).

Pure Python: each step is the reference's own Python operation (``str.replace``,
``str.split``, ``int``, the same regular expressions), in its order, so that any string
normalises to the same string. Where a reference step is a regular expression that
backtracks quadratically on hostile input (``(.*?)(\\$)(.*?)(\\$)(.*)`` over a long line
without two dollars, ``(\\boxed\\{)(.*)(\\})`` over many unclosed boxes), it is written
here as the linear scan that finds the same matches; every step is linear in the input.
"""
from __future__ import annotations

import re

# -- answer extraction (shared by both tasks) --------------------------------------------------


class NoBoxedAnswer(ValueError):
    """A solution whose last ``\\boxed`` answer cannot be taken out (lm-eval raises there)."""


def last_boxed_only_string(text: str) -> str | None:
    """The last ``\\boxed{...}`` (or ``\\fbox{...}``) of ``text`` with its braces, or
    ``"\\boxed " + ...`` up to the next ``$`` for the brace-less form; None without one."""
    if "\\boxed " in text:
        return "\\boxed " + text.split("\\boxed ")[-1].split("$")[0]
    start = text.rfind("\\boxed")
    if start < 0:
        start = text.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return None


def remove_boxed(boxed: str | None) -> str:
    """The inside of ``last_boxed_only_string``'s result; :class:`NoBoxedAnswer` where
    lm-eval's ``remove_boxed`` fails (no box, an ``\\fbox``, a box not closed at the end)."""
    if boxed is None:
        raise NoBoxedAnswer("no \\boxed{...} answer")
    if "\\boxed " in boxed:
        if not boxed.startswith("\\boxed "):
            raise NoBoxedAnswer(f"{boxed[:40]!r} does not start with '\\boxed '")
        return boxed[len("\\boxed "):]
    if not boxed.startswith("\\boxed{") or not boxed.endswith("}"):
        raise NoBoxedAnswer(f"{boxed[:40]!r} is not a \\boxed{{...}} answer")
    return boxed[len("\\boxed{"):-1]


def boxed_answer(solution: str) -> str:
    """``remove_boxed(last_boxed_only_string(solution))``: the gold answer of a MATH solution."""
    return remove_boxed(last_boxed_only_string(solution))


def dollar_answer(generation: str) -> str:
    """hendrycks_math's ``process_results``: the text between the first and the last ``$``
    when there are two or more, else the whole generation."""
    first = generation.find("$")
    last = generation.rfind("$")
    if first < 0 or first == last:
        return generation
    return generation[first + 1:last]


# -- hendrycks: is_equiv with strip_string -----------------------------------------------------


class _Unnormalisable(Exception):
    """A step of ``strip_string`` raised in the reference: ``is_equiv`` then compares the raw strings."""


def _fix_fracs(s: str) -> str:
    parts = s.split("\\frac")
    out = [parts[0]]
    for part in parts[1:]:
        out.append("\\frac")
        if not part:
            raise _Unnormalisable  # part[0] of an empty string: IndexError
        if part[0] == "{":
            out.append(part)
            continue
        if len(part) < 2:
            return s
        a, b, rest = part[0], part[1], part[2:]
        out.append("{" + a + "}{" + b + "}" + rest if b != "{" else "{" + a + "}" + b + rest)
    return "".join(out)


def _fix_a_slash_b(s: str) -> str:
    parts = s.split("/")
    if len(parts) != 2:
        return s
    try:
        a, b = int(parts[0]), int(parts[1])
    except ValueError:  # int() of a non-number: the reference lets it out of strip_string
        raise _Unnormalisable from None
    if s != f"{a}/{b}":
        return s
    return "\\frac{" + str(a) + "}{" + str(b) + "}"


def _remove_right_units(s: str) -> str:
    if "\\text{ " not in s:
        return s
    parts = s.split("\\text{ ")
    if len(parts) != 2:
        raise _Unnormalisable  # the reference asserts a single unit
    return parts[0]


def _fix_sqrt(s: str) -> str:
    if "\\sqrt" not in s:
        return s
    parts = s.split("\\sqrt")
    out = [parts[0]]
    for part in parts[1:]:
        if not part:
            raise _Unnormalisable  # part[0] of an empty string
        out.append("\\sqrt" + part if part[0] == "{" else "\\sqrt{" + part[0] + "}" + part[1:])
    return "".join(out)


def strip_string(s: str) -> str:
    """hendrycks/math's ``strip_string``; raises :class:`_Unnormalisable` where it raises."""
    for old, new in (("\n", ""), ("\\!", ""), ("\\\\", "\\"), ("tfrac", "frac"), ("dfrac", "frac"),
                     ("\\left", ""), ("\\right", ""), ("^{\\circ}", ""), ("^\\circ", ""), ("\\$", "")):
        s = s.replace(old, new)
    s = _remove_right_units(s)
    s = s.replace("\\%", "")  # the reference's second replace ("\%", the same two characters) finds none left
    s = s.replace(" .", " 0.").replace("{.", "{0.")
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    sides = s.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:  # "k = 5": a short name before one "="
        s = sides[1]
    s = _fix_sqrt(s)
    s = s.replace(" ", "")
    s = _fix_fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    return _fix_a_slash_b(s)


def hendrycks_is_equiv(a: str | None, b: str | None) -> bool:
    """hendrycks/math's ``is_equiv``: the ``strip_string`` forms are equal; where either
    cannot be normalised, the raw strings are."""
    if a is None or b is None:
        return a is None and b is None
    try:
        return strip_string(a) == strip_string(b)
    except _Unnormalisable:
        return a == b


# -- minerva: get_unnormalized_answer and normalize_final_answer -------------------------------

INVALID_ANSWER = "[invalidanswer]"
_PREFIX, _SUFFIX = "Final Answer: The final answer is", " I hope it is correct"
_SUBSTITUTIONS = (("an ", ""), ("a ", ""), (".$", "$"), ("\\$", ""), ("\\ ", ""), (" ", ""), ("mbox", "text"),
                  (",\\text{and}", ","), ("\\text{and}", ","), ("\\text{m}", "\\text{}"))
_REMOVED = ("square", "ways", "integers", "dollars", "mph", "inches", "ft", "hours", "km", "units", "\\ldots", "sue",
            "points", "feet", "minutes", "digits", "cents", "degrees", "cm", "gm", "pounds", "meters", "meals", "edges",
            "students", "childrentickets", "multiples", "\\text{s}", "\\text{.}", "\\text{\ns}", "\\text{}^2",
            "\\text{}^3", "\\text{\n}", "\\text{}", r"\mathrm{th}", r"^\circ", r"^{\circ}", r"\;", r",\!", "{,}", '"',
            "\\dots")
_UNIT_WORDS = tuple((w, re.compile(rf"(?<!\\)\b{w}\b")) for w in _REMOVED if w.isalpha())
_COMMAND = re.compile(r"(\\[a-zA-Z]+)")
_FRAC_SHORT = re.compile(r"(frac)([^{])(.)")
_ROOT_INDEX_SHORT = re.compile(r"(sqrt)(\[[^\]]*\])(\w)")
_WORD_CHAR = re.compile(r"\w")
_SQRT_SHORT = re.compile(r"(sqrt)(?!\[)([^{])")
_THOUSANDS = re.compile(r"-?\d{1,3}(,\d{3})+")


def final_answer_text(generation: str) -> str:
    """minerva_math's ``get_unnormalized_answer``: the text after "Final Answer: The final
    answer is" up to ". I hope it is correct." (stripped), else ``[invalidanswer]``."""
    # re.search(r"Final Answer: The final answer is(.*?). I hope it is correct.", text) as a
    # linear scan: only a line's first "Final Answer" can match (a later one finds the same
    # first " I hope it is correct" after it), and the lazy group ends before its first one
    for line in _lines(generation + "I hope it is correct."):
        start = line.find(_PREFIX)
        if start < 0:
            continue
        end = line.find(_SUFFIX, start + len(_PREFIX) + 1)
        if end >= 0 and end + len(_SUFFIX) < len(line):
            return line[start + len(_PREFIX):end - 1].strip()
    return INVALID_ANSWER


def _lines(s: str) -> list[str]:
    return s.split("\n")  # "." stops at a newline: each regex below acts within one line


def _first_math_span(s: str) -> str:
    """``re.sub(r"(.*?)(\\$)(.*?)(\\$)(.*)", "$\\3$", s)``: every line with two dollars
    becomes ``$`` + the text between its first two + ``$`` (a linear scan)."""
    out = []
    for line in _lines(s):
        first = line.find("$")
        second = line.find("$", first + 1) if first >= 0 else -1
        out.append(line if second < 0 else "$" + line[first + 1:second] + "$")
    return "\n".join(out)


def _unwrap_lazy(s: str, opener: str) -> str:
    """``re.sub(r"(OPENER)(.*?)(\\})", "\\2", s)``: each ``OPENER...}`` (to the first ``}``
    on the same line) becomes its inside."""
    out = []
    for line in _lines(s):
        parts, pos = [], 0
        while True:
            i = line.find(opener, pos)
            if i < 0:
                break
            j = line.find("}", i + len(opener))
            if j < 0:
                break
            parts.append(line[pos:i])
            parts.append(line[i + len(opener):j])
            pos = j + 1
        parts.append(line[pos:])
        out.append("".join(parts))
    return "\n".join(out)


def _unwrap_greedy(s: str, opener: str) -> str:
    """``re.sub(r"(OPENER)(.*)(\\})", "\\2", s)``: the first ``OPENER`` of a line to the
    line's last ``}`` becomes its inside (nothing after that ``}`` can match again)."""
    out = []
    for line in _lines(s):
        i = line.find(opener)
        j = line.rfind("}")
        if i >= 0 and j >= i + len(opener):
            line = line[:i] + line[i + len(opener):j] + line[j + 1:]
        out.append(line)
    return "\n".join(out)


def _brace_root_index(s: str) -> str:
    """``re.sub(r"(sqrt)(\\[[^\\]]*\\])(\\w)", "\\1\\2{\\3}", s)`` as a linear scan: after
    ``sqrt[`` the index runs to the first ``]`` (newlines included), then one word character."""
    parts, pos = [], 0
    while True:
        i = s.find("sqrt[", pos)
        if i < 0:
            break
        j = s.find("]", i + 5)
        if j < 0:
            break  # no "]" after this one: none after any later "sqrt[" either
        if j + 1 < len(s) and _WORD_CHAR.match(s, j + 1):
            parts.append(s[pos:j + 1] + "{" + s[j + 1] + "}")
            pos = j + 2
        else:
            parts.append(s[pos:i + 4])  # no match here: scanning resumes inside, after "sqrt"
            pos = i + 4
    parts.append(s[pos:])
    return "".join(parts)


def normalize_final_answer(answer: str) -> str:
    """minerva_math's ``normalize_final_answer`` as lm-eval 0.4.13 has it."""
    answer = answer.split("=")[-1]
    for unit, word in _UNIT_WORDS:
        if unit in answer:  # (a word absent from the text cannot match: skipping it is the same)
            answer = word.sub("", answer)
    for old, new in _SUBSTITUTIONS:
        answer = answer.replace(old, new)
    for expr in _REMOVED:
        if expr not in answer:
            continue
        if expr.isalpha():  # outside LaTeX command names only
            segments = _COMMAND.split(answer)
            segments[::2] = [seg.replace(expr, "") for seg in segments[::2]]
            answer = "".join(segments)
        else:
            answer = answer.replace(expr, "")
    answer = _first_math_span(answer)
    answer = _unwrap_lazy(answer, "\\text{")
    answer = _unwrap_lazy(answer, "\\textbf{")
    answer = _unwrap_lazy(answer, "\\overline{")
    answer = _unwrap_greedy(answer, "\\boxed{")
    answer = _FRAC_SHORT.sub("frac{\\2}{\\3}", answer)
    answer = _brace_root_index(answer)
    answer = _SQRT_SHORT.sub("sqrt{\\2}", answer)
    answer = answer.replace("$", "")
    if _THOUSANDS.fullmatch(answer):
        answer = answer.replace(",", "")
    return answer
