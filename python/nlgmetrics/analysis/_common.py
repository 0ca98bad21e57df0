"""What the analyses share: bucket cut-offs and tokenized inputs."""

from __future__ import annotations

import math
from typing import Callable, Sequence

from .._inputs import as_texts, check_all_text, unordered_reason
from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError
from ..tokenizers import tokenize as _tokenize

Tokenizer = str | Callable[[str], list[str]]


class Cutoffs:
    """Buckets ``< c0``, ``[c0, c1)``, ..., ``>= c_last``, labelled as compare-mt labels them."""

    def __init__(self, cutoffs: Sequence[float], *, integers: bool):
        values = list(cutoffs)
        if not values:
            raise InvalidOptionError("bucket cut-offs: give at least one")
        if any(not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) for v in values):
            raise InvalidOptionError(f"bucket cut-offs must be finite numbers, got {values!r}")
        if any(b <= a for a, b in zip(values, values[1:])):
            raise InvalidOptionError(f"bucket cut-offs must increase strictly, got {values!r}")
        self.values = values
        labels = [f"<{values[0]}"]
        for previous, value in zip(values, values[1:]):
            labels.append(f"{value - 1}" if integers and value - 1 == previous else f"[{previous},{value})")
        labels.append(f">={values[-1]}")
        self.labels = labels

    def bucket(self, value: float) -> int:
        for i, cutoff in enumerate(self.values):
            if value < cutoff:
                return i
        return len(self.values)


# compare-mt 0.2.10 reads its files with ``line.strip().split(' ')`` (corpus_utils): runs of
# spaces give empty tokens, a no-break space stays inside a token and an empty line is one
# empty token. That split is the analyses' default, so their numbers are compare-mt's on any
# text. A named tokenizer gives compare-mt's reading of the tokenized file (its tokens, and
# an empty line still one empty token); "none" is str.split(), where an empty line has none.
COMPARE_MT = "compare-mt"


def token_lists(texts: Sequence[str], tokenize: Tokenizer, what: str) -> list[list[str]]:
    lines = as_texts(texts, what)
    check_all_text(lines, what)  # a lone surrogate is a typed error, not a raw UnicodeEncodeError
    if callable(tokenize):
        return [list(tokenize(line)) for line in lines]
    if tokenize == COMPARE_MT:
        return [line.strip().split(" ") for line in lines]
    if tokenize == "none":
        return [line.split() for line in lines]
    return [line.split() or [""] for line in _tokenize(tokenize, lines)]


def _token_rows(x: object, what: str, where: str) -> list[list[str]]:
    if x is None or isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise InputTypeError(f"{where}: {what} must be a list of token lists, not {type(x).__name__}")
    why = unordered_reason(x)
    if why:
        raise InputTypeError(f"{where}: {what} must be a list of token lists, not {why}")
    rows = []
    for i, row in enumerate(x):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__") or unordered_reason(row):
            raise InputTypeError(f"{where}: {what}[{i}] must be a list of tokens (str), not {type(row).__name__}")
        row = list(row)
        if not all(isinstance(t, str) for t in row):
            raise InputTypeError(f"{where}: {what}[{i}] must hold str tokens")
        rows.append(row)
    return rows


def checked_token_rows(references: object, outputs: object, where: str) -> tuple[list[list[str]], list[list[str]]]:
    """Already tokenized sentences (compare-mt's inputs), checked: typed errors, never a
    crash, and never ``zip`` silently dropping the longer side."""
    refs, outs = _token_rows(references, "references", where), _token_rows(outputs, "outputs", where)
    if len(refs) != len(outs):
        raise LengthMismatchError(f"{where}: {len(refs)} references but {len(outs)} outputs")
    return refs, outs


def paired_token_lists(references: Sequence[str], system_a: Sequence[str], system_b: Sequence[str], tokenize: Tokenizer) -> tuple[list[list[str]], list[list[list[str]]]]:
    """Tokens of the references and of two systems' outputs, checked as texts of one length."""
    references = as_texts(references, "references")
    system_a, system_b = as_texts(system_a, "system A"), as_texts(system_b, "system B")
    if not (len(references) == len(system_a) == len(system_b)):
        raise LengthMismatchError(f"{len(references)} references, {len(system_a)} and {len(system_b)} outputs")
    refs = token_lists(references, tokenize, "references")
    return refs, [token_lists(s, tokenize, what) for s, what in ((system_a, "system A"), (system_b, "system B"))]


def systems_of(systems: Sequence[Sequence[str]] | dict[str, Sequence[str]]) -> tuple[list[str], list[Sequence[str]]]:
    """Names and outputs of the systems (a dict keeps its names; a list is named sys1, sys2, ...)."""
    if isinstance(systems, dict):
        return [str(k) for k in systems], [as_texts(v, f"systems[{k!r}]") for k, v in systems.items()]
    if isinstance(systems, str) or not isinstance(systems, Sequence) or not systems or isinstance(systems[0], str):
        raise InvalidOptionError("systems: pass a list of system outputs (each a list of texts) or a dict name -> outputs")
    return [f"sys{i + 1}" for i in range(len(systems))], [as_texts(v, f"systems[{i}]") for i, v in enumerate(systems)]


def check_lengths(references: Sequence, outputs: Sequence[Sequence], names: Sequence[str]) -> None:
    for name, output in zip(names, outputs):
        if len(output) != len(references):
            raise LengthMismatchError(f"system {name!r} has {len(output)} segments, the references {len(references)}")
