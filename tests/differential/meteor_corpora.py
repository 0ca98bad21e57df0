"""English-target segments of every shared corpus METEOR applies to, as ``(source, hypothesis,
references)``: COCO captions (19 systems, 5 references), E2E data-to-text (21 systems, 1-45
references), WMT22 ja-en and zh-en system outputs (reference A; zh-en also B), CNN/DM
summaries (3 systems, sentences joined), dialogue responses (8 model sets) and earnings-call
ASR transcripts cut into aligned 120-word windows (4 systems). The en-ja and en-zh WMT
directions are left out: METEOR 1.5 is English-only.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

Segment = tuple[str, str, list[str]]


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text.removesuffix("\n").split("\n")


def coco(root: Path) -> list[Segment]:
    c = root / "captioning_coco"
    refs = {}
    for line in (c / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"]
    out = []
    for f in sorted((c / "systems").glob("*.tsv")):
        for line in f.read_text(encoding="utf-8").split("\n"):
            if line:
                img, hyp = line.split("\t", 1)
                out.append((f"coco/{f.stem}", hyp, refs[img]))
    return out


def e2e(root: Path) -> list[Segment]:
    e = root / "e2e"
    refs: dict[str, list[str]] = {}
    with open(e / "testset_w_refs.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            refs.setdefault(row["mr"], []).append(row["ref"])
    out = []
    for f in sorted((e / "system_outputs_primary").glob("*.tsv")):
        with open(f, encoding="utf-8", newline="") as fh:
            rows = [r for r in csv.reader(fh, delimiter="\t") if r][1:]
        assert len(rows) == len(refs), f
        # rows are in the test set's MR order
        out += [(f"e2e/{f.stem}", hyp, r) for (_mr, hyp), r in zip(rows, refs.values())]
    return out


def wmt(root: Path) -> list[Segment]:
    out = []
    for pair in ("ja-en", "zh-en"):
        d = root / "wmt22" / pair
        ref_files = sorted(d.glob(f"generaltest2022.{pair}.ref.*.en"))
        refs = list(zip(*[_lines(f) for f in ref_files]))
        for f in sorted((d / "system-outputs").glob("*.en")):
            hyps = _lines(f)
            assert len(hyps) == len(refs), f
            out += [(f"wmt22/{pair}/{f.name.split('.')[-2]}", h, list(r)) for h, r in zip(hyps, refs)]
    return out


def cnndm(root: Path) -> list[Segment]:
    out = []
    for line in (root / "cnndm_pointer_generator" / "summaries.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        ref = " ".join(d["reference"])
        for system in ("baseline", "pointer-gen", "pointer-gen-cov"):
            out.append((f"cnndm/{system}", " ".join(d[system]), [ref]))
    return out


def dialogue(root: Path) -> list[Segment]:
    out = []
    for hyp_file in sorted((root / "dialogue_grade" / "eval_data").glob("*/*/human_hyp.txt")):
        hyps = _lines(hyp_file)
        refs = _lines(hyp_file.with_name("human_ref.txt"))
        name = f"dialogue/{hyp_file.parent.parent.name}/{hyp_file.parent.name}"
        out += [(name, h, [r]) for h, r in zip(hyps, refs)]
    return out


def earnings(root: Path, window: int = 120) -> list[Segment]:
    d = root / "earnings21_asr"
    refs = {r["id"]: r["text_with_punct"].split() for r in map(json.loads, (d / "references.jsonl").open(encoding="utf-8"))}
    out = []
    for f in sorted(d.glob("hyp_*.jsonl")):
        for h in map(json.loads, f.open(encoding="utf-8")):
            hw, rw = h["text_with_punct"].split(), refs[h["id"]]
            for k in range(0, len(rw), window):
                # the hypothesis window at the same relative position
                a, b = k * len(hw) // len(rw), min(len(hw), (k + window) * len(hw) // len(rw))
                out.append((f"earnings21/{f.stem[4:]}", " ".join(hw[a:b]), [" ".join(rw[k : k + window])]))
    return out


SOURCES = {"coco": coco, "e2e": e2e, "wmt22": wmt, "cnndm": cnndm, "dialogue": dialogue, "earnings21": earnings}


def all_segments(root: Path) -> dict[str, list[Segment]]:
    """Every segment per corpus, line breaks inside a text turned to spaces (the jar's line
    protocol cannot carry them)."""
    clean = lambda s: s.replace("\r", " ").replace("\n", " ")  # noqa: E731
    return {name: [(s, clean(h), [clean(r) for r in rs]) for s, h, rs in load(root)] for name, load in SOURCES.items()}
