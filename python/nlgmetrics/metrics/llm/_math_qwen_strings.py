"""The string steps of the ``qwen`` math_equiv flavour: Qwen2.5-Math's ``parser.py`` as
evalscope 0.17.1 vendors it (``evalscope/metrics/math_parser.py``: ``strip_answer_string``,
``extract_answer``) and word2number 1.1's ``w2n.word_to_num``, which it calls. Ported line by line
(both Apache-2.0 / MIT); the goldens run the originals. Pure Python, linear or quadratic in the
answer's length at worst; no SymPy here.
"""
from __future__ import annotations

import re

# An answer longer than this is left as it is (the reference's regexes are quadratic in it):
# named in the signature as the budget's ``text`` (see _math_qwen.BUDGET).
TEXT_LIMIT = 2048

# word2number 1.1 (MIT): american_number_system, decimal_words, number_formation, get_decimal_sum, word_to_num
_NUMBER_WORDS: dict[str, int | str] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "million": 1000000, "billion": 1000000000, "point": ".",
}
_DECIMAL_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _number_formation(words: list[str]) -> int:
    numbers = [_NUMBER_WORDS[w] for w in words]
    if len(numbers) == 4:
        return (numbers[0] * numbers[1]) + numbers[2] + numbers[3]  # type: ignore[operator]
    if len(numbers) == 3:
        return numbers[0] * numbers[1] + numbers[2]  # type: ignore[operator]
    if len(numbers) == 2:
        return numbers[0] * numbers[1] if 100 in numbers else numbers[0] + numbers[1]  # type: ignore[operator]
    return numbers[0]  # type: ignore[return-value]  # an empty list raises IndexError, as w2n's does


def _decimal_sum(words: list[str]) -> float:
    digits = []
    for w in words:
        if w not in _DECIMAL_WORDS:
            return 0
        digits.append(_NUMBER_WORDS[w])
    return float("0." + "".join(map(str, digits)))


def word_to_num(sentence: str) -> int | float:
    """word2number 1.1 ``w2n.word_to_num``; ValueError (or what w2n raises) where it fails."""
    sentence = sentence.replace("-", " ").lower()
    if sentence.isdigit():
        return int(sentence)
    clean = [w for w in sentence.strip().split() if w in _NUMBER_WORDS]
    if not clean:
        raise ValueError("no number words")
    if clean.count("thousand") > 1 or clean.count("million") > 1 or clean.count("billion") > 1 or clean.count("point") > 1:
        raise ValueError("redundant number word")
    decimals: list[str] = []
    if clean.count("point") == 1:
        decimals = clean[clean.index("point") + 1:]
        clean = clean[:clean.index("point")]
    bi = clean.index("billion") if "billion" in clean else -1
    mi = clean.index("million") if "million" in clean else -1
    th = clean.index("thousand") if "thousand" in clean else -1
    if (th > -1 and (th < mi or th < bi)) or (mi > -1 and mi < bi):
        raise ValueError("malformed number")
    total: int | float = 0
    if len(clean) > 0:
        if len(clean) == 1:
            total += _NUMBER_WORDS[clean[0]]  # type: ignore[operator]
        else:
            if bi > -1:
                total += _number_formation(clean[0:bi]) * 1000000000
            if mi > -1:
                total += _number_formation(clean[bi + 1:mi] if bi > -1 else clean[0:mi]) * 1000000
            if th > -1:
                if mi > -1:
                    total += _number_formation(clean[mi + 1:th]) * 1000
                elif bi > -1 and mi == -1:
                    total += _number_formation(clean[bi + 1:th]) * 1000
                else:
                    total += _number_formation(clean[0:th]) * 1000
            if th > -1 and th != len(clean) - 1:
                hundreds = _number_formation(clean[th + 1:])
            elif mi > -1 and mi != len(clean) - 1:
                hundreds = _number_formation(clean[mi + 1:])
            elif bi > -1 and bi != len(clean) - 1:
                hundreds = _number_formation(clean[bi + 1:])
            elif th == -1 and mi == -1 and bi == -1:
                hundreds = _number_formation(clean)
            else:
                hundreds = 0
            total += hundreds
    if len(decimals) > 0:
        total += _decimal_sum(decimals)
    return total


def convert_word_number(text: str) -> str:
    try:
        return str(word_to_num(text))
    except Exception:  # the reference: any failure keeps the text
        return text


def _fix_fracs(string: str) -> str:
    substrs = string.split("\\frac")
    new_str = substrs[0]
    for substr in substrs[1:]:
        new_str += "\\frac"
        if len(substr) > 0 and substr[0] == "{":
            new_str += substr
        else:
            if len(substr) < 2:
                return string
            a, b = substr[0], substr[1]
            if b != "{":
                new_str += "{" + a + "}{" + b + "}" + substr[2:]
            else:
                new_str += "{" + a + "}" + b + substr[2:]
    return new_str


def _fix_a_slash_b(string: str) -> str:
    if len(string.split("/")) != 2:
        return string
    a, b = string.split("/")
    try:
        if "sqrt" not in a:
            a = int(a)  # type: ignore[assignment]
        if "sqrt" not in b:
            b = int(b)  # type: ignore[assignment]
        if string != "{}/{}".format(a, b):
            return string
        return "\\frac{" + str(a) + "}{" + str(b) + "}"
    except Exception:
        return string


def _replace_word(match: re.Match) -> str:
    word = match.group(1).lower()
    converted = convert_word_number(word)
    return match.group(0) if converted == word else converted


def strip_answer_string(string: str) -> str:
    """evalscope 0.17.1 ``strip_answer_string`` (Qwen2.5-Math's ``strip_string``, simplified);
    an answer longer than TEXT_LIMIT characters is returned as it is."""
    if len(string) > TEXT_LIMIT:
        return string
    string = str(string).strip().replace("\n", "").rstrip(".").replace("\\!", "")
    string = re.sub(r"\\begin\{array\}\{.*?\}", r"\\begin{pmatrix}", string)
    string = re.sub(r"\\end\{array\}", r"\\end{pmatrix}", string)
    string = string.replace("bmatrix", "pmatrix").replace("tfrac", "frac").replace("dfrac", "frac")
    string = string.replace("\\neq", "\\ne").replace("\\leq", "\\le").replace("\\geq", "\\ge")
    string = string.replace("\\left", "").replace("\\right", "").replace("\\{", "{").replace("\\}", "}")
    string = re.sub(r"\\text\{([a-zA-Z]+)\}", _replace_word, string)
    string = re.sub(r"(cm|inches)\}\^2", r"\1}", string)
    unitless = re.sub(r"\\text{.*?}$", "", string).strip()
    if unitless != "" and unitless != string:
        string = unitless
    string = string.replace("^{\\circ}", "").replace("^\\circ", "")
    string = string.replace("\\$", "").replace("$", "").replace("\\(", "").replace("\\)", "")
    string = convert_word_number(string)
    string = re.sub(r"\\text\{(.*?)\}", r"\1", string)
    for key in ["x=", "y=", "z=", "x\\in", "y\\in", "z\\in", "x\\to", "y\\to", "z\\to"]:
        string = string.replace(key, "")
    string = string.replace("\\emptyset", r"{}").replace("(-\\infty,\\infty)", "\\mathbb{R}")
    string = string.replace("\\%", "").replace("%", "")
    string = string.replace(" .", " 0.").replace("{.", "{0.")
    if (string.startswith("{") and string.endswith("}") and string.isalnum()
            or string.startswith("(") and string.endswith(")") and string.isalnum()
            or string.startswith("[") and string.endswith("]") and string.isalnum()):
        string = string[1:-1]  # never taken: a bracket is not alphanumeric (kept as the reference has it)
    string = string.replace("infinity", "\\infty")
    if "\\infty" not in string:
        string = string.replace("inf", "\\infty")
    string = string.replace("+\\inity", "\\infty").replace("and", "").replace("\\mathbf", "")
    string = re.sub(r"\\mbox{.*?}", "", string)
    # (the reference's quote removal discards its result: quotes are kept)
    if "j" in string and "i" not in string:
        string = string.replace("j", "i")
    string = re.sub(r"(\d+)\.0*([^\d])", r"\1\2", string)
    string = re.sub(r"(\d+)\.0*$", r"\1", string)
    if len(string) == 0:
        return string
    if string[0] == ".":
        string = "0" + string
    if len(string.split("=")) == 2 and len(string.split("=")[0]) <= 2:
        string = string.split("=")[1]
    string = re.sub(r"\\sqrt(\w+)", r"\\sqrt{\1}", string).replace(" ", "")
    string = _fix_a_slash_b(_fix_fracs(string))
    string = re.sub(r"\\(?=\-?\d+(\\|\)|,|\]|$))", "", string)
    string = re.sub(r"thgrade$", "", string)
    if re.fullmatch(r"(\s*-?\d+\s*,)*\s*-?\d+\s*", string):
        try:
            integers = list(map(int, string.split(",")))
        except Exception:  # more digits than int() reads
            integers = [-1, -1]
        string = ",".join(map(str, sorted(integers)))
    return string


def _boxed_content(ans: str) -> str:
    if len(ans) == 0:
        return ""
    if ans[0] != "{":
        return ans.split("$")[0].strip()
    stack, out = 1, []
    for c in ans[1:]:
        if c == "{":
            stack += 1
        elif c == "}":
            stack -= 1
            if stack == 0:
                break
        out.append(c)
    return "".join(out)


def extract_answer(pred_str: str, use_last_number: bool = True) -> str:
    """evalscope 0.17.1 ``extract_answer``: the answer of a solution or a generation, stripped."""
    pred_str = pred_str.replace("\u043a\u0438", "")
    if "final answer is $" in pred_str and "$. I hope" in pred_str:
        pred = pred_str.split("final answer is $", 1)[1].split("$. I hope", 1)[0].strip()
    elif "boxed" in pred_str:
        ans = pred_str.split("boxed")[-1]
        if len(ans) == 0:
            return ""
        pred = _boxed_content(ans)
    elif "he answer is" in pred_str:
        pred = pred_str.split("he answer is")[-1].strip()
    elif "final answer is" in pred_str:
        pred = pred_str.split("final answer is")[-1].strip()
    elif "答案是" in pred_str:
        pred = pred_str.split("答案是")[1].strip().split("\n\n")[0].strip()
    elif use_last_number:
        numbers = re.findall(r"-?\d*\.?\d+", pred_str.replace(",", ""))
        pred = numbers[-1] if numbers else ""
    else:
        pred = ""
    pred = re.sub(r"\n\s*", "", pred)
    if pred != "" and pred[0] == ":":
        pred = pred[1:]
    if pred != "" and pred[-1] == ".":
        pred = pred[:-1]
    if pred != "" and pred[-1] == "/":
        pred = pred[:-1]
    return strip_answer_string(pred)
