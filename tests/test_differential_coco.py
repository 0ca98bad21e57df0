"""Bit-exactness against pycocoevalcap 1.2 on the shared COCO systems: CIDEr-D and ROUGE-L,
every per-image value compared with ``==``, and the corpus value two ways:

- ``nlgmetrics.coco.evaluate`` (the COCOEvalCap pipeline) reduces per-image scores with
  ``np.mean`` as pycocoevalcap does: equal bit for bit (all 19 systems, 2026-11-25);
- the metric classes (``CIDEr().corpus_score``, ``ROUGE("coco").corpus_score``) return the
  exactly rounded mean, the value every batch split, stream and Dask partition agrees on;
  numpy's pairwise sum differs from it by at most a few ulps (6 of 19 systems differ by
  1-2 ulps for CIDEr-D). The bound asserted here: 4 ulps.

CI scores a few systems; ``NLGMETRICS_PARITY_FULL=1`` scores all 19. Each run records what it
compared in the parity ledger (tests/differential/parity_results.py).
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from differential.parity_results import record
from nlgmetrics import CIDEr, ROUGE
from nlgmetrics.coco import ptb_tokenize

pycoco_cider = pytest.importorskip("pycocoevalcap.cider.cider")
pycoco_rouge = pytest.importorskip("pycocoevalcap.rouge.rouge")

FULL = os.environ.get("NLGMETRICS_PARITY_FULL") == "1"


@pytest.fixture(scope="module")
def tokenized(corpora):
    base = corpora / "captioning_coco"
    refs = [json.loads(line)["references"] for line in (base / "references.jsonl").open(encoding="utf-8")]
    flat = iter(ptb_tokenize([r for rs in refs for r in rs]))
    refs_tok = [[next(flat) for _ in rs] for rs in refs]
    files = sorted((base / "systems").glob("*.tsv"))
    systems = {}
    for f in files if FULL else files[::6]:
        caps = [line.rstrip("\n").split("\t", 1)[1] for line in f.open(encoding="utf-8") if line.strip()]
        systems[f.stem] = ptb_tokenize(caps)
    return refs_tok, systems


def _ulps(a: float, b: float) -> float:
    return abs(a - b) / math.ulp(max(abs(a), abs(b))) if a != b else 0.0


@pytest.mark.parametrize("metric", ["CIDEr-D", "ROUGE-L"])
def test_bit_equal_to_pycocoevalcap(tokenized, metric):
    refs_tok, systems = tokenized
    values = 0
    worst = 0.0
    for name, hyps in systems.items():
        n = len(hyps)
        gts = {i: refs_tok[i] for i in range(n)}
        res = {i: [hyps[i]] for i in range(n)}
        if metric == "CIDEr-D":
            want, want_seg = pycoco_cider.Cider().compute_score(gts, res)
            ours = CIDEr(tokenize="none")
        else:
            want, want_seg = pycoco_rouge.Rouge().compute_score(gts, res)
            ours = ROUGE(flavour="coco", tokenize="none")  # the texts are PTB-tokenized already
        got = ours.corpus_score(hyps, refs_tok[:n]).score
        got_seg = ours.sentence_scores(hyps, refs_tok[:n])
        assert np.array_equal(got_seg, np.asarray(want_seg, dtype=np.float64)), name
        assert float(np.mean(got_seg)) == want, name  # the COCO pipeline's reduction
        assert _ulps(got, want) <= 4, (name, got, want)  # the mergeable exact mean
        worst = max(worst, abs(got - want))
        values += n + 1
    record(
        metric=metric, flavour="coco" if metric == "ROUGE-L" else "cider-d", reference="pycocoevalcap 1.2",
        inputs=f"captioning_coco: {len(systems)} systems (PTB-tokenized); coco.evaluate bit-equal, corpus_score within 4 ulps",
        values=values, max_diff=worst,
    )
