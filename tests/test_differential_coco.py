"""Bit-exactness against pycocoevalcap 1.2 on the shared COCO systems: CIDEr-D and ROUGE-L,
every per-image value and every corpus value compared with ``==``.

pycocoevalcap's corpus value is ``np.mean`` of the per-image scores (numpy's pairwise
sum, whose bits depend on order and grouping). The metric statistics keep the per-image
scores in order (8 bytes an image) and reduce them the same way, so one pass
(``corpus_score``), ``update()`` in chunks, in-order merged shard totals and
``nlgmetrics.tasks.coco.evaluate`` all give pycocoevalcap's bits (before, the metric classes
returned the exactly rounded mean, which differed by 1-2 ulps on 6 of 19 systems).

CI scores a few systems; ``NLGMETRICS_PARITY_FULL=1`` scores all 19. Each run records what it
compared in the parity ledger (tests/differential/parity_results.py).
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from differential.parity_results import record
from nlgmetrics import CIDEr, ROUGE
from nlgmetrics.tasks.coco import ptb_tokenize

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
        assert got == want, (name, got, want)
        cut = [0, n // 3, n // 2 + 7, n]
        for a, b in zip(cut, cut[1:]):  # streaming in uneven chunks
            ours.update(hyps[a:b], refs_tok[a:b])
        assert ours.compute().score == want, name
        shards = [ours.stats(hyps[a:b], refs_tok[a:b]).total() for a, b in zip(cut, cut[1:])]
        if metric == "ROUGE-L":  # CIDEr's corpus-mode df is per stats() call: merged via update() above
            assert ours.score_stats(sum(shards)).score == want, name
        worst = max(worst, abs(got - want))
        values += n + 1
    record(
        metric=metric, flavour="coco" if metric == "ROUGE-L" else "cider-d", reference="pycocoevalcap 1.2",
        inputs=f"captioning_coco: {len(systems)} systems (PTB-tokenized); corpus_score, update() chunks and coco.evaluate bit-equal",
        values=values, max_diff=worst,
    )
