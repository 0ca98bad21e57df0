"""``nlgmetrics classify``: classification metrics from a TSV or JSONL file.

Input (``-i FILE``, or stdin):

- TSV with a header row. ``--label-col`` (default ``y_true``) holds the labels; scores
  come from ``--score-col`` (default ``y_score``; several names for multiclass
  probabilities, in class order) and/or predictions from ``--pred-col`` (default
  ``y_pred``). Columns that are absent are simply not used.
- JSONL: one object per line with the same keys; a score may be a list (one
  probability per class) and a label a list (a multilabel 0/1 row).

Metrics: with predictions, accuracy, balanced accuracy, precision / recall / F1
(``--average``), Matthews' correlation, Cohen's kappa (``--kappa-weights``) and the
confusion matrix; with scores, ROC AUC and average precision (binary, or one-vs-rest /
one-vs-one for class probabilities), and with ``--curves`` the ROC and precision-recall
arrays; with probability scores (all in [0, 1]; for classes, one column per class, labels
0..K-1), the Brier score and the calibration errors ECE and MCE (``--calibration-bins``). ``--streaming exact|binned`` reads the file in chunks
into a mergeable state (bounded memory with ``binned``).
stdout carries data only; errors exit 1 (data) or 2 (usage) with one line on stderr.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from contextlib import ExitStack
from typing import Any, Iterator

import numpy as np

from ..errors import InvalidInputError, InvalidTextError
from ..io.text import gzip_errors, stdin_buffer
from .jsonout import json_text

from .classify_options import FORMATS, add_parser  # noqa: F401 - the parser lives apart: `classify --help` loads no numpy


# -- reading ----------------------------------------------------------------------------
_BLOCK_BYTES = 1 << 22


def _lines(path: str) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of every line, split on ``\\n`` only (a ``\\r\\n`` ending is
    dropped), strict UTF-8, a few MB at a time; ``.gz`` transparently, ``-`` for stdin."""
    with ExitStack() as stack:
        if path == "-":
            if sys.stdin is None or sys.stdin.isatty():
                raise InvalidInputError("no input: give -i FILE or pipe TSV/JSONL on stdin")
            fh: Any = stdin_buffer()
        elif path.endswith(".gz"):
            fh = stack.enter_context(gzip.open(path, "rb"))
        else:
            fh = stack.enter_context(open(path, "rb"))
        no = 0
        while True:
            with gzip_errors(path):
                block = fh.readlines(_BLOCK_BYTES)
            if not block:
                return
            for raw in block:
                no += 1
                if no == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    raise InvalidTextError(f"{path}:{no}: invalid UTF-8 at byte {e.start + 1}") from None
                if text.endswith("\n"):
                    text = text[:-1]
                yield no, text.removesuffix("\r")


def _label(v: Any) -> Any:
    if isinstance(v, str):
        s = v.strip()
        try:
            return int(s)
        except ValueError:
            return s
    return v


def _checked_label(v: Any, where: str, what: str) -> Any:
    """A class label: a non-empty string, an integer, or a finite number; never null."""
    if v is None:
        raise InvalidInputError(f"{where}: the {what} is null")
    if isinstance(v, list):
        raise InvalidInputError(f"{where}: the {what} is a list (a multilabel row goes in the label column)")
    if isinstance(v, dict):
        raise InvalidInputError(f"{where}: the {what} is an object, not a label")
    if isinstance(v, float) and not math.isfinite(v):
        raise InvalidInputError(f"{where}: the {what} is {v!r}, not a label")
    lab = _label(v)
    if isinstance(lab, str) and not lab:
        raise InvalidInputError(f"{where}: the {what} is empty")
    return lab


def _number(v: Any, where: str) -> float:
    if isinstance(v, bool):
        raise InvalidInputError(f"{where}: not a number: {v!r}")
    try:
        x = float(v)
    except (TypeError, ValueError, OverflowError):
        raise InvalidInputError(f"{where}: not a number: {str(v)[:40]!r}") from None
    if not math.isfinite(x):
        raise InvalidInputError(f"{where}: not a finite number: {str(v)[:40]!r}")
    return x


def _rows(lines: Iterator[tuple[int, str]], fmt: str, path: str) -> Iterator[dict[str, Any]]:
    """Rows as dicts. TSV fields are split on tabs with no quoting (a ``"`` is text), so
    every non-blank line after the header is exactly one row."""
    buffered: list[tuple[int, str]] = []
    first = ""
    for item in lines:
        buffered.append(item)
        if item[1].strip():
            first = item[1].lstrip()
            break
    if fmt == "auto":
        fmt = "jsonl" if path.endswith((".jsonl", ".json", ".jsonl.gz")) or first.startswith("{") else "tsv"

    def all_lines() -> Iterator[tuple[int, str]]:
        yield from buffered
        yield from lines

    if fmt == "jsonl":
        for no, line in all_lines():
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise InvalidInputError(f"{path}:{no}: invalid JSON ({e.msg})") from None
            except RecursionError:
                raise InvalidInputError(f"{path}:{no}: JSON nested too deeply") from None
            if not isinstance(obj, dict):
                raise InvalidInputError(f"{path}:{no}: each line must be a JSON object")
            obj["_line"] = no
            yield obj
        return
    header = None
    for no, line in all_lines():
        if not line.strip():
            continue
        rec = line.split("\t")
        if header is None:
            header = [h.strip() for h in rec]
            if len(set(header)) != len(header):
                raise InvalidInputError(f"{path}:{no}: the header names a column twice")
            continue
        if len(rec) != len(header):
            raise InvalidInputError(f"{path}:{no}: {len(rec)} fields but the header has {len(header)}")
        row: dict[str, Any] = dict(zip(header, rec))
        row["_line"] = no
        yield row


def _multilabel(v: list[Any], where: str) -> list[int]:
    """A multilabel row: 0/1 integers."""
    row = [_number(x, where) for x in v]
    if not row or any(x not in (0.0, 1.0) for x in row):
        raise InvalidInputError(f"{where}: a multilabel row must be a non-empty list of 0/1 values")
    return [int(x) for x in row]


class _Columns:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.labels: list[Any] = []
        self.scores: list[Any] = []
        self.preds: list[Any] = []
        self.weights: list[float] = []
        self.has_scores = self.has_preds = self.has_weights = None

    def add(self, row: dict[str, Any], path: str) -> None:
        a = self.args
        where = f"{path}:{row['_line']}"
        if a.label_col not in row:
            raise InvalidInputError(f"{where}: no {a.label_col!r} column/key (use --label-col)")
        lab = row[a.label_col]
        self.labels.append(_multilabel(lab, where) if isinstance(lab, list) else _checked_label(lab, where, f"label ({a.label_col})"))
        cols = a.score_col
        has_s = all(c in row for c in cols)
        has_p = a.pred_col in row
        has_w = a.weight_col is not None and a.weight_col in row
        if self.has_scores is None:
            self.has_scores, self.has_preds, self.has_weights = has_s, has_p, has_w
            if not (has_s or has_p):
                raise InvalidInputError(f"{where}: neither score column(s) {cols} nor prediction column {a.pred_col!r} found")
            # a column named on the command line must be there (never silently unused)
            given = getattr(a, "_given", set())
            if "score_col" in given and not has_s:
                raise InvalidInputError(f"{where}: no score column(s) {[c for c in cols if c not in row]} (--score-col)")
            if "pred_col" in given and not has_p:
                raise InvalidInputError(f"{where}: no {a.pred_col!r} column/key (--pred-col)")
            if a.weight_col is not None and not has_w:
                raise InvalidInputError(f"{where}: no {a.weight_col!r} column/key (--weight-col)")
        elif (has_s, has_p, has_w) != (self.has_scores, self.has_preds, self.has_weights):
            raise InvalidInputError(f"{where}: the row has different columns/keys than the first row")
        if has_s:
            if len(cols) == 1:
                v = row[cols[0]]
                self.scores.append([_number(x, where) for x in v] if isinstance(v, list) else _number(v, where))
            else:
                self.scores.append([_number(row[c], where) for c in cols])
        if has_p:
            pred = row[a.pred_col]
            self.preds.append(_multilabel(pred, where) if isinstance(pred, list) else _checked_label(pred, where, f"prediction ({a.pred_col})"))
        if has_w:
            weight = _number(row[a.weight_col], where)
            if weight < 0:
                raise InvalidInputError(f"{where}: sample weight {weight!r} is negative")
            self.weights.append(weight)

    def clear(self) -> None:
        self.labels, self.scores, self.preds, self.weights = [], [], [], []


def _array(values: list[Any], what: str) -> np.ndarray:
    try:
        return np.asarray(values)
    except ValueError:
        raise InvalidInputError(f"{what}: rows have different lengths") from None


# -- scoring ----------------------------------------------------------------------------
def _pos_label(args: argparse.Namespace, y: np.ndarray) -> Any:
    if args.pos_label is not None:
        return _label(args.pos_label)
    u = np.unique(y)
    return 1 if set(u.tolist()) <= {0, 1} or 1 in u.tolist() else u[-1].item() if hasattr(u[-1], "item") else u[-1]


def _metrics(args: argparse.Namespace, y: np.ndarray, s: np.ndarray | None, p: np.ndarray | None, w: np.ndarray | None) -> dict[str, Any]:
    from .. import classification as C

    nt = args.n_threads
    out: dict[str, Any] = {"n_samples": int(y.shape[0])}
    multilabel = y.ndim == 2
    n_classes = y.shape[1] if multilabel else len(np.unique(y))
    _check_applies(args, y, s, p, w, n_classes)
    if p is not None:
        avg = args.average or ("binary" if n_classes <= 2 and not multilabel else "macro")
        kw: dict[str, Any] = {"average": avg, "sample_weight": w}
        if avg == "binary":
            kw["pos_label"] = _pos_label(args, y)
        pr, rc, f1, _ = C.precision_recall_fscore_support(y, p, **kw)
        out.update(accuracy=C.accuracy_score(y, p, sample_weight=w), precision=pr, recall=rc, f1=f1, average=avg)
        if not multilabel:
            out["balanced_accuracy"] = C.balanced_accuracy_score(y, p, sample_weight=w)
            cm = C.confusion_matrix(y, p, sample_weight=w)
            out["mcc"] = C.mcc_from_confusion(cm)
            out["cohen_kappa"] = C.kappa_from_confusion(cm, weights=args.kappa_weights)
            out["confusion_matrix"] = cm.tolist()
    if s is not None:
        if s.ndim == 1:
            pos = _pos_label(args, y)
            yb = (y == pos).astype(np.int64)
            out["roc_auc"] = C.roc_auc_score(yb, s, sample_weight=w, max_fpr=args.max_fpr, n_threads=nt)
            out["average_precision"] = C.average_precision_score(yb, s, sample_weight=w, n_threads=nt)
            if args.curves:
                fpr, tpr, thr = C.roc_curve(yb, s, sample_weight=w, n_threads=nt)
                prec, rec, pthr = C.precision_recall_curve(yb, s, sample_weight=w, n_threads=nt)
                out["roc_curve"] = {"fpr": fpr.tolist(), "tpr": tpr.tolist(), "thresholds": [t if np.isfinite(t) else "inf" for t in thr.tolist()]}
                out["pr_curve"] = {"precision": prec.tolist(), "recall": rec.tolist(), "thresholds": pthr.tolist()}
        elif multilabel:
            out["roc_auc"] = C.roc_auc_score(y, s, sample_weight=w, average=args.average or "macro", n_threads=nt)
            out["average_precision"] = C.average_precision_score(y, s, sample_weight=w, average=args.average or "macro", n_threads=nt)
        else:
            avg = args.average if args.average in ("macro", "weighted") else "macro"
            out["roc_auc"] = C.roc_auc_score(y, s, multi_class=args.multi_class or "ovr", average=avg, sample_weight=w, n_threads=nt)
            out["average_precision"] = C.average_precision_score(y, s, average=avg, sample_weight=w, n_threads=nt)
        out.update(_calibration(args, y, s, w, n_classes))
        if args.map_convention:
            out[f"map_{args.map_convention}"] = C.mean_average_precision(y, s, convention=args.map_convention, n_threads=nt).score
    return out


def _given(args: argparse.Namespace) -> set[str]:
    """The options this command line set (their parser defaults are ``None``)."""
    return {d for d in ("score_col", "pred_col", "pos_label", "average", "multi_class", "max_fpr", "weight_col") if getattr(args, d) is not None} | (
        {"curves"} if args.curves else set()) | ({"map_convention"} if args.map_convention else set())


def _check_applies(args: argparse.Namespace, y: np.ndarray, s: np.ndarray | None, p: np.ndarray | None, w: np.ndarray | None, n_classes: int) -> None:
    """Refuse what the data makes unused or unscorable instead of printing a number that
    ignored it: options (usage errors, status 2) and label/score shapes (data errors, 1)."""
    from .guard import UsageError

    given = args._given
    multilabel = y.ndim == 2
    binary_scores = s is not None and s.ndim == 1
    multiclass_scores = s is not None and s.ndim == 2 and not multilabel
    if binary_scores and not multilabel and n_classes > 2:
        # roc_auc_score / average_precision_score refuse this too (as scikit-learn does)
        raise InvalidInputError(
            f"the labels have {n_classes} classes but there is one score column: ROC AUC and average precision "
            "of several classes need one score column per class (--score-col C1 C2 ...)"
        )
    avg = args.average or ("binary" if n_classes <= 2 and not multilabel else "macro")

    def refuse(option: str, needs: str) -> None:
        raise UsageError(f"{option} only applies with {needs}")

    if "multi_class" in given and not multiclass_scores:
        refuse("--multi-class", "multiclass scores (one score column per class)")
    if args.multi_class == "ovo" and w is not None:
        refuse("--weight-col", "--multi-class ovr (one-vs-one ROC AUC takes no sample weights)")
    if "max_fpr" in given and not binary_scores:
        refuse("--max-fpr", "binary scores (one score column)")
    if "curves" in given and not binary_scores:
        refuse("--curves", "binary scores (one score column)")
    if "map_convention" in given and s is None:
        refuse("--map-convention", "scores")
    if "average" in given and p is None and not (multilabel and s is not None) and not (multiclass_scores and args.average in ("macro", "weighted")):
        refuse("--average", "predictions (--pred-col), multilabel scores, or multiclass scores (macro or weighted)")
    if "pos_label" in given and not (binary_scores or (p is not None and avg == "binary")):
        refuse("--pos-label", "binary scores or binary-averaged predictions")
    if args.kappa_weights is not None and (p is None or multilabel):
        refuse("--kappa-weights", "binary or multiclass predictions (--pred-col)")
    if args.calibration_bins is not None:
        probs = s is not None and not multilabel and s.size and s.min() >= 0 and s.max() <= 1
        if probs and multiclass_scores:
            probs = y.dtype.kind in "iu" and y.min() >= 0 and y.max() < s.shape[1]
        if not probs:
            refuse("--calibration-bins", "probability scores in [0, 1] (for classes: one column per class, labels 0..K-1)")


def _calibration(args: argparse.Namespace, y: np.ndarray, s: np.ndarray, w: np.ndarray | None, n_classes: int) -> dict[str, Any]:
    """Brier score, ECE and MCE of probability scores (``{}`` for other scores)."""
    from .. import classification as C

    bins = args.calibration_bins or 15
    if y.ndim != 1 or not s.size or s.min() < 0 or s.max() > 1:
        return {}
    if s.ndim == 1:
        pos = _pos_label(args, y)
        yb = (y == pos).astype(np.int64)
        return {
            "brier": C.brier_score_loss(yb, s, sample_weight=w),
            "ece": C.binary_calibration_error(yb, s, n_bins=bins, norm="l1"),
            "mce": C.binary_calibration_error(yb, s, n_bins=bins, norm="max"),
        }
    k = s.shape[1]
    if y.dtype.kind not in "iu" or y.min() < 0 or y.max() >= k:
        return {}
    return {
        "brier": C.brier_score_loss(y, s, sample_weight=w, labels=list(range(k))),
        "ece": C.multiclass_calibration_error(y, s, num_classes=k, n_bins=bins, norm="l1"),
        "mce": C.multiclass_calibration_error(y, s, num_classes=k, n_bins=bins, norm="max"),
    }


def _stream(args: argparse.Namespace, rows: Iterator[dict[str, Any]], path: str) -> dict[str, Any]:
    from .. import classification as C

    if args.streaming == "exact":
        metric: Any = C.ExactCurves(pos_label=1, max_fpr=args.max_fpr, n_threads=args.n_threads)
    else:
        metric = C.BinnedCurves(n_bins=args.bins, score_range=tuple(args.score_range), pos_label=1, max_fpr=args.max_fpr, n_threads=args.n_threads)
    cols = _Columns(args)
    n = 0
    pos_label = _label(args.pos_label) if args.pos_label is not None else 1
    seen: set[Any] = set()

    def flush() -> None:
        nonlocal n
        if not cols.labels:
            return
        if not cols.has_scores:
            raise InvalidInputError("--streaming needs a score column")
        labels = _array(cols.labels, "labels")
        if labels.ndim != 1:
            raise InvalidInputError("--streaming takes one binary label per row")
        seen.update(np.unique(labels).tolist())
        if len(seen) > 2:
            raise InvalidInputError(
                f"--streaming scores binary labels, but the labels have {len(seen)} classes so far "
                f"({', '.join(map(repr, sorted(seen, key=str)[:5]))}): binarize them first"
            )
        y = (labels == pos_label).astype(np.int64)
        s = _array(cols.scores, "scores")
        if s.ndim != 1:
            raise InvalidInputError("--streaming takes one binary score per row")
        metric.update(y, s, np.asarray(cols.weights) if cols.has_weights else None)
        n += len(cols.labels)
        cols.clear()

    for row in rows:
        cols.add(row, path)
        if len(cols.labels) >= args.chunk_size:
            flush()
    flush()
    r = metric.compute()
    out = {"n_samples": n, "roc_auc": r.score, "average_precision": r.average_precision, "state": args.streaming, "state_bytes": r.state_bytes}
    if args.streaming == "binned":
        out.update(auc_error_bound=r.auc_error_bound, ap_error_bound=r.ap_error_bound, bins=args.bins)
    return out


def _signature(args: argparse.Namespace) -> str:
    """What moves the numbers of one ``classify`` run, and the scikit-learn they equal."""
    from ..signature import Signature

    items = {"tool": "classify", "average": args.average, "pos_label": args.pos_label, "multi_class": args.multi_class,
             "max_fpr": args.max_fpr, "kappa": args.kappa_weights, "calibration_bins": args.calibration_bins,
             "map": args.map_convention, "streaming": args.streaming, "bins": args.bins if args.streaming == "binned" else None, "equals": "scikit-learn-1.9.1"}
    return Signature(items).format()


def _emit(args: argparse.Namespace, res: dict[str, Any], out: Any) -> None:
    if args.format == "json":
        out.write(json_text({**res, "signature": _signature(args)}) + "\n")
        return
    scalars = {k: v for k, v in res.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if args.format == "tsv":
        out.write("metric\tvalue\n")
        for k, v in scalars.items():
            out.write(f"{k}\t{v:.{args.width}f}\n" if isinstance(v, float) else f"{k}\t{v}\n")
        return
    for k, v in scalars.items():
        out.write(f"{k} = {v:.{args.width}f}\n" if isinstance(v, float) else f"{k} = {v}\n")
    if "confusion_matrix" in res:
        out.write("confusion_matrix =\n")
        for row in res["confusion_matrix"]:
            out.write("  " + " ".join(str(x) for x in row) + "\n")


def _defaults(args: argparse.Namespace) -> None:
    """Fill in the defaults left ``None`` by the parser (so that a value given on the
    command line is told apart from the default, even when equal to it)."""
    args._given = _given(args)
    if args.score_col is None:
        args.score_col = ["y_score"]
    if args.pred_col is None:
        args.pred_col = "y_pred"
    if args.bins is None:
        args.bins = 1 << 16
    if args.score_range is None:
        args.score_range = [0.0, 1.0]
    if args.chunk_size is None:
        args.chunk_size = 1 << 20


def run(args: argparse.Namespace, out: Any) -> int:
    _defaults(args)
    rows = _rows(_lines(args.input), args.input_format, args.input)
    if args.streaming:
        res = _stream(args, rows, args.input)
    else:
        cols = _Columns(args)
        for row in rows:
            cols.add(row, args.input)
        if not cols.labels:
            raise InvalidInputError(f"{args.input}: no data rows")
        y = _array(cols.labels, "labels")
        s = _array(cols.scores, "scores") if cols.has_scores else None
        p = _array(cols.preds, "predictions") if cols.has_preds else None
        w = np.asarray(cols.weights) if cols.has_weights else None
        res = _metrics(args, y, s, p, w)
    _emit(args, res, out)
    return 0
