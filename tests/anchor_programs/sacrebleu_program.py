"""A program written for sacrebleu: WMT22 zh-en systems scored with BLEU, chrF++ and TER."""
import sys
from pathlib import Path

import sacrebleu


def read(path):
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


pair = Path(sys.argv[1]) / "wmt22" / "zh-en"
N = 250
refs = [read(pair / f"generaltest2022.zh-en.ref.{x}.en")[:N] for x in "AB"]
systems = {p.name.split(".hyp.")[1]: read(p)[:N] for p in sorted((pair / "system-outputs").glob("*.hyp.*"))[:3]}

bleu, chrf, ter = sacrebleu.BLEU(), sacrebleu.CHRF(word_order=2), sacrebleu.TER()
for name, hyps in systems.items():
    for metric in (bleu, chrf, ter):
        score = metric.corpus_score(hyps, refs)
        print(name, score)
        print(score.format(width=3, signature=str(metric.get_signature())))
        print(score.format(is_json=True, signature=str(metric.get_signature())))
    b = bleu.corpus_score(hyps, refs)
    print(b.counts, b.totals, b.precisions, b.bp, b.sys_len, b.ref_len)
    print(sacrebleu.corpus_bleu(hyps, refs, tokenize="intl", lowercase=True).score)
    print(sacrebleu.raw_corpus_bleu(hyps, refs).score)
    print(sacrebleu.corpus_chrf(hyps, refs).score, sacrebleu.corpus_ter(hyps, refs).score)
    for i in range(3):
        print(bleu.sentence_score(hyps[i], [r[i] for r in refs]))
        print(sacrebleu.sentence_bleu(hyps[i], [refs[0][i]], smooth_method="floor"))
        print(sacrebleu.sentence_chrf(hyps[i], [r[i] for r in refs]), sacrebleu.sentence_ter(hyps[i], [refs[1][i]]))
print(bleu.get_signature(), chrf.get_signature(), ter.get_signature(), sep="\n")
zh = sacrebleu.BLEU(tokenize="zh", smooth_method="add-k", effective_order=True)
print(zh.corpus_score(hyps, refs[:1]), zh.get_signature().format(short=True))
