"""A program written for Hugging Face evaluate: WMT22 zh-en outputs and toy labels."""
import sys
from pathlib import Path

import evaluate

pair = Path(sys.argv[1]) / "wmt22" / "zh-en"
N = 120
refs_a = (pair / "generaltest2022.zh-en.ref.A.en").read_text(encoding="utf-8").split("\n")[:N]
refs_b = (pair / "generaltest2022.zh-en.ref.B.en").read_text(encoding="utf-8").split("\n")[:N]
hyps = (pair / "system-outputs" / "generaltest2022.zh-en.hyp.DLUT.en").read_text(encoding="utf-8").split("\n")[:N]
both = [[a, b] for a, b in zip(refs_a, refs_b)]

print(evaluate.load("bleu").compute(predictions=hyps, references=both))
print(evaluate.load("bleu").compute(predictions=hyps, references=refs_a, max_order=2, smooth=True))
print(evaluate.load("google_bleu").compute(predictions=hyps, references=both))
print(evaluate.load("sacrebleu").compute(predictions=hyps, references=both))
print(evaluate.load("chrf").compute(predictions=hyps, references=both, word_order=2))
print(evaluate.load("rouge").compute(predictions=hyps, references=refs_a, use_aggregator=False)["rougeL"][:5])
meteor = evaluate.load("meteor")
for h, r in zip(hyps[:40], both[:40]):
    meteor.add(prediction=h, reference=r)
print(meteor.compute())
print(evaluate.load("meteor").compute(predictions=hyps, references=refs_a, gamma=0.4))

exact_match = evaluate.load("exact_match")
print(exact_match.compute(predictions=hyps, references=refs_a))
print(exact_match.compute(predictions=["İstanbul", "The Cat!", "a1"], references=["istanbul", "the cat", "A"], ignore_case=True,
                          ignore_punctuation=True, ignore_numbers=True))
print(exact_match.compute(predictions=["a", "b"], references=["a", "c"], regexes_to_ignore=[]))

y_true = [0, 1, 2, 0, 1, 2, 1, 1, 0, 2]
y_pred = [0, 2, 1, 0, 0, 2, 1, 1, 0, 1]
print(evaluate.load("accuracy").compute(predictions=y_pred, references=y_true))
for name in ("f1", "precision", "recall"):
    metric = evaluate.load(name)
    metric.add_batch(predictions=y_pred[:5], references=y_true[:5])
    metric.add_batch(predictions=y_pred[5:], references=y_true[5:])
    print(name, metric.compute(average="macro"), evaluate.load(name).compute(predictions=[1, 0, 1, 1], references=[1, 1, 0, 1]))
