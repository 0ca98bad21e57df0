"""Regenerate tests/goldens/sari/goldens.json: SARI by the three original programs.

- ``easse``: EASSE ``easse/sari.py`` + ``easse/utils/preprocessing.py``
  (github.com/feralvam/easse @ 6a4352ec299ed03fda8ee45445ca43d9c7673e89), ``corpus_sari``
  and ``get_corpus_sari_operation_scores`` with their defaults (lowercase=True,
  tokenizer='13a', legacy=False, macro averaging, F1 for deletion); also tokenizer
  'intl' and lowercase=False on one case, and legacy=True on every case (its 'none' raises NotImplementedError under
  sacrebleu 2: BaseTokenizer is abstract). EASSE takes the references as streams
  (every segment the same number); for a case whose segments have different numbers of
  references the corpus value is EASSE's own ``compute_ngram_stats`` of each segment
  (on ``normalize``d text), summed, then ``compute_macro_sari`` — what ``corpus_sari``
  computes when the counts agree. Sentence values: ``corpus_sari`` of the one segment.
- ``evaluate``: Hugging Face evaluate ``metrics/sari/sari.py``
  (github.com/huggingface/evaluate @ a7dd338386a4fae9a1767e05eb9ef9479513d9e8):
  ``Sari._compute`` itself (its ``datasets``/``evaluate`` imports are stubbed: the
  computation does not use them); sentence values ``100 * SARIsent(normalize(...))``.
- ``xu2016``: ``SARI.py`` of github.com/cocoxu/simplification
  @ 35570464faa28f8f64d75e1c35b6770048e04adc (file last changed in 0210f15):
  ``SARIsent`` on the raw text; the corpus value is ``100 * (Σ SARIsent) / n`` (the
  script has no corpus function; this is the mean that evaluate's wrapper takes).

Usage, in an environment with sacrebleu==2.6.0 and sacremoses==0.2.0 (not the package's):
    python scripts/goldens/make_sari_goldens.py EASSE_DIR EVALUATE_SARI_PY XU_SARI_PY
where EASSE_DIR is a checkout holding ``easse/sari.py`` (its ``easse/__init__.py``
may be emptied: only ``sari`` and ``utils.preprocessing`` are imported).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import sys
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "corpora"
OUT = REPO / "tests" / "goldens" / "sari" / "goldens.json"


def load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def stub_evaluate() -> None:
    """Enough of ``datasets`` and ``evaluate`` for the metric script to import."""
    ds = types.ModuleType("datasets")
    ds.Features = ds.Value = ds.Sequence = lambda *a, **k: None
    ev = types.ModuleType("evaluate")
    ev.Metric = object
    ev.MetricInfo = lambda **k: None
    ev.utils = types.SimpleNamespace(file_utils=types.SimpleNamespace(add_start_docstrings=lambda *a: (lambda c: c)))
    sys.modules["datasets"], sys.modules["evaluate"] = ds, ev


def real_cases() -> list[dict]:
    cases = []
    zh = CORPORA / "wmt22" / "zh-en"
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    a = read(zh / "generaltest2022.zh-en.ref.A.en")
    b = read(zh / "generaltest2022.zh-en.ref.B.en")
    src = read(zh / "system-outputs" / "generaltest2022.zh-en.hyp.DLUT.en")
    hyp = read(zh / "system-outputs" / "generaltest2022.zh-en.hyp.HuaweiTSC.en")
    n = 300
    cases.append({"name": "wmt22_zhen_two_refs", "sources": src[:n], "predictions": hyp[:n], "references": [[x, y] for x, y in zip(a[:n], b[:n])]})
    arts = {}
    with gzip.open(CORPORA / "cnndm_pointer_generator" / "articles.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            arts[d["id"]] = d["article"]
            if len(arts) >= 150:
                break
    srcs, preds, refs = [], [], []
    with open(CORPORA / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["id"] not in arts:
                break
            srcs.append(" ".join(arts[d["id"]].split(" ")[:80]))
            preds.append(" ".join(d["pointer-gen-cov"]))
            refs.append([" ".join(d["reference"])])
    cases.append({"name": "cnndm_lead80_pgcov", "sources": srcs, "predictions": preds, "references": refs})
    return cases


WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "The", "CAT", ".", ",", "!", "?", "(", ")", "\"", "'s",
         "don't", "U.S.", "3.14", "1,000", "café", "naïve", "ΣΟΦΟΣ", "straße", "İstanbul", "猫", "が", "座った", "中文", "测试",
         "ＡＢＣ", "！", "。", "—", "&amp;", "<b>", "e.g.", "x-y", "--"]


def adversarial_cases() -> list[dict]:
    rng = random.Random(20161)
    cases = [
        {"name": "evaluate_docstring", "sources": ["About 95 species are currently accepted ."],
         "predictions": ["About 95 you now get in ."],
         "references": [["About 95 species are currently known .", "About 95 species are now accepted .", "95 species are now accepted ."]]},
        {"name": "xu2016_main", "sources": ["About 95 species are currently accepted ."] * 3,
         "predictions": ["About 95 you now get in .", "About 95 species are now agreed .", "About 95 species are currently agreed ."],
         "references": [["About 95 species are currently known .", "About 95 species are now accepted .", "95 species are now accepted ."]] * 3},
        {"name": "empty_and_identical", "sources": ["", "a b c", "a b c", "", "x y", "same text here ."],
         "predictions": ["", "", "a b c", "a b", "", "same text here ."],
         "references": [[""], ["a b"], ["a b c"], ["a"], [""], ["same text here ."]]},
        {"name": "whitespace", "sources": ["a  b\tc ", " lead", "tab\there", "   "],
         "predictions": ["a b c", "lead ", "tab here", " "],
         "references": [["a  b c"], [" lead"], ["tab\there"], ["  "]]},
        {"name": "repeated_ngrams", "sources": ["a a a a b b b b", "the the the cat", "x x x x x x"],
         "predictions": ["a a b b", "the cat the cat the cat", "x x x x x x x x"],
         "references": [["a a a b", "a b b b"], ["the cat", "the the cat"], ["x x", "x x x x x x x x x x"]]},
        {"name": "cjk_fullwidth_case", "sources": ["猫が座った。", "ＡＢＣ テスト ！", "ΣΟΦΟΣ İstanbul Straße", "中文 测试 中文"],
         "predictions": ["猫 が 座った 。", "ABC テスト!", "σοφος istanbul strasse", "中文 测试"],
         "references": [["猫が座った 。"], ["ＡＢＣ テスト"], ["ΣΟΦΟΣ İstanbul"], ["中文 测试 。"]]},
    ]
    def sent(k):
        return " ".join(rng.choice(WORDS) for _ in range(k))
    for name, nrefs in (("random_uniform_refs", lambda: 4), ("random_varying_refs", lambda: rng.randint(1, 5))):
        srcs, preds, refs = [], [], []
        for _ in range(120):
            s = sent(rng.randint(0, 14))
            toks = s.split(" ")
            # an output that keeps, deletes and adds a little
            p = " ".join(t for t in toks if rng.random() < 0.7) + (" " + sent(rng.randint(0, 3)) if rng.random() < 0.6 else "")
            if rng.random() < 0.1:
                p = s
            srcs.append(s)
            preds.append(p.strip(" ") if rng.random() < 0.8 else p)
            refs.append([" ".join(t for t in toks if rng.random() < 0.75) + " " + sent(rng.randint(0, 2)) for _ in range(nrefs())])
        cases.append({"name": name, "sources": srcs, "predictions": preds, "references": refs})
    return cases


def main(easse_dir: str, evaluate_py: str, xu_py: str) -> None:
    sys.path.insert(0, easse_dir)
    import easse.sari as es
    import easse.utils.preprocessing as prep

    stub_evaluate()
    ev = load(evaluate_py, "evaluate_sari")
    xu = load(xu_py, "xu_sari")

    def easse_values(srcs, preds, refs, **kw):
        counts = {len(r) for r in refs}
        if len(counts) == 1:
            streams = [list(x) for x in zip(*refs)] if refs and counts != {0} else []
            add, keep, dele = es.get_corpus_sari_operation_scores(srcs, preds, streams, **kw)
            corpus = es.corpus_sari(srcs, preds, streams, **kw)
        else:
            legacy = kw.get("legacy", False)
            lc, tok = kw.get("lowercase", True) and not legacy, kw.get("tokenizer", "13a")
            total = None
            for s, p, r in zip(srcs, preds, refs):
                st = es.compute_ngram_stats([s if legacy else prep.normalize(s, lc, tok)], [prep.normalize(p, lc, tok)], [[prep.normalize(x, lc, tok)] for x in r])
                total = st if total is None else tuple([a + b for a, b in zip(x, y)] for x, y in zip(total, st))
            a, k, d = es.compute_macro_sari(*total)
            add, keep, dele = 100.0 * a, 100.0 * k, 100.0 * d
            corpus = (add + keep + dele) / 3
        sentences = [es.corpus_sari([s], [p], [[x] for x in r], **kw) for s, p, r in zip(srcs, preds, refs)]
        return {"corpus": corpus, "add": add, "keep": keep, "del": dele, "sentences": sentences}

    out = {"cases": []}
    for case in real_cases() + adversarial_cases():
        srcs, preds, refs = case["sources"], case["predictions"], case["references"]
        entry = dict(case)
        entry["easse"] = easse_values(srcs, preds, refs)
        if case["name"] == "cjk_fullwidth_case":
            entry["easse_options"] = {f"{t}_{lc}": {"tokenizer": t, "lowercase": lc, **easse_values(srcs, preds, refs, tokenizer=t, lowercase=lc)}
                                      for t in ("13a", "intl") for lc in (True, False)}
        entry["easse_legacy"] = easse_values(srcs, preds, refs, legacy=True)
        entry["evaluate"] = {
            "corpus": ev.Sari._compute(None, srcs, preds, refs)["sari"],
            "sentences": [100 * ev.SARIsent(ev.normalize(s), ev.normalize(p), [ev.normalize(x) for x in r]) for s, p, r in zip(srcs, preds, refs)],
        }
        xs = [xu.SARIsent(s, p, r) for s, p, r in zip(srcs, preds, refs)]
        total = 0
        for v in xs:
            total += v
        entry["xu2016"] = {"corpus": 100 * (total / len(xs)), "sentences": [100 * v for v in xs], "sentences_raw": xs}
        out["cases"].append(entry)
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(out['cases'])} cases")


if __name__ == "__main__":
    main(*sys.argv[1:4])
