"""TREC run and qrels files, read into pytrec_eval's dicts.

A run line is ``qid Q0 docid rank score tag`` (six fields, anything after the tag ignored;
the rank plays no part), a qrels line ``qid iteration docid relevance`` (exactly four
fields), as trec_eval reads them. Fields are split at ASCII blanks (C's ``isspace``: a
no-break space is part of an id); a leading byte-order mark is dropped; ``.gz`` files are
read through and ``-`` is stdin. A malformed line, a document given twice for one query, a score that is not
a number (NaN included) or a relevance that is not an integer is an
:class:`~nlgmetrics.errors.InvalidInputError` naming the file and the line.
"""
from __future__ import annotations

import os
import re
from typing import Any, Iterable

from ...errors import InputTypeError, InvalidInputError

# C's strtod forms without the ones Python's float() adds (underscores) or trec_eval cannot
# rank (nan): digits with an optional fraction and exponent, or inf / infinity
_FLOAT = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?)\Z", re.IGNORECASE)
_INT = re.compile(r"[+-]?\d+\Z")


def _lines(source: Any) -> tuple[str, Iterable[str]]:
    """``(name, lines)`` of a path (str or PathLike; ``.gz`` read through, ``-`` for stdin, a
    leading byte-order mark dropped, lines cut at ``\n`` only) or an iterable of lines."""
    if isinstance(source, (str, os.PathLike)):
        from ...io.text import read_lines

        name = os.fspath(source)
        try:
            return name, read_lines(name)
        except InvalidInputError:  # not UTF-8 (named by line), a damaged gzip file
            raise
        except OSError as e:
            raise InvalidInputError(f"{name!r}: cannot read ({e.strerror or e})") from None
        except ValueError as e:  # a NUL or a lone surrogate in the path
            raise InvalidInputError(f"{name!r}: not a usable file path ({e})") from None
    if isinstance(source, bytes) or not hasattr(source, "__iter__"):
        raise InputTypeError(f"expected a file path or an iterable of lines, got {type(source).__name__}")
    return "<lines>", source


# trec_eval cuts fields at C's isspace in the C locale: ASCII blanks only. Python's
# str.split() also cuts at a no-break space, U+2028, U+3000 and others, which would split a
# document id trec_eval keeps whole (and then count fields wrong).
_FIELD_SEPARATOR = re.compile(r"[ \t\r\n\v\f]+")


def _fields(line: str) -> list[str]:
    return [f for f in _FIELD_SEPARATOR.split(line) if f]


def read_run(source: Any) -> dict[str, dict[str, float]]:
    """``{qid: {docid: score}}`` of a TREC run file (or its lines)."""
    name, lines = _lines(source)
    run: dict[str, dict[str, float]] = {}
    for number, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise InputTypeError(f"{name}: line {number}: expected text, got {type(line).__name__}")
        fields = _fields(line)
        if not fields:
            continue
        if len(fields) < 6:
            raise InvalidInputError(f"{name}: line {number}: a run line has 6 fields (qid Q0 docid rank score tag), got {len(fields)}")
        qid, _, doc, _, score = fields[:5]  # anything after the tag is ignored, as trec_eval does
        if not _FLOAT.match(score):
            raise InvalidInputError(f"{name}: line {number}: score {score!r} is not a number")
        docs = run.setdefault(qid, {})
        if doc in docs:
            raise InvalidInputError(f"{name}: line {number}: document {doc!r} is retrieved twice for query {qid!r}")
        docs[doc] = float(score)
    return run


def read_qrels(source: Any) -> dict[str, dict[str, int]]:
    """``{qid: {docid: relevance}}`` of a TREC qrels file (or its lines)."""
    name, lines = _lines(source)
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise InputTypeError(f"{name}: line {number}: expected text, got {type(line).__name__}")
        fields = _fields(line)
        if not fields:
            continue
        if len(fields) != 4:
            raise InvalidInputError(f"{name}: line {number}: a qrels line has 4 fields (qid iteration docid relevance), got {len(fields)}")
        qid, _, doc, rel = fields
        if not _INT.match(rel):
            raise InvalidInputError(f"{name}: line {number}: relevance {rel!r} is not an integer")
        docs = qrels.setdefault(qid, {})
        if doc in docs:
            raise InvalidInputError(f"{name}: line {number}: document {doc!r} is judged twice for query {qid!r}")
        value = int(rel)
        if not -(2**63) <= value < 2**63:
            raise InvalidInputError(f"{name}: line {number}: relevance {rel} is past a 64-bit integer")
        docs[doc] = value
    return qrels
