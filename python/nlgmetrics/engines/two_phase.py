"""Metrics whose weights come from the whole corpus, split into two mergeable phases.

CIDEr-D's document frequencies and NIST's information weights are functions of every
reference in the corpus. To score a corpus that arrives in pieces (chunks of a file,
partitions of a Dask collection) without holding it:

1. :func:`fit_table` on the references of each piece; tables merge with ``+``;
2. :func:`bind_table` gives the metric with that table fixed, whose statistics of any
   piece merge exactly;
3. :func:`as_corpus_total` re-keys the merged total as the corpus-mode metric's, so the
   result (value and signature) is exactly what one ``corpus_score`` call gives.

Metrics that need no table pass through unchanged (:func:`needs_table` is False).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Sequence

from ..stats import Stats


def _kind(metric: Any) -> str | None:
    from ..metrics.cider import CIDEr
    from ..metrics.nist import NIST

    if isinstance(metric, CIDEr) and metric.df is None:
        return "cider"
    if isinstance(metric, NIST) and metric.info_table is None:
        return "nist"
    return None


def needs_table(metric: Any) -> bool:
    """True when ``metric`` takes corpus-wide weights from the references it scores."""
    return _kind(metric) is not None


def fit_table(metric: Any, references: Sequence[Sequence[str]]) -> Any:
    """Phase one on one piece: a table that merges with ``+`` across pieces."""
    kind = _kind(metric)
    if kind == "cider":
        from ..metrics.cider import CiderDF

        return CiderDF.fit(references, tokenize=metric.tokenize, n=metric.n, n_threads=metric.n_threads)
    if kind == "nist":
        return metric.reference_table(references)
    return None


def bind_table(metric: Any, table: Any) -> Any:
    """A copy of ``metric`` whose corpus weights are fixed to ``table``."""
    kind = _kind(metric)
    if kind is None:
        return metric
    bound = copy.copy(metric)
    bound._state = None
    if kind == "cider":
        bound.df = table
        bound._df_digest = table.digest()
    else:
        bound.info_table = table
    return bound


def as_corpus_total(metric: Any, total: Stats) -> Stats:
    """The merged total of the bound metric, keyed as ``metric``'s own statistics."""
    if total.key == metric.key:
        return total
    return total.replace(key=metric.key)
