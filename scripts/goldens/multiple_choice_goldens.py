"""Goldens for the ``multiple_choice`` metric, made by running lm-evaluation-harness 0.4.13's
own code (nothing of it is copied here):

    pip download lm_eval==0.4.13 --no-deps -d /tmp/x && cd /tmp/x && unzip lm_eval-0.4.13-*.whl -d src
    python scripts/goldens/multiple_choice_goldens.py --lm-eval-src /tmp/x/src

The functions are read from the unpacked wheel with ``ast`` and executed as they are:
``ConfigurableTask.process_results`` (``lm_eval/api/task.py``; its ``multiple_choice``
branch: argmax over the log-likelihoods, over them divided by each choice's characters and
UTF-8 bytes, and minus the unconditional ones for ``acc_mutual_info``), the ``mean``
aggregation (``lm_eval/api/metrics.py``), and ``softmax`` / ``sanitize_list`` /
``handle_non_serializable`` (``lm_eval/utils.py``, the last two as the samples logger writes
``resps``). ``process_results`` runs on a stand-in for the task object holding what that
branch reads (``OUTPUT_TYPE``, ``config.process_results``, ``_metric_fn_list``,
``multiple_input``, ``multiple_target``, ``doc_to_choice``, ``doc_to_target``).

Inputs are generated (seeded): 1 to 6 choices per document, log-likelihoods drawn from a
small pool so that ties are frequent, ``-inf`` and NaN among them, choices with non-ASCII
text (characters != bytes) and empty ones, golds as an index, a list of indices (lm-eval's
``multiple_target``), the gold choice's text, and out of range. Where lm-eval raises (a list
of several golds with ``acc_mutual_info``: numpy's ambiguous truth value) the golden keeps
the exception's name.

Writes ``tests/goldens/multiple_choice/process_results.json`` and a samples file laid out as
lm-eval's ``EvaluationTracker.save_results_samples`` writes it
(``tests/goldens/multiple_choice/samples_generated.jsonl``).
"""
from __future__ import annotations

import argparse
import ast
import json
import logging
import math
import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "goldens" / "multiple_choice"
VERSION = "0.4.13"

CHOICE_PIECES = ["A", "b", "yes", "no", " ", "é", "漢字", "Ω", "🙂", "naïve", "straße", "x" * 7, "1", "ü"]
LL_POOL = [0.0, -0.5, -1.0, -1.0, -2.25, -3.0, -7.5, -12.0, -float("inf"), -0.1, -33.3]


def _functions(src: Path) -> dict:
    """``process_results``, ``mean``, ``softmax``, ``sanitize_list`` and
    ``handle_non_serializable`` from the wheel's source, executed in one namespace."""
    wanted = {
        "lm_eval/api/task.py": ("ConfigurableTask", "process_results"),
        "lm_eval/api/metrics.py": (None, "mean"),
        "lm_eval/utils.py": (None, "softmax"),
    }
    ns: dict = {"np": np, "eval_logger": logging.getLogger("lm_eval"), "Callable": object}
    for rel, (cls, name) in wanted.items():
        text = (src / rel).read_text(encoding="utf-8")
        tree = ast.parse(text)
        body = tree.body
        if cls:
            body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
        node = next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == name)
        node.decorator_list = []
        exec(compile(ast.Module([node], []), str(src / rel), "exec"), ns)  # noqa: S102
    ut = (src / "lm_eval/utils.py").read_text(encoding="utf-8")
    for name in ("sanitize_list", "handle_non_serializable"):
        node = next(n for n in ast.parse(ut).body if isinstance(n, ast.FunctionDef) and n.name == name)
        exec(compile(ast.Module([node], []), "lm_eval/utils.py", "exec"), ns)  # noqa: S102
    ns["utils"] = SimpleNamespace(softmax=ns["softmax"])
    return ns


class TaskStandIn:
    """What ``process_results``' multiple_choice branch reads from the task."""

    OUTPUT_TYPE = "multiple_choice"

    def __init__(self, choices, gold, metrics):
        self.config = SimpleNamespace(process_results=None)
        self._metric_fn_list = {m: None for m in metrics}
        self.multiple_input = 0
        self.multiple_target = len(gold) if isinstance(gold, list) else 0
        self._choices, self._gold = choices, gold

    def doc_to_choice(self, doc):
        return list(self._choices)

    def doc_to_target(self, doc):
        return self._gold


def _doc(rng: random.Random, i: int) -> dict:
    n = rng.choice([1, 2, 2, 3, 4, 4, 4, 5, 6])
    choices = []
    for _ in range(n):
        k = rng.choice([0, 1, 1, 2, 3]) if rng.random() < 0.97 else 0
        choices.append("".join(rng.choice(CHOICE_PIECES) for _ in range(k)))
    def ll():
        r = rng.random()
        if r < 0.6:
            return rng.choice(LL_POOL)
        if r < 0.62:
            return float("nan")
        return -round(rng.expovariate(0.2), rng.choice([1, 3, 17]))
    lls = [ll() for _ in range(n)]
    unconditional = [ll() for _ in range(n)] if rng.random() < 0.6 else None
    kind = rng.random()
    if kind < 0.55:
        gold = rng.randrange(n)
    elif kind < 0.8:
        gold = sorted(rng.sample(range(n + 1), rng.randint(1, min(3, n + 1))))
        if unconditional is not None and len(gold) > 1 and rng.random() < 0.7:
            gold = gold[:1]
    elif kind < 0.92:
        gold = rng.choice(choices)
    elif kind < 0.96:
        gold = n + rng.randrange(3)
    else:
        gold = "no such choice"
    greedy = [rng.random() < 0.3 for _ in range(n)]
    return {"doc_id": i, "choices": choices, "loglikelihoods": lls, "is_greedy": greedy, "gold": gold,
            "unconditional": unconditional}


def _run(ns: dict, case: dict) -> dict:
    metrics = ["acc", "acc_norm", "acc_bytes"] + (["acc_mutual_info"] if case["unconditional"] is not None else [])
    task = TaskStandIn(case["choices"], case["gold"], metrics)
    lls = case["loglikelihoods"] + (case["unconditional"] or [])
    greedy = case["is_greedy"] + ([False] * len(case["unconditional"]) if case["unconditional"] else [])
    results = list(zip(lls, greedy))
    with np.errstate(all="ignore"):
        try:
            return ns["process_results"](task, {}, results)
        except Exception as e:  # noqa: BLE001 - the reference's own failure, kept by name
            return {"error": type(e).__name__}


def _json_float(v):
    return v if math.isfinite(v) else repr(v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lm-eval-src", required=True, type=Path, help="the unpacked lm_eval 0.4.13 wheel")
    ap.add_argument("--documents", type=int, default=600)
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # lm-eval's "Label index was not in within range" per document
    ns = _functions(args.lm_eval_src)
    rng = random.Random(20261207)
    cases = [_doc(rng, i) for i in range(args.documents)]
    out = []
    for c in cases:
        res = _run(ns, c)
        out.append({**c, "loglikelihoods": [_json_float(v) for v in c["loglikelihoods"]],
                    "unconditional": None if c["unconditional"] is None else [_json_float(v) for v in c["unconditional"]],
                    "reference": res})
    means = {}
    for m in ("acc", "acc_norm", "acc_bytes"):
        means[m] = ns["mean"]([o["reference"][m] for o in out if m in o["reference"]])
    mi = [o["reference"]["acc_mutual_info"] for o in out if "acc_mutual_info" in o["reference"]]
    means["acc_mutual_info"] = ns["mean"](mi)
    OUT.mkdir(parents=True, exist_ok=True)
    golden = {"reference": f"lm-eval {VERSION} ConfigurableTask.process_results (multiple_choice) and mean",
              "means_over_documents_without_error": means, "cases": out}
    (OUT / "process_results.json").write_text(json.dumps(golden, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    _samples_file(ns, cases)


def _samples_file(ns: dict, cases: list) -> None:
    """The generated documents as lm-eval's samples logger writes them (target delimiter " ",
    the unconditional requests after the conditional ones with an empty context)."""
    lines = []
    for c in cases[:200]:
        res = _run(ns, c)
        if "error" in res:
            continue
        args = [("Question %d?" % c["doc_id"], " " + ch) for ch in c["choices"]]
        if c["unconditional"] is not None:
            args += [("", " " + ch) for ch in c["choices"]]
        lls = c["loglikelihoods"] + (c["unconditional"] or [])
        greedy = c["is_greedy"] + ([False] * len(c["unconditional"]) if c["unconditional"] else [])
        resps = [[(ll, g)] for ll, g in zip(lls, greedy)]
        filtered = [(ll, g) for ll, g in zip(lls, greedy)]
        sample = {"doc_id": c["doc_id"], "doc": {"query": "Question %d?" % c["doc_id"], "choices": c["choices"]},
                  "target": c["gold"], "arguments": args, "resps": resps, "filtered_resps": filtered,
                  "filter": "none", "metrics": list(res)}
        sample.update(res)
        arguments = {}
        for i, arg in enumerate(sample["arguments"]):
            arguments[f"gen_args_{i}"] = {f"arg_{j}": tmp for j, tmp in enumerate(arg)}
        sample["resps"] = ns["sanitize_list"](sample["resps"])
        sample["filtered_resps"] = ns["sanitize_list"](sample["filtered_resps"])
        sample["arguments"] = arguments
        sample["target"] = str(sample["target"])
        lines.append(json.dumps(sample, default=ns["handle_non_serializable"], ensure_ascii=False) + "\n")
    (OUT / "samples_generated.jsonl").write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
