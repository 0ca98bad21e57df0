"""One argument order for every function of :mod:`nlgmetrics.classification`: scikit-learn's,
the true labels first (``y_true, y_pred`` / ``y_true, y_score`` / ``y_true, y_prob``).

torchmetrics puts the predictions first (``preds, target``). A call typed in that habit
passes scores where the labels belong; when that is detectable (the first argument has
non-integral numbers or is a probability matrix, the second holds only whole numbers) it
warns :class:`~nlgmetrics.ArgumentOrderWarning`, the class the jiwer-order trap of the text
functions uses. The call is still read in scikit-learn's order, never guessed."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._orientation import ArgumentOrderWarning


def _numeric(x: Any) -> np.ndarray | None:
    try:
        a = np.asarray(x)
    except Exception:  # ragged or odd input: the function's own checks report it
        return None
    return a if a.dtype.kind in "biuf" and a.size else None


def warn_if_scores_first(fn: str, y_true: Any, y_score: Any, score_name: str = "y_score") -> None:
    """Warn when ``y_true`` looks like scores and ``y_score`` like labels (predictions first)."""
    t, s = _numeric(y_true), _numeric(y_score)
    if t is None or s is None or t.dtype.kind != "f":
        return
    with np.errstate(invalid="ignore"):
        t_scores = t.ndim == 2 and s.ndim == 1 or bool(np.any(np.isfinite(t) & (t != np.round(t))))
        s_labels = s.dtype.kind in "biu" or bool(np.all(np.isfinite(s) & (s == np.round(s))))
    if t_scores and s_labels:
        warnings.warn(
            f"{fn}(a, b) reads a as y_true and b as {score_name} (scikit-learn's order); a looks like scores and b like "
            f"labels, the order of torchmetrics' (preds, target): pass {fn}(y_true, {score_name})",
            ArgumentOrderWarning,
            stacklevel=3,
        )
