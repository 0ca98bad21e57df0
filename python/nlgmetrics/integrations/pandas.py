"""pandas face: score the rows of a DataFrame, one column of segment scores per metric.

>>> import pandas as pd
>>> from nlgmetrics.integrations.pandas import score_frame
>>> df = pd.DataFrame({"hyp": ["the cat sat", "a dog"], "ref": ["the cat sat", "the dog"]})
>>> score_frame(df, prediction="hyp", references="ref", metrics=["chrf"]).round(2)
     chrf
0  100.00
1   31.25

Everything else in nlgmetrics accepts a Series (or a numpy array of strings) wherever a
sequence of texts is expected; this module only adds the table-shaped calls. pandas is an
optional dependency, imported when these functions run.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .._inputs import SegmentReferences, is_missing
from ..errors import InputTypeError, InvalidOptionError, MissingExtraError, NlgMetricsError
from ..metrics.base import Metric
from ._failures import located, missing_column


def _pandas():
    try:
        import pandas
    except ImportError:
        raise MissingExtraError("nlgmetrics.integrations.pandas needs pandas: pip install 'nlgmetrics[pandas]'") from None
    return pandas


def _metrics(metrics: Any) -> dict[str, Metric]:
    """Column name -> metric object, from names, metric objects or a mapping of both."""
    from ..registry import load

    if isinstance(metrics, (str, Metric)):
        metrics = [metrics]
    items: Iterable[tuple[str, Any]]
    if isinstance(metrics, Mapping):
        items = metrics.items()
    else:
        items = ((m if isinstance(m, str) else getattr(m, "name", type(m).__name__), m) for m in metrics)
    out: dict[str, Metric] = {}
    for column, m in items:
        metric = load(m) if isinstance(m, str) else m
        if not (isinstance(metric, Metric) or hasattr(metric, "sentence_scores")):
            raise InputTypeError(f"metric {column!r} must be a registered name or a Metric object, got {type(m).__name__}")
        if column in out:
            raise InvalidOptionError(f"two metrics would both write column {column!r}; pass a mapping {{column: metric}}")
        out[column] = metric
    if not out:
        raise InvalidOptionError("no metrics given")
    return out


def _column(df: Any, name: str) -> Any:
    if name not in df.columns:
        raise missing_column(name, df.columns)
    return df[name]


def _scored(part: Any, prediction: str, references: str | list[str], work: Any) -> Any:
    """``work(predictions, references)`` of the rows of ``part``; a typed error names the
    row by the frame's index label and the column it was read from."""
    preds = _column(part, prediction)
    refs = _references(part, references)
    try:
        return work(preds, refs)
    except NlgMetricsError as e:
        labels = list(part.index)
        columns = {"predictions": prediction, "references": references if isinstance(references, str) else "/".join(references)}
        raise type(e)(located(str(e), lambda i: labels[i] if i < len(labels) else i, columns)) from None


def _references(df: Any, references: str | list[str]) -> list[Any]:
    """One column (a string or a list of strings per row) or several columns (one
    reference each; missing cells are dropped, so rows may have different numbers)."""
    if isinstance(references, str):
        return list(_column(df, references))
    columns = [_column(df, c) for c in references]
    return SegmentReferences([r for r in row if not is_missing(r)] for row in zip(*columns))


def score_frame(
    df: Any,
    prediction: str = "prediction",
    references: str | list[str] = "references",
    metrics: Any = ("bleu",),
) -> Any:
    """Segment scores of every row, as a DataFrame with ``df``'s index and one column
    per metric (``df.join(score_frame(df, ...))`` puts them beside the data).

    ``metrics``: registered names (``"bleu"``, ``"chrf"``, ...), metric objects
    (``BLEU(tokenize="zh")``; the column is the metric's name) or a mapping
    ``{column: name or metric}``. ``references``: a column holding a string or a list of
    strings per row, or a list of columns.
    """
    pd = _pandas()
    chosen = _metrics(metrics)
    columns = _scored(df, prediction, references, lambda preds, refs: {name: m.sentence_scores(preds, refs) for name, m in chosen.items()})
    return pd.DataFrame(columns, index=df.index)


def corpus_frame(
    df: Any,
    prediction: str = "prediction",
    references: str | list[str] = "references",
    metrics: Any = ("bleu",),
    by: str | list[str] | None = None,
) -> Any:
    """Corpus scores as a DataFrame: one row per group of ``by`` (e.g. a system column),
    or one row for the whole frame, one column per metric."""
    pd = _pandas()
    chosen = _metrics(metrics)

    def row(part: Any) -> dict[str, float]:
        return _scored(part, prediction, references, lambda preds, refs: {name: m.corpus_score(preds, refs).score for name, m in chosen.items()})

    if by is None:
        return pd.DataFrame([row(df)])
    keys, rows = [], []
    for key, part in df.groupby(by, sort=True):
        keys.append(key)
        rows.append(row(part))
    index = pd.MultiIndex.from_tuples(keys, names=by) if isinstance(by, list) else pd.Index(keys, name=by)
    return pd.DataFrame(rows, index=index)
