"""lighteval 0.13.0's multiple-choice accuracies (``LoglikelihoodAcc`` with each
``LogProbNormalization``), as ``MultipleChoice(score="lighteval_...")`` computes them.

Per document, with ``lls`` the choices' log-likelihoods (Python floats, as lighteval's models
return them), ``choices`` lighteval's ``doc.choices`` (the continuations, usually with their
leading space: ``" Paris"``) and ``golds`` ``as_list(doc.gold_index)``:

- ``lighteval_acc``: ``np.argmax(lls)`` is in the golds
- ``lighteval_acc_norm``: ``LogProbCharNorm()``, ``ll / len(choice)``: characters of the
  continuation, its leading space included (lm-eval's ``acc_norm`` counts the choice without it)
- ``lighteval_acc_norm_nospace``: ``LogProbCharNorm(ignore_first_space=True)``, ``ll /
  (len(choice) - 1)`` when the choice starts with ``" "`` (U+0020 only); lighteval also names
  it ``acc_norm``
- ``lighteval_acc_norm_token``: ``LogProbTokenNorm()``, ``ll / tokens`` (the choice's token count)
- ``lighteval_acc_norm_pmi``: ``LogProbPMINorm()``, ``ll - ll_unconditional``

Divisions and subtractions are Python's (``-inf / 3`` is ``-inf``, ``-inf - -inf`` is NaN);
``np.argmax`` takes the first maximum (a tie goes to the earlier choice) and the first NaN wins.
Where lighteval raises, a value is undefined: a divisor of 0 (an empty choice, a choice that
is one space, zero tokens: ``ZeroDivisionError``) or an empty choice with ``ignore_first_space``
(``IndexError``). A gold outside the choices (or a negative one) is never the argmax. A gold
given as a choice's text (not lighteval's, but how lm-eval's samples files log some) is the
index of its first occurrence.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InputTypeError, InvalidInputError, LengthMismatchError

LIGHTEVAL_REFERENCE = "lighteval-0.13.0"
LIGHTEVAL_SCORES = ("lighteval_acc", "lighteval_acc_norm", "lighteval_acc_norm_nospace",
                    "lighteval_acc_norm_token", "lighteval_acc_norm_pmi")
# per score after the first: how many documents define it (lighteval has a number for them)
DEFINED_FIELDS = ("acc_norm_documents", "acc_norm_nospace_documents", "token_documents", "pmi_documents")
LIGHTEVAL_FIELDS = ("documents", *LIGHTEVAL_SCORES, *DEFINED_FIELDS, "gold_out_of_range")
_WHY = {
    "lighteval_acc_norm": "an empty choice: lighteval divides by its 0 characters (ZeroDivisionError)",
    "lighteval_acc_norm_nospace": "an empty choice or one that is a single space: lighteval raises "
                                  "(IndexError on choice[0], ZeroDivisionError on len - 1)",
    "lighteval_acc_norm_token": "a choice with 0 tokens: lighteval divides by it (ZeroDivisionError)",
    "lighteval_acc_norm_pmi": "no unconditional log-likelihoods",
}


def _argmax(values: list[float]) -> int:
    """``np.argmax`` of a list of floats: the first NaN, else the first maximum."""
    best, top = 0, values[0]
    if top != top:
        return 0
    for j in range(1, len(values)):
        v = values[j]
        if v != v:
            return j
        if v > top:
            best, top = j, v
    return best


def _golds(gold: Any, choices: list[str], where: str) -> list[int]:
    """``as_list(doc.gold_index)``: an index or a list (tuple) of indices. A choice's text
    (lm-eval's samples files log some golds so) is its first index, or no choice's."""
    if isinstance(gold, str):
        return [choices.index(gold) if gold in choices else -1]
    items = list(gold) if isinstance(gold, (list, tuple, np.ndarray)) else [gold]
    out = []
    for g in items:
        if isinstance(g, (bool, np.bool_)) or not isinstance(g, (int, np.integer)):
            raise InputTypeError(f"multiple_choice: {where}: gold must be an index or a list of indices "
                                 f"(lighteval's gold_index), got {type(g).__name__}")
        out.append(int(g))
    return out


def _token_counts(value: Any, n: int, where: str) -> list[int]:
    if isinstance(value, (str, bytes, dict, set, frozenset)) or not hasattr(value, "__iter__"):
        raise InputTypeError(f"multiple_choice: {where}: token_counts must be a list of token counts, one per choice")
    out = []
    for j, t in enumerate(value):
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
            raise InputTypeError(f"multiple_choice: {where}: token_counts[{j}] must be an int, got {type(t).__name__}")
        if t < 0:
            raise InvalidInputError(f"multiple_choice: {where}: token_counts[{j}] is {int(t)}: a count of tokens is not negative")
        out.append(int(t))
    if len(out) != n:
        raise LengthMismatchError(f"multiple_choice: {where}: {len(out)} token counts but {n} choices")
    return out


def lighteval_document(lls: list[float], texts: list[str], gold: Any, unc: list[float] | None = None,
                       token_counts: Any = None, *, where: str = "document") -> tuple[dict[str, float | None], bool]:
    """One document's five values (1.0, 0.0, or None where lighteval has no number) and
    whether every gold names a choice. ``lls``, ``texts`` and ``unc`` are already checked
    (floats, strings with UTF-8 bytes), as ``MultipleChoice.stats`` reads them."""
    if len(lls) != len(texts):
        raise LengthMismatchError(f"multiple_choice: {where}: {len(lls)} log-likelihoods but {len(texts)} choices")
    if not texts:
        raise InvalidInputError(f"multiple_choice: {where} has no choices (lighteval's argmax of nothing raises)")
    golds = _golds(gold, texts, f"{where}")
    n = len(texts)
    normalised: dict[str, list[float] | None] = {"lighteval_acc": lls}
    normalised["lighteval_acc_norm"] = None if any(not c for c in texts) else [ll / len(c) for ll, c in zip(lls, texts)]
    spaceless = [len(c) - 1 if c and c[0] == " " else len(c) for c in texts]
    normalised["lighteval_acc_norm_nospace"] = None if 0 in spaceless else [ll / d for ll, d in zip(lls, spaceless)]
    normalised["lighteval_acc_norm_token"] = None
    if token_counts is not None:
        counts = _token_counts(token_counts, n, where)
        if 0 not in counts:
            normalised["lighteval_acc_norm_token"] = [ll / t for ll, t in zip(lls, counts)]
    normalised["lighteval_acc_norm_pmi"] = None
    if unc is not None:
        if len(unc) != n:
            raise LengthMismatchError(f"multiple_choice: {where}: {len(unc)} unconditional log-likelihoods but {n} choices")
        normalised["lighteval_acc_norm_pmi"] = [ll - u for ll, u in zip(lls, unc)]
    values = {k: None if v is None else (1.0 if _argmax(v) in golds else 0.0) for k, v in normalised.items()}
    return values, all(0 <= g < n for g in golds)


def _plain(row: Any, kind: type) -> bool:
    return type(row) is list and all(type(v) is kind for v in row)


def _fast(ll: Any, c: Any, g: Any, u: Any, t: Any) -> tuple[list[int], list[int]] | None:
    """For a document in the common shape (lists of floats and of non-empty strings with
    UTF-8 bytes, an int gold among the choices, positive token counts): the characters and
    the characters without a leading space of each choice, else None."""
    if not (type(g) is int and _plain(ll, float) and _plain(c, str) and 0 <= g < len(c) == len(ll)
            and (u is None or (_plain(u, float) and len(u) == len(ll)))
            and (t is None or (_plain(t, int) and len(t) == len(ll) and min(t) > 0))):
        return None
    chars = [len(x) for x in c]
    spaceless = [n - 1 if x[:1] == " " else n for x, n in zip(c, chars)]
    if 0 in spaceless:
        return None
    try:
        "".join(c).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return chars, spaceless


def lighteval_counts(lls: list, golds: list, choices: list, uncs: list, tokens: list, headline: str, check: Any) -> np.ndarray:
    """The statistics rows (``LIGHTEVAL_FIELDS``) of each document; a document where the
    headline value is undefined is an error naming it and why. Documents in the common shape
    are scored together, one numpy ``argmax`` along the rows per number of choices (the same
    IEEE division and subtraction, the same first-maximum rule as lighteval's per document);
    any other is checked by ``check(i, ll, choices, unconditional)`` (the checked
    ``(lls, texts, unc)``) and goes through :func:`lighteval_document`."""
    counts = np.zeros((len(lls), len(LIGHTEVAL_FIELDS)), dtype=np.uint64)
    groups: dict[tuple[int, bool, bool], list] = {}
    for i, (ll, g, c, u, t) in enumerate(zip(lls, golds, choices, uncs, tokens)):
        lengths = _fast(ll, c, g, u, t)
        if lengths is not None:
            groups.setdefault((len(c), u is not None, t is not None), []).append((i, ll, g, u, t, *lengths))
            continue
        ll, c, u = check(i, ll, c, u)
        values, in_range = lighteval_document(ll, c, g, u, t, where=f"document {i}")
        if values[headline] is None:
            if headline == "lighteval_acc_norm_token" and t is None:
                raise InputTypeError(f"multiple_choice: {headline} needs token_counts (each choice's number of tokens); document {i} has none")
            raise InvalidInputError(f"multiple_choice: document {i}: {headline} is undefined: {_WHY[headline]}")
        counts[i, 0] = 1
        for col, name in enumerate(LIGHTEVAL_SCORES, start=1):
            counts[i, col] = values[name] or 0.0
        for col, name in enumerate(LIGHTEVAL_SCORES[1:], start=1 + len(LIGHTEVAL_SCORES)):
            counts[i, col] = values[name] is not None
        counts[i, -1] = not in_range
    for (_, mutual, tokenised), rows in groups.items():
        if headline == "lighteval_acc_norm_token" and not tokenised:
            raise InputTypeError(f"multiple_choice: {headline} needs token_counts (each choice's number of tokens); document {rows[0][0]} has none")
        if headline == "lighteval_acc_norm_pmi" and not mutual:
            raise InvalidInputError(f"multiple_choice: document {rows[0][0]}: {headline} is undefined: {_WHY[headline]}")
        idx = np.array([r[0] for r in rows], dtype=np.intp)
        arr = np.array([r[1] for r in rows], dtype=np.float64)
        gold = np.array([r[2] for r in rows], dtype=np.int64)
        normalised = {"lighteval_acc": arr,
                      "lighteval_acc_norm": arr / np.array([r[5] for r in rows], dtype=np.float64),
                      "lighteval_acc_norm_nospace": arr / np.array([r[6] for r in rows], dtype=np.float64)}
        if tokenised:
            normalised["lighteval_acc_norm_token"] = arr / np.array([r[4] for r in rows], dtype=np.float64)
        if mutual:
            with np.errstate(invalid="ignore"):  # -inf - -inf is NaN, as in Python
                normalised["lighteval_acc_norm_pmi"] = arr - np.array([r[3] for r in rows], dtype=np.float64)
        counts[idx, 0] = 1
        for name, values in normalised.items():
            col = LIGHTEVAL_FIELDS.index(name)
            counts[idx, col] = values.argmax(axis=1) == gold
            if name != "lighteval_acc":
                counts[idx, col + len(DEFINED_FIELDS)] = 1  # its *_documents column
    return counts
