"""Goldens for ragas_string / ragas_context / tool_call_f1 (tests/goldens/ragas/), made by
ragas 0.4.3's own metric classes (single_turn_ascore / multi_turn_ascore) and its
``safe_nanmean``. Run it with a Python that is NOT the project's venv:

    python3 -m venv /tmp/ragas_venv
    /tmp/ragas_venv/bin/pip install "ragas==0.4.3" rapidfuzz sacrebleu rouge-score "langchain-community<0.4"
    /tmp/ragas_venv/bin/python scripts/goldens/ragas_goldens.py

NaN (ragas' value for undefined samples) is written as null; a sample ragas raises on is
written as {"error": "<exception class>"}.
"""
from __future__ import annotations

import asyncio
import json
import math
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "ragas"


def run(coro):
    try:
        v = asyncio.run(coro)
    except Exception as e:  # noqa: BLE001 - the golden records which samples ragas refuses
        return {"error": type(e).__name__}
    return None if isinstance(v, float) and math.isnan(v) else v


def texts(rng: random.Random) -> list[str]:
    alphabet = "abcde é漢\u0301"
    fixed = ["", " ", "a", "the cat sat on the mat", "The cat sat on the mat.", "kitten", "sitting", "straße", "strasse",
             "日本語のテキスト", "x" * 70, "ab" * 40 + "c", "the cat. the dog. a bird", "the cat sat. on the mat"]
    out = list(fixed)
    for _ in range(60):
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))))
    words = "the a cat dog sat ran on in mat park quickly slowly".split()
    for _ in range(40):
        out.append(" ".join(rng.choice(words) for _ in range(rng.randint(1, 12))))
    return out


def main() -> None:
    import ragas
    from ragas.dataset_schema import MultiTurnSample, SingleTurnSample
    from ragas.messages import AIMessage, HumanMessage, ToolCall
    from ragas.metrics import (BleuScore, ExactMatch, IDBasedContextPrecision, IDBasedContextRecall,
                               NonLLMContextPrecisionWithReference, NonLLMContextRecall, NonLLMStringSimilarity,
                               RougeScore, StringPresence, ToolCallF1)
    from ragas.metrics._string import DistanceMeasure
    from ragas.utils import safe_nanmean

    assert ragas.__version__ == "0.4.3", ragas.__version__
    rng = random.Random(34)
    pool = texts(rng)
    pairs = [(rng.choice(pool), rng.choice(pool)) for _ in range(300)] + [(t, t) for t in pool[:20]]
    pairs += [("the cat sat on the mat", "the cats are sitting on mats"), ("a b c d", "a b c d e")]
    string_metrics = {
        "exact_match": ExactMatch(),
        "string_presence": StringPresence(),
        **{f"non_llm_string_similarity:{d.value}": NonLLMStringSimilarity(distance_measure=d) for d in DistanceMeasure},
        "bleu_score": BleuScore(),
        "rouge_score:rougeL:fmeasure": RougeScore(),
        "rouge_score:rouge1:precision": RougeScore(rouge_type="rouge1", mode="precision"),
        "rouge_score:rougeL:recall": RougeScore(mode="recall"),
    }
    strings = {"pairs": [{"response": r, "reference": ref} for r, ref in pairs], "values": {}, "means": {}}
    for name, metric in string_metrics.items():
        vals = [run(metric.single_turn_ascore(SingleTurnSample(response=r, reference=ref))) for r, ref in pairs]
        strings["values"][name] = vals
        nums = [float("nan") if v is None else v for v in vals if not isinstance(v, dict)]
        strings["means"][name] = safe_nanmean(nums) if all(not isinstance(v, dict) for v in vals) else None
    (OUT / "string.json").write_text(json.dumps(strings, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")

    # context metrics: lists of contexts (some empty, duplicated, unicode) and of ids
    samples = []
    for _ in range(150):
        ret = [rng.choice(pool) for _ in range(rng.randint(0, 5))]
        ref = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
        if ret and rng.random() < 0.3:
            ret.append(ret[0])  # duplicate
        if ref and ret and rng.random() < 0.4:
            ref.append(ret[-1])
        samples.append({"retrieved": ret, "reference": ref})
    id_samples = []
    for _ in range(150):
        ret = [rng.choice([1, 2, 3, "3", "a", "b", 10]) for _ in range(rng.randint(0, 5))]
        ref = [rng.choice([1, 2, "2", "a", 7, "c"]) for _ in range(rng.randint(0, 4))]
        id_samples.append({"retrieved": ret, "reference": ref})
    contexts = {"samples": samples, "id_samples": id_samples, "values": {}}
    for d in DistanceMeasure:
        for threshold in (0.5, 0.3, 0.8):
            p = NonLLMContextPrecisionWithReference(distance_measure=NonLLMStringSimilarity(distance_measure=d), threshold=threshold)
            r = NonLLMContextRecall(threshold=threshold)
            r.distance_measure = d
            contexts["values"][f"non_llm_context_precision_with_reference:{d.value}:{threshold}"] = [
                run(p.single_turn_ascore(SingleTurnSample(retrieved_contexts=s["retrieved"], reference_contexts=s["reference"]))) for s in samples]
            contexts["values"][f"non_llm_context_recall:{d.value}:{threshold}"] = [
                run(r.single_turn_ascore(SingleTurnSample(retrieved_contexts=s["retrieved"], reference_contexts=s["reference"]))) for s in samples]
    for name, metric in (("id_based_context_precision", IDBasedContextPrecision()), ("id_based_context_recall", IDBasedContextRecall())):
        contexts["values"][name] = [run(metric.single_turn_ascore(SingleTurnSample(
            retrieved_context_ids=s["retrieved"], reference_context_ids=s["reference"]))) for s in id_samples]
        contexts[f"{name}_mean"] = safe_nanmean([float("nan") if v is None else v for v in contexts["values"][name]])
    (OUT / "context.json").write_text(json.dumps(contexts, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")

    # tool calls
    names = ["search", "weather", "book"]
    argsets = [{}, {"q": "x"}, {"q": "y"}, {"q": ["a", "b"]}, {"q": {"n": 1}}, {"city": "Paris", "days": 2}]
    calls = []
    for _ in range(80):
        actual = [(rng.choice(names), rng.choice(argsets)) for _ in range(rng.randint(0, 4))]
        expected = [(rng.choice(names), rng.choice(argsets)) for _ in range(rng.randint(0, 3))]
        if actual and rng.random() < 0.5:
            expected.append(actual[0])
        msgs = [HumanMessage(content="hi"), AIMessage(content="ok", tool_calls=[ToolCall(name=n, args=a) for n, a in actual])]
        sample = MultiTurnSample(user_input=msgs, reference_tool_calls=[ToolCall(name=n, args=a) for n, a in expected])
        calls.append({"actual": actual, "expected": expected, "value": run(ToolCallF1().multi_turn_ascore(sample))})
    (OUT / "tool_call_f1.json").write_text(json.dumps(calls, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
