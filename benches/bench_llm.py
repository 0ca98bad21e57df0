#!/usr/bin/env python3
"""The Chinese LLM toolchains' ROUGE/BLEU: nlgmetrics against the packages, side by side.

- ``rouge-chinese`` 1.0.3 ``Rouge().get_scores`` per pair vs ``ROUGE("rouge-chinese")``
  on jieba-segmented WMT22 en-zh outputs (segmentation done beforehand, outside the timing);
- ``rouge`` 1.0.1 (pltrdy) vs ``ROUGE("pltrdy")`` on CNN/DM summaries;
- LLaMA-Factory 0.9.5's ``ComputeSimilarity`` (read from its wheel, ``--llamafactory-wheel``;
  jieba + rouge-chinese + nltk char BLEU per example) vs ``llamafactory()`` on raw WMT22
  en-zh pairs (ours: the core's jieba on both sides, then one core call);
- jieba alone: the core's copy of jieba (``nlgmetrics.tokenizers.jieba_join``, built from
  jieba's live dictionary) against Python jieba's ``" ".join(jieba.cut(text))`` on the same
  texts: the segmentation every jieba pipeline pays.

Every timing (ours and the peers') is the best of ``--repeat`` runs (default 3). The peers run on ``--peer-n`` pairs (they are per-pair Python loops, linear in the pairs);
ratios are per pair. Results are checked identical on the peer's pairs first. "1 thread"
is ``n_threads=1``. Prints a markdown table. Usage:
``python benches/bench_llm.py --n 100000 --peer-n 5000 --llamafactory-wheel llamafactory-0.9.5-py3-none-any.whl``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"


REPEAT = 3


def timed(f):
    """The result and the best wall time of ``REPEAT`` runs (the machine is shared)."""
    best = float("inf")
    for _ in range(REPEAT):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return out, best


def wmt_en_zh(n: int) -> tuple[list[str], list[str]]:
    d = CORPORA / "wmt22" / "en-zh"
    ref = (d / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()
    preds, refs = [], []
    for f in sorted((d / "system-outputs").glob("*.hyp.*")):
        preds += f.read_text(encoding="utf-8").splitlines()
        refs += ref
    k = -(-n // len(preds))
    return (preds * k)[:n], (refs * k)[:n]


def cnndm(n: int) -> tuple[list[str], list[str]]:
    preds, refs = [], []
    with open(CORPORA / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            preds.append(" ".join(d["pointer-gen-cov"]))
            refs.append(" ".join(d["reference"]))
    k = -(-n // len(preds))
    return (preds * k)[:n], (refs * k)[:n]


def row(rows, what, peer, n, t1, tall, peer_n, t_peer):
    per_peer = t_peer / peer_n
    rows.append((what, peer, n, t1, tall, peer_n, t_peer, per_peer / (t1 / n), per_peer / (tall / n)))


def bench_package(rows, flavour, module, preds, refs, peer_n):
    from nlgmetrics import ROUGE

    metric1 = ROUGE(flavour, n_threads=1)
    metric = ROUGE(flavour)
    ours1, t1 = timed(lambda: metric1.sentence_prf(preds, refs))
    _, tall = timed(lambda: metric.sentence_prf(preds, refs))
    r = module.Rouge()
    theirs, t_peer = timed(lambda: r.get_scores(preds[:peer_n], refs[:peer_n]))
    for m in ("rouge-1", "rouge-2", "rouge-l"):
        assert ours1[m].fmeasure[:peer_n].tolist() == [s[m]["f"] for s in theirs], m
    label = "rouge-chinese 1.0.3" if flavour == "rouge-chinese" else "rouge 1.0.1 (pltrdy)"
    row(rows, f"ROUGE(\"{flavour}\") rouge-1/2/l per pair", label + " get_scores", len(preds), t1, tall, peer_n, t_peer)


def bench_llamafactory(rows, wheel, preds, refs, peer_n):
    sys.path.insert(0, str(REPO / "scripts" / "goldens"))
    from make_llamafactory_goldens import EvalPrediction, compute_similarity_class

    from nlgmetrics.metrics.llm.llm_presets import LLAMAFACTORY_KEYS, llamafactory, llamafactory_rows

    cls = compute_similarity_class(wheel)
    p, r = preds[:peer_n], refs[:peer_n]

    class Both:
        pad_token_id = 0
        calls = 0

        def batch_decode(self, ids, skip_special_tokens=True):
            Both.calls += 1
            texts = p if Both.calls % 2 == 1 else r
            return [texts[int(i[0]) - 1] for i in ids]

    ids = np.arange(1, peer_n + 1).reshape(-1, 1)
    metric = cls(tokenizer=Both())
    theirs, t_peer = timed(lambda: metric(EvalPrediction(ids, ids.copy())))
    _, t1 = timed(lambda: llamafactory(preds, refs, n_threads=1))
    _, tall = timed(lambda: llamafactory(preds, refs))
    assert llamafactory(p, r) == theirs
    rows_ = llamafactory_rows(p, r, n_threads=1)
    assert rows_.shape == (peer_n, len(LLAMAFACTORY_KEYS))
    row(rows, "llamafactory(): jieba + rouge-chinese + char BLEU-4 method3, rounded means", "LLaMA-Factory 0.9.5 ComputeSimilarity", len(preds), t1, tall, peer_n, t_peer)


def bench_jieba(rows, preds, refs, peer_n):
    import jieba

    from nlgmetrics.tokenizers import jieba_join

    jieba.initialize()
    jieba_join(preds[:10])  # builds the core segmenter from jieba's dictionary (once)
    p, r = preds[:peer_n], refs[:peer_n]
    theirs, t_peer = timed(lambda: ([" ".join(jieba.cut(t)) for t in p], [" ".join(jieba.cut(t)) for t in r]))
    assert (jieba_join(p), jieba_join(r)) == theirs
    _, t1 = timed(lambda: (jieba_join(preds, n_threads=1), jieba_join(refs, n_threads=1)))
    _, tall = timed(lambda: (jieba_join(preds, n_threads=0), jieba_join(refs, n_threads=0)))
    row(rows, "jieba words of both sides (\" \".join(jieba.cut(t))), the core's copy of jieba", "jieba 0.42.1 (Python)", len(preds), t1, tall, peer_n, t_peer)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--peer-n", type=int, default=5_000)
    ap.add_argument("--llamafactory-wheel", default=None)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each timing, the best kept (ours and the peers alike)")
    a = ap.parse_args()
    global REPEAT
    REPEAT = a.repeat
    import jieba
    import rouge
    import rouge_chinese

    from nlgmetrics.metrics.rouge_pltrdy import jieba_join

    jieba.setLogLevel(60)
    rows: list = []
    zp, zr = wmt_en_zh(a.n)
    zpj, zrj = jieba_join(zp[: min(a.n, 20_000)]), jieba_join(zr[: min(a.n, 20_000)])
    k = -(-a.n // len(zpj))
    bench_package(rows, "rouge-chinese", rouge_chinese, (zpj * k)[: a.n], (zrj * k)[: a.n], a.peer_n)
    ep, er = cnndm(a.n)
    bench_package(rows, "pltrdy", rouge, ep, er, a.peer_n)
    if a.llamafactory_wheel:
        bench_llamafactory(rows, a.llamafactory_wheel, zp, zr, a.peer_n)
    bench_jieba(rows, zp, zr, a.peer_n)
    print("| what | peer | pairs | ours 1 thread (s) | ours all cores (s) | peer pairs | peer (s) | ratio 1 thread | ratio all cores |")
    print("|---|---|---|---|---|---|---|---|---|")
    for what, peer, n, t1, tall, pn, tp, r1, rall in rows:
        f = lambda x, spec: format(x, spec) if isinstance(x, (int, float)) else x  # noqa: E731
        print(f"| {what} | {peer} | {n:,} | {t1:.2f} | {tall:.2f} | {f(pn, ',')} | {f(tp, '.2f')} | {f(r1, '.1f')}{'x' if r1 != '' else ''} | {f(rall, '.1f')}{'x' if rall != '' else ''} |")


if __name__ == "__main__":
    main()
