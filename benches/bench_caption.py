"""Caption metrics: nlgmetrics vs pycocoevalcap 1.2 side by side, one process run.

    python benches/bench_caption.py [--corpora ../shared/corpora] [--repeat 3]

Data: captioning_coco (COCO Karpathy test, 5,000 images x 5 references), system
``flickr30k_model_to_mscoco__contrastive_result`` (5,000 captions). Rows:

- PTBTokenizer: pycocoevalcap's (Java CoreNLP 3.4.1, one JVM per call, as COCOEvalCap
  runs it) vs ``nlgmetrics.tasks.coco.ptb_tokenize`` on the 25,010 references + 5,000 captions;
- Bleu(4) and Cider (CIDEr-D) on the tokenized captions;
- the reward: 50 images x 5 sampled captions (token ids, 5 references each) against a
  fixed training df, pycocoevalcap's CiderScorer with that df (ruotianluo's CiderD) vs
  ``CiderReward`` (time per batch, mean over 20 batches).

Prints a markdown table (best of ``--repeat`` wall times) and, for CIDEr-D on the whole
corpus, the peak-RSS growth of a fresh subprocess running only that scorer.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from nlgmetrics import BLEU, CIDEr, CiderDF
from nlgmetrics.tasks.rewards import CiderReward
from nlgmetrics.tasks.coco import ptb_tokenize


class _Sized(list):
    """A list whose len() is the df's document count (pycocoevalcap derives ref_len from it)."""

    def __init__(self, items, n):
        super().__init__(items)
        self._n = n

    def __len__(self):
        return self._n


_RSS_CODE = """
import json, sys
from pathlib import Path
base = Path(sys.argv[1])
refs = {}
for line in (base / "references.jsonl").open(encoding="utf-8"):
    row = json.loads(line)
    refs[row["image_name"]] = [" ".join(r.lower().replace(".", " ").split()) for r in row["references"]]
names = list(refs)
hyps = [refs[n][0] for n in names]
import gc, os
gc.collect()
before = int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024  # current RSS, KiB
if sys.argv[2] == "pycocoevalcap":
    from pycocoevalcap.cider.cider import Cider
    Cider().compute_score({i: refs[n] for i, n in enumerate(names)}, {i: [h] for i, h in enumerate(hyps)})
else:
    from nlgmetrics import CIDEr
    CIDEr(tokenize="none").sentence_scores(hyps, [refs[n] for n in names])
# VmHWM (not ru_maxrss, which a child inherits from its parent across exec)
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(hwm - before)
"""


def rss_growth_mb(base, which):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _RSS_CODE, str(base), which], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1]) / 1024


CPU: dict[str, float] = {}


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the Java tokenizer)."""
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def best(fn, repeat):
    """Best wall time over ``repeat`` runs; that run's CPU seconds go to CPU["last"]
    (a ratio that a loaded machine distorts far less than the wall-time one)."""
    runs = []
    out = None
    for _ in range(repeat):
        c, t = _cpu(), time.perf_counter()
        out = fn()
        runs.append((time.perf_counter() - t, _cpu() - c))
    wall, CPU["last"] = min(runs)
    return wall, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(Path(__file__).resolve().parents[1].parent / "shared" / "corpora"))
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.cider.cider_scorer import CiderScorer
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    base = Path(a.corpora) / "captioning_coco"
    refs = {}
    for line in (base / "references.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        refs[row["image_name"]] = row["references"]
    rows = [line.rstrip("\n").split("\t", 1) for line in (base / "systems" / "flickr30k_model_to_mscoco__contrastive_result.tsv").open(encoding="utf-8")]
    names = [n for n, _ in rows]
    hyps_raw = [h for _, h in rows]
    refs_raw = [refs[n] for n in names]
    table = []

    def add(what, t_ref, t_ours, note="", cpu=(float("nan"), float("nan"))):
        table.append((what, t_ref, t_ours, note, cpu))

    # PTB tokenizer: references (one run) + hypotheses (one run), as COCOEvalCap.
    def java():
        tok = PTBTokenizer()
        g = tok.tokenize({n: [{"caption": c} for c in refs[n]] for n in names})
        r = tok.tokenize({n: [{"caption": h}] for n, h in rows})
        return g, r

    t_java, (g_java, r_java) = best(java, 1)
    c_java = CPU["last"]

    def ours_tok():
        flat = ptb_tokenize([c for rs in refs_raw for c in rs])
        return flat, ptb_tokenize(hyps_raw)

    t_tok, (flat, htok) = best(ours_tok, a.repeat)
    c_tok = CPU["last"]
    rtok, k = [], 0
    for rs in refs_raw:
        rtok.append(flat[k : k + len(rs)])
        k += len(rs)
    assert all(g_java[n] == rtok[i] for i, n in enumerate(names)) and all(r_java[n][0] == htok[i] for i, n in enumerate(names))
    add("PTBTokenizer, 30,010 captions", t_java, t_tok, "Java jar (JVM start included) vs Rust; tokens identical", (c_java, c_tok))

    gts = {i: r for i, r in enumerate(rtok)}
    res = {i: [h] for i, h in enumerate(htok)}

    def ref_bleu():
        with contextlib.redirect_stdout(io.StringIO()):
            return Bleu(4).compute_score(gts, res)

    t_rb, (rb, _) = best(ref_bleu, a.repeat)
    c_rb = CPU["last"]
    m = BLEU(flavour="coco", tokenize="none")
    t_ob, ob = best(lambda: m.corpus_score(htok, rtok), a.repeat)
    assert ob.bleus == list(rb)
    add("Bleu(4), 5,000 images x 5 refs", t_rb, t_ob, "identical", (c_rb, CPU["last"]))

    t_rc, (rc, rc_per) = best(lambda: Cider().compute_score(gts, res), a.repeat)
    c_rc = CPU["last"]
    c = CIDEr(tokenize="none")
    t_oc, oc = best(lambda: c.sentence_scores(htok, rtok), a.repeat)
    assert np.allclose(oc, rc_per, rtol=1e-9, atol=1e-12)
    diff = np.max(np.abs(oc - rc_per) / np.maximum(np.abs(rc_per), 1e-300))
    add("Cider (CIDEr-D), 5,000 images x 5 refs", t_rc, t_oc, f"max rel. diff {diff:.1e}", (c_rc, CPU["last"]))

    # Rewards: vocabulary ids, a df fitted on all references, 50 images x 5 samples.
    vocab: dict[str, int] = defaultdict(lambda: len(vocab) + 1)
    ids_refs = [[[vocab[w] for w in r.split()] + [0] for r in rs] for rs in rtok]
    ids_hyps = [[vocab[w] for w in h.split()] + [0] for h in htok]
    df = CiderDF.fit_token_ids(ids_refs, eos_id=0)
    reward = CiderReward(df, eos_id=0)
    rng = np.random.default_rng(0)
    df_tuples = defaultdict(float, {tuple(k.split()): float(v) for k, v in df.to_counts().items()})
    batches = []
    for _ in range(20):
        imgs = rng.choice(len(ids_refs), 50, replace=False)
        samples = np.zeros((250, 16), dtype=np.int64)
        brefs = []
        for j, i in enumerate(np.repeat(imgs, 5)):
            src = ids_hyps[rng.integers(len(ids_hyps))]
            samples[j, : min(16, len(src))] = src[:16]
            brefs.append(ids_refs[i])
        batches.append((samples, brefs))

    def to_str(seq):
        out = []
        for x in seq:
            out.append(str(int(x)))
            if x == 0:
                break
        return " ".join(out)

    def ref_reward():
        outs = []
        for samples, brefs in batches:
            sc = CiderScorer(n=4, sigma=6.0)
            for s, rs in zip(samples, brefs):
                sc += (to_str(s), [to_str(r) for r in rs])
            sc.document_frequency = df_tuples
            sc.crefs = _Sized(sc.crefs, df.n_docs)  # compute_cider: ref_len = log(len(crefs))
            outs.append(np.array(sc.compute_cider()))
        return outs

    def our_reward():
        return [reward(s, r) for s, r in batches]

    t_rr, rr = best(ref_reward, a.repeat)
    c_rr = CPU["last"]
    t_or, orr = best(our_reward, a.repeat)
    assert all(np.allclose(x, y, rtol=1e-9, atol=1e-12) for x, y in zip(rr, orr))
    add("CIDEr-D reward, batch of 50x5 samples (per batch)", t_rr / 20, t_or / 20, "token ids, fixed training df", (c_rr / 20, CPU["last"] / 20))

    m_ref, m_ours = rss_growth_mb(base, "pycocoevalcap"), rss_growth_mb(base, "nlgmetrics")
    table.append(("Cider peak RSS growth, 5,000 images x 5 refs", m_ref, m_ours, "MB; fresh subprocess per side", None))
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end of the run\n")
    print("| task | pycocoevalcap 1.2 | nlgmetrics | speed-up | CPU ms, pycocoevalcap / nlgmetrics | speed-up, CPU | note |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for what, tr, to, note, cpu in table:
        if "RSS" in what:
            print(f"| {what} | {tr:.0f} MB | {to:.0f} MB | {tr / max(to, 1e-9):.1f}x less | | | {note} |")
        else:
            cr, co = cpu
            print(f"| {what} | {tr * 1000:.1f} ms | {to * 1000:.1f} ms | {tr / to:.0f}x | {cr * 1000:.0f} / {co * 1000:.0f} | {cr / co:.0f}x | {note} |")


if __name__ == "__main__":
    main()
