"""Goldens for LongBench's classification, retrieval, count and code datasets
(tests/goldens/longbench_rest/), made by LongBench's own eval.py and metrics.py.

Run it with a Python whose packages are LongBench's pins, NOT the project's venv:

    python3 -m venv /tmp/lb_venv && /tmp/lb_venv/bin/pip install fuzzywuzzy==0.18.0 jieba rouge numpy
    /tmp/lb_venv/bin/python scripts/goldens/longbench_rest_goldens.py --longbench DIR

DIR holds THUDM/LongBench's LongBench/metrics.py and LongBench/eval.py (v1; commit 2e00731
was used). That venv has no python-Levenshtein, so fuzzywuzzy's fuzz.ratio is difflib's:
it writes scorer.json. For the other fuzz.ratio flavour, run it again with --levenshtein
from a venv with fuzzywuzzy==0.18.0 python-Levenshtein thefuzz: it writes
fuzz_levenshtein.json (fuzzywuzzy's and thefuzz's ratio of the same pairs).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "longbench_rest"

TREC_CLASSES = ["Abbreviation", "Expression abbreviated", "Animal", "Organ of body", "Color", "Invention, book and other creative piece",
                "Currency name", "Disease and medicine", "Event", "Food", "Musical instrument", "Language", "Letter like a-z",
                "Other entity", "Plant", "Product", "Religion", "Sport", "Element and substance", "Symbols and sign",
                "Techniques and method", "Equivalent term", "Vehicle", "Word with a special property", "Definition of something",
                "Description of something", "Manner of an action", "Reason", "Group or organization of persons", "Individual",
                "Title of a person", "Description of a person", "City", "Country", "Mountain", "Other location", "State",
                "Postcode or other code", "Number of something", "Date", "Distance, linear measure", "Price", "Order, rank",
                "Other number", "Lasting time of somethin", "Percent, fraction", "Speed", "Temperature", "Size, area and volume", "Weight"]
LSHT_CLASSES = ["农业、农村", "军事", "文化、休闲娱乐", "贸易", "体育", "国际", "国际足球", "足球", "经济", "财经", "科技", "教育", "法律、司法", "交通", "环境", "医药、卫生", "社会", "政治", "党政", "娱乐"]
CODE_LINES = ["    return self.weight * x + self.bias", "x = 1", "for (int i = 0; i < n; ++i) {", "        if not line.strip():",
              "public static void main(String[] args) {", "self.assertEqual(result, expected)", "}", "", "    pass",
              "ret = torch.cat([a, b], dim=-1)", "printf(\"%d\\n\", count);", "return 0;", "变量 = 函数(参数)", "    # a comment", "a" * 250]


def noisy(rng: random.Random, s: str) -> str:
    chars = list(s)
    for _ in range(rng.randint(0, 4)):
        op = rng.randrange(3)
        pos = rng.randint(0, len(chars))
        if op == 0:
            chars.insert(pos, rng.choice("abcxyz ()_=.;é中"))
        elif op == 1 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif chars:
            chars[min(pos, len(chars) - 1)] = rng.choice("qwe1 ")
    return "".join(chars)


def code_cases(rng: random.Random, n: int) -> tuple[list[str], list[list[str]]]:
    preds, answers = [], []
    prefixes = ["", "\n", "\n\n", "```python\n", "# next line\n", "// comment\n", "`x`\n#\n", " \n"]
    for _ in range(n):
        gt = rng.choice(CODE_LINES)
        line = noisy(rng, gt) if rng.random() < 0.8 else rng.choice(CODE_LINES)
        tail = rng.choice(["", "\n", "\nmore code", "\n```", "\n# trailing"])
        pred = rng.choice(prefixes) + line + tail
        if rng.random() < 0.07:
            pred = rng.choice(["", "\n", "```\n# only comments\n// here", "#" * 5])
        preds.append(pred)
        answers.append([gt] if rng.random() < 0.85 else [gt, noisy(rng, gt)])
    return preds, answers


def classification_cases(rng: random.Random, n: int, classes: list[str]) -> tuple[list[str], list[list[str]]]:
    preds, answers = [], []
    for _ in range(n):
        gt = rng.choice(classes)
        picks = rng.sample(classes, rng.randint(0, 3))
        if rng.random() < 0.6:
            picks.insert(rng.randint(0, len(picks)), gt)
        sep = rng.choice([", ", " ", "\n", "；", " or "])
        pred = rng.choice(["", "Type: ", "\n", "类别：", "\n\n"]) + sep.join(picks)
        preds.append(pred)
        answers.append([gt])
    return preds, answers


def number_forms(rng: random.Random, k: int) -> str:
    forms = [f"Paragraph {k}", f"paragraph {k}", f"Paragraph{k}", f"段落{k}", f"段落 {k}", f"{k}", f"0{k}", f"#{k}",
             f"Paragraph {k + 1}", f"{k}{k}", f"[{k}]", "三", f"{chr(0xFF10 + k % 10)}", f"{chr(0x0660 + k % 10)}", f"P{k}.", "none"]
    return rng.choice([" ", ", ", " and ", "\n", "，"]).join(rng.choice(forms) for _ in range(rng.randint(0, 4)))


def retrieval_cases(rng: random.Random, n: int, zh: bool) -> tuple[list[str], list[list[str]]]:
    preds, answers = [], []
    for _ in range(n):
        k = rng.randint(1, 30)
        gt = f"段落{k}" if zh else f"Paragraph {k}"
        if rng.random() < 0.1:
            gt = (f"答案是段落{k}，不是段落{k + 1}" if zh else f"Paragraph {k} (not Paragraph {k + 1})")
        if rng.random() < 0.05:
            gt = f"段落{chr(0xFF10 + k % 10)}" if zh else f"Paragraph {chr(0x0660 + k % 10)}"
        preds.append(number_forms(rng, k))
        answers.append([gt])
    return preds, answers


def count_cases(rng: random.Random, n: int) -> tuple[list[str], list[list]]:
    preds, answers = [], []
    for _ in range(n):
        k = rng.randint(1, 25)
        pred = rng.choice(["", f"{k}", f"There are {k} unique paragraphs.", f"{k + 1}", f"{k}, {k}, {k + 2}", f"0{k}", "seven",
                           f"The answer is {k}.\n{k}", f"{chr(0xFF10 + k % 10)}", f"{k}.5"])
        answers.append([k] if rng.random() < 0.2 else [str(k)])
        preds.append(pred)
    return preds, answers


def all_cases(seed: int) -> dict:
    rng = random.Random(seed)
    cases = {}
    for ds in ("lcc", "repobench-p"):
        p, a = code_cases(rng, 160)
        cases[ds] = {"predictions": p, "answers": a, "all_classes": None}
    for ds, classes in (("trec", TREC_CLASSES), ("lsht", LSHT_CLASSES)):
        p, a = classification_cases(rng, 160, classes)
        cases[ds] = {"predictions": p, "answers": a, "all_classes": classes}
    cases["passage_retrieval_en"] = dict(zip(("predictions", "answers"), retrieval_cases(rng, 160, False)), all_classes=None)
    cases["passage_retrieval_zh"] = dict(zip(("predictions", "answers"), retrieval_cases(rng, 160, True)), all_classes=None)
    cases["passage_count"] = dict(zip(("predictions", "answers"), count_cases(rng, 160)), all_classes=None)
    # the removal loop's skip: "Other" and "Other location" are both substrings of the answer
    cases["trec_removal_skip"] = {"dataset": "trec", "predictions": ["Other Other location Other number", "Other location, Other entity"],
                                  "answers": [["Other location"], ["Other entity"]], "all_classes": ["Other", "Other location", "Other number", "Other entity", "location"]}
    for c in cases.values():
        c["lengths"] = [rng.choice([10, 3999, 4000, 7999, 8000, 20000]) for _ in c["predictions"]]
    return cases


def fuzz_pairs(seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = [("", ""), ("a", ""), ("", "a"), ("abc", "abc"), ("ab", "ba"), ("x" * 300, "x" * 299 + "y"), ("a" * 250, "b" + "a" * 249)]
    for _ in range(400):
        a = rng.choice(CODE_LINES)
        b = noisy(rng, a) if rng.random() < 0.7 else rng.choice(CODE_LINES)
        pairs.append((a, b))
    alphabet = "ab"  # small alphabets: many ties at .5 after scaling
    for _ in range(300):
        pairs.append(("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))), "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))))
    return pairs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--longbench", required=True, help="folder with LongBench v1's metrics.py and eval.py")
    ap.add_argument("--levenshtein", action="store_true", help="write the python-Levenshtein / thefuzz fuzz.ratio golden")
    ap.add_argument("--seed", type=int, default=34)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    import warnings

    warnings.simplefilter("ignore")
    from fuzzywuzzy import fuzz

    if args.levenshtein:
        from thefuzz import fuzz as thefuzz

        assert fuzz.SequenceMatcher.__module__ == "fuzzywuzzy.StringMatcher", "python-Levenshtein is not installed"
        pairs = fuzz_pairs(args.seed)
        out = {"fuzzywuzzy_levenshtein": [fuzz.ratio(a, b) for a, b in pairs], "thefuzz": [thefuzz.ratio(a, b) for a, b in pairs], "pairs": pairs}
        (OUT / "fuzz_levenshtein.json").write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        return
    import difflib

    assert fuzz.SequenceMatcher is difflib.SequenceMatcher, "python-Levenshtein is installed: LongBench's pins have fuzzywuzzy on difflib"
    sys.path.insert(0, args.longbench)
    import eval as lb  # LongBench's eval.py

    cases = all_cases(args.seed)
    for name, c in cases.items():
        ds = c.get("dataset", name)
        c["dataset"] = ds
        rows = []
        for pred, golds in zip(c["predictions"], c["answers"]):  # scorer's loop, per example
            score = 0.0
            if ds in ["trec", "triviaqa", "samsum", "lsht"]:
                pred = pred.lstrip("\n").split("\n")[0]
            for g in golds:
                score = max(score, lb.dataset2metric[ds](pred, g, all_classes=c["all_classes"]))
            rows.append(score)
        c["rows"] = rows
        c["score"] = lb.scorer(ds, c["predictions"], c["answers"], c["all_classes"])
        c["score_e"] = lb.scorer_e(ds, c["predictions"], c["answers"], c["lengths"], c["all_classes"])
    pairs = fuzz_pairs(args.seed)
    out = {"source": "THUDM/LongBench 2e00731 LongBench/eval.py scorer, scorer_e; fuzzywuzzy 0.18.0 on difflib", "cases": cases,
           "fuzz_pairs": pairs, "fuzz_difflib": [fuzz.ratio(a, b) for a, b in pairs]}
    (OUT / "scorer.json").write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
