"""``nlgmetrics squad``: the official SQuAD evaluation scripts' output from their files.

    nlgmetrics squad dev-v2.0.json predictions.json [--na-prob-file na_prob.json]   (the scripts' habit)
    nlgmetrics squad --data dev-v2.0.json --pred predictions.json [--na-prob na_prob.json]

Prints what evaluate-v1.1.py (``{"exact_match": ..., "f1": ...}``) or evaluate-v2.0.py
(indented ``exact``, ``f1``, ``total``, ``HasAns_*``, ``NoAns_*``, ``best_*``) prints: the same
keys and values. ``--out-file`` writes the v2.0 dictionary there instead (compact, as the
script), replacing an earlier result but never an input or a symbolic link's target, and
atomically (cli/outputs.py). The version is the dataset's (``--version`` overrides it). A question without a
prediction scores 0 with the script's message on stderr. ``-f json`` gives our JSON instead:
``{"scores": <the script's dictionary>, "signature": "script:squad-evaluate-v2.0|..."}`` (the
script's own print has no room for a signature).
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any


def add_parser(sub: Any) -> None:
    c = sub.add_parser("squad", help="SQuAD v1.1 / v2.0 exact match and F1, as the official evaluation scripts")
    # the official scripts' habit: `evaluate-v2.0.py data_file pred_file`; -d/-p name them too
    c.add_argument("data_file", nargs="?", default=None, metavar="DATA.json", help="SQuAD dataset JSON, as the scripts' first argument (or -d)")
    c.add_argument("pred_file", nargs="?", default=None, metavar="PRED.json", help="predictions JSON, as the scripts' second argument (or -p)")
    c.add_argument("-d", "--data", default=None, metavar="DATA.json", help="SQuAD dataset JSON (dev-v1.1.json, dev-v2.0.json)")
    c.add_argument("-p", "--pred", default=None, metavar="PRED.json", help="predictions JSON: {question id: answer text}")
    c.add_argument("-n", "--na-prob", "--na-prob-file", metavar="NA_PROB.json", help="v2.0: no-answer probabilities {question id: p} (adds the threshold search)")
    c.add_argument("-t", "--na-prob-thresh", type=float, default=1.0, help="v2.0: predict no answer above this probability (default: 1.0)")
    c.add_argument("-o", "--out-file", metavar="EVAL.json", help="write the result there instead of stdout")
    c.add_argument("-f", "--format", choices=["official", "json"], default="official", help="official: the script's own print, byte for byte (default); json: {\"scores\": ..., \"signature\": ...}")
    c.add_argument("--version", dest="squad_version", choices=["auto", "1.1", "2.0"], default="auto", help="the script to follow (default: the dataset's version)")
    c.add_argument("--n-threads", type=int, default=0, help="worker threads (0 = all cores); results do not depend on it")


def _load(path: str, what: str) -> Any:
    from ..metrics.qa.squad_totals import load_json

    return load_json(path, what)


def _files(args: argparse.Namespace) -> None:
    """The dataset and predictions from the positionals (the scripts' habit) or -d/-p,
    one way each."""
    from .guard import UsageError

    for dest, positional, flag in (("data", "data_file", "-d/--data"), ("pred", "pred_file", "-p/--pred")):
        given = getattr(args, positional)
        if given is not None and getattr(args, dest) is not None:
            raise UsageError(f"the {dest} file is given twice ({given!r} and {flag} {getattr(args, dest)!r}): give one")
        if given is not None:
            setattr(args, dest, given)
    missing = [f for d, f in (("data", "DATA.json (or -d)"), ("pred", "PRED.json (or -p)")) if getattr(args, d) is None]
    if missing:
        raise UsageError(f"give {' and '.join(missing)}: nlgmetrics squad DATA.json PRED.json [--na-prob NA_PROB.json]")


def run(args: argparse.Namespace, out, err) -> int:
    from .. import _core
    from ..metrics.qa.squad_totals import gc_paused, official_from_lists, read_files
    from .guard import UsageError

    _files(args)
    if args.na_prob_thresh != args.na_prob_thresh:
        raise UsageError("--na-prob-thresh must be a number")
    if args.out_file:  # checked before anything is read (cli/outputs.py)
        from .outputs import check_result_file

        check_result_file(args.out_file, [p for p in (args.data, args.pred, args.na_prob) if p], "--out-file")

    def warn(message: str) -> None:
        err.write(message + "\n")

    result = None
    with gc_paused():  # the core reads the regular files itself; anything else takes the general path below
        raw = read_files(args.data, args.pred, args.na_prob)  # kept until the score is made
        # per-question lists, totalled in plain Python: no numpy for a file the core reads
        got = _core.squad_files_lists(*raw, args.squad_version, args.n_threads)
        if got is not None:
            if got[0] == "1.1" and args.na_prob:
                raise UsageError("--na-prob is for SQuAD v2.0 (evaluate-v1.1.py has no no-answer probabilities)")
            result = official_from_lists(got, args.na_prob_thresh, warn)
        del raw
    if result is not None:
        version = got[0]
    else:
        version, result = _general(args, warn)
    return _write(args, version, result, out)


def _general(args: argparse.Namespace, warn: Any) -> tuple[str, Any]:
    from ..metrics.qa.squad import dataset_version, evaluate_official
    from .guard import UsageError

    dataset = _load(args.data, "the dataset")
    version = dataset_version(dataset) if args.squad_version == "auto" else args.squad_version
    if version == "1.1" and args.na_prob:
        raise UsageError("--na-prob is for SQuAD v2.0 (evaluate-v1.1.py has no no-answer probabilities)")
    preds = _load(args.pred, "the predictions")
    na = _load(args.na_prob, "the no-answer probabilities") if args.na_prob else None
    result = evaluate_official(dataset, preds, na, version=version, na_prob_thresh=args.na_prob_thresh, n_threads=args.n_threads,
                               warn=warn, names=(args.data, args.pred, args.na_prob or ""))
    return version, result


def signature(script: str, **items: Any) -> str:
    """The official script a subcommand's numbers equal, and the options that move them."""
    from ..signature import Signature

    return Signature({"script": script, **items}).format()


def _write(args: argparse.Namespace, version: str, result: Any, out: Any) -> int:
    import json

    if args.format == "json":  # ours: the script's dictionary and the signature it was made under
        from .jsonout import json_text

        items = {"na_prob": "yes" if args.na_prob else "no", "thresh": args.na_prob_thresh} if version == "2.0" else {}
        text = json_text({"scores": result, "signature": signature(f"squad-evaluate-v{version}", **items)}, indent=2)
    elif version == "1.1":
        text = json.dumps(result)
    elif args.out_file:
        text = json.dumps(result)
    else:
        text = json.dumps(result, indent=2)
    if args.out_file:  # whole or not at all (a temporary file renamed into place)
        from .outputs import atomic_write

        atomic_write(args.out_file, text.encode("utf-8"))
    else:
        out.write(text + "\n")
    return 0
