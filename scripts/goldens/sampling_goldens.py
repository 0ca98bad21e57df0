"""Regenerate tests/goldens/sampling/sampling.json by RUNNING the reference programs of the
repeated-sampling aggregates on generated inputs (ties, all / none correct, k = n, k > n).

    pip download lighteval==0.13.0 lm-eval==0.4.13 --no-deps -d /tmp/x   # unzip both wheels
    python scripts/goldens/sampling_goldens.py \\
        --lighteval /tmp/x/lighteval_whl --lm-eval /tmp/x/lmeval_whl \\
        --tau-bench PATH/tau_bench/run.py --nemo-skills PATH/nemo_skills/evaluation/metrics/base.py

Only the functions that compute the numbers are loaded from those files (by name, with
stubs for their heavy imports); nothing is installed. lighteval: ``AvgAtN``, ``MajAtN``,
``GPassAtK`` (metrics_sample.py) with ``np.mean`` as the corpus aggregation; lm-eval:
``take_first_k`` + ``majority_vote`` filters (filters/selection.py), then the gold compared
with ``==`` and lm-eval's ``mean``; tau-bench: ``display_metrics`` (its printed pass^k);
nemo-skills: ``BaseMetrics.get_majority_at_k``, the sum divided by the number of problems.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import inspect
import io
import json
import logging
import random
import sys
import types
from collections import defaultdict
from pathlib import Path
from typing import Callable, Union

import numpy as np


def load(path: Path, names: set[str], namespace: dict) -> dict:
    """Execute only the top-level functions / classes ``names`` of ``path`` in ``namespace``."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    body = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    missing = names - {n.name for n in body}
    if missing:
        raise SystemExit(f"{path}: no {sorted(missing)}")
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), namespace)
    return namespace


# -- lighteval 0.13 ---------------------------------------------------------------------------
class Doc:
    def __init__(self, choices, query="", gold_index=0, **_):
        self.choices, self.query, self.gold_index = choices, query, gold_index

    def get_golds(self):
        idx = self.gold_index if isinstance(self.gold_index, list) else [self.gold_index]
        return [self.choices[i] for i in idx]


class ModelResponse:
    def __init__(self, text=None, **_):
        self.text = text or []

    @property
    def final_text(self):
        return self.text


def as_list(item):
    if isinstance(item, list):
        return item
    if isinstance(item, tuple):
        return list(item)
    return [item]


def lighteval(root: Path) -> dict:
    from scipy.stats import hypergeom

    ns = {"np": np, "hypergeom": hypergeom, "Doc": Doc, "ModelResponse": ModelResponse, "as_list": as_list,
          "SampleLevelComputation": type("SampleLevelComputation", (), {}), "Callable": Callable, "Union": Union, "inspect": inspect,
          "logger": logging.getLogger("lighteval-golden")}
    return load(root / "lighteval/metrics/metrics_sample.py", {"SamplingMetric", "AvgAtN", "MajAtN", "GPassAtK"}, ns)


def lighteval_avg(L, rows, k):
    metric = L["AvgAtN"](n=k, sample_scoring_function=lambda doc, score: score)
    per = [metric.compute(Doc(choices=[""]), row) for row in rows]
    return float(np.mean(per))


def lighteval_maj(L, answers, golds, k):
    metric = L["MajAtN"](n=k)
    per = [metric.compute(Doc(choices=[g], gold_index=0), ModelResponse(text=list(a))) for a, g in zip(answers, golds)]
    return float(np.mean(per))


def lighteval_g_pass(L, ns, cs, ks, thresholds):
    metric = L["GPassAtK"](k=ks, thresholds=thresholds)
    per = []
    for n, c in zip(ns, cs):
        metric.n = n  # lighteval keeps one n (the first document's); each problem its own here
        per.append(metric.g_pass_at_k([1] * c + [0] * (n - c)))
    return {name: float(np.mean([p[name] for p in per])) for name in per[0]}


# -- lm-eval 0.4.13 -----------------------------------------------------------------------------
def lm_eval(root: Path) -> dict:
    filt = types.ModuleType("lm_eval.api.filter")

    class Filter:
        def __init__(self, **kwargs):
            pass

    filt.Filter = Filter
    reg = types.ModuleType("lm_eval.api.registry")
    reg.register_filter = lambda name: (lambda cls: cls)
    for name, mod in (("lm_eval", types.ModuleType("lm_eval")), ("lm_eval.api", types.ModuleType("lm_eval.api")),
                      ("lm_eval.api.filter", filt), ("lm_eval.api.registry", reg)):
        sys.modules.setdefault(name, mod)
    from collections import Counter
    return load(root / "lm_eval/filters/selection.py", {"TakeKFilter", "MajorityVoteFilter"},
                {"Counter": Counter, "Filter": Filter, "register_filter": reg.register_filter})


def lm_eval_maj(E, answers, golds, k):
    resps = E["TakeKFilter"](k=k).apply(answers, None)
    votes = [r[0] for r in E["MajorityVoteFilter"]().apply(resps, None)]
    per = [1.0 if v == g else 0.0 for v, g in zip(votes, golds)]
    return sum(per) / len(per)  # lm-eval's `mean` aggregation


# -- tau-bench, nemo-skills -------------------------------------------------------------------
def tau_bench(path: Path):
    types_mod = types.ModuleType("tau_bench.types")
    types_mod.REWARD_SUCCESS_MIN, types_mod.REWARD_SUCCESS_MAX = 1 - 1e-6, 1 + 1e-6
    sys.modules.setdefault("tau_bench", types.ModuleType("tau_bench"))
    sys.modules["tau_bench.types"] = types_mod
    from math import comb
    return load(path, {"display_metrics"}, {"comb": comb, "List": list, "EnvRunResult": object})["display_metrics"]


def tau_pass_hat(display_metrics, n, cs):
    results = [types.SimpleNamespace(task_id=t, trial=j, reward=1.0 if j < c else 0.0)
               for j in range(n) for t, c in enumerate(cs)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        display_metrics(results)
    lines = [ln.strip() for ln in out.getvalue().splitlines() if ln.strip().startswith("k=")]
    return {int(ln[2:ln.index(":")]): float(ln.split(": ")[1]) for ln in lines}


def nemo_maj(path: Path, answers, golds, k):
    from collections import Counter
    ns = load(path, {"BaseMetrics"}, {"abc": __import__("abc"), "Counter": Counter})
    metric = ns["BaseMetrics"]()
    agg = defaultdict(lambda: defaultdict(int))
    for row, gold in zip(answers, golds):
        row = row[:k]  # the k-sample prefix; get_majority_at_k then scores majority@k on it
        metric.get_majority_at_k(agg, row, prediction_results=[{"correct": a == gold} for a in row])
    return agg[f"majority@{k}"]["correct"] / len(answers)


# -- inputs -----------------------------------------------------------------------------------
def matrices(rng: random.Random):
    yield [[1] * 4, [1] * 4]
    yield [[0] * 5, [0] * 5, [0] * 5]
    for _ in range(30):
        n, p = rng.randint(1, 12), rng.random()
        yield [[int(rng.random() < p) for _ in range(n)] for _ in range(rng.randint(1, 40))]


VOCAB = ["4", "5", "12", "", None, "x"]


def answer_sets(rng: random.Random):
    yield [["a", "b"], ["b", "a"]], ["a", "a"]  # a tie in each: the answer seen first wins
    yield [[None, None, "1"], [None, "", ""]], ["1", ""]
    for _ in range(30):
        n, voc = rng.randint(1, 9), VOCAB[: rng.randint(2, len(VOCAB))]
        rows = [[rng.choice(voc) for _ in range(n)] for _ in range(rng.randint(1, 30))]
        golds = [rng.choice([g for g in voc if g is not None] or [""]) for _ in rows]
        yield rows, golds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lighteval", type=Path, required=True, help="the unzipped lighteval 0.13.0 wheel")
    ap.add_argument("--lm-eval", type=Path, required=True, help="the unzipped lm-eval 0.4.13 wheel")
    ap.add_argument("--tau-bench", type=Path, required=True, help="tau-bench's tau_bench/run.py")
    ap.add_argument("--nemo-skills", type=Path, required=True, help="NeMo-Skills' nemo_skills/evaluation/metrics/base.py")
    ap.add_argument("-o", "--out", type=Path, default=Path("tests/goldens/sampling/sampling.json"))
    a = ap.parse_args()
    L, E, display = lighteval(a.lighteval), lm_eval(a.lm_eval), tau_bench(a.tau_bench)
    rng = random.Random(33)
    avg, hat, gpass = [], [], []
    for rows in matrices(rng):
        n = len(rows[0])
        cs = [sum(r) for r in rows]
        for k in sorted({1, n, max(1, n // 2)}):
            avg.append({"correct": rows, "k": k, "mean": lighteval_avg(L, rows, k)})
        hat.append({"n": n, "c": cs, "pass_hat": {str(k): v for k, v in tau_pass_hat(display, n, cs).items()}})
        ks = sorted({1, max(1, n // 2), n, n + 1})
        gpass.append({"n": n, "c": cs, "k": ks, "values": lighteval_g_pass(L, [n] * len(cs), cs, ks, [0.0, 0.25, 0.5, 0.75, 1.0])})
    ns_ = [rng.randint(1, 10) for _ in range(25)]
    cs_ = [rng.randint(0, n) for n in ns_]
    gpass.append({"n": ns_, "c": cs_, "k": [1, 3, 8], "thresholds": [0.0, 0.3, 0.6, 1.0],
                  "values": lighteval_g_pass(L, ns_, cs_, [1, 3, 8], [0.0, 0.3, 0.6, 1.0])})
    maj = []
    for answers, golds in answer_sets(rng):
        n = min(len(r) for r in answers)
        for k in sorted({1, max(1, n // 2), n}):
            case = {"answers": answers, "golds": golds, "k": k,
                    "lm-eval": lm_eval_maj(E, answers, golds, k), "lighteval": lighteval_maj(L, answers, golds, k)}
            if k >= 2:  # nemo-skills reports majority@k from k = 2
                case["nemo-skills"] = nemo_maj(a.nemo_skills, answers, golds, k)
            maj.append(case)
        maj.append({"answers": answers, "golds": golds, "k": n + 2, "lighteval": lighteval_maj(L, answers, golds, n + 2)})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    refs = {"lighteval": "0.13.0", "lm-eval": "0.4.13", "tau-bench": "tau_bench/run.py@01ed5e3 display_metrics",
            "nemo-skills": "nemo_skills/evaluation/metrics/base.py@7ca8a0f get_majority_at_k",
            "scipy": __import__("scipy").__version__}
    a.out.write_text(json.dumps({"references": refs, "avg_at_k": avg, "maj_at_k": maj, "pass_hat_k": hat,
                                 "g_pass_at_k": gpass}, indent=0) + "\n", encoding="utf-8")
    print(f"{a.out}: {len(avg)} avg@k, {len(maj)} maj@k, {len(hat)} pass^k, {len(gpass)} G-Pass@k cases")


if __name__ == "__main__":
    main()
