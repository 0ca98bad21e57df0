"""Regenerate tests/goldens/per/goldens.json: PER by an independent re-statement of
Moses ``mert/PerScorer.cpp`` (mosesdecoder @ 34452895f350bf097b21ee514a529a1dc542243c).

PerScorer, step by step, as reproduced here:
- ``TokenizeAndEncode``: split the line on the space character, skipping empty pieces
  (``util::TokenIter<AnyCharacter(" "), true>``); case is preserved (PerScorer never turns
  ``m_enable_preserve_case`` off); no other preprocessing without a filter/factors.
- ``prepareStats``: ``correct = Σ_{t in set(hyp)} min(ref.count(t), hyp.count(t))``;
  statistics ``(correct, len(hyp), len(ref))``.
- ``StatisticsBasedScorer`` sums the statistics of all sentences (``ScoreStatsType`` is
  float) and ``calculateScore`` returns, in float32,
  ``(correct − max(0, hyp − ref)) / ref`` (0 if ``ref == 0``) — i.e. ``1 − PER``.

Usage: python scripts/goldens/make_per_goldens.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "corpora" / "wmt22"
OUT = REPO / "tests" / "goldens" / "per" / "goldens.json"
sys.path.insert(0, str(REPO / "tests"))


def tokens(line: str, lowercase: bool) -> list[str]:
    toks = [t for t in line.split(" ") if t]
    return [t.lower() for t in toks] if lowercase else toks


def sentence_stats(hyp: str, ref: str, lowercase: bool) -> tuple[int, int, int]:
    h, r = tokens(hyp, lowercase), tokens(ref, lowercase)
    hc, rc = Counter(h), Counter(r)
    correct = sum(min(rc[t], hc[t]) for t in set(h))
    return correct, len(h), len(r)


def moses_score(stats: list[tuple[int, int, int]]) -> tuple[float, float]:
    f32 = np.float32
    comps = [f32(0), f32(0), f32(0)]
    for s in stats:
        comps = [f32(a + f32(b)) for a, b in zip(comps, s)]
    denom = comps[2]
    if denom == 0:
        return 0.0, 1.0
    num = comps[0] - max(f32(0), comps[1] - comps[2])
    score32 = float(f32(num / denom))
    c, h, r = (sum(x[k] for x in stats) for k in range(3))
    per64 = 1.0 - (c - max(0.0, float(h - r))) / r
    return score32, per64


def main() -> None:
    from conftest import read_lines  # noqa: E402

    goldens = []
    cases = [
        ("zh-en/system-outputs/generaltest2022.zh-en.hyp.Online-B.en", "zh-en/generaltest2022.zh-en.ref.A.en"),
        ("zh-en/system-outputs/generaltest2022.zh-en.hyp.DLUT.en", "zh-en/generaltest2022.zh-en.ref.B.en"),
        ("ja-en/system-outputs/generaltest2022.ja-en.hyp.DLUT.en", "ja-en/generaltest2022.ja-en.ref.A.en"),
        ("en-zh/system-outputs/generaltest2022.en-zh.hyp.Online-B.zh", "en-zh/generaltest2022.en-zh.ref.A.zh"),
    ]
    for hyp, ref in cases:
        if not (CORPORA / hyp).exists():
            continue
        H, R = read_lines(CORPORA / hyp), read_lines(CORPORA / ref)
        for lc in (False, True):
            stats = [sentence_stats(h, r, lc) for h, r in zip(H, R)]
            score32, per64 = moses_score(stats)
            c, hl, rl = (sum(x[k] for x in stats) for k in range(3))
            goldens.append({"hyp": hyp, "ref": ref, "lowercase": lc, "correct": c, "hyp_len": hl, "ref_len": rl, "per": per64, "moses_score_float32": score32})
    OUT.write_text(json.dumps(goldens, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(goldens)} goldens to {OUT}")


if __name__ == "__main__":
    main()
