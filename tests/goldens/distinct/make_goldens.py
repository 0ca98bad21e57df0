"""Regenerate distinct_n.json: Distinct-N golden values on the GRADE dialogue responses.

The reference is the ``neural-dialogue-metrics/Distinct-N`` package (``distinct_n``
0.4.0; not on PyPI), run from a checkout:

    git clone https://github.com/neural-dialogue-metrics/Distinct-N
    git -C Distinct-N checkout e94edcb2e1d2230ff9e0f1821387d7f6d7af0c4f
    python tests/goldens/distinct/make_goldens.py --distinct-n Distinct-N \
        --corpora ../shared/corpora > tests/goldens/distinct/distinct_n.json

Responses are whitespace-split (``str.split()``; the GRADE text is pre-tokenized). For
each system and n = 1..4 it records ``distinct_n_sentence_level`` of every response
(``len(set(ngrams)) / len(tokens)``, 0.0 for an empty response) and
``distinct_n_corpus_level`` (their mean). The reference raises ``RuntimeError`` for a
response with 1 <= len < n - 1 tokens (its ``ngrams`` lets ``StopIteration`` escape a
generator); such responses get ``null`` and the corpus value is then ``null`` too.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path

SYSTEMS = [
    "convai2/bert_ranker",
    "convai2/dialogGPT",
    "convai2/transformer_generator",
    "convai2/transformer_ranker",
    "dailydialog/transformer_generator",
    "dailydialog/transformer_ranker",
    "empatheticdialogues/transformer_generator",
    "empatheticdialogues/transformer_ranker",
]


def read_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--distinct-n", required=True, type=Path, help="checkout of neural-dialogue-metrics/Distinct-N")
    ap.add_argument("--corpora", required=True, type=Path)
    args = ap.parse_args()
    sys.path.insert(0, str(args.distinct_n))
    from distinct_n import distinct_n_corpus_level, distinct_n_sentence_level

    commit = subprocess.run(["git", "-C", str(args.distinct_n), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = {
        "provenance": {
            "reference": "neural-dialogue-metrics/Distinct-N distinct_n 0.4.0",
            "commit": commit,
            "python": platform.python_version(),
            "data": "dialogue_grade/eval_data/<set>/<system>/human_hyp.txt (GRADE @ c6cec028)",
            "tokenization": "str.split()",
        },
        "sets": {},
    }
    for name in SYSTEMS:
        sents = [s.split() for s in read_lines(args.corpora / "dialogue_grade" / "eval_data" / name / "human_hyp.txt")]
        entry = {}
        for n in range(1, 5):
            per = []
            for s in sents:
                try:
                    per.append(distinct_n_sentence_level(s, n))
                except RuntimeError:
                    per.append(None)
            corpus = distinct_n_corpus_level(sents, n) if None not in per else None
            entry[str(n)] = {"corpus_level": corpus, "sentence_level": per}
        out["sets"][name] = entry
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
