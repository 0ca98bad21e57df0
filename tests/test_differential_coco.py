"""Bit-exactness against pycocoevalcap 1.2 on the shared COCO systems: CIDEr-D and ROUGE-L,
corpus value and every per-image value compared with ``==``.

pycocoevalcap reduces per-image scores with ``np.mean`` (numpy's pairwise summation), and
nlgmetrics' batch ``corpus_score`` does the same, so the values are equal bit for bit (all
19 systems, checked 2026-11-25). Statistics merged across batches (streaming, Dask) keep the
exactly rounded sum instead; that mean is within 4 ulps of numpy's (asserted below).

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
    for name, hyps in systems.items():
        n = len(hyps)
        gts = {i: refs_tok[i] for i in range(n)}
        res = {i: [hyps[i]] for i in range(n)}
        if metric == "CIDEr-D":
            want, want_seg = pycoco_cider.Cider().compute_score(gts, res)
            ours = CIDEr(tokenize="none")
        else:
            want, want_seg = pycoco_rouge.Rouge().compute_score(gts, res)
            ours = ROUGE(flavour="coco")
        got = ours.corpus_score(hyps, refs_tok[:n]).score
        got_seg = ours.sentence_scores(hyps, refs_tok[:n])
        assert got == want, (name, got, want)
        assert np.array_equal(got_seg, np.asarray(want_seg, dtype=np.float64)), name
        # merged statistics: the exactly rounded mean, within a few ulps of numpy's
        if metric == "ROUGE-L":
            halves = ours.stats(hyps[: n // 2], refs_tok[: n // 2]).total() + ours.stats(hyps[n // 2 :], refs_tok[n // 2 : n]).total()
            assert _ulps(ours.score_stats(halves).score, want) <= 4, name
        values += n + 1
    record(
        metric=metric, flavour="coco" if metric == "ROUGE-L" else "cider-d", reference="pycocoevalcap 1.2",
        inputs=f"captioning_coco: {len(systems)} systems (PTB-tokenized)", values=values, max_diff=0.0,
    )
