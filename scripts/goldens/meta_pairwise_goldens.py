"""Regenerate tests/goldens/meta_pairwise/wmt24.json by RUNNING google-research/mt-metrics-eval
(commit 68a481a: ``stats.PairwiseConfidenceError`` and ``stats.KendallWithTiesOpt``, which
import ``pce.py`` and ``tau_optimization.py``) on generated score matrices.

    git clone https://github.com/google-research/mt-metrics-eval /tmp/mtme   # no install needed
    python scripts/goldens/meta_pairwise_goldens.py --mt-metrics-eval /tmp/mtme

The reference reads packed vectors (systems x segments, row by row, with ``num_sys``); the
goldens keep the matrices, the options and the reference's outputs (floats as ``repr``
round-trips them in JSON).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "meta_pairwise" / "wmt24.json"


def human_matrix(rng: random.Random, n_sys: int, n_seg: int, kind: str) -> list:
    if kind == "mqm":  # MQM: minus weighted error counts, many ties
        return [[-float(rng.choice([0, 0, 0, 1, 1, 2, 5, 5, 6, 10, 25])) for _ in range(n_seg)] for _ in range(n_sys)]
    if kind == "da":
        return [[round(rng.uniform(0, 100), rng.choice([0, 1, 3])) for _ in range(n_seg)] for _ in range(n_sys)]
    return [[rng.gauss(0, 1) for _ in range(n_seg)] for _ in range(n_sys)]


def metric_matrix(rng: random.Random, human: list, kind: str) -> list:
    if kind == "quantized":  # a metric printing two decimals: float32 sums may still round
        return [[round(h / 10 + rng.choice([-1, 0, 0, 1]) * 0.25, 2) for h in row] for row in human]
    if kind == "integer":
        return [[float(rng.randint(-30, 0)) for _ in row] for row in human]
    return [[h * rng.uniform(0.5, 1.5) + rng.gauss(0, 3) for h in row] for row in human]


def packed(m: list) -> list:
    return [v for row in m for v in row]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mt-metrics-eval", required=True, type=Path, help="a checkout of google-research/mt-metrics-eval")
    args = ap.parse_args()
    sys.path.insert(0, str(args.mt_metrics_eval))
    from mt_metrics_eval import stats  # noqa: E402

    rng = random.Random(20261207)
    spa, ties = [], []
    for case in range(60):
        n_sys, n_seg = rng.randint(2, 9), rng.choice([3, 7, 20, 64, 150])
        human = human_matrix(rng, n_sys, n_seg, ["mqm", "da", "gauss"][case % 3])
        metric = metric_matrix(rng, human, ["integer", "quantized", "continuous"][(case // 3) % 3])
        if case % 5 == 4:  # segments nobody rated: None for every system
            for j in rng.sample(range(n_seg), max(1, n_seg // 4)):
                for row in human:
                    row[j] = None
        perms = [1000, 1000, 1000, 250, 37][case % 5]
        value = stats.PairwiseConfidenceError(packed(human), packed(metric), n_sys, num_permutations=perms,
                                              filter_nones=any(v is None for v in packed(human)))[0]
        spa.append({"metric": metric, "human": human, "num_permutations": perms, "spa": float(value),
                    # small integers: float32 sums are exact in any order, so == on every CPU
                    "exact_everywhere": case % 3 == 0 and (case // 3) % 3 == 0})
    for case in range(90):
        n_sys, n_seg = rng.randint(2, 12), rng.choice([1, 2, 5, 30, 60])
        human = human_matrix(rng, n_sys, n_seg, ["mqm", "da", "gauss"][case % 3])
        metric = metric_matrix(rng, human, ["integer", "quantized", "continuous"][(case // 3) % 3])
        if case % 4 == 1:  # scattered missing scores, on either side
            for row in human:
                for j in range(n_seg):
                    if rng.random() < 0.2:
                        row[j] = None
            for row in metric:
                for j in range(n_seg):
                    if rng.random() < 0.05:
                        row[j] = None
        average_by = ["item", "sys", "none"][case % 3]
        variant = ["acc23", "23"][(case // 9) % 2]
        sample_rate, seed = (1.0, None) if case % 6 else (0.5, case)
        if seed is not None:
            np.random.seed(seed)
        try:
            tau, threshold, result = stats.KendallWithTiesOpt(packed(human), packed(metric), variant=variant, num_sys=n_sys,
                                                              average_by=average_by, sample_rate=sample_rate)
        except ZeroDivisionError:  # no pair in any row (a row per score): the reference divides by zero rows
            continue
        ties.append({"metric": metric, "human": human, "variant": variant, "average_by": average_by,
                     "sample_rate": sample_rate, "seed": seed, "value": float(tau), "threshold": float(threshold),
                     # every candidate for the smaller cases; the count (and the best) for the rest
                     "n_thresholds": len(result.thresholds),
                     "thresholds": [float(t) for t in result.thresholds] if len(result.thresholds) <= 300 else None,
                     "values": [float(t) for t in result.taus] if len(result.taus) <= 300 else None})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"reference": "google-research/mt-metrics-eval 68a481a", "spa": spa, "tie_calibrated": ties}) + "\n")
    print(f"{len(spa)} SPA cases, {len(ties)} tie-calibration cases -> {OUT}")


if __name__ == "__main__":
    main()
