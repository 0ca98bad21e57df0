"""Real summaries for the ROUGE-1.5.5 differential tests, from ../shared/corpora.

- CNN/DM (See et al. 2017 outputs): peer = pointer-generator+coverage, models = the
  reference highlights and the baseline output (lowercased, PTB-tokenized text);
- WMT22 English: a system output against references A and B, five consecutive segments per
  evaluation (raw mixed-case text with punctuation, numbers, quotes and non-ASCII).
"""

from __future__ import annotations

import json
from pathlib import Path


def cnndm(corpora: Path, step: int = 1, limit: int | None = None) -> tuple[list[str], list[list[str]]]:
    peers, models = [], []
    with open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i % step:
                continue
            d = json.loads(line)
            peers.append("\n".join(d["pointer-gen-cov"]))
            models.append(["\n".join(d["reference"]), "\n".join(d["baseline"]), "\n".join(d["pointer-gen"])])
            if limit is not None and len(peers) >= limit:
                break
    return peers, models


def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


def wmt22_english(corpora: Path, per_eval: int = 5, step: int = 1) -> tuple[list[str], list[list[str]]]:
    d = corpora / "wmt22" / "zh-en"
    hyp = _lines(d / "system-outputs" / "generaltest2022.zh-en.hyp.Online-B.en")
    ref_a = _lines(d / "generaltest2022.zh-en.ref.A.en")
    ref_b = _lines(d / "generaltest2022.zh-en.ref.B.en")
    peers, models = [], []
    for k, i in enumerate(range(0, len(hyp) - per_eval + 1, per_eval)):
        if k % step:
            continue
        ra, rb = ref_a[i : i + per_eval], ref_b[i : i + per_eval]
        if not any(any(c.isalnum() and c.isascii() for c in s) for s in ra[:1]):
            continue  # a model needs a token from its first line on (-l/-b would leave none)
        peers.append("\n".join(hyp[i : i + per_eval]))
        models.append(["\n".join(ra), "\n".join(rb), "\n".join(rb[::-1])])
    return peers, models
