#!/usr/bin/env python3
"""lm-eval's bootstrap stderr: ``nlgmetrics.metrics.llm.lm_eval_stderr.bootstrap_stderr`` against
lm-evaluation-harness 0.4.13's own ``bootstrap_stderr`` (``lm_eval/api/metrics.py`` read from
the unpacked wheel, ``--lm-eval-src``; single process, ``DISABLE_MULTIPROC=1``), on the same
generated per-sample values (``--n`` samples, seeded).

lm-eval runs ``--peer-iters`` resamples (its time is linear in the chunks of 1,000: each
chunk costs the same) and its time is scaled to ``--iters``; ours runs ``--iters`` in full.
The values are first checked ``==`` at ``--peer-iters``. Times are the best of ``--repeat``.
Prints a markdown table. Usage:
``python benches/bench_lm_eval_stderr.py --lm-eval-src /tmp/x/src --n 1000 --iters 100000 --peer-iters 5000``
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import random
import sys
import time
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))


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


def best(f, repeat):
    out, t = None, float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            out = f()
        t = min(t, time.perf_counter() - start)
    return out, t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lm-eval-src", type=Path, required=True)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--iters", type=int, default=100000)
    ap.add_argument("--peer-iters", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    m = load(args.lm_eval_src)
    from nlgmetrics.metrics.llm import lm_eval_stderr as S

    rnd = random.Random(0)
    lls = [-rnd.expovariate(0.5) for _ in range(args.n)]
    labels = [(g, g if rnd.random() < 0.7 else 1 - g) for g in (rnd.randint(0, 1) for _ in range(args.n))]
    withnan = [float("nan") if rnd.random() < 0.1 else v for v in lls]
    cases = [
        ("median", m.median, lls), ("nanmean", m.nanmean, withnan), ("perplexity", m.perplexity, lls),
        ("f1", m.f1_score, labels), ("matthews_corrcoef", m.matthews_corrcoef, labels),
    ]
    print(f"n = {args.n:,} samples; {args.iters:,} resamples (lm-eval timed on {args.peer_iters:,}, scaled); Python {sys.version.split()[0]}")
    print()
    print("| aggregation | lm-eval 0.4.13 s (scaled) | nlgmetrics 1 thread s | **× lm-eval, 1 thread** | nlgmetrics all cores s | × lm-eval, all cores | equal at peer iters |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, fn, xs in cases:
        peer, t_peer = best(lambda: m.bootstrap_stderr(fn, xs, iters=args.peer_iters), args.repeat)
        ours_small = S.bootstrap_stderr(name, xs, args.peer_iters)
        one, t_ours = best(lambda: S.bootstrap_stderr(name, xs, args.iters, n_threads=1), args.repeat)
        every, t_all = best(lambda: S.bootstrap_stderr(name, xs, args.iters, n_threads=0), args.repeat)
        scaled = t_peer * (args.iters // 1000) / (args.peer_iters // 1000)
        same = float(peer) == ours_small and one == every
        print(f"| {name} | {scaled:.2f} | {t_ours:.2f} | **{scaled / t_ours:.0f}×** | {t_all:.2f} | {scaled / t_all:.0f}× | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
