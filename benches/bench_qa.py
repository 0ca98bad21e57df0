"""SQuAD: nlgmetrics vs the official evaluation scripts, side by side, and the floor.

    python benches/bench_qa.py --scripts DIR [--questions 100000]

DIR holds the official evaluate-v1.1.py and evaluate-v2.0.py (run unchanged: their
``evaluate`` / ``get_raw_scores`` ... on the parsed inputs, as their ``main`` does after
reading the files). Data: generated SQuAD-like questions (1-3 gold answers of 1-8 words
from a 20k-word vocabulary with articles, punctuation and capitals; predictions overlap
the first gold answer), JSON already parsed on both sides. Ours: the script's inputs
(``evaluate_official``, which walks the dataset as the script does) and plain lists
(``SQuAD().corpus_score``), one thread. "From the files": the script's ``main`` minus the
printing (``json.load`` of each file, then the same evaluation) against
``evaluate_official_files`` (the core reads the dataset and predictions files itself). The floor (benches/floor ``qa``): lowercase,
strip punctuation and articles, split, hash and count shared tokens per gold answer, one
thread, no Python strings to read. Prints a markdown table; numbers are asserted equal.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nlgmetrics.metrics.qa.squad import SQuAD, SQuADv2, evaluate_official, evaluate_official_files

FLOOR = Path(__file__).resolve().parent / "floor"
ARTICLES = ["the", "a", "an", "The", "A"]
PUNCT = ["", "", "", ",", ".", "'s", "!", "?", ")", "-"]


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def generated(n: int, seed: int = 0):
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(20000)] + ["Paris", "Tower", "1889", "Eiffel", "New", "York"]

    def phrase(k: int) -> str:
        words = []
        for _ in range(k):
            if rng.random() < 0.2:
                words.append(rng.choice(ARTICLES))
            w = rng.choice(vocab)
            words.append((w.capitalize() if rng.random() < 0.2 else w) + rng.choice(PUNCT))
        return " ".join(words)

    qas, preds, na = [], {}, {}
    for i in range(n):
        golds = [phrase(rng.randint(1, 8)) for _ in range(rng.randint(1, 3))]
        qid = f"q{i}"
        qas.append({"id": qid, "question": "", "answers": [{"text": g, "answer_start": 0} for g in golds]})
        r = rng.random()
        g = golds[0].split()
        preds[qid] = golds[0] if r < 0.3 else " ".join(g[: rng.randint(0, len(g))] + phrase(rng.randint(0, 3)).split())
        na[qid] = round(rng.random(), 3)
    data = [{"title": "t", "paragraphs": [{"context": "", "qas": qas[i : i + 5]} for i in range(0, n, 5)]}]
    return data, preds, na


def timed(f, repeat: int = 3):
    """Median wall and CPU seconds of ``repeat`` runs, and the result."""
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = f()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return sorted(walls)[len(walls) // 2], sorted(cpus)[len(cpus) // 2], out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scripts", required=True, type=Path, help="folder with evaluate-v1.1.py and evaluate-v2.0.py")
    ap.add_argument("--questions", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    v1 = load(args.scripts / "evaluate-v1.1.py", "official_v1")
    v2 = load(args.scripts / "evaluate-v2.0.py", "official_v2")
    data, preds, na = generated(args.questions)
    qs = [(qa["id"], [a["text"] for a in qa["answers"]]) for art in data for p in art["paragraphs"] for qa in p["qas"]]
    plist, glist, nlist = [preds[q] for q, _ in qs], [g for _, g in qs], [na[q] for q, _ in qs]

    def v2_peer():
        has = v2.make_qid_to_has_ans(data)
        exact_raw, f1_raw = v2.get_raw_scores(data, preds)
        et = v2.apply_no_ans_threshold(exact_raw, na, has, 1.0)
        ft = v2.apply_no_ans_threshold(f1_raw, na, has, 1.0)
        out = v2.make_eval_dict(et, ft)
        v2.merge_eval(out, v2.make_eval_dict(et, ft, qid_list=[k for k, v in has.items() if v]), "HasAns")
        v2.find_all_best_thresh(out, preds, exact_raw, f1_raw, na, has)
        return dict(out)

    rows = []
    pw, pc, peer = timed(lambda: v1.evaluate(data, preds), 1)
    for label, fn in (("v1.1 from the script's inputs", lambda: evaluate_official({"version": "1.1", "data": data}, preds, n_threads=1)),
                      ("v1.1 from lists", lambda: SQuAD(n_threads=1).corpus_score(plist, glist).official)):
        w, c, ours = timed(fn, args.repeat)
        assert ours == peer, (ours, peer)
        rows.append((label, pc, c, w))
    pw2, pc2, peer2 = timed(v2_peer, 1)
    for label, fn in (("v2.0 + threshold search, from the script's inputs", lambda: evaluate_official({"version": "v2.0", "data": data}, preds, na, n_threads=1)),
                      ("v2.0 + threshold search, from lists", lambda: SQuADv2(n_threads=1).corpus_score(plist, glist, na_probs=nlist).official)):
        w, c, ours = timed(fn, args.repeat)
        assert ours == peer2, (ours, peer2)
        rows.append((label, pc2, c, w))
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, obj in (("dev-v1.1.json", {"version": "1.1", "data": data}), ("dev-v2.0.json", {"version": "v2.0", "data": data}),
                          ("pred.json", preds), ("na_prob.json", na)):
            paths[name] = str(Path(tmp) / name)
            with open(paths[name], "w", encoding="utf-8") as f:
                json.dump(obj, f)

        def read(name):
            with open(paths[name]) as f:
                return json.load(f)

        def v1_files_peer():
            return v1.evaluate(read("dev-v1.1.json")["data"], read("pred.json"))

        def v2_files_peer():
            nonlocal data, preds, na
            data, preds, na = read("dev-v2.0.json")["data"], read("pred.json"), read("na_prob.json")
            return v2_peer()

        for label, peer_fn, fn in (
            ("v1.1 from the files", v1_files_peer, lambda: evaluate_official_files(paths["dev-v1.1.json"], paths["pred.json"], n_threads=1)),
            ("v2.0 + threshold search, from the files", v2_files_peer,
             lambda: evaluate_official_files(paths["dev-v2.0.json"], paths["pred.json"], paths["na_prob.json"], n_threads=1)),
        ):
            _, pcf, peerf = timed(peer_fn, 1)
            w, c, ours = timed(fn, args.repeat)
            assert ours == peerf, (ours, peerf)
            rows.append((label, pcf, c, w))
    floor_s = None
    exe = Path(os.environ.get("CARGO_TARGET_DIR") or FLOOR / "target") / "release" / "nlgmetrics-floor"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=FLOOR, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "qa.tsv"
        clean = lambda s: " ".join(s.split())  # noqa: E731
        path.write_text("".join(clean(p) + "".join("\t" + clean(g) for g in gs) + "\n" for p, gs in zip(plist, glist)), encoding="utf-8")
        out = subprocess.run([str(exe), "qa", str(path), "1", str(args.repeat)], capture_output=True, text=True, check=True)
        floor_s = json.loads(out.stdout)["cpu_seconds"]
    n = args.questions
    print(f"SQuAD, {n:,} generated questions, one thread (CPU seconds, median of {args.repeat}; the official scripts once)\n")
    print("| case | official script s | nlgmetrics s | **× script** | floor s | nlgmetrics / floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, p, c, _ in rows:
        print(f"| {label} | {p:.3f} | {c:.4f} | **{p / c:.0f}×** | {floor_s:.4f} | {c / floor_s:.1f} |")
    print(f"\n`python benches/bench_qa.py --scripts DIR --questions {n}` (Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
