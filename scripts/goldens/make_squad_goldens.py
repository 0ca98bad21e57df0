"""Goldens for the SQuAD metrics: runs the official evaluation scripts on fixed inputs.

    python scripts/goldens/make_squad_goldens.py --scripts DIR

DIR holds the official ``evaluate-v1.1.py`` and ``evaluate-v2.0.py`` (the SQuAD explorer
repository ships evaluate-v2.0.py; v1.1 is the script of the SQuAD site). They are run as
programs, unchanged, each input set through each; nothing of them is copied here.

Writes ``tests/goldens/squad/``:

- ``normalize.json``: adversarial strings and the scripts' ``normalize_answer`` of each.
- ``<case>/dev-v1.1.json``, ``dev-v2.0.json``, ``pred.json``, ``na_prob.json`` and
  ``expected.json``: for each run (v1.1; v2.0 without and with the probabilities, and with
  ``--na-prob-thresh``), the script's stdout, stderr and exit status.

Cases: ``coco`` (real captions from ../shared/corpora/captioning_coco: five reference
captions as gold answers, one system's caption as the prediction), ``zh`` (WMT22 en-zh
references and a system's output: Chinese answers) and ``adversarial`` (generated from a
seed: articles in every case, ASCII and full-width punctuation, Python-only whitespace,
combining marks, final sigma, emoji, empty and whitespace-only answers, duplicate ids,
unanswerable questions, tied no-answer probabilities, integer probabilities).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "tests" / "goldens" / "squad"

PIECES = [
    "a", "an", "the", "A", "An", "The", "THE", "tHe", "an.", "the,", "(the)", "a-b", "the_a", "l'the", "the's",
    "cat", "Cat", "dog", "New York", "1889", "3.14", "10,000", "Paris", "Tower", "an apple",
    "，", "。", "！", "？", "＂", "（", "）", "、", "—", "–", "…", "«", "»", "¿", "¡",
    "ＴＨＥ", "Ｔｈｅ", "ａ", "ａｎ", "１２３",
    " ", "  ", "\t", "\n", "\u3000", "\xa0", "\x1c", "\x1f", "\u2028", "\u200b", "\x85",
    "e\u0301", "the\u0301", "\u0301the", "İstanbul", "ΣΑΣ", "ΟΔΟΣ", "ß", "ﬁ", "Ǆ",
    "北京", "中国", "the北京", "北京the", "a中国", "😀", "the😀", "😀the",
    "x", "y", "z", "_", "__the__", "!", "?", ".", ",", "'", '"', "-", "$", "%",
    "١٢٣", "Ⅻ", "²", "½", "ﾃｽﾄ", "한국", "the한국",
]


def rand_text(rng: random.Random, lo: int = 0, hi: int = 8) -> str:
    parts = [rng.choice(PIECES) for _ in range(rng.randint(lo, hi))]
    sep = rng.choice(["", " ", " ", " ", "\t"])
    return sep.join(parts)


def normalize_strings(rng: random.Random) -> list[str]:
    fixed = ["", " ", "\u3000", "the", "The a an", "a.b", "the-the", "an_a", "é the", "ΣΑΣ ΣΑΣ", "İ", "Ⅻ the"]
    return fixed + [rand_text(rng, 0, 10) for _ in range(3000)]


def dataset(version: str, qas: list[dict]) -> dict:
    paragraphs = [{"context": "", "qas": qas[i : i + 7]} for i in range(0, len(qas), 7)]
    return {"version": version, "data": [{"title": "t", "paragraphs": paragraphs}]}


def qa(qid: str, golds: list[str]) -> dict:
    return {"id": qid, "question": "", "answers": [{"text": g, "answer_start": 0} for g in golds]}


def case_coco(rng: random.Random, n: int = 600) -> tuple[list[dict], list[dict], dict, dict]:
    refs = [json.loads(line) for line in (SHARED / "captioning_coco" / "references.jsonl").open()][:n]
    sys_file = SHARED / "captioning_coco" / "systems" / "flickr30k_model_to_mscoco__magic_result.tsv"
    hyps = dict(line.rstrip("\n").split("\t", 1) for line in sys_file.open(encoding="utf-8"))
    v1, v2, preds, na = [], [], {}, {}
    for i, r in enumerate(refs):
        qid = f"coco{i}"
        golds = r["references"]
        v1.append(qa(qid, golds))
        v2.append(qa(qid, [] if i % 7 == 3 else golds))
        preds[qid] = "" if i % 11 == 5 else hyps.get(r["image_name"], r["references"][0])
        na[qid] = round(rng.random(), 2)
    return v1, v2, preds, na


def case_zh(rng: random.Random, n: int = 600) -> tuple[list[dict], list[dict], dict, dict]:
    d = SHARED / "wmt22" / "en-zh"
    ref_a = (d / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()[:n]
    ref_b = (d / "generaltest2022.en-zh.ref.B.zh").read_text(encoding="utf-8").splitlines()[:n]
    hyp = (d / "system-outputs" / "generaltest2022.en-zh.hyp.DLUT.zh").read_text(encoding="utf-8").splitlines()[:n]
    v1, v2, preds, na = [], [], {}, {}
    for i in range(n):
        qid = f"zh{i}"
        golds = [ref_a[i], ref_b[i]]
        v1.append(qa(qid, golds))
        v2.append(qa(qid, [] if i % 5 == 0 else golds))
        preds[qid] = hyp[i] if i % 9 else ref_a[i]
        na[qid] = rng.choice([0, 1, 0.5, 0.25, 0.75, 0.125])
    return v1, v2, preds, na


def case_adversarial(rng: random.Random, n: int = 1500) -> tuple[list[dict], list[dict], dict, dict]:
    v1, v2, preds, na = [], [], {}, {}
    for i in range(n):
        qid = f"q{i}" if i % 97 else f"q{i - 1}"  # a few duplicate ids
        golds = [rand_text(rng, 0, 5) for _ in range(rng.randint(1, 4))]
        v1.append(qa(qid, golds))
        v2.append(qa(qid, [] if i % 6 == 0 else golds))
        r = rng.random()
        if r < 0.15:
            preds[qid] = rng.choice(golds)
        elif r < 0.2:
            preds[qid] = rng.choice(["", " ", "\u3000", "the", ". ,"])
        else:
            preds[qid] = rand_text(rng, 0, 6)
        na[qid] = rng.choice([0, 1, 0.0, 0.5, round(rng.random(), 1), round(rng.random(), 3)])
    return v1, v2, preds, na


def run(script: Path, *args: str) -> dict:
    p = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True)
    return {"args": list(args), "returncode": p.returncode, "stdout": p.stdout, "stderr": p.stderr}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scripts", required=True, type=Path, help="folder with evaluate-v1.1.py and evaluate-v2.0.py")
    args = ap.parse_args()
    v1_script, v2_script = args.scripts / "evaluate-v1.1.py", args.scripts / "evaluate-v2.0.py"
    OUT.mkdir(parents=True, exist_ok=True)

    spec = importlib.util.spec_from_file_location("squad_v2_official", v2_script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    texts = normalize_strings(random.Random(20261127))
    (OUT / "normalize.json").write_text(json.dumps([[t, mod.normalize_answer(t)] for t in texts], ensure_ascii=False, indent=0) + "\n", encoding="utf-8")

    for name, make in (("coco", case_coco), ("zh", case_zh), ("adversarial", case_adversarial)):
        d = OUT / name
        d.mkdir(exist_ok=True)
        v1, v2, preds, na = make(random.Random(f"squad-{name}"))
        if name == "adversarial":  # predictions missing for a few ids (v1.1 only: v2.0 stops on them)
            preds_v1 = {k: v for j, (k, v) in enumerate(preds.items()) if j % 53 != 7}
        else:
            preds_v1 = preds
        files = {"dev-v1.1.json": dataset("1.1", v1), "dev-v2.0.json": dataset("v2.0", v2), "pred.json": preds,
                 "pred-v1.1.json": preds_v1, "na_prob.json": na}
        for fname, obj in files.items():
            (d / fname).write_text(json.dumps(obj, ensure_ascii=False) + "\n", encoding="utf-8")
        expected = {
            "v1.1": run(v1_script, str(d / "dev-v1.1.json"), str(d / "pred-v1.1.json")),
            "v2.0": run(v2_script, str(d / "dev-v2.0.json"), str(d / "pred.json")),
            "v2.0-na": run(v2_script, str(d / "dev-v2.0.json"), str(d / "pred.json"), "-n", str(d / "na_prob.json")),
            "v2.0-na-t0.5": run(v2_script, str(d / "dev-v2.0.json"), str(d / "pred.json"), "-n", str(d / "na_prob.json"), "-t", "0.5"),
        }
        for run_ in expected.values():  # paths relative to the case folder
            run_["args"] = [Path(a).name if a.startswith(str(d)) else a for a in run_["args"]]
            run_["stderr"] = run_["stderr"].replace(str(d) + "/", "")
        (d / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(name, {k: (v["returncode"], v["stdout"][:80]) for k, v in expected.items()})


if __name__ == "__main__":
    main()
