"""Goldens for the ``llamafactory`` preset: LLaMA-Factory 0.9.5's own ``ComputeSimilarity``
(``src/llamafactory/train/sft/metric.py``) run once on WMT22 en-zh system outputs and
generated adversarial text, with the real rouge-chinese 1.0.3, jieba 0.42.1 and nltk 3.10.4.

The class is read from the published wheel (never installed: its pins clash with this
project's environment) and executed with its package-relative imports replaced by their
values (``IGNORE_INDEX = -100``, ``numpify = np.asarray``, the availability checks true).
A stand-in tokenizer decodes row ``[i]`` to text ``i``, so ``__call__`` runs its own loop
over exactly the texts given.

    pip download llamafactory==0.9.5 --no-deps -d /tmp/lf
    python scripts/goldens/make_llamafactory_goldens.py /tmp/lf/llamafactory-0.9.5-py3-none-any.whl

writes ``tests/goldens/llm_presets/llamafactory.json``: the inputs, the per-example lists
(``score_dict``) and ``_dump()``'s means.
"""

from __future__ import annotations

import json
import random
import sys
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "tests" / "goldens" / "llm_presets" / "llamafactory.json"

PIECES = ["今天", "天气", "很", "好", "不错", "。", "，", "？", "！", "…", "……", "......", ".", " ", "  ", "\t", "\n",
          "\u3000", "“", "”", "the", "cat", "A", "ｆｕｌｌ", "１２", "😀", "é", "e\u0301", "机器学习", "模型", "?", "’"]


def compute_similarity_class(wheel: str):
    src = zipfile.ZipFile(wheel).read("llamafactory/train/sft/metric.py").decode("utf-8")
    lines = []
    for line in src.splitlines():
        if line.startswith("from ...extras") or line.startswith("from transformers.utils import"):
            continue
        lines.append(line)
    ns = {
        "IGNORE_INDEX": -100,
        "numpify": np.asarray,
        "is_jieba_available": lambda: True,
        "is_rouge_available": lambda: True,
        "is_nltk_available": lambda: True,
        "__name__": "llamafactory_metric",
    }
    exec(compile("\n".join(lines), "llamafactory/train/sft/metric.py", "exec"), ns)
    return ns["ComputeSimilarity"]


class Texts:
    """Decodes a row ``[i]`` to ``texts[i]``."""

    pad_token_id = 0

    def __init__(self, texts):
        self.texts = texts

    def batch_decode(self, rows, skip_special_tokens=True):
        return [self.texts[int(r[0]) - 1] for r in rows]


class EvalPrediction:
    def __init__(self, predictions, label_ids):
        self.predictions, self.label_ids = predictions, label_ids


def cases() -> tuple[list[str], list[str]]:
    d = CORPORA / "wmt22" / "en-zh"
    ref = (d / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()
    systems = sorted((d / "system-outputs").glob("*.hyp.*"))
    preds, labels = [], []
    for k, f in enumerate(systems[:2]):
        hyp = f.read_text(encoding="utf-8").splitlines()
        preds += hyp[k * 150 : k * 150 + 150]
        labels += ref[k * 150 : k * 150 + 150]
    rng = random.Random(20261127)
    for _ in range(150):
        preds.append("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))))
        labels.append("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))))
    preds += ["", "   ", "同样", "a", "重复重复重复", "Hello world.", "你好。你好。"]
    labels += ["有内容", "有内容", "同样", "", "重复", "hello world.", "你好。"]
    return preds, labels


def main(wheel: str) -> None:
    import jieba
    import nltk
    import rouge_chinese  # noqa: F401

    jieba.setLogLevel(60)
    cls = compute_similarity_class(wheel)
    preds, labels = cases()
    ids = np.arange(1, len(preds) + 1).reshape(-1, 1)
    metric = cls(tokenizer=Texts(preds))
    # predictions and labels decode through different tables: a tokenizer per side
    class Both(Texts):
        def __init__(self):
            self.calls = 0

        def batch_decode(self, rows, skip_special_tokens=True):
            self.calls += 1
            return Texts(preds if self.calls % 2 == 1 else labels).batch_decode(rows)

    metric.tokenizer = Both()
    metric(EvalPrediction(ids, ids.copy()), compute_result=False)
    lists = {k: list(v) for k, v in metric.score_dict.items()}
    means = metric._dump()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            {
                "reference": "llamafactory 0.9.5 ComputeSimilarity; rouge-chinese 1.0.3, jieba "
                + jieba.__version__ + ", nltk " + nltk.__version__ + ", numpy " + np.__version__,
                "predictions": preds,
                "labels": labels,
                "score_dict": lists,
                "means": means,
            },
            ensure_ascii=False,
            indent=0,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}: {len(preds)} examples, {means}")


if __name__ == "__main__":
    main(sys.argv[1])
