"""Regenerate tests/goldens/meteor/* by running the METEOR 1.5 jar through pycocoevalcap.

Provenance: pycocoevalcap==1.2 (PyPI; meteor/meteor-1.5.jar built 2015-03-12,
data/paraphrase-en.gz), OpenJDK 17.0.15, invoked by pycocoevalcap's own ``Meteor``
class (``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``).

Command: ``python scripts/goldens/make_meteor_goldens.py [../shared/corpora]``

Outputs:
- ``coco_raw.tsv.gz``: every caption of the 19 captioning_coco system files, raw text
  (as in the corpus) for hypotheses and references: ``system, image, segment score,
  23 statistics``; plus ``coco_raw_corpus.json`` with the corpus score per system.
- ``coco_ptb_magic.json.gz``: mscoco__magic_result after pycocoevalcap's PTBTokenizer
  (the strings both implementations were given) with the jar's corpus and segment scores.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
OUT = REPO / "tests" / "goldens" / "meteor"


def load_coco(corpora: Path):
    c = corpora / "captioning_coco"
    refs = {}
    for line in (c / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"]
    systems = {}
    for f in sorted((c / "systems").glob("*.tsv")):
        rows = [line.split("\t", 1) for line in f.read_text(encoding="utf-8").split("\n") if line]
        systems[f.stem] = rows
    return refs, systems


def main() -> None:
    from pycocoevalcap.meteor.meteor import Meteor

    corpora = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpora"
    refs, systems = load_coco(corpora)
    OUT.mkdir(parents=True, exist_ok=True)
    m = Meteor()
    corpus_scores = {}
    with gzip.open(OUT / "coco_raw.tsv.gz", "wt", encoding="utf-8") as out:
        for name, rows in systems.items():
            gts = {i: refs[img] for i, (img, _) in enumerate(rows)}
            res = {i: [hyp] for i, (_, hyp) in enumerate(rows)}
            with m.lock:
                stats = [m._stat(res[i][0], gts[i]) for i in gts]
            corpus, scores = m.compute_score(gts, res)
            corpus_scores[name] = corpus
            for (img, _), s, st in zip(rows, scores, stats):
                ints = " ".join(str(int(float(x))) for x in st.split())
                out.write(f"{name}\t{img}\t{s!r}\t{ints}\n")
            print(name, corpus, flush=True)
    (OUT / "coco_raw_corpus.json").write_text(json.dumps(corpus_scores, indent=1) + "\n")

    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    rows = systems["mscoco__magic_result"]
    gts = {i: [{"caption": r} for r in refs[img]] for i, (img, _) in enumerate(rows)}
    res = {i: [{"caption": hyp}] for i, (_, hyp) in enumerate(rows)}
    tok = PTBTokenizer()
    gts_t, res_t = tok.tokenize(gts), tok.tokenize(res)
    corpus, scores = m.compute_score(gts_t, res_t)
    keys = list(gts_t)
    payload = {
        "system": "mscoco__magic_result",
        "corpus": corpus,
        "hyps": [res_t[k][0] for k in keys],
        "refs": [gts_t[k] for k in keys],
        "scores": list(scores),
    }
    with gzip.open(OUT / "coco_ptb_magic.json.gz", "wt", encoding="utf-8") as f:
        json.dump(payload, f)
    print("ptb magic", corpus)
    del m


if __name__ == "__main__":
    main()
