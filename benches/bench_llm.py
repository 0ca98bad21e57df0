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

With ``--lm-eval-src`` (lm_eval 0.4.13's wheel unpacked, with immutabledict's wheel unpacked
beside it), lm-eval's own scoring functions in the same process against ours, CPU time
(``time.process_time``), values checked equal first: IFEval's ``process_results``, the
multiple-choice branch of ``ConfigurableTask.process_results``, gsm8k's filter pipelines with
``exact_match_hf_evaluate``, hendrycks_math's ``process_results``
(``--only-lm-eval`` for these rows alone).

Every timing (ours and the peers') is the best of ``--repeat`` runs (default 3). The peers run on ``--peer-n`` pairs (they are per-pair Python loops, linear in the pairs);
ratios are per pair. Results are checked identical on the peer's pairs first. "1 thread"
is ``n_threads=1``. Prints a markdown table. Usage:
``python benches/bench_llm.py --n 100000 --peer-n 5000 --llamafactory-wheel llamafactory-0.9.5-py3-none-any.whl``
``python benches/bench_llm.py --only-lm-eval --lm-eval-src /tmp/x/src --n 100000 --peer-n 5000``
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


def cpu_timed(f):
    """The result and the best CPU time (``time.process_time``) of ``REPEAT`` runs: the
    machine is shared, so wall time measures the neighbours; one thread is what is compared."""
    best = float("inf")
    for _ in range(REPEAT):
        t = time.process_time()
        out = f()
        best = min(best, time.process_time() - t)
    return out, best


def bench_ifeval(rows, lm_eval_src):
    """IFEval's GPT-4 answers (541 prompts; the 539 lm-eval scores without a random draw),
    scored by lm-eval 0.4.13's ``process_results`` (langdetect seeded 0) and by ``IFEval``.
    Every cache of ours (langdetect's verdicts, its per-word n-grams) is emptied before each
    run: no answer is scored twice, so the comparison is cold on both sides."""
    import gzip

    sys.path.insert(0, str(REPO / "scripts" / "goldens"))
    sys.path.insert(1, str(lm_eval_src))  # immutabledict, unpacked beside lm-eval (it is not ours)
    from ifeval_goldens import _reference, _run

    from nlgmetrics.metrics.llm import _ifeval_checkers, _ifeval_langdetect
    from nlgmetrics.metrics.llm.ifeval import SCORES, IFEval, score_document

    recs = [json.loads(line) for line in gzip.open(REPO / "tests" / "goldens" / "ifeval" / "gpt4.jsonl.gz", "rt", encoding="utf-8")]
    process_results = _reference(Path(lm_eval_src))
    pairs = [(r["doc"], r["response"]) for r in recs if "error" not in _run(process_results, r["doc"], r["response"])]
    docs, responses = [d for d, _ in pairs], [r for _, r in pairs]
    theirs, t_peer = cpu_timed(lambda: [process_results(d, [r]) for d, r in pairs])

    metric = IFEval()

    def ours():
        _ifeval_checkers.detect_language.cache_clear()
        _ifeval_langdetect._PROFILES.clear()
        return metric.stats(responses, docs)

    _, t1 = cpu_timed(ours)
    for (d, r), ref in zip(pairs, theirs):
        f = score_document(d, r)
        assert dict(zip(SCORES, (all(f.strict), f.strict, all(f.loose), f.loose))) == ref
    row(rows, "IFEval: process_results' four values per answer (GPT-4's answers, caches cold)",
        "lm-eval 0.4.13 ifeval process_results (langdetect seeded)", len(pairs), t1, t1, len(pairs), t_peer)


def bench_multiple_choice(rows, lm_eval_src, n, peer_n):
    """``n`` generated documents (2 to 5 choices of English words, an int gold, Python
    floats, a third with unconditional log-likelihoods): lm-eval 0.4.13's
    ``ConfigurableTask.process_results`` (multiple_choice branch) per document and ``mean``,
    against ``MultipleChoice().stats``."""
    import random

    sys.path.insert(0, str(REPO / "scripts" / "goldens"))
    from multiple_choice_goldens import TaskStandIn, _functions

    from nlgmetrics.metrics.llm.multiple_choice import SCORES, MultipleChoice

    rng = random.Random(0)
    words = "the a of to in and is was for on with as by at it from that this be are or an new".split()
    lls, golds, choices, uncs = [], [], [], []
    for _ in range(n):
        k = rng.randint(2, 5)
        choices.append([" ".join(rng.choice(words) for _ in range(rng.randint(1, 6))) for _ in range(k)])
        lls.append([-round(rng.expovariate(0.2), 4) for _ in range(k)])
        golds.append(rng.randrange(k))
        uncs.append([-round(rng.expovariate(0.1), 4) for _ in range(k)] if rng.random() < 1 / 3 else None)
    ns = _functions(Path(lm_eval_src))
    process_results = ns["process_results"]
    tasks = []
    for i in range(peer_n):
        metrics = ["acc", "acc_norm", "acc_bytes"] + (["acc_mutual_info"] if uncs[i] is not None else [])
        results = [(x, False) for x in lls[i] + (uncs[i] or [])]
        tasks.append((TaskStandIn(choices[i], golds[i], metrics), results))
    theirs, t_peer = cpu_timed(lambda: [process_results(t, {}, r) for t, r in tasks])
    metric = MultipleChoice()
    seg, t1 = cpu_timed(lambda: metric.stats(lls, golds, choices, uncs))
    for j, m in enumerate(SCORES, start=1):
        got = [float(v) for v, has in zip(seg.counts[:peer_n, j], seg.counts[:peer_n, 5]) if m != "acc_mutual_info" or has]
        assert got == [t[m] for t in theirs if m in t], m
    row(rows, "multiple_choice: acc, acc_norm, acc_bytes, acc_mutual_info per document",
        "lm-eval 0.4.13 ConfigurableTask.process_results (multiple_choice)", n, t1, t1, peer_n, t_peer)


def bench_gsm8k_filters(rows, lm_eval_src, n, peer_n):
    """gsm8k's two pipelines and its ``exact_match`` on ``n`` generated chain-of-thought
    generations (numbers, ``#### answer`` on most, thousands separators, ``$``): lm-eval
    0.4.13's ``RegexFilter``/``TakeFirstFilter`` and ``exact_match_hf_evaluate`` per document
    (as its task calls it) against ``score_preset``."""
    import random

    sys.path.insert(0, str(REPO / "scripts" / "goldens"))
    from lm_eval_filters_goldens import load

    from nlgmetrics.metrics.llm.answer_filters import PRESETS, score_preset

    ref = load(Path(lm_eval_src))
    rng = random.Random(0)
    resps, targets = [], []
    for _ in range(n):
        a, b = rng.randint(1, 999), rng.randint(1, 99)
        answer = f"{a * b:,}" if rng.random() < 0.3 else str(a * b)
        text = f"Natalia sold {a} clips in April and {b} times as many in May. {a} * {b} = {a * b}. "
        text += rng.choice([f"#### {answer}", f"The answer is {answer}.", f"So ${answer}", ""])
        resps.append([text])
        targets.append(str(a * b) if rng.random() < 0.8 else str(a * b + 1))
    for name in ("gsm8k/strict-match", "gsm8k/flexible-extract"):
        steps, em = PRESETS[name]

        def theirs(steps=steps, em=em):
            out = resps[:peer_n]
            for step in steps:
                opts = {k: v for k, v in step.items() if k != "function"}
                out = ref[step["function"]](**opts).apply(out, [None] * len(out))
            return [ref["exact_match"](predictions=[p], references=[t], **em)["exact_match"] for p, t in zip(out, targets[:peer_n])]

        want, t_peer = cpu_timed(theirs)
        got, t1 = cpu_timed(lambda name=name: score_preset(name, resps, targets))
        assert got["exact_match"][:peer_n].tolist() == want, name
        row(rows, f"answer filters: {name} pipeline + exact_match", "lm-eval 0.4.13 filters + exact_match_hf_evaluate",
            n, t1, t1, peer_n, t_peer)


def bench_hendrycks_math(rows, lm_eval_src):
    """hendrycks_math's ``process_results`` (answer between the ``$``, the last ``\\boxed``
    of the solution, ``is_equiv``) on the goldens' generated generations and answers, against
    ``MathEquiv("hendrycks")``, the set cycled 20 times."""
    import importlib.util
    import types

    if "datasets" not in sys.modules:  # imported for a type hint only
        stub = sys.modules["datasets"] = types.ModuleType("datasets")
        stub.Dataset = object
    spec = importlib.util.spec_from_file_location("hendrycks_utils", Path(lm_eval_src) / "lm_eval" / "tasks" / "hendrycks_math" / "utils.py")
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)

    from nlgmetrics.metrics.llm.math_equiv import MathEquiv

    pairs = []
    for line in open(REPO / "tests" / "goldens" / "math_equiv" / "hendrycks_generations.jsonl", encoding="utf-8"):
        d = json.loads(line)
        if ref.last_boxed_only_string(d["reference"]) is not None:
            pairs.append((d["prediction"], d["reference"]))
    pairs *= 20  # neither side keeps anything from one pair to the next: the set cycled, to time it
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    want, t_peer = cpu_timed(lambda: [ref.process_results({"solution": r}, [p])["exact_match"] for p, r in pairs])
    metric = MathEquiv("hendrycks", prediction="generation", reference="solution")
    got, t1 = cpu_timed(lambda: metric.sentence_scores(preds, refs))
    assert got.tolist() == want
    row(rows, "math_equiv hendrycks: process_results per generation (string checker)", "lm-eval 0.4.13 hendrycks_math process_results",
        len(pairs), t1, t1, len(pairs), t_peer)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--peer-n", type=int, default=5_000)
    ap.add_argument("--llamafactory-wheel", default=None)
    ap.add_argument("--lm-eval-src", default=None, help="lm_eval 0.4.13's wheel unpacked (with immutabledict's): the IFEval and multiple-choice peers")
    ap.add_argument("--only-lm-eval", action="store_true", help="only the lm-eval rows (IFEval, multiple choice, filters, math strings)")
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
    if a.lm_eval_src:
        bench_lm_eval_rows(rows, a)
    if a.only_lm_eval:
        print_rows(rows)
        return
    zp, zr = wmt_en_zh(a.n)
    zpj, zrj = jieba_join(zp[: min(a.n, 20_000)]), jieba_join(zr[: min(a.n, 20_000)])
    k = -(-a.n // len(zpj))
    bench_package(rows, "rouge-chinese", rouge_chinese, (zpj * k)[: a.n], (zrj * k)[: a.n], a.peer_n)
    ep, er = cnndm(a.n)
    bench_package(rows, "pltrdy", rouge, ep, er, a.peer_n)
    if a.llamafactory_wheel:
        bench_llamafactory(rows, a.llamafactory_wheel, zp, zr, a.peer_n)
    bench_jieba(rows, zp, zr, a.peer_n)
    print_rows(rows)


def bench_lm_eval_rows(rows, a) -> None:
    """lm-eval's own scoring functions against ours, CPU time in one process."""
    import logging

    logging.disable(logging.WARNING)  # lm-eval's per-document warnings
    bench_ifeval(rows, a.lm_eval_src)
    bench_multiple_choice(rows, a.lm_eval_src, a.n, a.peer_n)
    bench_gsm8k_filters(rows, a.lm_eval_src, a.n, a.peer_n)
    bench_hendrycks_math(rows, a.lm_eval_src)


def print_rows(rows) -> None:
    print("| what | peer | pairs | ours 1 thread (s) | ours all cores (s) | peer pairs | peer (s) | ratio 1 thread | ratio all cores |")
    print("|---|---|---|---|---|---|---|---|---|")
    for what, peer, n, t1, tall, pn, tp, r1, rall in rows:
        f = lambda x, spec: format(x, spec) if isinstance(x, (int, float)) else x  # noqa: E731
        print(f"| {what} | {peer} | {n:,} | {t1:.2f} | {tall:.2f} | {f(pn, ',')} | {f(tp, '.2f')} | {f(r1, '.1f')}{'x' if r1 != '' else ''} | {f(rall, '.1f')}{'x' if rall != '' else ''} |")


if __name__ == "__main__":
    main()
