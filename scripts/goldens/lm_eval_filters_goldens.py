"""Goldens for ``nlgmetrics.metrics.llm.answer_filters``, made by running lm-evaluation-harness
0.4.13's own filters and ``exact_match_hf_evaluate`` (nothing of them is copied here):

    pip download lm_eval==0.4.13 --no-deps -d /tmp/x && cd /tmp/x && unzip -q lm_eval-0.4.13-*.whl -d src
    python scripts/goldens/lm_eval_filters_goldens.py --lm-eval-src /tmp/x/src

The wheel's ``lm_eval/filters/*.py`` and ``lm_eval/api/metrics.py`` are imported as they are,
with the registry decorators stubbed (``lm_eval.api.registry``) so that no other part of the
package loads. Inputs are generated (seeded): gsm8k-like generations with ``####``, several
numbers, ``$``, thousands separators, unicode digits and minus, empty and non-string
generations, repeats for ``majority_vote`` (ties), multiple-choice answers with punctuation,
case and choice texts that prefix one another. Where lm-eval raises, the golden keeps the
exception's name.

Writes ``tests/goldens/lm_eval_filters/cases.json``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "goldens" / "lm_eval_filters"

PIECES = [
    "#### ", "#### -", "The answer is ", "The final answer is ", "$", "1,234", "-5", "3.", ".5", "42",
    "0", "７", "−3", "12.50", " ", "\n", "foo", "Answer: ", ",", "..", "(B)", "answer is (C)", "\x00", "ß", "İ",
]
CHOICES = ["Paris", "paris!", "Guilty", "Guilty of Romance", "", "Don't know", "ÉTÉ", "42", "a.b", "(x)"]


def load(src: Path) -> dict:
    """The wheel's filter classes and metric functions, the registry stubbed."""
    sys.path.insert(0, str(src))
    for name in ("lm_eval", "lm_eval.api", "lm_eval.filters"):
        pkg = types.ModuleType(name)
        pkg.__path__ = [str(src / name.replace(".", "/"))]
        sys.modules[name] = pkg
    registry = types.ModuleType("lm_eval.api.registry")
    registry.register_filter = lambda name: (lambda cls: cls)
    registry.register_metric = lambda **kw: (lambda fn: fn)
    registry.register_aggregation = lambda name: (lambda fn: fn)
    sys.modules["lm_eval.api.registry"] = registry
    ext = importlib.import_module("lm_eval.filters.extraction")
    sel = importlib.import_module("lm_eval.filters.selection")
    tra = importlib.import_module("lm_eval.filters.transformation")
    met = importlib.import_module("lm_eval.api.metrics")
    return {
        "regex": ext.RegexFilter, "multi_choice_regex": ext.MultiChoiceRegexFilter,
        "remove_whitespace": ext.WhitespaceFilter, "take_first": sel.TakeFirstFilter,
        "take_first_k": sel.TakeKFilter, "majority_vote": sel.MajorityVoteFilter,
        "lowercase": tra.LowercaseFilter, "uppercase": tra.UppercaseFilter,
        "exact_match": met.exact_match_hf_evaluate,
    }


def text(rnd: random.Random) -> str:
    return "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 7)))


PIPELINES = [
    [{"function": "regex", "regex_pattern": "#### (\\-?[0-9\\.\\,]+)"}, {"function": "take_first"}],
    [{"function": "regex", "group_select": -1, "regex_pattern": "(-?[$0-9.,]{2,})|(-?[0-9]+)"}, {"function": "take_first"}],
    [{"function": "regex", "group_select": -1, "regex_pattern": "The final answer is ((-?[$0-9.,]{2,})|(-?[0-9]+))"}, {"function": "take_first"}],
    [{"function": "regex", "regex_pattern": "(\\d)(x)?", "fallback": "none"}, {"function": "majority_vote"}, {"function": "take_first"}],
    [{"function": "take_first_k", "k": 2}, {"function": "regex", "regex_pattern": "The answer is (\\-?[0-9\\.\\,]*[0-9]+)"}, {"function": "majority_vote"}, {"function": "take_first"}],
    [{"function": "remove_whitespace"}, {"function": "lowercase"}, {"function": "take_first"}],
    [{"function": "uppercase"}, {"function": "remove_whitespace"}, {"function": "take_first"}],
    [{"function": "regex", "regex_pattern": "(\\d+)", "group_select": 1}, {"function": "take_first"}],
    [{"function": "regex", "regex_pattern": "[0-9]", "group_select": -2, "fallback": ""}],
    [{"function": "take_first"}, {"function": "regex", "regex_pattern": "[0-9]"}],
    [{"function": "multi_choice_regex", "regex_pattern": "answer is \\((A|B|C|D)\\)"}, {"function": "take_first"}],
    [{"function": "multi_choice_regex", "regex_pattern": "answer is \\(([A-D])\\)", "ignore_case": True, "ignore_punctuation": True}, {"function": "take_first"}],
    [{"function": "multi_choice_regex", "regex_pattern": "zzz", "group_select": -1, "ignore_case": True, "regexes_to_ignore": ["the ", ","]}, {"function": "take_first"}],
]
EM_OPTIONS = [
    {"ignore_case": True, "ignore_punctuation": False, "regexes_to_ignore": [",", "\\$", "(?s).*#### ", "\\.$"]},
    {},
    {"ignore_case": True, "ignore_punctuation": True, "ignore_numbers": True},
    {"regexes_to_ignore": ["\\x00"]},
]


def run_pipeline(fns: dict, steps: list, resps: list, docs: list):
    try:
        out = resps
        for step in steps:
            opts = dict(step)
            out = fns[opts.pop("function")](**opts).apply(out, docs)
        return {"filtered": [r for r in out]}
    except Exception as e:  # the reference's own failure, kept by name
        return {"error": type(e).__name__}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lm-eval-src", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args()
    fns = load(args.lm_eval_src)
    rnd = random.Random(args.seed)
    cases = []
    for case in range(300):
        steps = PIPELINES[case % len(PIPELINES)]
        n_docs = rnd.randint(1, 4)
        repeats = rnd.randint(1, 4)
        resps = [[text(rnd) for _ in range(repeats)] for _ in range(n_docs)]
        if rnd.random() < 0.1:
            resps[0][0] = None
        docs = [{"choices": rnd.sample(CHOICES, rnd.randint(1, 5))} for _ in range(n_docs)]
        if "multi_choice_regex" in json.dumps(steps):
            for r, doc in zip(resps, docs):
                for i in range(len(r)):
                    if rnd.random() < 0.6:
                        r[i] = rnd.choice(["", "I pick ", "answer: "]) + rnd.choice(doc["choices"]).upper() * rnd.randint(0, 1) + text(rnd)
        got = run_pipeline(fns, steps, [list(r) for r in resps], docs)
        cases.append({"steps": steps, "resps": resps, "docs": docs, **got})
    em = []
    for case in range(400):
        pred, ref = text(rnd), text(rnd)
        if rnd.random() < 0.3:
            ref = pred.upper() if rnd.random() < 0.5 else pred + rnd.choice(["\x00", ".", "$", " "])
        opts = EM_OPTIONS[case % len(EM_OPTIONS)]
        value = float(fns["exact_match"](predictions=[pred], references=[ref], **opts)["exact_match"])
        em.append({"prediction": pred, "reference": ref, "options": opts, "exact_match": value})
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cases.json").write_text(
        json.dumps({"reference": "lm-eval 0.4.13", "seed": args.seed, "pipelines": cases, "exact_match": em}, ensure_ascii=False, indent=0) + "\n",
        encoding="utf-8",
    )
    print(f"{len(cases)} pipeline cases, {len(em)} exact_match cases -> {OUT / 'cases.json'}")


if __name__ == "__main__":
    main()
