"""``nlgmetrics classify``'s options (the command runs in :mod:`.classify`): declared apart
so that ``classify --help`` and building the parser load neither numpy nor the readers."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

FORMATS = ("auto", "tsv", "jsonl")


def add_parser(sub: Any) -> None:
    c = sub.add_parser("classify", help="classification metrics (scikit-learn's numbers) from TSV/JSONL labels and scores")
    c.add_argument("-i", "--input", default="-", metavar="FILE", help="TSV (with header) or JSONL file; stdin when absent")
    c.add_argument("--input-format", choices=FORMATS, default="auto", help="input format (default: by extension; JSONL if a line starts with '{')")
    c.add_argument("--label-col", default="y_true", help="column / key of the true labels (default: y_true)")
    c.add_argument("--score-col", nargs="+", default=None, metavar="COL", help="column(s) / key of the scores (several columns = class probabilities in class order; default: y_score)")
    c.add_argument("--pred-col", default=None, help="column / key of the predicted labels (default: y_pred)")
    c.add_argument("--weight-col", default=None, help="column / key of sample weights")
    c.add_argument("--pos-label", default=None, help="positive label of a binary problem (default: 1, or the larger label)")
    c.add_argument("--average", default=None, help="average for precision/recall/F1 (default: binary for two classes, else macro)")
    c.add_argument("--multi-class", choices=["ovr", "ovo"], default=None, help="multiclass ROC AUC scheme (default: ovr)")
    c.add_argument("--max-fpr", type=float, default=None, help="partial ROC AUC up to this FPR (McClish-corrected)")
    c.add_argument("--curves", action="store_true", help="also output the ROC and precision-recall curves (JSON)")
    c.add_argument("--map-convention", choices=["sklearn", "voc11", "voc", "coco"], default=None, help="also output mAP in this convention")
    c.add_argument("--streaming", choices=["exact", "binned"], default=None, help="binary scores only: accumulate in chunks (binned = constant memory)")
    c.add_argument("--bins", type=int, default=None, help="histogram bins for --streaming binned (default: 65536)")
    c.add_argument("--score-range", nargs=2, type=float, default=None, metavar=("LO", "HI"), help="histogram range for --streaming binned (default: 0 1)")
    c.add_argument("--chunk-size", type=int, default=None, help="rows per chunk with --streaming (default: 1048576)")
    c.add_argument("-f", "--format", choices=["json", "text", "tsv"], default="text", help="output format (default: text)")
    c.add_argument("-w", "--width", type=int, default=4, help="decimal places in text/tsv output (default: 4)")
    c.add_argument("--kappa-weights", choices=["linear", "quadratic"], default=None, help="weights of Cohen's kappa between ordered classes (default: none)")
    c.add_argument("--calibration-bins", type=int, default=None, help="bins of the calibration errors (ECE, MCE) of probability scores (default: 15)")
    c.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")
