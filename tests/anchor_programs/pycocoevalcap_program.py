"""A program written for pycocoevalcap: COCO captions PTB-tokenized, then BLEU, ROUGE-L and CIDEr-D."""
import json
import sys
from pathlib import Path

from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.rouge.rouge import Rouge
from pycocoevalcap.cider.cider import Cider

coco = Path(sys.argv[1]) / "captioning_coco"
references = {}
for line in (coco / "references.jsonl").read_text(encoding="utf-8").splitlines()[:300]:
    d = json.loads(line)
    references[d["image_name"]] = d["references"]
system = sorted((coco / "systems").glob("*.tsv"))[0]
results = {}
for line in system.read_text(encoding="utf-8").splitlines():
    image, caption = line.split("\t", 1)
    if image in references:
        results[image] = caption

gts = {i: [{"caption": c} for c in refs] for i, refs in references.items()}
res = {i: [{"caption": c}] for i, c in results.items()}
tokenizer = PTBTokenizer()
gts, res = tokenizer.tokenize(gts), tokenizer.tokenize(res)
first = sorted(res)[:3]
for i in first:
    print(i, res[i], gts[i])
for name, scorer in (("Bleu", Bleu(4)), ("ROUGE_L", Rouge()), ("CIDEr", Cider())):
    score, scores = scorer.compute_score(gts, res)
    print(name, score)
    if name == "Bleu":
        print([list(s[:5]) for s in scores])
    else:
        print(list(scores[:5]))
print(Bleu(2).compute_score({1: ["a b c d"]}, {1: ["a b c e"]}, verbose=0))
