"""``nlgmetrics cmrc2018``: CMRC 2018's official evaluation (``cmrc2018_evaluate.py`` v5) from its files.

    nlgmetrics cmrc2018 cmrc2018_dev.json predictions.json

Prints the script's line, ``{"AVERAGE": "…", "F1": "…", "EM": "…", "TOTAL": n, "SKIP": k,
"FILE": "predictions.json"}``: the same keys, order and values. A question without a
prediction scores 0 and counts in ``TOTAL`` and ``SKIP``, with the script's
``Unanswered question: ID`` on stderr (as a ``nlgmetrics:`` line). ``-f json`` gives
``{"scores": <that dictionary>, "signature": ...}`` instead.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any


def add_parser(sub: Any) -> None:
    c = sub.add_parser("cmrc2018", help="CMRC 2018 F1 / EM, as the official cmrc2018_evaluate.py")
    c.add_argument("dataset_file", help="the official SQuAD-style dataset file (cmrc2018_dev.json)")
    c.add_argument("prediction_file", help="predictions JSON: {question id: answer}")
    c.add_argument("-f", "--format", choices=["official", "json"], default="official", help="official: the script's own print, byte for byte (default); json: {\"scores\": ..., \"signature\": ...}")


def run(args: argparse.Namespace, out, err) -> int:
    import json

    from ..metrics.qa.cmrc2018 import evaluate_official
    from .squad import _load

    dataset = _load(args.dataset_file, "the dataset")
    preds = _load(args.prediction_file, "the predictions")

    def warn(message: str) -> None:
        err.write(f"nlgmetrics: {message}\n")

    result = evaluate_official(dataset, preds, warn=warn)
    result["FILE"] = args.prediction_file
    if args.format == "json":  # ours: the script's dictionary and the signature (its print has no room for one)
        from .jsonout import json_text
        from .squad import signature

        out.write(json_text({"scores": result, "signature": signature("cmrc2018-evaluate-v5", tok="nltk-punkt")}, indent=2) + "\n")
        return 0
    out.write(json.dumps(result) + "\n")
    return 0
