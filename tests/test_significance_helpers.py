"""Shared data for the significance tests (no tests here): WMT22 systems (subsampled deterministically)
and a small test-only Metric with real-valued statistics."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from nlgmetrics.metrics.base import Metric, Score
from nlgmetrics.stats import SegmentStats, Stats

from conftest import read_lines


def wmt_systems(corpora: Path, pair: str = "zh-en", n_systems: int = 4, n_segments: int = 600):
    """(references, {system: hypotheses}) of the first segments of a WMT22 pair."""
    d = corpora / "wmt22" / pair
    src, trg = pair.split("-")
    ref = read_lines(d / f"generaltest2022.{pair}.ref.A.{trg}")[:n_segments]
    files = sorted((d / "system-outputs").iterdir())[:n_systems]
    systems = {p.name.split(".hyp.")[1].rsplit(".", 1)[0]: read_lines(p)[:n_segments] for p in files}
    return ref, systems


def write_wmt_systems(corpora: Path, d: Path, n_systems: int = 3, n_segments: int = 300) -> tuple[Path, list[str]]:
    """``ref.txt`` and one ``<system>.txt`` per system in ``d``: (d, system file names)."""
    ref, systems = wmt_systems(corpora, "zh-en", n_systems=n_systems, n_segments=n_segments)
    (d / "ref.txt").write_text("\n".join(ref) + "\n")
    names = []
    for n, h in systems.items():
        (d / f"{n}.txt").write_text("\n".join(h) + "\n")
        names.append(f"{n}.txt")
    return d, names


class MeanLength(Metric):
    """Test-only metric: mean word length ratio, with a float statistic.

    Statistics per segment: ``n`` (count) and ``ratio_sum`` (float); score = sum / n.
    """

    name = "MeanLength"
    count_fields = ("n",)
    sum_fields = ("ratio_sum",)

    def _signature_items(self):
        return {"kind": "test"}

    def _segment_stats(self, predictions, references):
        ratios = np.array([(len(p.split()) + 0.1) / (len(r[0].split()) + 0.3) for p, r in zip(predictions, references)])
        return SegmentStats(self.key, self.count_fields, np.ones((len(predictions), 1), dtype=np.uint64), self.sum_fields, ratios.reshape(-1, 1),
                            ref_counts=np.ones(len(predictions), dtype=np.int64))

    def _score(self, stats: Stats) -> Score:
        n = int(stats.counts[0])
        return Score(self.name, stats.sums[0] / n if n else 0.0, self.signature(stats), stats)
