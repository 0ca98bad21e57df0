#!/usr/bin/env python3
"""Regenerate the ROUGE-1.5.5 golden values in tests/goldens/rouge155/.

Runs the original Perl script once per option set over the same evaluations and
records its per-evaluation R/P/F (``-d``) and its printed averages, with the exact
command lines. Needs Perl with XML::DOM and DB_File (Debian: ``apt-get install
libxml-dom-perl``) and the ROUGE-1.5.5 package directory (script plus ``data/``) with
``data/WordNet-2.0.exc.db`` rebuilt for the local Berkeley DB::

    cd ROUGE/data/WordNet-2.0-Exceptions && perl buildExeptionDB.pl . exc ../WordNet-2.0.exc.db

Usage::

    python scripts/goldens/rouge155_goldens.py --rouge-dir /path/to/ROUGE \
        --corpora ../shared/corpora --out tests/goldens/rouge155

The evaluations: every 40th document of the See et al. CNN/DM outputs
(cnndm_pointer_generator/summaries.jsonl; peer = pointer-gen-cov, models = the
reference and, for the multi-model runs, the baseline output as a second model), plus
a handful of edge cases (empty peer, punctuation only, CJK, hyphens, mixed case,
identical texts, one word). No model may be left without words: the script dies
("Illegal division by zero") computing ROUGE-W for such a model.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
from pathlib import Path

# name -> (ROUGE-1.5.5 options, number of models per evaluation)
RUNS: dict[str, tuple[list[str], int]] = {
    "n4_w_su4": (["-n", "4", "-w", "1.2", "-2", "4", "-u"], 1),
    "multiA_stem_s4": (["-n", "2", "-2", "4", "-U", "-m"], 2),
    "multiB_stem_sstar_w": (["-n", "2", "-w", "1.2", "-2", "-1", "-U", "-f", "B", "-m"], 2),
    "stop_alpha": (["-n", "2", "-s", "-p", "0.3", "-w", "1.5"], 1),
    "words30_multiA": (["-n", "2", "-l", "30", "-w", "1.2", "-2", "4", "-u"], 2),
    "bytes150_multiB": (["-n", "2", "-b", "150", "-w", "1.2", "-f", "B"], 2),
    "stem_stop_B_su9": (["-n", "3", "-m", "-s", "-f", "B", "-p", "0.7", "-2", "9", "-u", "-x"], 2),
    # -M (stem the models only) and -t (token counting unit)
    "models_stem_w_su4": (["-n", "2", "-w", "1.2", "-2", "4", "-u", "-M"], 2),
    "models_stem_B_sstar": (["-n", "1", "-w", "1.5", "-2", "-1", "-U", "-M", "-f", "B"], 2),
    "tokens_w_su4": (["-n", "2", "-w", "1.2", "-2", "4", "-u", "-t", "1"], 2),
    "tokens_stem_B_p": (["-n", "3", "-m", "-f", "B", "-p", "0.3", "-w", "1.2", "-t", "1"], 2),
    "counts_stem_s": (["-n", "2", "-m", "-s", "-2", "4", "-u", "-t", "2"], 2),
    "tokens_models_stem": (["-n", "2", "-M", "-w", "1.2", "-2", "4", "-t", "1"], 1),
}
COMMON = ["-c", "95", "-r", "1000", "-a", "-d", "-z", "SPL"]

EDGE_CASES = [
    # (peer sentences, model 1 sentences, model 2 sentences)
    ([], ["the cat sat on the mat ."], ["a cat was on a mat ."]),
    ([". , ! ?"], ["the cat sat on the mat ."], ["a cat was on a mat ."]),
    (["我爱北京天安门"], ["我爱北京天安门 the cat"], ["the cat"]),
    (["well-known state-of-the-art results -- again"], ["state of the art results are well known"], ["results"]),
    (["The Quick BROWN fox", "Jumps over THE lazy dog"], ["the quick brown fox jumps over the lazy dog"], ["quick dogs"]),
    (["the cat sat on the mat ."], ["the cat sat on the mat ."], ["the cat sat on the mat ."]),
    (["cat"], ["the cat sat on the mat ."], ["cat"]),
    (["they went home happily ."], ["they go home happy ."], ["the children are running to the best houses"]),
    (["the the the the the"], ["the cat and the dog and the bird"], ["the"]),
    (["$ 5 million in 2015 , up 3.5 %"], ["5 million dollars in 2015"], ["up 3.5 percent"]),
    (["   leading spaces here", "and a second line"], ["leading spaces are here", "second line"], ["a line"]),
    (["running runners ran quickly through the skies", "dying organizations generalized"], ["the runner runs quick in the sky", "organization dies"], ["generalization"]),
]


def load_evals(corpora: Path, step: int = 40) -> list[tuple[list[str], list[str], list[str]]]:
    evals = []
    with open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i % step == 0:
                d = json.loads(line)
                evals.append((d["pointer-gen-cov"], d["reference"], d["baseline"]))
    return evals + [tuple(e) for e in EDGE_CASES]


def write_lines(path: Path, sentences: list[str]) -> None:
    path.write_bytes("".join(s + "\n" for s in sentences).encode("utf-8"))


LINE = re.compile(r"^X (ROUGE-\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$")
AVG = re.compile(r"^X (ROUGE-\S+) Average_([RPF]): (\S+) \(\d+%-conf\.int\. (\S+) - (\S+)\)$")
# -t 2 prints raw corpus counts instead of averages
COUNTS = re.compile(r"^X (ROUGE-\S+) M_count: (\d+) P_count: (\d+) H_count: (\d+)$")


def parse(out: str, n: int) -> tuple[dict, dict, dict]:
    scores: dict[str, list] = {}
    averages: dict[str, dict] = {}
    counts: dict[str, list[int]] = {}
    for line in out.splitlines():
        m = COUNTS.match(line)
        if m:
            counts[m.group(1)] = [int(m.group(k)) for k in (2, 3, 4)]
            continue
        m = LINE.match(line)
        if m:
            name, i = m.group(1), int(m.group(2))
            scores.setdefault(name, [None] * n)[i - 1] = [float(m.group(3)), float(m.group(4)), float(m.group(5))]
            continue
        m = AVG.match(line)
        if m:
            averages.setdefault(m.group(1), {})[m.group(2)] = [float(m.group(3)), float(m.group(4)), float(m.group(5))]
    return scores, averages, counts


def perl_stems(script: Path, words: list[str], tmp: Path) -> list[str]:
    """Run the script's own `stem` (and `initialise`) subs on `words`."""
    src = script.read_text(encoding="latin-1")
    start = src.index("# Release 1")
    harness = tmp / "stem.pl"
    harness.write_text(src[start:] + "\n&initialise();\nwhile (my $w = <STDIN>) { chomp $w; print stem($w), \"\\n\"; }\n", encoding="latin-1")
    out = subprocess.run(["perl", str(harness)], input="\n".join(words) + "\n", capture_output=True, text=True, check=True).stdout
    return out.split("\n")[: len(words)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rouge-dir", required=True, type=Path)
    ap.add_argument("--corpora", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args()
    evals = load_evals(args.corpora)
    args.out.mkdir(parents=True, exist_ok=True)
    inputs = [{"peer": "\n".join(p), "models": ["\n".join(m1), "\n".join(m2)]} for p, m1, m2 in evals]
    (args.out / "inputs.json").write_text(json.dumps(inputs, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    perl_version = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True).stdout
    script = (args.rouge_dir / "ROUGE-1.5.5.pl").resolve()
    data = (args.rouge_dir / "data").resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for k, (p, m1, m2) in enumerate(evals):
            write_lines(tmp / f"{k}.peer", p)
            write_lines(tmp / f"{k}.m1", m1)
            write_lines(tmp / f"{k}.m2", m2)
        for name, (opts, n_models) in RUNS.items():
            lst = tmp / f"{name}.lst"
            with open(lst, "w") as f:
                for k in range(len(evals)):
                    models = " ".join(str(tmp / f"{k}.m{j + 1}") for j in range(n_models))
                    f.write(f"{tmp / f'{k}.peer'} {models}\n")
            cmd = ["perl", str(script), "-e", str(data), *opts, *COMMON, str(lst), "X"]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tmp).stdout
            scores, averages, counts = parse(out, len(evals))
            shown = ["perl", "ROUGE-1.5.5.pl", "-e", "data", *opts, *COMMON, f"{name}.lst", "X"]
            record = {
                "command": " ".join(shown),
                "options": opts,
                "n_models": n_models,
                "perl": perl_version,
                "scores": scores,
                "averages": averages,
            }
            if counts:
                record["counts"] = counts
            (args.out / f"{name}.json").write_text(json.dumps(record, indent=0) + "\n")
            print(name, {k: len(v) for k, v in scores.items()})
        # The Perl Porter stemmer on every word (longer than 3 letters) of the inputs.
        words = sorted({w for e in inputs for t in [e["peer"], *e["models"]] for w in re.findall(r"[a-z0-9]+", t.lower()) if len(w) > 3})
        stems = perl_stems(script, words, tmp)
        (args.out / "porter_stems.json").write_text(json.dumps(dict(zip(words, stems)), indent=0) + "\n")
        print("stems", len(words))


if __name__ == "__main__":
    main()
