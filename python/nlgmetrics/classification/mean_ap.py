"""Mean average precision in named conventions.

``mean_average_precision(y_true, y_score, convention=...)`` with ``y_true`` a multilabel
indicator matrix (n × K), multiclass labels (binarized one-vs-rest over the classes
present, as scikit-learn does) or binary labels (K = 1), and ``y_score`` n × K:

- ``"sklearn"`` (default): the mean over classes of scikit-learn's step AP
  ``Σ_n (R_n − R_{n−1}) P_n`` (``average_precision_score(average="macro")``; a class
  without positives counts as 0).
- ``"voc11"``: PASCAL VOC2007 11-point interpolation (devkit ``voc_ap(use_07_metric=True)``):
  ``AP = Σ_{t ∈ {0, 0.1, …, 1}} max_{r ≥ t} P(r) / 11``.
- ``"voc"``: VOC2010+ all-point interpolation: monotone precision envelope, area over
  the recall change points.
- ``"coco"``: pycocotools ``COCOeval.accumulate``: monotone precision sampled at the 101
  recall thresholds ``linspace(0, 1, 101)`` (``searchsorted(side='left')``, 0 past the
  last recall), ``P = tp / (tp + fp + eps)``; mAP = the mean of all class × threshold
  samples (as ``COCOeval.summarize`` averages them).

The VOC and COCO programs rank samples one by one (tied scores are not merged; ties
keep input order, like pycocotools' stable mergesort). Classes without positives are
left out of the VOC and COCO means (COCO marks them -1) and reported as NaN.

Citations: Everingham et al., The PASCAL Visual Object Classes (VOC) Challenge, IJCV
2010; Lin et al., Microsoft COCO: Common Objects in Context, ECCV 2014.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from ..errors import InvalidInputError, InvalidOptionError
from ..metrics.base import Score
from ..signature import Signature
from ._validate import as_array, check_length, n_threads_value, scores_array, type_of_target, unique, warn
from ._order import warn_if_scores_first

CONVENTIONS = ("sklearn", "voc11", "voc", "coco")


def _targets(y_true: Any, y_score: Any) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    yt = as_array(y_true, "y_true")
    s = scores_array(y_score, ndim=(1, 2))
    check_length(yt.shape[0] if yt.ndim else 0, s.shape[0], "y_true", "y_score")
    if yt.ndim == 2:
        # a 2-D target is an indicator matrix, even with a single column
        if yt.size and not np.isin(unique(yt.ravel()), [0, 1]).all():
            raise InvalidInputError(f"a 2-D y_true must be a 0/1 indicator matrix, got values {unique(yt.ravel())[:5].tolist()}")
        y = np.ascontiguousarray(yt != 0)
        classes = list(range(yt.shape[1]))
    else:
        kind = type_of_target(yt, "y_true")
        present = unique(yt)
        if kind == "binary" and s.ndim == 1:
            pos = 1 if set(present.tolist()) <= {0, 1} else present[-1]
            y = np.ascontiguousarray((yt == pos)[:, None])
            s = s[:, None]
            classes = [pos.item() if hasattr(pos, "item") else pos]
        else:
            y = np.ascontiguousarray(yt[:, None] == present[None, :])
            classes = present.tolist()
    if s.ndim != 2 or s.shape != y.shape:
        raise InvalidInputError(f"y_score must have shape {y.shape} (samples × classes), got {s.shape}")
    return y, np.ascontiguousarray(s), classes


def mean_average_precision(y_true: Any, y_score: Any, *, convention: str = "sklearn", n_threads: int = 0) -> Score:
    """mAP in a named convention (see the module docstring). Returns a :class:`Score`
    with ``per_class`` (AP per class, NaN where undefined), ``classes`` and a signature
    naming the convention."""
    warn_if_scores_first("mean_average_precision", y_true, y_score, "y_score")
    if convention not in CONVENTIONS:
        raise InvalidOptionError(f"unknown mAP convention {convention!r}; known: {', '.join(CONVENTIONS)}")
    nt = n_threads_value(n_threads)
    y, s, classes = _targets(y_true, y_score)
    k = y.shape[1]
    if convention == "sklearn":
        if (y.sum(axis=0) == 0).any():
            warn("No positive class found in y_true, recall is set to one for all thresholds.")
        per_class = _core.column_metrics("average_precision", y, s, None, None, nt)
        value = float(np.average(per_class))
    elif convention in ("voc11", "voc"):
        per_class = np.array([_core.ranked_ap(convention, np.ascontiguousarray(y[:, j]), np.ascontiguousarray(s[:, j]), nt)[0] for j in range(k)])
        valid = per_class[~np.isnan(per_class)]
        value = float(np.mean(valid)) if valid.size else float("nan")
    else:
        samples = [_core.ranked_ap("coco", np.ascontiguousarray(y[:, j]), np.ascontiguousarray(s[:, j]), nt) for j in range(k)]
        per_class = np.array([float(np.mean(q)) if q.size else float("nan") for q in samples])
        valid = [q for q in samples if q.size]
        # COCOeval.summarize: mean over the (recall threshold, class) array, r-major.
        value = float(np.mean(np.stack(valid, axis=1).ravel())) if valid else float("nan")
    if np.isnan(value):
        warn("mean average precision is undefined: no class has a positive sample")
    sig = Signature({"metric": "map", "convention": convention, "classes": k})
    return Score("mAP", value, sig, per_class=np.asarray(per_class, dtype=np.float64), classes=classes, convention=convention)


__all__ = ["CONVENTIONS", "mean_average_precision"]
