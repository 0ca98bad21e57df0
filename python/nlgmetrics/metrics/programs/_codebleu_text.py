"""CodeBLEU's text parts: comment stripping, keyword lists, and the n-gram statistics of one
segment for BLEU (clipped precision) and the keyword-weighted n-gram match (clipped recall,
with the reference's quirks: unigrams weighted 1 for a keyword and 0.2 otherwise, and a
brevity penalty against a reference "length" of 2, the length of its (tokens, weights) pair).
"""
from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from functools import lru_cache
from importlib import resources

KEYWORD_WEIGHT, OTHER_WEIGHT = 1, 0.2
# Strings are matched so that comment markers inside them survive; a comment becomes a space.
_C_COMMENTS = re.compile(r'//.*?$|/\*.*?\*/|\'(?:\\.|[^\\\'])*\'|"(?:\\.|[^\\"])*"', re.DOTALL | re.MULTILINE)


def _non_blank_lines(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if line.strip() != "")


def strip_c_comments(source: str) -> str:
    return _non_blank_lines(_C_COMMENTS.sub(lambda m: " " if m.group(0).startswith("/") else m.group(0), source))


def strip_python_comments(source: str) -> str:
    """Comments and docstrings (a string that starts a logical line) removed, token layout kept."""
    out: list[str] = []
    prev_type = tokenize.INDENT
    last_row, last_col = -1, 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        (row, col), (end_row, end_col) = tok.start, tok.end
        if row > last_row:
            last_col = 0
        if col > last_col:
            out.append(" " * (col - last_col))
        if tok.type == tokenize.STRING:
            if prev_type not in (tokenize.INDENT, tokenize.NEWLINE) and col > 0:
                out.append(tok.string)
        elif tok.type != tokenize.COMMENT:
            out.append(tok.string)
        prev_type, last_col, last_row = tok.type, end_col, end_row
    return _non_blank_lines("".join(out))


def strip_comments(source: str, rules: str) -> str:
    """The reference's ``remove_comments_and_docstrings``; on any failure the text as given.
    PyPI codebleu 0.7.0 strips nothing from Ruby (``#`` comments stay code tokens)."""
    if rules == "ruby":
        return source
    try:
        return strip_python_comments(source) if rules == "python" else strip_c_comments(source)
    except Exception:  # tokenize refuses the snippet (unclosed bracket, bad indentation, ...)
        return source


@lru_cache(maxsize=None)
def keywords(flavour: str, language: str) -> frozenset[str]:
    """The keyword list of ``codebleu_keywords/<language>.txt`` (+ the 0.7.0 additions)."""
    base = resources.files(__package__).joinpath("codebleu_keywords")
    files = [base.joinpath(f"{language}.txt")]
    extra = base.joinpath(f"{language}.codebleu-0.7.txt")
    if flavour == "codebleu-0.7" and extra.is_file():
        files.append(extra)
    words = {w.strip() for f in files for w in f.read_text("utf-8").split("\n") if not w.startswith("# ")}
    words.discard("")  # a blank line is no token of str.split's
    return frozenset(words)


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def closest_length(lengths: list[int], hyp_len: int) -> int:
    return min(lengths, key=lambda r: (abs(r - hyp_len), r))


def bleu_counts(hyp: list[str], refs: list[list[str]]) -> list[int]:
    """[matches_1, total_1, ..., matches_4, total_4] of BLEU's clipped precision."""
    out = []
    for n in range(1, 5):
        counts = _ngrams(hyp, n)
        best: dict = {}
        for ref in refs:
            ref_counts = _ngrams(ref, n)
            for g in counts:
                best[g] = max(best.get(g, 0), ref_counts[g])
        out += [sum(min(c, best[g]) for g, c in counts.items()), max(1, sum(counts.values()))]
    return out


def _weighted(counts: dict, weights: dict) -> float:
    total: float = 0
    for gram, c in counts.items():  # the reference's order: first occurrence in the reference
        total += c * weights.get(gram[0], 1)
    return total


def weighted_counts(hyp: list[str], refs: list[list[str]], words: frozenset[str]) -> tuple[float, float, list[int]]:
    """(weighted unigram matches, weighted unigram total, [matches_n, total_n for n = 2..4])."""
    hyp_grams = [_ngrams(hyp, n) for n in range(1, 5)]
    num1: float = 0
    den1: float = 0
    higher = [0] * 6
    for ref in refs:
        weights = {t: KEYWORD_WEIGHT if t in words else OTHER_WEIGHT for t in ref}
        for n in range(1, 5):
            ref_counts = _ngrams(ref, n)
            clipped = {g: min(c, hyp_grams[n - 1][g]) for g, c in ref_counts.items()}
            if n == 1:
                num1 += _weighted(clipped, weights)
                den1 += max(1, _weighted(ref_counts, weights))
            else:
                higher[2 * (n - 2)] += sum(clipped.values())
                higher[2 * (n - 2) + 1] += max(1, sum(ref_counts.values()))
    return num1, den1, higher
