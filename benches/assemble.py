"""Assemble BENCHMARKS.md from benches/results/*.md (written by benches/run_all.sh)."""

from __future__ import annotations

import platform
import re
from pathlib import Path

HERE = Path(__file__).parent
ORDER = [
    ("speed", "Speed: every case of issue #18 against its peer and the hardware floor"),
    ("startup", "CLI start-up: every subcommand's --help and a one-line run"),
    ("bleu", "BLEU (sacrebleu, nltk and pycocoevalcap peers)"),
    ("nltk_bleu", "BLEU, nltk flavour"),
    ("chrf", "chrF / chrF++"),
    ("ter", "TER"),
    ("wer", "WER family"),
    ("nist", "NIST"),
    ("rouge", "ROUGE"),
    ("caption", "Captioning: PTB tokenizer, BLEU-1..4, CIDEr-D, reward"),
    ("meteor", "METEOR 1.5"),
    ("diversity", "Distinct-n and Self-BLEU"),
    ("significance", "Paired significance tests"),
    ("classification", "Classification"),
    ("torchmetrics", "torchmetrics: its text metrics vs the TorchMetric adapter"),
    ("parent", "PARENT (data-to-text)"),
    ("scale", "Scale: streaming pairs from .gz, Dask"),
    ("mbr", "MBR decoding: expected-utility matrices"),
    ("bertscore", "BERTScore (CPU, all-MiniLM-L6-v2)"),
]


def main() -> None:
    out = [
        "# Benchmarks",
        "",
        "nlgmetrics and the tool it replaces run side by side on the same data in one process run",
        "(each benchmark script prints its own table; the numbers agree in every row marked so).",
        f"Machine: {platform.machine()}, 2 cores, 24 GiB, Python {platform.python_version()}, quiet (load < 1.5)",
        "unless a table states a load average (several sections were measured while other jobs",
        "ran: their wall times are inflated). nlgmetrics uses both cores (`n_threads=0`); the peers",
        "are single-threaded Python unless noted, so the CPU-time columns, where given, are the",
        "fairer comparison.",
        "",
        "Regenerate everything with `benches/run_all.sh` (then `python benches/assemble.py`);",
        "each section names the command that made it.",
        "",
    ]
    for name, title in ORDER:
        path = HERE / "results" / f"{name}.md"
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8").strip()
        m = re.match(r"<!-- (.*?) -->\s*", text)
        cmd = m.group(1) if m else f"python benches/bench_{name}.py"
        body = text[m.end():] if m else text
        body = re.sub(r"^#{1,2} ", "### ", body, flags=re.M)
        out += [f"## {title}", "", f"`{cmd}`", "", body, ""]
        notes = HERE / f"{name}_notes.md"  # hand-written analysis kept beside a generated table
        if notes.exists():
            out += [notes.read_text(encoding="utf-8").strip(), ""]
    (HERE.parent / "BENCHMARKS.md").write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    main()
