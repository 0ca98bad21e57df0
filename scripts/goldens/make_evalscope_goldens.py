"""Goldens for evalscope's General QA ``Rouge`` numbers, made by running its own code once
(evalscope 1.14.1, with rouge-chinese 1.0.3 and jieba 0.42.1):

``evalscope/metrics/utils/rouge.py``, read from the published
wheel (``pip download evalscope==1.14.1 --no-deps``), executed with evalscope's logger and
its bundled rouge-score (the English path's, unused here) stubbed. Per sample
``compute_rouge_score_one_sample_zh([prediction], [reference])`` as
``benchmarks/general_qa_vqa_metrics.py`` calls it, then the ``mean`` aggregation
(``sum(values) / len(values)``, ``metrics/utils/functions.py``).

    python scripts/goldens/make_evalscope_goldens.py EVALSCOPE_WHEEL

writes ``tests/goldens/llm_presets/evalscope.json``: the inputs (LLaMA-Factory goldens'
WMT22 en-zh pairs, English CNN/DM-like pairs, adversarial texts), the per-sample rows and
the means.
"""

from __future__ import annotations

import json
import logging
import sys
import types
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "goldens" / "llm_presets" / "evalscope.json"

ADVERSARIAL = [
    ("The cat sat on the mat.", "The cat is on the mat."),
    ("", "空的预测"),
    ("空的参考", ""),
    ("   ", "a b"),
    ("...", "。。。"),
    ("今天天气很好，适合出去散步。", "今天天气不错，适合散步。"),
    ("GPU 显存 is 80GB", "显存为 80 GB"),
    ("ＡＢＣ全角字符", "ABC 全角"),
    ("emoji 😀 很开心", "很开心 😀"),
    ("only english here", "只有中文在这里"),
    ("㐀㐁 rare CJK ext-A", "㐀 rare"),
    ("龥 boundary 龦", "龥 龦"),
    ("line one\nline two", "line one"),
    ("重复 重复 重复", "重复"),
    ("a", "a"),
]


def _load(wheel: str):
    z = zipfile.ZipFile(wheel)
    for name in ("evalscope", "evalscope.metrics", "evalscope.metrics.utils", "evalscope.utils"):
        mod = types.ModuleType(name)
        mod.__path__ = []
        sys.modules[name] = mod
    logger_mod = types.ModuleType("evalscope.utils.logger")
    logger_mod.get_logger = lambda: logging.getLogger("evalscope")
    sys.modules["evalscope.utils.logger"] = logger_mod
    # the Chinese path never calls the bundled rouge-score (the English path's): an empty stand-in
    bundled = types.ModuleType("evalscope.metrics.utils.bundled_rouge_score")
    bundled.rouge_scorer = types.ModuleType("evalscope.metrics.utils.bundled_rouge_score.rouge_scorer")
    sys.modules[bundled.__name__] = bundled
    sys.modules[bundled.rouge_scorer.__name__] = bundled.rouge_scorer
    rouge = types.ModuleType("evalscope.metrics.utils.rouge")
    exec(compile(z.read("evalscope/metrics/utils/rouge.py").decode("utf-8"), "rouge.py", "exec"), rouge.__dict__)
    return rouge


def main(wheel: str) -> None:
    rouge = _load(wheel)
    llama = json.loads((ROOT / "tests" / "goldens" / "llm_presets" / "llamafactory.json").read_text(encoding="utf-8"))
    pairs = list(zip(llama["predictions"][:200], llama["labels"][:200])) + ADVERSARIAL
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    rows = [rouge.compute_rouge_score_one_sample_zh([p], [r]) for p, r in pairs]
    keys = list(rows[0])
    means = {k: sum(row[k] for row in rows) / len(rows) for k in keys}  # evalscope's mean aggregation
    OUT.write_text(json.dumps({
        "reference": "evalscope 1.14.1 compute_rouge_score_one_sample_zh per sample, mean aggregation; rouge-chinese 1.0.3, jieba 0.42.1",
        "predictions": preds, "references": refs, "keys": keys,
        "rows": [[row[k] for k in keys] for row in rows], "means": means,
    }, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(rows)} samples; {means}")


if __name__ == "__main__":
    main(sys.argv[1])
