"""``nlgmetrics coco``: COCOEvalCap's numbers from annotation and result files.

    nlgmetrics coco --annotations captions_val2014.json --results results.json
    nlgmetrics coco -a references.jsonl -R system.tsv --per-image --format json

Text output mirrors COCOEvalCap's prints (``Bleu_1: 0.568`` ...); ``--format json``
gives ``{"eval": {...}, "n_images": N, "bleu_stats": {...}, "signature": "..."}`` (and
``"img_to_eval"`` with ``--per-image``); ``--format tsv`` one metric per line, or one image per line with
``--per-image``. METEOR and ROUGE-L appear when their scorers are registered with
``nlgmetrics.tasks.coco.register_scorer``.
"""

from __future__ import annotations

import argparse
import warnings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .jsonout import json_text


def add_parser(sub: Any) -> None:
    c = sub.add_parser("coco", help="COCO caption evaluation (BLEU-1..4, CIDEr-D) as pycocoevalcap's COCOEvalCap")
    c.add_argument("-a", "--annotations", required=True, metavar="A.json", help="COCO annotations JSON, or a references JSONL")
    c.add_argument("-R", "--results", required=True, metavar="R.json", help="COCO results JSON, or an image<TAB>caption TSV")
    c.add_argument("-f", "--format", choices=["text", "json", "tsv"], default="text", help="output format (default: text)")
    c.add_argument("--per-image", action="store_true", help="also output the per-image scores (imgToEval)")
    c.add_argument("-w", "--width", type=int, default=3, help="decimal places in text output (default: 3, as COCOEvalCap)")
    c.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")


def _signature(ev: Any) -> str:
    """The scorers of the run and the tokenization they read (COCOEvalCap's pipeline)."""
    from ..signature import Signature

    return Signature({"tool": "coco", "tok": "ptb-corenlp-3.4.1", "scorers": "+".join(ev.eval), "equals": "pycocoevalcap-1.2"}).format()


def run(args: argparse.Namespace, out, err) -> int:
    from ..tasks.coco import evaluate

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = evaluate(args.annotations, args.results, n_threads=args.n_threads)
    for w in caught:
        err.write(f"nlgmetrics: warning: {w.message}\n")
    if args.format == "json":
        doc: dict[str, Any] = {"eval": ev.eval, "n_images": len(ev.image_ids), "bleu_stats": ev.bleu_stats}
        if args.per_image:
            doc["img_to_eval"] = list(ev.img_to_eval.values())
        doc["signature"] = _signature(ev)
        out.write(json_text(doc, indent=1) + "\n")
    elif args.format == "tsv":
        if args.per_image:
            names = list(ev.eval)
            out.write("image_id\t" + "\t".join(names) + "\n")
            for img, row in ev.img_to_eval.items():
                out.write(f"{img}\t" + "\t".join(repr(row[m]) for m in names) + "\n")
        else:
            out.write("metric\tscore\n")
            for m, v in ev.eval.items():
                out.write(f"{m}\t{v!r}\n")
    else:
        for m, v in ev.eval.items():
            out.write(f"{m}: {v:.{args.width}f}\n")
        if args.per_image:
            for img, row in ev.img_to_eval.items():
                vals = " ".join(f"{m}={row[m]:.{args.width}f}" for m in ev.eval)
                out.write(f"{img}\t{vals}\n")
    return 0
