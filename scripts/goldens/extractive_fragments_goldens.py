"""Goldens for extractive_fragments (tests/goldens/extractive_fragments/), made by the
references' own code: lighteval 0.13's vendored summ_eval ``Fragments``
(``metrics/imports/data_stats_utils.py``) with its ``remove_braces`` normalisations, the
per-pair values and ``numpy.mean``; crfm-helm 0.5.16's ``Stat`` (``merge_stat``) for HELM's mean.

Run it with a Python that is NOT the project's venv (numpy only), pointing at the unpacked wheels:

    pip download --no-deps lighteval==0.13.0 crfm-helm==0.5.16 -d /tmp/refsrc
    (cd /tmp/refsrc && unzip -q lighteval-*.whl -d lighteval && unzip -q crfm_helm-*.whl -d crfm_helm)
    /tmp/ragas_venv/bin/python scripts/goldens/extractive_fragments_goldens.py --lighteval /tmp/refsrc/lighteval --helm /tmp/refsrc/crfm_helm

The references tokenize with spaCy (en_core_web_sm); these goldens use their
``tokenize=False`` path (strings of space-separated tokens: ``Fragments`` splits them with
``str.split()``) and token lists given directly, the two inputs nlgmetrics offers.
Real data: the CNN/DM test outputs in $NLGMETRICS_SHARED/corpora/cnndm_pointer_generator
(PTB-tokenised text, so whitespace tokens are the corpus's own tokens).
"""
from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import random
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "extractive_fragments"
N_REAL = 300
SYSTEMS = ("reference", "baseline", "pointer-gen", "pointer-gen-cov")


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def remove_braces(text):  # lighteval normalizations.remove_braces (== HELM's _remove_braces)
    if text.startswith("{"):
        text = text[1:]
    if text.endswith("}"):
        text = text[:-1]
    return text


def generated_cases(rng: random.Random) -> list[dict]:
    cases = [
        {"summary": "", "article": "some article text ."},
        {"summary": "a b c", "article": ""},
        {"summary": "", "article": ""},
        {"summary": "   ", "article": "x"},
        {"summary": "{the cat sat}", "article": "{The cat sat on the mat.}"},
        {"summary": "  {braces only inside}  ", "article": "{braces only inside"},
        {"summary": "The CAT The cat the Cat", "article": "the cat the cat"},
        {"summary": "a a a a a a", "article": "a a b a a a a"},
        {"summary": "İstanbul ǅemal ΣΑΣ straße", "article": "i̇stanbul ǆemal σας STRASSE straße"},
        {"summary": "x\u00a0y\u2003z\u3000w", "article": "w z y x y z"},
        {"summary": "日本語 の テスト", "article": "これ は 日本語 の テスト です"},
        {"summary": "no overlap at all", "article": "completely different words here"},
    ]
    vocab = [w for w in "the a of to and cat dog mat sat on in is was it he she they we".split()]
    for _ in range(40):
        art = [rng.choice(vocab) for _ in range(rng.randint(0, 120))]
        if art and rng.random() < 0.7:
            i = rng.randrange(len(art))
            summ = art[i:i + rng.randint(1, 15)] + [rng.choice(vocab) for _ in range(rng.randint(0, 6))]
        else:
            summ = [rng.choice(vocab) for _ in range(rng.randint(0, 20))]
        cases.append({"summary": " ".join(w.upper() if rng.random() < 0.2 else w for w in summ), "article": " ".join(art)})
    long_art = [rng.choice(vocab) for _ in range(3000)]
    cases.append({"summary": " ".join(long_art[100:400] + long_art[5:50]), "article": " ".join(long_art)})
    return cases


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lighteval", required=True, type=Path)
    ap.add_argument("--helm", required=True, type=Path)
    args = ap.parse_args()
    import numpy as np

    utils = load(args.lighteval / "lighteval/metrics/imports/data_stats_utils.py", "data_stats_utils")
    # statistic.py as shipped; its one import (MetricName, whose module pulls HELM's
    # scenarios) stubbed by a frozen dataclass with the same ``name`` field
    import dataclasses
    import types

    @dataclasses.dataclass(frozen=True)
    class MetricName:
        name: str

    for pkg in ("helm", "helm.benchmark", "helm.benchmark.metrics"):
        sys.modules.setdefault(pkg, types.ModuleType(pkg))
    stub = types.ModuleType("helm.benchmark.metrics.metric_name")
    stub.MetricName = MetricName
    sys.modules["helm.benchmark.metrics.metric_name"] = stub
    statistic = load(args.helm / "helm/benchmark/metrics/statistic.py", "helm.benchmark.metrics.statistic")
    Stat, merge_stat = statistic.Stat, statistic.merge_stat

    def per_pair(summary, article, case=False, normalise=True):
        if normalise:  # lighteval Extractiveness / HELM SummarizationMetric
            article, summary = remove_braces(article), remove_braces(summary.strip())
        # DataStatsMetric.evaluate_example with tokenize=False: Fragments on the strings
        f = utils.Fragments(summary, article, case=case)
        return [f.coverage(), f.density(), f.compression()]

    def means(rows):
        lighteval = [float(np.mean([r[j] for r in rows])) for j in range(3)]
        helm = []
        for j, name in enumerate(("coverage", "density", "compression")):
            stats = {}
            for r in rows:
                merge_stat(stats, Stat(MetricName(name)).add(float(r[j])))
            helm.append(stats[MetricName(name)].mean)
        return lighteval, helm

    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20180601)
    cases = generated_cases(rng)
    rows = [per_pair(c["summary"], c["article"]) for c in cases]
    rows_case = [per_pair(c["summary"], c["article"], case=True) for c in cases]
    rows_raw = [per_pair(c["summary"], c["article"], normalise=False) for c in cases]
    lighteval, helm = means(rows)
    # token lists given directly (spaCy-like whitespace tokens included): Fragments keeps lists as they are
    token_cases = [
        {"summary": ["The", " ", "cat", "\n", "sat"], "article": ["the", "cat", " ", "sat", "\n", "on", "mats"]},
        {"summary": [], "article": ["a"]},
        {"summary": ["{", "x", "}"], "article": ["{", "x", "}", "y"]},
        {"summary": ["a b", "c"], "article": ["a", "b", "a b", "c"]},
    ]
    token_rows = [[utils.Fragments(c["summary"], c["article"]).coverage(), utils.Fragments(c["summary"], c["article"]).density(),
                   utils.Fragments(c["summary"], c["article"]).compression()] for c in token_cases]
    (OUT / "generated.json").write_text(json.dumps({
        "cases": cases, "per_pair": rows, "per_pair_case_sensitive": rows_case, "per_pair_braces_kept": rows_raw,
        "lighteval_mean": lighteval, "helm_mean": helm,
        "token_cases": token_cases, "token_per_pair": token_rows,
    }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    corpus = Path(os.environ.get("NLGMETRICS_SHARED", "/work/shared")) / "corpora" / "cnndm_pointer_generator"
    articles = {}
    with gzip.open(corpus / "articles.jsonl.gz", "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i >= N_REAL:
                break
            d = json.loads(line)
            articles[d["id"]] = d["article"]
    real = {"n_documents": N_REAL, "systems": {}}
    with open(corpus / "summaries.jsonl", encoding="utf-8") as f:
        docs = [json.loads(next(f)) for _ in range(N_REAL)]
    for system in SYSTEMS:
        rows = [per_pair(" ".join(d[system]), articles[d["id"]]) for d in docs]
        lighteval, helm = means(rows)
        real["systems"][system] = {"per_pair": rows, "lighteval_mean": lighteval, "helm_mean": helm}
    (OUT / "cnndm_real.json").write_text(json.dumps(real) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
