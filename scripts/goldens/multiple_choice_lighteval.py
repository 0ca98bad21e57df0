"""Goldens for ``multiple_choice``'s lighteval scores, made by running lighteval 0.13.0's own
code (nothing of it is copied here):

    pip download lighteval==0.13.0 --no-deps -d /tmp/x && cd /tmp/x && unzip lighteval-0.13.0-*.whl -d src
    python scripts/goldens/multiple_choice_lighteval.py --lighteval-src /tmp/x/src

The functions are read from the unpacked wheel with ``ast`` and executed as they are (the
modules themselves import torch, transformers and nltk, which these functions never touch):
``LogProbPMINorm``, ``LogProbTokenNorm``, ``LogProbCharNorm`` and ``normalize_log_probs``
(``lighteval/metrics/normalizations.py``), ``LoglikelihoodAcc`` (``metrics/metrics_sample.py``)
and ``as_list`` (``utils/utils.py``). ``LoglikelihoodAcc.compute`` runs on stand-ins for
``Doc`` (``choices``, ``gold_index``) and ``ModelResponse`` (``logprobs``: the conditional
log-likelihoods as Python floats, then the unconditional ones for PMI, as lighteval's models
return them; ``output_tokens``: one list of token ids per choice, of the generated count).
Its corpus aggregation is ``np.mean`` of the per-document ints.

Inputs are generated (seeded): 1 to 6 choices, most with lighteval's leading space (``" A"``),
some empty, some one space, some non-ASCII; log-likelihoods from a small pool so that ties are
frequent, with ``-inf``, ``inf`` and NaN; token counts 0 to 5; golds as an index, a list or
tuple of indices (several golds), empty, negative and out of range. Where lighteval raises
(a zero divisor, ``choice[0]`` of an empty choice, PMI without unconditional log-likelihoods)
the golden keeps the exception's name.

Writes ``tests/goldens/multiple_choice/lighteval.json``.
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "goldens" / "multiple_choice" / "lighteval.json"
VERSION = "0.13.0"

PIECES = ["A", "b", "yes", "no", " ", "é", "漢字", "Ω", "🙂", "naïve", "x" * 7, "1", "\u00a0"]
LL_POOL = [0.0, -0.5, -1.0, -1.0, -2.25, -3.0, -7.5, -12.0, -float("inf"), -0.1, -33.3, -2.0, -4.0]
# name -> the normalisation passed to LoglikelihoodAcc (built from lighteval's own classes)
SCORES = {"lighteval_acc": None, "lighteval_acc_norm": ("LogProbCharNorm", {}),
          "lighteval_acc_norm_nospace": ("LogProbCharNorm", {"ignore_first_space": True}),
          "lighteval_acc_norm_token": ("LogProbTokenNorm", {}), "lighteval_acc_norm_pmi": ("LogProbPMINorm", {})}


def _functions(src: Path) -> dict:
    wanted = {
        "lighteval/metrics/normalizations.py": ("LogProbPMINorm", "LogProbTokenNorm", "LogProbCharNorm", "normalize_log_probs"),
        "lighteval/utils/utils.py": ("as_list",),
        "lighteval/metrics/metrics_sample.py": ("LoglikelihoodAcc",),
    }
    ns: dict = {"np": np, "dataclass": dataclass, "SampleLevelComputation": object, "Doc": object, "ModelResponse": object}
    for rel, names in wanted.items():
        tree = ast.parse((src / rel).read_text(encoding="utf-8"))
        for name in names:
            node = next(n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == name)
            if name == "LogProbCharNorm":  # the union alias follows it in the module
                exec(compile(ast.Module([node], []), str(src / rel), "exec"), ns)  # noqa: S102
                ns["LogProbNormalization"] = ns["LogProbCharNorm"] | ns["LogProbTokenNorm"] | ns["LogProbPMINorm"]
                continue
            exec(compile(ast.Module([node], []), str(src / rel), "exec"), ns)  # noqa: S102
    return ns


def _choice(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.04:
        return ""
    if r < 0.07:
        return " "
    body = "".join(rng.choice(PIECES) for _ in range(rng.choice([1, 1, 2, 3])))
    return (" " + body) if rng.random() < 0.75 else body


def _doc(rng: random.Random, i: int) -> dict:
    n = rng.choice([1, 2, 2, 3, 4, 4, 4, 5, 6])
    choices = [_choice(rng) for _ in range(n)]

    def ll() -> float:
        r = rng.random()
        if r < 0.6:
            return rng.choice(LL_POOL)
        if r < 0.62:
            return float("nan")
        if r < 0.63:
            return float("inf")
        return -round(rng.expovariate(0.2), rng.choice([1, 3, 17]))

    lls = [ll() for _ in range(n)]
    unconditional = [ll() for _ in range(n)] if rng.random() < 0.6 else None
    tokens = [rng.choice([1, 1, 1, 2, 2, 3, 5]) if rng.random() > 0.03 else 0 for _ in range(n)]
    kind = rng.random()
    if kind < 0.55:
        gold = rng.randrange(n)
    elif kind < 0.8:
        gold = sorted(rng.sample(range(n + 1), rng.randint(1, min(3, n + 1))))
    elif kind < 0.87:
        gold = {"tuple": tuple(sorted(rng.sample(range(n), min(2, n))))}
    elif kind < 0.92:
        gold = []
    elif kind < 0.96:
        gold = n + rng.randrange(3)
    else:
        gold = -1 - rng.randrange(2)
    return {"doc_id": i, "choices": choices, "loglikelihoods": lls, "unconditional": unconditional,
            "token_counts": tokens, "gold": gold}


def _run(ns: dict, case: dict) -> dict:
    gold = case["gold"]
    gold = tuple(gold["tuple"]) if isinstance(gold, dict) else gold
    doc = SimpleNamespace(choices=case["choices"], gold_index=gold)
    response = SimpleNamespace(logprobs=case["loglikelihoods"] + (case["unconditional"] or []),
                               output_tokens=[[7] * t for t in case["token_counts"]])
    out = {}
    for name, norm in SCORES.items():
        metric = ns["LoglikelihoodAcc"](logprob_normalization=None if norm is None else ns[norm[0]](**norm[1]))
        try:
            out[name] = metric.compute(doc, response)
        except Exception as e:  # noqa: BLE001 - the reference's own failure, kept by name
            out[name] = {"error": type(e).__name__}
    return out


def _json_float(v: float):
    return v if math.isfinite(v) else repr(v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lighteval-src", required=True, type=Path, help="the unpacked lighteval 0.13.0 wheel")
    ap.add_argument("--documents", type=int, default=800)
    args = ap.parse_args()
    ns = _functions(args.lighteval_src)
    rng = random.Random(20261207)
    cases = [_doc(rng, i) for i in range(args.documents)]
    out = []
    for c in cases:
        out.append({**c, "loglikelihoods": [_json_float(v) for v in c["loglikelihoods"]],
                    "unconditional": None if c["unconditional"] is None else [_json_float(v) for v in c["unconditional"]],
                    "reference": _run(ns, c)})
    means = {}
    for name in SCORES:  # lighteval's corpus_level_fn over the documents where it has a number
        values = [o["reference"][name] for o in out if isinstance(o["reference"][name], int)]
        means[name] = {"documents": len(values), "mean": float(np.mean(values))}
    golden = {"reference": f"lighteval {VERSION} LoglikelihoodAcc.compute with normalize_log_probs, np.mean",
              "means_over_documents_without_error": means, "cases": out}
    OUT.write_text(json.dumps(golden, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
