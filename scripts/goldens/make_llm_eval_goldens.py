"""Goldens for OpenCompass's ``JiebaRougeEvaluator`` and LongBench's ROUGE scorer, made by
running their own code once (with rouge 1.0.1, rouge-chinese 1.0.3, jieba 0.42.1):

- OpenCompass: ``icl_jieba_rouge_evaluator.py`` and ``general_postprocess`` read from the
  published wheel (``pip download opencompass==0.5.4 --no-deps``), executed with the
  registry decorator and base class stubbed;
- LongBench: ``LongBench/eval.py`` and ``LongBench/metrics.py`` of a checkout of
  https://github.com/THUDM/LongBench (``fuzzywuzzy``, unused by the ROUGE datasets,
  stubbed), ``scorer`` called at module level as ``python eval.py`` calls it, so its
  Python frame depth (which decides where ``rouge``'s recursive LCS traceback raises
  ``RecursionError``, scored 0.0) is the same.

    python scripts/goldens/make_llm_eval_goldens.py OPENCOMPASS_WHEEL LONGBENCH_DIR

writes ``tests/goldens/llm_presets/opencompass_longbench.json``.
"""

from __future__ import annotations

import ast
import json
import random
import sys
import types
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "tests" / "goldens" / "llm_presets" / "opencompass_longbench.json"

PIECES = ["今天", "天气", "很", "好", "不错", "。", "，", "？", "！", "…", "......", ".", ",", " ", "\n", "\t",
          "\u3000", "“", "”", "the", "a", "An", "cat", "ｆｕｌｌ", "１２", "😀", "é", "机器学习", "模型", "?", "’", "-"]

WHEEL, LONGBENCH = sys.argv[1], Path(sys.argv[2])


def function_source(src: str, name: str) -> str:
    tree = ast.parse(src)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_source_segment(src, node)


def opencompass_evaluator():
    wheel = zipfile.ZipFile(WHEEL)
    post = wheel.read("opencompass/utils/text_postprocessors.py").decode("utf-8")
    ev = wheel.read("opencompass/openicl/icl_evaluator/icl_jieba_rouge_evaluator.py").decode("utf-8")
    ns: dict = {"re": __import__("re")}
    exec(function_source(post, "general_postprocess"), ns)

    class Registry:
        def register_module(self, *a, **k):
            return lambda cls: cls

    class BaseEvaluator:
        def __init__(self, *a, **k):
            pass

    reg = types.ModuleType("opencompass.registry")
    reg.ICL_EVALUATORS = Registry()
    utils = types.ModuleType("opencompass.utils.text_postprocessors")
    utils.general_postprocess = ns["general_postprocess"]
    base = types.ModuleType("base")
    base.BaseEvaluator = BaseEvaluator
    for name, mod in {"opencompass": types.ModuleType("opencompass"), "opencompass.registry": reg, "opencompass.utils": types.ModuleType("opencompass.utils"),
                      "opencompass.utils.text_postprocessors": utils, "icl_base_evaluator": base}.items():
        sys.modules[name] = mod
    ev = ev.replace("from .icl_base_evaluator import", "from icl_base_evaluator import")
    ens: dict = {"__name__": "icl_jieba_rouge_evaluator"}
    exec(compile(ev, "icl_jieba_rouge_evaluator.py", "exec"), ens)
    return ens["JiebaRougeEvaluator"](), ns["general_postprocess"]


def zh_lines() -> tuple[list[str], list[str]]:
    d = CORPORA / "wmt22" / "en-zh"
    ref = (d / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()
    hyp = sorted((d / "system-outputs").glob("*.hyp.*"))[2].read_text(encoding="utf-8").splitlines()
    return hyp, ref


def adversarial(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14))) for _ in range(n)]


hyp, ref = zh_lines()
rng = random.Random(11)

# --- OpenCompass ---------------------------------------------------------------------
evaluator, general_postprocess = opencompass_evaluator()
oc_preds = hyp[400:600] + adversarial(rng, 120) + ["", "...", "the", "Hello, world", "同样"]
oc_refs = ref[400:600] + adversarial(rng, 120) + ["有内容", "有内容", "a cat", "hello", "同样"]
oc_sets = {"wmt22+adversarial": evaluator.score(oc_preds, oc_refs), "wmt22": evaluator.score(hyp[:300], ref[:300])}
oc_post = {t: general_postprocess(t) for t in oc_preds[-130:] + oc_refs[-130:]}

# --- LongBench -----------------------------------------------------------------------
sys.path.insert(0, str(LONGBENCH / "LongBench"))
fuzzy = types.ModuleType("fuzzywuzzy")
fuzzy.fuzz = types.SimpleNamespace(ratio=lambda a, b: 0)
sys.modules["fuzzywuzzy"] = fuzzy
import eval as lb_eval  # noqa: E402  (LongBench/eval.py)

cnndm = [json.loads(line) for line in (CORPORA / "cnndm_pointer_generator" / "summaries.jsonl").read_text(encoding="utf-8").splitlines()[:80]]
systems = [k for k in cnndm[0] if k not in ("id", "reference")]
en_preds = [" ".join(r[systems[0]]) for r in cnndm]
en_answers = [[" ".join(r["reference"]), " ".join(r[systems[1]])] for r in cnndm]
# long unpunctuated Chinese texts: the recursive traceback passes Python's limit on some
long_preds = ["".join(hyp[k : k + m]).replace("。", "，") for k, m in zip(range(0, 600, 20), [10, 20, 30, 40, 50, 60] * 5)]
long_answers = [["".join(ref[k : k + m]).replace("。", "，")] for k, m in zip(range(0, 600, 20), [10, 20, 30, 40, 50, 60] * 5)]
zh_preds = hyp[:150] + adversarial(rng, 60) + long_preds
zh_answers = [[r, ref[(i + 1) % len(ref)]] for i, r in enumerate(ref[:150])] + [[a] for a in adversarial(rng, 60)] + long_answers

LB: dict = {"cases": {}, "scores": {}, "per_example": {}}
for dataset, preds, answers in [("vcsum", zh_preds, zh_answers), ("dureader", zh_preds[:100], zh_answers[:100]),
                                ("gov_report", en_preds, en_answers), ("samsum", [p.replace(" . ", " .\n", 1) for p in en_preds], en_answers)]:
    LB["cases"][dataset] = {"predictions": preds, "answers": answers}
    LB["scores"][dataset] = lb_eval.scorer(dataset, preds, answers, None)  # module level, as `python eval.py`


def per_example(dataset, preds, answers):
    """Each example's best-answer value, the metric called at the frame depth scorer calls
    it (plain loops: a comprehension is a frame of its own on Python 3.11)."""
    metric = lb_eval.dataset2metric[dataset]
    values = []
    for k in range(len(preds)):
        p = preds[k].lstrip("\n").split("\n")[0] if dataset == "samsum" else preds[k]
        best = 0.0
        for a in answers[k]:
            best = max(best, metric(p, a, all_classes=None))
        values.append(best)
    return values


for dataset, case in LB["cases"].items():
    LB["per_example"][dataset] = per_example(dataset, case["predictions"], case["answers"])

OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text(json.dumps({
    "reference": f"opencompass 0.5.4 JiebaRougeEvaluator; LongBench eval.py/metrics.py (THUDM/LongBench); rouge 1.0.1, rouge-chinese 1.0.3; Python {sys.version.split()[0]}, recursion limit {sys.getrecursionlimit()}",
    "opencompass": {"predictions": oc_preds, "references": oc_refs, "first300": [hyp[:300], ref[:300]], "scores": oc_sets, "general_postprocess": oc_post},
    "longbench": LB,
}, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
print("wrote", OUT, oc_sets, LB["scores"])
