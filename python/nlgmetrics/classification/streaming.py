"""Streaming ROC AUC / AP / curves and confusion counts, with mergeable states.

- :class:`ScoreTable` / :class:`ExactCurves`: exact. The state is a table of distinct
  scores with their positive and negative weight; tables merge by a sorted merge and
  memory grows with the number of distinct scores. With unit weights, every number
  (curves, ROC AUC, AP) equals scikit-learn's on the concatenated data bit for bit,
  whatever the batching or sharding.
- :class:`ScoreHistogram` / :class:`BinnedCurves`: constant memory (``2 × n_bins``
  float64). Each bin acts as one tied score. ``compute()`` reports bounds on the error
  against the exact values, derived from the histogram itself:
  ``|AUC_bin − AUC| ≤ ½ Σ_b p_b n_b / (P N)`` and, for unit weights,
  ``|AP_bin − AP| ≤ Σ_b [p_b (a_b+p_b)/(c_b+p_b) − L_b] / P`` with ``a_b``/``c_b`` the
  positives/samples ranked above bin b and ``L_b = p_b − (c_b+n_b−a_b) ln(1 + p_b/(c_b+n_b))``
  (see ``crates/nlgmetrics-core/src/classification/streaming.rs``).
- :class:`StreamingConfusion`: confusion counts over fixed labels as a
  :class:`nlgmetrics.stats.Stats` (integer counts, or exact float sums with weights);
  computes accuracy and precision / recall / F-beta with any average.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _core
from .._resources import check_allocation
from ..errors import IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError
from ..metrics.base import Score
from ..stats import Stats
from ._order import warn_if_scores_first
from ._validate import (
    as_array,
    check_length,
    encode,
    labels_1d,
    n_threads_value,
    scores_array,
    type_of_target,
    unique,
    warn,
    weights_array,
    zero_division_value,
)
from .base import MergeableState, StreamingMetric


def _empty() -> np.ndarray:
    return np.zeros(0, dtype=np.float64)


def _union_classes(a: tuple, b: tuple) -> tuple:
    """The sorted labels seen by two states; a third label is multiclass: refused."""
    try:
        union = tuple(sorted(set(a) | set(b)))
    except TypeError:
        raise InputTypeError(f"y_true mixes labels that cannot be ordered: {sorted(map(repr, set(a) | set(b)))}") from None
    if len(union) > 2:
        raise InvalidInputError(
            f"y_true holds more than two classes across the stream ({list(union)[:10]}): streaming ROC AUC / AP is "
            "binary; use roc_auc_score(..., multi_class='ovr') on the whole data, or binarize the labels"
        )
    return union


def _aligned(pos: np.ndarray, neg: np.ndarray, classes: tuple, union: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Weights as ``(weight of union[1], weight of union[0])``; a one-class state keeps its
    weight in ``neg`` until a second, greater label arrives."""
    if len(classes) == 1 and len(union) == 2 and classes[0] == union[1]:
        return neg, pos
    return pos, neg


def _oriented(pos: np.ndarray, neg: np.ndarray, classes: tuple, pos_label: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(positive, negative)`` weights for ``pos_label`` (None: the greater label, as the
    batch ``roc_auc_score``)."""
    if not classes:
        return pos, neg
    positive = classes[-1] if pos_label is None else pos_label
    if positive == classes[-1] and len(classes) == 2:
        return pos, neg
    if positive in classes:  # the smaller label, or the only one (held in neg)
        return neg, pos
    return np.zeros_like(pos), pos + neg


@dataclass(frozen=True, eq=False)
class ScoreTable(MergeableState):
    """Distinct scores (strictly decreasing) with the weight of each of the (at most two)
    labels seen: ``pos`` for ``classes[1]``, ``neg`` for ``classes[0]``."""

    scores: np.ndarray = field(default_factory=_empty)
    pos: np.ndarray = field(default_factory=_empty)
    neg: np.ndarray = field(default_factory=_empty)
    classes: tuple = ()
    # the signature of the metric that made it (None: empty, merges with any)
    key: str | None = None

    def __add__(self, other: Any) -> "ScoreTable":
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, ScoreTable):
            return NotImplemented
        union = _union_classes(self.classes, other.classes)
        a_pos, a_neg = _aligned(self.pos, self.neg, self.classes, union)
        b_pos, b_neg = _aligned(other.pos, other.neg, other.classes, union)
        key = _merged_key(self.key, other.key)
        return ScoreTable(*_core.table_merge(self.scores, a_pos, a_neg, other.scores, b_pos, b_neg), classes=union, key=key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScoreTable) and all(
            np.array_equal(a, b) for a, b in ((self.scores, other.scores), (self.pos, other.pos), (self.neg, other.neg))
        )

    def __len__(self) -> int:
        return int(self.scores.shape[0])

    @property
    def nbytes(self) -> int:
        return self.scores.nbytes + self.pos.nbytes + self.neg.nbytes


@dataclass(frozen=True, eq=False)
class ScoreHistogram(MergeableState):
    """Positive / negative weight per equal-width bin over ``[lo, hi]``."""

    lo: float
    hi: float
    pos: np.ndarray
    neg: np.ndarray
    # sample weights were given: the AP error bound assumes unit weights
    weighted: bool = False
    # the labels seen, as in ScoreTable
    classes: tuple = ()
    # the signature of the metric that made it (None: empty, merges with any)
    key: str | None = None

    @classmethod
    def empty(cls, lo: float, hi: float, n_bins: int) -> "ScoreHistogram":
        return cls(float(lo), float(hi), np.zeros(n_bins), np.zeros(n_bins))

    def __add__(self, other: Any) -> "ScoreHistogram":
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, ScoreHistogram):
            return NotImplemented
        if (self.lo, self.hi, self.pos.shape) != (other.lo, other.hi, other.pos.shape):
            raise IncompatibleStatsError(
                f"histograms over different bins cannot merge: [{self.lo}, {self.hi}]×{self.pos.size} vs [{other.lo}, {other.hi}]×{other.pos.size}"
            )
        key = _merged_key(self.key, other.key)
        union = _union_classes(self.classes, other.classes)
        a_pos, a_neg = _aligned(self.pos, self.neg, self.classes, union)
        b_pos, b_neg = _aligned(other.pos, other.neg, other.classes, union)
        return ScoreHistogram(self.lo, self.hi, a_pos + b_pos, a_neg + b_neg, self.weighted or other.weighted, union, key)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ScoreHistogram)
            and (self.lo, self.hi) == (other.lo, other.hi)
            and np.array_equal(self.pos, other.pos)
            and np.array_equal(self.neg, other.neg)
        )

    @property
    def nbytes(self) -> int:
        return self.pos.nbytes + self.neg.nbytes


def _merged_key(a: str | None, b: str | None) -> str | None:
    """The key of a sum of two states: states made by differently configured metrics
    (another ``pos_label``, ``max_fpr``, bins or range) are refused, never added."""
    if a is None or b is None or a == b:
        return b if a is None else a
    raise IncompatibleStatsError(f"states of differently configured metrics cannot be added: {a} vs {b}")


def _binary_batch(y_true: Any, y_score: Any, sample_weight: Any):
    """``(is the greater label, scores, weights, sorted labels)`` of one batch."""
    warn_if_scores_first("update", y_true, y_score, "y_score")
    yt = as_array(y_true, "y_true")
    if yt.size or yt.ndim != 1:  # an empty batch is a no-op in a stream
        if type_of_target(yt, "y_true") == "multilabel-indicator":
            raise InvalidInputError("streaming ROC AUC / AP takes 1-D binary labels, not a multilabel indicator matrix")
    yt = labels_1d(yt)
    s = scores_array(y_score)
    check_length(yt.shape[0], s.shape[0], "y_true", "y_score")
    w = weights_array(sample_weight, yt.shape[0], allow_all_zero=True)
    classes = _union_classes(tuple(unique(yt).tolist()), ())
    y = np.ascontiguousarray(yt == classes[-1]) if len(classes) == 2 else np.zeros(yt.shape[0], dtype=bool)
    return y, s, w, classes


class _CurveMetric(StreamingMetric):
    def __init__(self, *, pos_label: Any = None, max_fpr: float | None = None, n_threads: int = 0):
        if max_fpr is not None and not (isinstance(max_fpr, (int, float)) and 0 < max_fpr <= 1):
            raise InvalidOptionError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
        self.pos_label = pos_label
        self.max_fpr = max_fpr
        self.n_threads = n_threads_value(n_threads)
        super().__init__()

    def _groups(self, state: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _key(self) -> str:
        return str(self.signature())

    def _own(self, state: Any) -> Any:
        """``state``, if this metric (or one configured the same) made it."""
        if getattr(state, "key", None) not in (None, self._key()):
            raise IncompatibleStatsError(f"a state made by {state.key} cannot be scored by {self._key()}")
        return state

    def roc_curve(self, drop_intermediate: bool = True):
        """``(fpr, tpr, thresholds)`` of the accumulated state."""
        fpr, tpr, thr, no_pos, no_neg = _core.groups_roc(*self._groups(self.state), drop_intermediate)
        if no_neg:
            warn("No negative samples in y_true, false positive value should be meaningless")
        if no_pos:
            warn("No positive samples in y_true, true positive value should be meaningless")
        return fpr, tpr, thr

    def precision_recall_curve(self, drop_intermediate: bool = False):
        """``(precision, recall, thresholds)`` of the accumulated state."""
        p, r, thr, no_pos = _core.groups_pr(*self._groups(self.state), drop_intermediate)
        if no_pos:
            warn("No positive class found in y_true, recall is set to one for all thresholds.")
        return p, r, thr

    def _scores(self, state: Any) -> tuple[float, float]:
        t, p, n = self._groups(state)
        if not (p.any() and n.any()):
            warn("Only one class is present in y_true. ROC AUC score is not defined in that case.")
        return _core.groups_scores(t, p, n, self.max_fpr)


class ExactCurves(_CurveMetric):
    """Exact streaming ROC AUC, AP and curves (state: :class:`ScoreTable`).

    >>> m = ExactCurves()
    >>> _ = m.update([0, 1, 1], [0.1, 0.8, 0.4]).update([0, 1], [0.35, 0.9])
    >>> m.compute().score
    1.0
    """

    name = "roc_auc"

    def empty_state(self) -> ScoreTable:
        return ScoreTable()

    def batch_state(self, y_true: Any, y_score: Any, sample_weight: Any = None) -> ScoreTable:
        y, s, w, classes = _binary_batch(y_true, y_score, sample_weight)
        return ScoreTable(*_core.table_from_batch(y, s, w, self.n_threads), classes=classes, key=self._key())

    def _groups(self, state: ScoreTable):
        return (state.scores, *_oriented(state.pos, state.neg, state.classes, self.pos_label))

    def signature_items(self) -> dict[str, Any]:
        return {"state": "exact", "pos_label": self.pos_label, "max_fpr": self.max_fpr}

    def score_state(self, state: ScoreTable) -> Score:
        state = self._own(state)
        roc_auc, ap = self._scores(state)
        return Score("roc_auc", roc_auc, self.signature(), average_precision=ap, n_distinct_scores=len(state), state_bytes=state.nbytes)


class BinnedCurves(_CurveMetric):
    """Constant-memory streaming ROC AUC and AP with error bounds (state:
    :class:`ScoreHistogram`). Scores outside ``score_range`` are clamped into the end bins
    (the bounds stay valid); use the scores' natural range (``(0, 1)`` for probabilities)."""

    name = "roc_auc"

    def __init__(self, *, n_bins: int = 1 << 16, score_range: tuple[float, float] = (0.0, 1.0), pos_label: Any = None, max_fpr: float | None = None, n_threads: int = 0):
        if not isinstance(n_bins, int) or isinstance(n_bins, bool) or n_bins < 1:
            raise InvalidOptionError(f"n_bins must be a positive integer, got {n_bins!r}")
        check_allocation(2 * 8 * n_bins, f"a histogram of n_bins={n_bins}")
        lo, hi = (float(v) for v in score_range)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise InvalidOptionError(f"score_range must be finite with lo < hi, got {score_range!r}")
        self.n_bins, self.lo, self.hi = n_bins, lo, hi
        super().__init__(pos_label=pos_label, max_fpr=max_fpr, n_threads=n_threads)

    def empty_state(self) -> ScoreHistogram:
        return ScoreHistogram.empty(self.lo, self.hi, self.n_bins)

    def batch_state(self, y_true: Any, y_score: Any, sample_weight: Any = None) -> ScoreHistogram:
        y, s, w, classes = _binary_batch(y_true, y_score, sample_weight)
        return ScoreHistogram(self.lo, self.hi, *_core.hist_counts(self.lo, self.hi, self.n_bins, y, s, w, self.n_threads), weighted=w is not None, classes=classes, key=self._key())

    def _groups(self, state: ScoreHistogram):
        return _core.hist_groups(state.lo, state.hi, *_oriented(state.pos, state.neg, state.classes, self.pos_label))[:3]

    def signature_items(self) -> dict[str, Any]:
        return {"state": "binned", "bins": self.n_bins, "range": f"{self.lo:g}:{self.hi:g}", "pos_label": self.pos_label, "max_fpr": self.max_fpr}

    def score_state(self, state: ScoreHistogram) -> Score:
        state = self._own(state)
        _, _, _, auc_bound, ap_bound = _core.hist_groups(state.lo, state.hi, *_oriented(state.pos, state.neg, state.classes, self.pos_label))
        roc_auc, ap = self._scores(state)
        integral = np.array_equal(state.pos, np.round(state.pos)) and np.array_equal(state.neg, np.round(state.neg))
        return Score(
            "roc_auc", roc_auc, self.signature(),
            average_precision=ap,
            auc_error_bound=auc_bound if self.max_fpr is None else float("nan"),
            ap_error_bound=ap_bound if integral and not state.weighted else float("nan"),
            state_bytes=state.nbytes,
        )


class StreamingConfusion(StreamingMetric):
    """Confusion counts over fixed ``labels`` (multiclass / binary), as a
    :class:`nlgmetrics.stats.Stats` (``counts`` = the row-major matrix; with sample
    weights the cells are exact float sums). ``compute()`` gives accuracy and
    precision / recall / F-beta with ``average`` (``binary`` uses ``pos_label``)."""

    name = "confusion"

    def __init__(self, labels: Any, *, weighted: bool = False, beta: float = 1.0, average: str | None = "macro", pos_label: Any = 1, zero_division: Any = "warn", unknown_labels: str = "error"):
        if unknown_labels not in ("error", "ignore"):
            raise InvalidOptionError(f"unknown_labels must be 'error' or 'ignore', got {unknown_labels!r}")
        if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) or not (np.isfinite(beta) and beta >= 0):
            raise InvalidOptionError(f"beta must be a finite number >= 0, got {beta!r}")
        self.unknown_labels = unknown_labels
        if isinstance(labels, (str, bytes)) or labels is None:
            raise InvalidOptionError("labels must be a non-empty 1-D list of class labels")
        try:
            self.labels = np.asarray(labels)
        except ValueError:  # ragged rows
            raise InvalidOptionError("labels must be a non-empty 1-D list of class labels") from None
        if self.labels.ndim != 1 or self.labels.size == 0:
            raise InvalidOptionError("labels must be a non-empty 1-D list of class labels")
        if np.unique(self.labels).size != self.labels.size:
            raise InvalidOptionError("labels must be unique")
        if average not in (None, "binary", "micro", "macro", "weighted"):
            raise InvalidOptionError(f"average must be None, 'binary', 'micro', 'macro' or 'weighted'; got {average!r}")
        if average == "binary" and pos_label not in self.labels.tolist():
            raise InvalidOptionError(f"pos_label={pos_label!r} is not one of the labels")
        self.weighted, self.beta, self.average, self.pos_label = weighted, beta, average, pos_label
        self.zero_division = zero_division
        zero_division_value(zero_division)
        k = self.labels.size
        self._fields = tuple(f"c{i}_{j}" for i in range(k) for j in range(k))
        super().__init__()

    @property
    def key(self) -> str:
        return f"confusion|labels:{self.labels.tolist()}|weighted:{self.weighted}"

    def signature_items(self) -> dict[str, Any]:
        return {"labels": len(self.labels), "average": self.average, "beta": self.beta, "weighted": self.weighted, "unknown": self.unknown_labels}

    def empty_state(self) -> Stats:
        if self.weighted:
            return Stats.zero(self.key, (), self._fields)
        return Stats.zero(self.key, self._fields)

    def batch_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Stats:
        yt, yp = labels_1d(as_array(y_true, "y_true")), labels_1d(as_array(y_pred, "y_pred"))
        check_length(yt.shape[0], yp.shape[0], "y_true", "y_pred")
        if yt.ndim != 1 or yp.ndim != 1:
            raise InvalidInputError("StreamingConfusion takes 1-D label arrays")
        if yt.size:  # NaN, continuous values, mixed types: refused as by scikit-learn
            type_of_target(yt, "y_true")
            type_of_target(yp, "y_pred")
        k = self.labels.size
        ct, cp = encode(yt, self.labels), encode(yp, self.labels)
        if self.unknown_labels == "error":
            for name, y, codes in (("y_true", yt, ct), ("y_pred", yp, cp)):
                if (codes < 0).any():
                    i = int(np.flatnonzero(codes < 0)[0])
                    value = y[i].item() if isinstance(y[i], np.generic) else y[i]
                    raise InvalidInputError(
                        f"{name}[{i}] = {value!r} is not one of labels={self.labels.tolist()[:20]}; add it to labels, or "
                        "pass unknown_labels='ignore' to leave such samples out (as scikit-learn's labels= subset does)"
                    )
        if self.weighted:
            w = weights_array(sample_weight, yt.shape[0], allow_all_zero=True)
            w = np.ones(yt.shape[0]) if w is None else w
            keep = (ct >= 0) & (cp >= 0)
            cells = ct[keep] * k + cp[keep]
            from ..stats import exact_partials

            order = np.argsort(cells, kind="stable")
            partials = []
            bounds = np.searchsorted(cells[order], np.arange(k * k + 1))
            wk = w[keep][order]
            for c in range(k * k):
                partials.append(exact_partials(wk[bounds[c]:bounds[c + 1]].tolist()))
            return Stats(self.key, (), np.zeros(0, np.uint64), self._fields, tuple(partials), n_segments=int(yt.shape[0]))
        if sample_weight is not None:
            raise InvalidOptionError("sample weights need StreamingConfusion(weighted=True)")
        cm = _core.confusion_counts(ct, cp, k)
        return Stats(self.key, self._fields, cm.ravel().astype(np.uint64), n_segments=int(yt.shape[0]))

    def matrix(self, state: Stats | None = None) -> np.ndarray:
        state = self.state if state is None else state
        k = self.labels.size
        if self.weighted:
            return state.sums.reshape(k, k)
        return state.counts.astype(np.int64).reshape(k, k)

    def score_state(self, state: Stats) -> Score:
        if state.key != self.key:
            raise IncompatibleStatsError(f"statistics of {state.key!r} cannot be scored by {self.key!r}")
        cm = self.matrix(state).astype(np.float64)
        tp = np.ascontiguousarray(np.diag(cm))
        pred = np.ascontiguousarray(cm.sum(axis=0))
        true = np.ascontiguousarray(cm.sum(axis=1))
        zd = zero_division_value(self.zero_division)
        if self.average == "binary":
            i = self.labels.tolist().index(self.pos_label)
            tp, pred, true = tp[i:i + 1], pred[i:i + 1], true[i:i + 1]
        r = _core.prf(tp, pred, true, float(self.beta), self.average, zd, None)
        total = cm.sum()
        accuracy = float(np.trace(cm) / total) if total else float("nan")
        if self.average is None:
            return Score("f_score", float("nan"), self.signature(), precision=r["precision"], recall=r["recall"], f_score=r["fscore"], support=r["support"], accuracy=accuracy, confusion_matrix=self.matrix(state))
        p, rc, f = r["averaged"]
        return Score("f_score", f, self.signature(), precision=p, recall=rc, f_score=f, accuracy=accuracy, confusion_matrix=self.matrix(state))


__all__ = ["BinnedCurves", "ExactCurves", "ScoreHistogram", "ScoreTable", "StreamingConfusion"]
