"""Command-line options of the QA and benchmark aggregate metrics: ``pass_at_k``'s ``--pass-k``
and ``longbench_qa``'s flavour and first-line rule."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options


def _add_pass_at_k(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--pass-k", type=int, nargs="+", default=None, metavar="K", help="pass_at_k: the k values (default: 1); the score is the first")


def _collect_pass_at_k(a: argparse.Namespace) -> dict[str, Any]:
    return {"k": tuple(a.pass_k)} if a.pass_k else {}


def _add_longbench(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--longbench-flavour", default=None, choices=["en", "zh"], help="longbench_qa: qa_f1_score (en, default) or qa_f1_zh_score (zh, jieba)")
    g.add_argument("--longbench-first-line", action="store_true", help="longbench_qa: keep the prediction's first line (eval.py's rule for triviaqa)")
    g.add_argument("--longbench-dataset", default=None, choices=["narrativeqa", "qasper", "multifieldqa_en", "multifieldqa_zh", "hotpotqa", "2wikimqa", "musique", "triviaqa"],
                   help="longbench_qa: the flavour and first-line rule eval.py uses for this dataset")


def _collect_longbench(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if a.longbench_dataset is not None:
        opts["dataset"] = a.longbench_dataset
    if a.longbench_flavour is not None:
        opts["flavour"] = a.longbench_flavour
    if a.longbench_first_line:
        opts["first_line"] = True
    return opts


def _add_multiple_choice(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--mc-score", default=None,
                   choices=["acc", "acc_norm", "acc_bytes", "acc_mutual_info", "lighteval_acc", "lighteval_acc_norm",
                            "lighteval_acc_norm_nospace", "lighteval_acc_norm_token", "lighteval_acc_norm_pmi"],
                   help="multiple_choice: the headline value (default acc, lm-eval's); lighteval_* are lighteval's "
                        "(lighteval_acc_norm_token needs token counts, which a samples file has not); "
                        "the others of the same framework are in the breakdown")


def _collect_multiple_choice(a: argparse.Namespace) -> dict[str, Any]:
    return {"score": a.mc_score} if a.mc_score else {}


register_options("pass_at_k", _add_pass_at_k, _collect_pass_at_k)
register_options("longbench_qa", _add_longbench, _collect_longbench)
register_options("multiple_choice", _add_multiple_choice, _collect_multiple_choice)
