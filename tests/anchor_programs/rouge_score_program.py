"""A program written for rouge-score: CNN/DM pointer-generator summaries against the references."""
import json
import sys
from pathlib import Path

import numpy as np
from rouge_score import rouge_scorer, scoring

docs = [json.loads(line) for line in (Path(sys.argv[1]) / "cnndm_pointer_generator" / "summaries.jsonl").open(encoding="utf-8")][:150]
types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
scorer = rouge_scorer.RougeScorer(types, use_stemmer=True)
np.random.seed(1234)
aggregator = scoring.BootstrapAggregator(confidence_interval=0.9, n_samples=500)
for i, doc in enumerate(docs):
    target = "\n".join(doc["reference"])
    prediction = "\n".join(doc["pointer-gen"])
    scores = scorer.score(target, prediction)
    aggregator.add_scores(scores)
    if i < 5:
        print(doc["id"], scores)
    if i < 3:
        print(scorer.score_multi([target, "\n".join(doc["baseline"])], prediction))
result = aggregator.aggregate()
for key in types:
    print(key, result[key])
    print(f"{key}: P={result[key].mid.precision:.6f} R={result[key].mid.recall:.6f} F={result[key].mid.fmeasure:.6f}")
print(rouge_scorer.RougeScorer(["rouge3", "rougeL"]).score("the cat sat on the mat", "the cat is on the mat"))
