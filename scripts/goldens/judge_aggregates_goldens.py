"""Goldens for nlgmetrics.analysis's judge aggregates (tests/goldens/judge_aggregates/), made by
the references' own code, read from their sources at run time (none of it is committed here):

- alpaca_eval 0.6.6 (``pip download alpaca_eval==0.6.6 --no-deps``, unzipped: --alpaca-eval DIR
  holding alpaca_eval/): ``metrics.get_winrate`` / ``pairwise_to_winrate`` and
  ``metrics.glm_winrate.get_length_controlled_winrate``;
- lmarena/arena-hard-auto (git dir, --arena-hard GIT_DIR): ``utils_math.py`` at commit 0489bf3,
  the last release that fits Bradley-Terry with scikit-learn (``compute_mle_elo``,
  ``get_bootstrap_result``, ``predict_win_rate``, ``get_win_rate_column``);
- lm-sys/FastChat (git dir, --fastchat GIT_DIR): ``compute_elo`` of ``elo_analysis.py`` before
  commit e208d567 (the Chatbot Arena notebook's) and of ``rating_systems.py`` at HEAD;
- MicrosoftTranslator/GEMBA (git dir, --gemba GIT_DIR): ``gemba/gemba_mqm_utils.parse_mqm_answer``.

Run it with a Python of its own, NOT the project's venv:

    python3 -m venv /tmp/judge_venv
    /tmp/judge_venv/bin/pip install "numpy<2.3" "pandas<3" scikit-learn==1.5.2 patsy
    /tmp/judge_venv/bin/python scripts/goldens/judge_aggregates_goldens.py \\
        --alpaca-eval DIR --arena-hard GIT --fastchat GIT --gemba GIT
    # and the length-controlled cases again with scikit-learn >= 1.9 (stable group folds):
    python3 -m venv /tmp/judge_venv2 && /tmp/judge_venv2/bin/pip install "numpy<2.3" "pandas<3" scikit-learn==1.9.1 patsy
    /tmp/judge_venv2/bin/python scripts/goldens/judge_aggregates_goldens.py ... --only-length-controlled

Modules alpaca_eval imports only for its other features (datasets, huggingface_hub, ...) are
stubbed; ``hf_hub_download`` returns a generated ``df_gamed.csv`` whose instruction
difficulties the goldens carry as inputs. The inputs are generated here with fixed seeds.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from unittest import mock

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "judge_aggregates"


def git_show(git_dir: str, spec: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, "show", spec], check=True, capture_output=True, text=True).stdout


def function_source(source: str, name: str) -> str:
    match = re.search(rf"^def {name}\(.*?(?=^\S)", source + "\nEND", re.S | re.M)
    return match.group(0)


def stub(name: str) -> None:
    sys.modules[name] = mock.MagicMock(name=name)


def clean(value):
    """JSON-safe: numpy scalars to Python, NaN to None."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


# ---- inputs ----------------------------------------------------------------------------------

def preference_cases(rng: random.Random) -> list[list]:
    cases = [[1, 2, 1.5, 0, 2, 2, 1], [2] * 5, [1] * 4, [1.5] * 3, [0, 0, 2], [2, 1]]
    for _ in range(12):
        n = rng.randint(2, 400)
        kind = rng.random()
        if kind < 0.4:
            cases.append([rng.choice([1, 2, 1.5, 0]) for _ in range(n)])
        elif kind < 0.8:  # a weighted judge's probabilities, some exactly on the grid
            cases.append([rng.choice([1.0, 2.0, 1.5, 1 + rng.random(), 1 + round(rng.random(), 1)]) for _ in range(n)])
        else:
            cases.append([1 + rng.random() for _ in range(n)])
    return cases


def battle_cases(rng: random.Random) -> list[dict]:
    cases = []
    for case in range(4):
        models = ["gpt-4-0314"] + [f"model-{i}" for i in range(rng.randint(2, 7))]
        strength = {m: rng.gauss(0, 1) for m in models}
        battles = []
        for _ in range(rng.randint(40, 300)):
            if case < 3:  # arena-hard: every battle against the baseline
                a, b = "gpt-4-0314", rng.choice(models[1:])
            else:
                a, b = rng.sample(models, 2)
            p = 1 / (1 + math.exp(strength[b] - strength[a]))
            u = rng.random()
            winner = "tie" if u < 0.15 else "tie (bothbad)" if u < 0.2 else "model_a" if rng.random() < p else "model_b"
            battles.extend([{"model_a": a, "model_b": b, "winner": winner}] * rng.choice([1, 1, 3]))
        cases.append({"battles": battles, "baseline": "gpt-4-0314"})
    return cases


MQM_ANSWERS = [
    "Critical:\nno-error\nMajor:\naccuracy/mistranslation - \"involvement\"\naccuracy/omission - \"the account holder\"\nMinor:\nfluency/grammar - \"wäre\"\nfluency/register - \"dir\"\n",
    "Critical:\naccuracy/addition - \"of high-speed rail\"\nMajor:\naccuracy/mistranslation - \"go to the reviews\"\nMinor:\nstyle/awkward - \"etc.,\"\n",
    "Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error\n",
    "Major:\nnon-translation - the whole sentence\n",
    "Minor:\n" + "\n".join(f"fluency/punctuation - \"{i}\"" for i in range(8)),
    "Critical:\nnon-translation\naccuracy/omission - \"x\"\nMajor:\nstyle/awkward - \"y\"\n",
    "accuracy/omission - before any level\nMAJOR:\n  terminology/inconsistent - \"z\"  \n\nminor:\nother - \"w\"",
    "Critical: accuracy/addition - inline level is not a level\nMinor:\nfluency/spelling - \"teh\"",
    '{"improved translation": "Hallo", "errors": {"critical": [], "major": [{"class": "accuracy"}], "minor": [{"class": "fluency"}, {"class": "style"}]}}',
    '{"improved translation": "Hallo", "errors": {"critical": [{"class": "accuracy"}, {"class": "x"}], "other": [1, 2]}}',
    '{"improved translation": "Hal"lo", "errors": {"major": [{"class": "accuracy"}], "minor": [{"class": "fluency"}]}}',
    '{"improved translation": "Hal"lo", "errors": {"major": [{"class": accuracy}], "critical": [{"class": "x"}, {class: y}]}}',
    "",
    "Critical:\nMajor:\nMinor:\n",
]


def lc_cases(rng: random.Random) -> list[dict]:
    cases = []
    for n in (60, 150, 400):
        difficulty = [rng.gauss(0, 1) for _ in range(n)]
        prefs, len_model, len_base = [], [], []
        for i in range(n):
            lm, lb = rng.randint(50, 3000), rng.randint(50, 3000)
            p = 1 / (1 + math.exp(-(0.8 * math.tanh((lm - lb) / 900) - 0.5 * difficulty[i] + 0.2)))
            prefs.append(rng.choice([2.0 if rng.random() < p else 1.0, 1 + p, 1.5]))
            len_model.append(lm)
            len_base.append(lb)
        cases.append({"preferences": prefs, "model_lengths": len_model, "baseline_lengths": len_base,
                      "instruction_difficulty": difficulty})
    return cases


# ---- references ----------------------------------------------------------------------------

def load_alpaca_eval(root: str):
    for name in ("datasets", "huggingface_hub", "dotenv", "tqdm", "yaml", "pkg_resources", "openai", "tiktoken"):
        stub(name)
    sys.modules["datasets"].Dataset = type("Dataset", (), {})  # isinstance() checks need a class
    sys.path.insert(0, root)
    package = types.ModuleType("alpaca_eval")  # skip alpaca_eval/__init__ (the evaluation CLI)
    package.__path__ = [str(Path(root) / "alpaca_eval")]
    sys.modules["alpaca_eval"] = package
    import alpaca_eval.metrics.glm_winrate as glm
    import alpaca_eval.metrics.winrate as winrate
    return winrate, glm


def alpaca_goldens(root: str, rng: random.Random) -> tuple[dict, dict]:
    import pandas as pd
    import sklearn

    # scikit-learn 1.9 made GroupKFold's order of equal-sized groups stable: the LC folds differ
    major, minor = (int(x) for x in sklearn.__version__.split(".")[:2])
    fold_order = "stable" if (major, minor) >= (1, 9) else "quicksort"

    winrate, glm = load_alpaca_eval(root)
    win_cases = []
    for prefs in preference_cases(rng):
        got = winrate.pairwise_to_winrate(prefs)
        again = winrate.get_winrate([{"preference": p} for p in prefs])
        assert clean(got) == clean(again)
        win_cases.append({"preferences": prefs, "expected": clean(got)})
    lc = []
    for case in lc_cases(rng):
        n = len(case["preferences"])
        with tempfile.TemporaryDirectory() as tmp:
            gamed = Path(tmp) / "df_gamed.csv"
            pd.DataFrame({"model": "gamed", "index": range(n), "instruction_difficulty": case["instruction_difficulty"],
                          "preference": 0.5, "std_delta_len": 0.0, "not_gamed_baseline": False}).to_csv(gamed, index=False)
            glm.hf_hub_download = lambda *a, **k: str(gamed)
            annotations = [{"preference": p, "index": i, "output_1": "x" * lb, "output_2": "y" * lm,
                            "generator_1": "baseline", "generator_2": "model", "annotator": "judge"}
                           for i, (p, lm, lb) in enumerate(zip(case["preferences"], case["model_lengths"], case["baseline_lengths"]))]
            for name in ("length_controlled_noreg", "length_controlled_minimal"):
                got = glm.get_length_controlled_winrate(annotations, glm_name=name, save_weights_dir=None,
                                                        is_warn_extreme_changes=False)
                import numpy as np

                # the order GroupKFold deals the equal-sized groups in, from this numpy's argsort
                argsort = np.argsort(np.full(n, 2), kind="stable" if fold_order == "stable" else None)
                lc.append({**case, "glm": name, "fold_order": fold_order, "group_argsort": argsort.tolist(),
                           "expected": clean(got)})
    return {"cases": win_cases}, {"scikit_learn": sklearn.__version__, "fold_order": fold_order, "cases": lc}


def arena_goldens(git_dir: str, rng: random.Random) -> dict:
    import numpy as np
    import pandas as pd

    stub("tqdm")
    sys.modules["tqdm"].tqdm = lambda it, **k: it
    np.NAN = np.nan  # the reference predates numpy 2, which dropped the alias
    namespace: dict = {"__name__": "utils_math"}
    exec(compile(git_show(git_dir, "0489bf3:utils_math.py"), "utils_math.py", "exec"), namespace)  # seeds np.random with 42
    cases = []
    for case in battle_cases(rng):
        np.random.seed(42)  # as a fresh `python show_result.py` run is
        battles = pd.DataFrame(case["battles"])
        baseline = case["baseline"]
        coef = namespace["compute_mle_elo"](battles, baseline_model=baseline)
        boot = namespace["get_bootstrap_result"](battles, namespace["compute_mle_elo"], 20, baseline)
        lower = {m: np.percentile(boot[m], 2.5) for m in coef.index}
        upper = {m: np.percentile(boot[m], 97.5) for m in coef.index}
        stats = pd.DataFrame({"model": list(coef.index), "score": list(coef.values),
                              "lower": [lower[m] for m in coef.index], "upper": [upper[m] for m in coef.index]})
        stats.sort_values(by="model", inplace=True)
        board = {col: dict(zip(stats["model"], namespace["get_win_rate_column"](stats, col, baseline).tolist()))
                 for col in ("score", "lower", "upper")}
        wins = namespace["predict_win_rate"](dict(coef))
        cases.append({**case, "rounds": 20, "seed": 42, "ratings": clean(dict(coef)),
                      "bootstrap": clean([dict(row) for _, row in boot.iterrows()]),
                      "lower": clean(lower), "upper": clean(upper),
                      "leaderboard": clean({m: {c: board[c][m] for c in board} for m in coef.index}),
                      "predict_win_rate": clean({a: dict(wins.loc[a]) for a in wins.index})})
    return {"cases": cases}


def elo_goldens(git_dir: str, rng: random.Random) -> dict:
    import numpy as np
    import pandas as pd
    from collections import defaultdict

    old = git_show(git_dir, "e208d567^:fastchat/serve/monitor/elo_analysis.py")
    new = git_show(git_dir, "HEAD:fastchat/serve/monitor/rating_systems.py")
    ns_old = {"defaultdict": defaultdict, "np": np, "pd": pd, "math": math}
    exec(function_source(old, "compute_elo"), ns_old)
    ns_new = {"np": np, "pd": pd, "math": math}
    for name in ("get_matchups_models", "preprocess_for_elo", "compute_elo"):
        exec(function_source(new, name), ns_new)
    cases = []
    for case in battle_cases(rng):
        battles = list(case["battles"])
        rng.shuffle(battles)
        df = pd.DataFrame(battles)
        cases.append({"battles": battles,
                      "chatbot-arena-notebook": clean(ns_old["compute_elo"](df)),
                      "fastchat-rating-systems": clean(ns_new["compute_elo"](df))})
        cases.append({"battles": battles, "k": 32,
                      "chatbot-arena-notebook": clean(ns_old["compute_elo"](df, K=32)),
                      "fastchat-rating-systems": clean(ns_new["compute_elo"](df, k=32))})
    return {"cases": cases}


def gemba_goldens(git_dir: str) -> dict:
    stub("ipdb")
    namespace: dict = {"__name__": "gemba_mqm_utils"}
    exec(compile(git_show(git_dir, "HEAD:gemba/gemba_mqm_utils.py"), "gemba_mqm_utils.py", "exec"), namespace)
    parse = namespace["parse_mqm_answer"]
    cases = []
    for answer in MQM_ANSWERS:
        errors = parse(answer, list_mqm_errors=True)
        cases.append({"answer": answer, "score": parse(answer), "errors": clean({k: list(v) for k, v in errors.items()})})
    cases.append({"answer": None, "score": parse(None), "errors": None})
    return {"commit": subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip(),
            "cases": cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alpaca-eval", required=True)
    parser.add_argument("--arena-hard", required=True)
    parser.add_argument("--fastchat", required=True)
    parser.add_argument("--gemba", required=True)
    parser.add_argument("--only-length-controlled", action="store_true",
                        help="write only length_controlled_<fold order>.json (run once per scikit-learn side of 1.9)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(34)
    win, lc = alpaca_goldens(args.alpaca_eval, rng)
    outputs = {"win_rate.json": win, f"length_controlled_{lc['fold_order']}.json": lc}
    if not args.only_length_controlled:
        outputs.update({"bradley_terry.json": arena_goldens(args.arena_hard, rng), "online_elo.json": elo_goldens(args.fastchat, rng),
                        "gemba_mqm.json": gemba_goldens(args.gemba)})
    for name, data in outputs.items():
        (OUT / name).write_text(json.dumps(data, ensure_ascii=False, indent=None) + "\n", encoding="utf-8")
        print(name, len(data["cases"]))


if __name__ == "__main__":
    main()
