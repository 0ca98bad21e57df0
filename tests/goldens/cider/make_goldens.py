"""Regenerate the caption goldens (run once; the outputs are committed).

    python tests/goldens/cider/make_goldens.py --corpora ../shared/corpora \
        --cider-repo /path/to/vrama91/cider --ciderd-repo /path/to/ruotianluo/cider

Provenance (versions used for the committed files):
- PTB tokens: the Stanford CoreNLP 3.4.1 jar shipped in pycocoevalcap 1.2 (PyPI), run by
  pycocoevalcap's own ``PTBTokenizer.tokenize`` (Java: OpenJDK 17.0.15), on the
  references of captioning_coco (image order of references.jsonl, one run) and on the
  predictions of each system file (one run each) -> ``ptb_java.json.gz``.
- Unclipped CIDEr: vrama91/cider @ f281464 ``pyciderevalcap/cider/cider_scorer.py``
  (Python 2 source; executed after replacing ``iteritems``/``xrange`` by their Python 3
  names, nothing else), df_mode="corpus", on the PTB-tokenized captions of the first
  600 images of two systems -> ``cider_unclipped.json``.
- Fixed training df: ruotianluo/cider @ dbb3960 ``pyciderevalcap/ciderD/ciderD_scorer.py``
  with ``df_mode`` pointing at a pickle ``{'document_frequency', 'ref_len'}`` built the
  way self-critical.pytorch's prepro_ngrams does (one document per image) from the
  PTB-tokenized references of images 0..3999 ("training"); scored on images 4000..4999
  of two systems -> ``cider_fixed_df.json`` (also ``train_df.pkl`` is NOT committed:
  the test rebuilds the df from the corpus).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import pickle
import sys
import tempfile
import types
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SYSTEMS = ["mscoco__magic_result", "flickr30k_model_to_mscoco__top_k_result_run_1"]


def load_corpus(corpora: Path):
    refs = {}
    for line in open(corpora / "captioning_coco" / "references.jsonl", encoding="utf-8"):
        row = json.loads(line)
        refs[row["image_name"]] = row["references"]
    systems = {}
    for f in sorted((corpora / "captioning_coco" / "systems").glob("*.tsv")):
        rows = [l.rstrip("\n").split("\t", 1) for l in open(f, encoding="utf-8") if l.strip()]
        systems[f.stem] = rows
    return refs, systems


def java_ptb(captions_by_key):
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    out = PTBTokenizer().tokenize({k: [{"caption": c} for c in caps] for k, caps in captions_by_key.items()})
    return out


def load_py2_module(path: Path, name: str):
    src = path.read_text().replace(".iteritems()", ".items()").replace("xrange(", "range(")
    mod = types.ModuleType(name)
    exec(compile(src, str(path), "exec"), mod.__dict__)
    return mod


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", required=True, type=Path)
    ap.add_argument("--cider-repo", type=Path)
    ap.add_argument("--ciderd-repo", type=Path)
    a = ap.parse_args()
    refs, systems = load_corpus(a.corpora)

    # 1. PTB tokens from the Java tokenizer, in pipeline order.
    tok_refs = java_ptb({k: v for k, v in refs.items()})
    ptb = {"references": [tok_refs[k] for k in refs]}
    for name, rows in systems.items():
        keyed = {i: [c] for i, (_, c) in enumerate(rows)}
        t = java_ptb(keyed)
        ptb[name] = [t[i][0] for i in range(len(rows))]
    with gzip.open(HERE / "ptb_java.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(ptb, fh, ensure_ascii=False, separators=(",", ":"))

    names = list(refs)
    ref_tok = dict(zip(names, ptb["references"]))

    # 2. Unclipped CIDEr (vrama91) on the first 600 images of two systems.
    if a.cider_repo:
        scorer_mod = load_py2_module(a.cider_repo / "pyciderevalcap/cider/cider_scorer.py", "vrama91_cider_scorer")
        out = {}
        for name in SYSTEMS:
            rows = systems[name][:600]
            hyps = ptb[name][:600]
            sc = scorer_mod.CiderScorer(n=4)
            for (img, _), h in zip(rows, hyps):
                sc += (h, ref_tok[img])
            mean, per = sc.compute_score("corpus")
            out[name] = {"images": [img for img, _ in rows], "corpus": float(mean), "per_image": [float(x) for x in per]}
        (HERE / "cider_unclipped.json").write_text(json.dumps({"source": "vrama91/cider@f281464 cider_scorer.py, df_mode=corpus", "systems": out}, indent=0))

    # 3. Fixed training df (ruotianluo CiderD) on images 4000.. of two systems.
    if a.ciderd_repo:
        sys.path.insert(0, str(a.ciderd_repo))
        from pyciderevalcap.ciderD.ciderD import CiderD

        train = names[:4000]
        df = defaultdict(float)
        for img in train:
            for ng in set(tuple(ws[i : i + k]) for r in ref_tok[img] for ws in [r.split()] for k in range(1, 5) for i in range(len(ws) - k + 1)):
                df[ng] += 1
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "data"))
            with open(os.path.join(d, "data", "train-df.p"), "wb") as fh:
                pickle.dump({"document_frequency": df, "ref_len": len(train)}, fh)
            cwd = os.getcwd()
            os.chdir(d)
            try:
                scorer = CiderD(df="train-df")
            finally:
                os.chdir(cwd)
        out = {}
        test_set = set(names[4000:])
        for name in SYSTEMS:
            pairs = [(img, h) for (img, _), h in zip(systems[name], ptb[name]) if img in test_set]
            res = [{"image_id": i, "caption": [h]} for i, (img, h) in enumerate(pairs)]
            gts = {i: ref_tok[img] for i, (img, _) in enumerate(pairs)}
            mean, per = scorer.compute_score(gts, res)
            out[name] = {"images": [img for img, _ in pairs], "corpus": float(mean), "per_image": [float(x) for x in per]}
        (HERE / "cider_fixed_df.json").write_text(json.dumps({"source": "ruotianluo/cider@dbb3960 CiderD(df=<pickle of images 0..3999>)", "train_images": 4000, "systems": out}, indent=0))


if __name__ == "__main__":
    main()
