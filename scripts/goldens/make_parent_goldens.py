"""Regenerate tests/goldens/parent/parent_e2e.json: PARENT by the reference implementation.

The reference is ``language/table_text_eval/table_text_eval.py`` of google-research/language
(not on PyPI), run from a checkout:

    git clone https://github.com/google-research/language
    git -C language checkout 865fae65f63ef7e6b2989d4ff8b47f61750415a8
    .venv/bin/python scripts/goldens/make_parent_goldens.py language \
        --corpora ../shared/corpora > tests/goldens/parent/parent_e2e.json

It needs ``absl-py`` and ``six`` (both in the ``test`` extra's dependency tree); the module
imports TensorFlow only to open the co-occurrence file of the other entailment model, so a
stand-in module is put in ``sys.modules`` and TensorFlow is not needed.

Inputs go through the reference's own readers: for every system the script writes the
three files its command line takes (generations one per line; references joined by TAB;
tables as ``attribute|||value`` or ``head|||relation|||tail`` joined by TAB) and reads them
back with ``_text_reader`` / ``_table_reader`` (lowercasing, whitespace tokenization), then
calls ``parent(...)`` with the word-overlap model and each configuration below.

Data: the E2E test set (``e2e/testset.csv`` order, references grouped from
``e2e/testset_w_refs.csv``) and system outputs in ``e2e/system_outputs_primary``. Tables are
the meaning representations as (attribute, value) pairs, and, for the ``triples`` tables,
as (name, attribute, value) triples of every non-name attribute.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
import platform
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path

SYSTEMS = ["tgen", "adapt", "forge3", "sheff2", "zhang"]
CONFIGS = {
    "default": {"lambda_weight": 0.5, "smoothing": 0.00001, "max_order": 4},
    "lambda_none": {"lambda_weight": None, "smoothing": 0.00001, "max_order": 4},
    "lambda_0.2_smoothing_0.01": {"lambda_weight": 0.2, "smoothing": 0.01, "max_order": 4},
    "max_order_2_smoothing_0": {"lambda_weight": 0.7, "smoothing": 0.0, "max_order": 2},
}
MR_ITEM = re.compile(r"\s*([^\[\],]+?)\s*\[([^\]]*)\]\s*(?:,|$)")


def mr_pairs(mr: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in MR_ITEM.finditer(mr.strip())]


def mr_triples(mr: str) -> list[tuple[str, str, str]]:
    pairs = mr_pairs(mr)
    name = dict(pairs)["name"]
    return [(name, a, v) for a, v in pairs if a != "name"]


def load_e2e(corpora: Path):
    with open(corpora / "e2e" / "testset.csv", encoding="utf-8", newline="") as f:
        mrs = [r["MR"] for r in csv.DictReader(f)]
    refs: dict[str, list[str]] = {}
    with open(corpora / "e2e" / "testset_w_refs.csv", encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            refs.setdefault(r["mr"], []).append(r["ref"])
    systems = {}
    for name in SYSTEMS:
        with open(corpora / "e2e" / "system_outputs_primary" / f"{name}.tsv", encoding="utf-8-sig", newline="") as f:
            rows = [r for r in csv.reader(f, delimiter="\t") if r]
        assert [r[0].strip("'\"") for r in rows[1:]] == mrs, name
        systems[name] = [r[1] for r in rows[1:]]
    return mrs, [refs[m] for m in mrs], systems


def import_reference(checkout: Path):
    tf = types.ModuleType("tensorflow")
    tf.compat = types.ModuleType("tensorflow.compat")
    tf.compat.v1 = types.ModuleType("tensorflow.compat.v1")
    sys.modules.update({"tensorflow": tf, "tensorflow.compat": tf.compat, "tensorflow.compat.v1": tf.compat.v1})
    sys.path.insert(0, str(checkout))
    return importlib.import_module("language.table_text_eval.table_text_eval")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path, help="a checkout of google-research/language")
    ap.add_argument("--corpora", type=Path, required=True)
    ap.add_argument("--commit", default=None, help="the checkout's commit, when it is not a git work tree")
    args = ap.parse_args()
    tte = import_reference(args.checkout)
    commit = args.commit or subprocess.run(["git", "-C", str(args.checkout), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    mrs, refs, systems = load_e2e(args.corpora)
    out = {
        "provenance": {
            "reference": "google-research/language language/table_text_eval/table_text_eval.py, parent() with overlap_probability",
            "commit": commit,
            "python": platform.python_version(),
            "data": "e2e testset.csv order; references from testset_w_refs.csv; outputs from system_outputs_primary",
            "command": "python scripts/goldens/make_parent_goldens.py <checkout> --corpora ../shared/corpora",
        },
        "configs": CONFIGS,
        "results": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for table_kind, make in (("pairs", mr_pairs), ("triples", mr_triples)):
            (tmp / "tables.txt").write_text("".join("\t".join("|||".join(e) for e in make(m)) + "\n" for m in mrs), encoding="utf-8")
            (tmp / "refs.txt").write_text("".join("\t".join(r) + "\n" for r in refs), encoding="utf-8")
            for system, outputs in systems.items():
                (tmp / "gen.txt").write_text("".join(o + "\n" for o in outputs), encoding="utf-8")
                configs = CONFIGS if table_kind == "pairs" else {"default": CONFIGS["default"], "lambda_none": CONFIGS["lambda_none"]}
                for cname, cfg in configs.items():
                    p, r, f, all_f = tte.parent(
                        list(tte._text_reader(str(tmp / "gen.txt"))),
                        list(tte._text_reader(str(tmp / "refs.txt"), multiple=True)),
                        list(tte._table_reader(str(tmp / "tables.txt"))),
                        entailment_fn=tte.overlap_probability,
                        **cfg,
                    )
                    out["results"][f"{table_kind}/{system}/{cname}"] = {"precision": p, "recall": r, "f": f, "segment_f": all_f}
                    print(f"{table_kind}/{system}/{cname}: P={p:.6f} R={r:.6f} F={f:.6f}", file=sys.stderr)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
