"""A program written for jiwer: earnings call transcripts and WMT22 segments, words and characters."""
import json
import sys
from pathlib import Path

import jiwer

root = Path(sys.argv[1])
asr = root / "earnings21_asr"
refs = {json.loads(x)["id"]: json.loads(x)["text"] for x in (asr / "references.jsonl").open(encoding="utf-8")}
hyps = {json.loads(x)["id"]: json.loads(x)["text"] for x in (asr / "hyp_google.jsonl").open(encoding="utf-8")}
ids = sorted(refs)[:3]
reference, hypothesis = [refs[i] for i in ids], [hyps[i] for i in ids]

out = jiwer.process_words(reference, hypothesis)
print(out.wer, out.mer, out.wil, out.wip)
print(out.hits, out.substitutions, out.deletions, out.insertions)
print(out.alignments[0][:6])
print(jiwer.visualize_error_counts(out, top_k=8))

normalize = jiwer.Compose([
    jiwer.ToLowerCase(),
    jiwer.ExpandCommonEnglishContractions(),
    jiwer.RemovePunctuation(),
    jiwer.RemoveMultipleSpaces(),
    jiwer.Strip(),
    jiwer.ReduceToListOfListOfWords(),
])
print(jiwer.wer(reference, hypothesis, reference_transform=normalize, hypothesis_transform=normalize))
print(jiwer.wer(reference, hypothesis, reference_transform=jiwer.wer_standardize, hypothesis_transform=jiwer.wer_standardize))

pair = root / "wmt22" / "zh-en"
r = (pair / "generaltest2022.zh-en.ref.A.en").read_text(encoding="utf-8").split("\n")[:40]
h = (pair / "system-outputs" / "generaltest2022.zh-en.hyp.DLUT.en").read_text(encoding="utf-8").split("\n")[:40]
words = jiwer.process_words(r, h)
print(jiwer.visualize_alignment(words, show_measures=True, skip_correct=True))
chars = jiwer.process_characters(r[:5], h[:5])
print(chars.cer, chars.hits, chars.substitutions, chars.deletions, chars.insertions)
print(jiwer.visualize_alignment(chars, show_measures=False))
print(jiwer.cer(r, h), jiwer.mer(r, h), jiwer.wil(r, h), jiwer.wip(r, h))
for counts in jiwer.collect_error_counts(words):
    print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
