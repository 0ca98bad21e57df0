"""``nlgmetrics score`` for metrics that also read the input table (PARENT).

Their input is ``--jsonl`` with one object per segment: ``"prediction"``,
``"references"`` and ``"table"`` (a list of ``[attribute, value]`` or ``[head, relation,
tail]`` records, an ``{attribute: value}`` object, or an E2E meaning representation
string). Results have the same shape as every other metric's.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from ..errors import InvalidOptionError, NlgMetricsError
from ..io.text import check_record, read_lines


def needs_tables(metric: Any) -> bool:
    return bool(getattr(metric, "needs_tables", False))


def read_tables(path: str, lines: list[str] | None = None) -> list[Any]:
    """The ``"table"`` of every non-blank line of a JSON-lines file (of ``lines``, the
    file's lines as already read, when given)."""
    import json

    tables = []
    for lineno, line in enumerate(read_lines(path) if lines is None else lines, 1):
        if not line.strip():
            continue
        obj = json.loads(line)  # already validated by the prediction/reference reader
        if not isinstance(obj, dict) or "table" not in obj:
            raise NlgMetricsError(f'{path}:{lineno}: this metric needs a "table" in every line')
        check_record(line, obj, f"{path}:{lineno}")
        tables.append(obj["table"])
    return tables


def score(metric: Any, sys_name: str, hyps: list[str], refs: list[list[str]], args: argparse.Namespace, lines: list[str] | None = None) -> list[dict[str, Any]]:
    """``metric``'s results on the ``--jsonl`` input; ``lines``: that file's lines as
    already read (else it is read again)."""
    if not args.jsonl:
        raise InvalidOptionError(f'{metric.name} needs the input tables: give --jsonl with "prediction", "references" and "table"')
    if getattr(args, "confidence", False):
        raise InvalidOptionError(f"--confidence is not available for {metric.name}")
    tables = read_tables(args.jsonl, lines)
    if args.sentence_level:
        scores = metric.sentence_scores(hyps, refs, tables)
        sig = metric.signature(metric.stats(hyps[:1], refs[:1], tables[:1]).total()).format(short=args.short) if hyps else ""
        return [{"system": sys_name, "segment": i + 1, "metric": metric.name, "score": float(v), "signature": sig}
                for i, v in enumerate(scores)]
    s = metric.corpus_score(hyps, refs, tables)
    d = s.to_dict()
    d["system"] = sys_name
    d["signature"] = s.signature.format(short=args.short)
    d["_text"] = s.format(width=args.width, score_only=args.score_only)
    return [d]
