"""Goldens for ``nlgmetrics.metrics.llm.lm_eval_stderr``, made by running lm-evaluation-harness
0.4.13's own ``lm_eval/api/metrics.py`` (nothing of it is copied here):

    pip download lm_eval==0.4.13 --no-deps -d /tmp/x && cd /tmp/x && unzip -q lm_eval-0.4.13-*.whl -d src
    python scripts/goldens/lm_eval_stderr_goldens.py --lm-eval-src /tmp/x/src

The module is imported as it is, its registry decorators stubbed (``lm_eval.api.registry``),
with ``DISABLE_MULTIPROC=1`` (the single-process loop; the pool's workers seed each chunk
the same way). ``bootstrap_stderr`` runs with lm-eval's aggregations ``median``,
``nanmean``, ``perplexity``, ``f1_score``, ``matthews_corrcoef`` and ``mean`` on generated
(seeded) values: floats of wide magnitude (the summation order shows), small integers,
NaN, log-likelihoods, binary and multi-class labels (strings too); iters that are not a
multiple of 1000 (the remainder is dropped) and below 1000 (one chunk). The closed forms and
group aggregates (``mean_stderr``, ``sample_stddev``, ``pooled_sample_stderr``,
``unweighted_mean_stderr``, ``combined_sample_stderr``, ``aggregate_subtask_metrics``) run on
generated subtask values. Floats are stored by ``repr`` (``json`` round-trips them).

Writes ``tests/goldens/lm_eval_stderr/cases.json``.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import random
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "goldens" / "lm_eval_stderr"


def load(src: Path):
    os.environ["DISABLE_MULTIPROC"] = "1"
    sys.path.insert(0, str(src))
    for name in ("lm_eval", "lm_eval.api"):
        pkg = types.ModuleType(name)
        pkg.__path__ = [str(src / name.replace(".", "/"))]
        sys.modules[name] = pkg
    registry = types.ModuleType("lm_eval.api.registry")
    registry.register_metric = lambda **kw: (lambda fn: fn)
    registry.register_aggregation = lambda name: (lambda fn: fn)
    sys.modules["lm_eval.api.registry"] = registry
    return importlib.import_module("lm_eval.api.metrics")


def values_for(rnd: random.Random, statistic: str, n: int) -> list:
    if statistic in ("f1", "matthews_corrcoef"):
        labels = [0, 1] if statistic == "f1" or rnd.random() < 0.4 else rnd.choice([[0, 1, 2], ["a", "b", "c", "d"], [3, 7]])
        skew = rnd.random()
        out = []
        for _ in range(n):
            gold = rnd.choice(labels)
            pred = gold if rnd.random() < skew else rnd.choice(labels)
            out.append((gold, pred))
        if statistic == "f1" and rnd.random() < 0.3:
            out = [(bool(g), bool(p)) for g, p in out]
        return out
    style = rnd.choice(["wide", "int", "unit", "ll"])
    if style == "wide":
        out = [rnd.choice([1e16, -1e16, 1.0, 3.3e-5, 0.1, 7e12]) * rnd.random() for _ in range(n)]
    elif style == "int":
        out = [rnd.randint(-5, 9) for _ in range(n)]
    elif style == "unit":
        out = [float(rnd.random() < 0.6) for _ in range(n)]
    else:
        out = [-rnd.expovariate(0.3) for _ in range(n)]
    if statistic == "nanmean" and style != "int" and rnd.random() < 0.6:
        out = [float("nan") if rnd.random() < 0.4 else v for v in out]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lm-eval-src", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args()
    m = load(args.lm_eval_src)
    fns = {
        "median": m.median, "nanmean": m.nanmean, "perplexity": m.perplexity,
        "f1": m.f1_score, "matthews_corrcoef": m.matthews_corrcoef, "mean": m.mean,
    }
    rnd = random.Random(args.seed)
    boot = []
    plan = [(s, n, it) for s in fns for n, it in ((1, 1000), (2, 2500), (5, 999), (37, 3000), (200, 2000), (64, 1500))]
    plan += [("median", 500, 10000), ("nanmean", 300, 10000), ("perplexity", 400, 20000), ("mean", 1000, 100000)]
    for statistic, n, iters in plan:
        xs = values_for(rnd, statistic, n)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                value = float(m.bootstrap_stderr(fns[statistic], xs, iters=iters))
                got = {"stderr": value}
            except Exception as e:
                got = {"error": type(e).__name__}
        boot.append({"statistic": statistic, "iters": iters, "xs": xs, **got})
        print(statistic, n, iters, got, file=sys.stderr)
    closed = []
    for case in range(60):
        n = rnd.randint(2, 40)
        xs = values_for(rnd, "mean", n)
        k = rnd.randint(1, 6)
        stderrs = [rnd.random() * 0.1 for _ in range(k)]
        sizes = [rnd.randint(2, 5000) for _ in range(k)]
        metrics = [rnd.random() for _ in range(k)]
        closed.append({
            "xs": xs, "mean": m.mean(xs), "sample_stddev": m.sample_stddev(xs), "mean_stderr": m.mean_stderr(xs),
            "pop_stddev": m.pop_stddev(xs), "stderrs": stderrs, "sizes": sizes, "metrics": metrics,
            "pooled_sample_stderr": float(m.pooled_sample_stderr(stderrs, sizes)),
            "unweighted_mean_stderr": float(m.unweighted_mean_stderr(stderrs)),
            "combined_sample_stderr": float(m.combined_sample_stderr(stderrs, sizes, metrics)),
            "weighted": m.aggregate_subtask_metrics(metrics, sizes, True),
            "unweighted": m.aggregate_subtask_metrics(metrics, sizes, False),
        })
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cases.json").write_text(
        json.dumps({"reference": "lm-eval 0.4.13", "python": sys.version.split()[0], "seed": args.seed,
                    "bootstrap": boot, "closed": closed}, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    print(f"{len(boot)} bootstrap cases, {len(closed)} closed-form cases -> {OUT / 'cases.json'}")


if __name__ == "__main__":
    main()
