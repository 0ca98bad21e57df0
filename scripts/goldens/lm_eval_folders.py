"""Make tests/goldens/lm_eval_folders/: real lm-evaluation-harness output folders.

Run with a separate environment that has lm-eval 0.4.x (never the project's venv):

    python3 -m venv /tmp/lmeval_venv && /tmp/lmeval_venv/bin/pip install "lm_eval>=0.4,<0.5"
    /tmp/lmeval_venv/bin/python scripts/goldens/lm_eval_folders.py

Everything is local: the tasks read our own generated JSON-lines data (``dataset_path: json``)
through ``--include_path``, and the model is a registered fake LM whose log-likelihoods and
generations are a hash of the request, so a rerun writes the same numbers. lm-eval's own
``cli_evaluate`` runs each folder with ``--log_samples``; its printed tables are kept as
``<folder>/table.md``.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "lm_eval_folders"


def _unit(*parts: str) -> float:
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def register_fake_lm() -> None:
    from lm_eval.api.model import LM
    from lm_eval.api.registry import register_model

    @register_model("hashlm")
    class HashLM(LM):
        """Deterministic scores: a hash of each request (ties and greedy flags included)."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__()

        @classmethod
        def create_from_arg_string(cls, arg_string, additional_config=None):
            return cls()

        def loglikelihood(self, requests, disable_tqdm: bool = False):
            out = []
            for r in requests:
                ctx, cont = r.arguments[0], r.arguments[1]
                u = _unit("ll", ctx, cont)
                ll = -round(u * 20, 1) if u < 0.3 else -u * 20  # rounded ones tie sometimes
                out.append((ll, _unit("greedy", ctx, cont) < 0.4))
            return out

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
            return [-(1 + 40 * _unit("roll", r.arguments[0])) for r in requests]

        def generate_until(self, requests, disable_tqdm: bool = False):
            out = []
            for r in requests:
                ctx = r.arguments[0]
                u = _unit("gen", ctx)
                answer = ctx.rsplit("=", 1)[0].split("Question:")[-1]
                value = sum(int(t) for t in answer.replace("?", "").split("+") if t.strip().isdigit())
                if u < 0.35:
                    text = f"We add them. The answer is {value}.\n#### {value}"
                elif u < 0.6:
                    text = f"Adding gives {value + 1}, so {value}"
                elif u < 0.8:
                    text = f"#### {value - 1}"
                else:
                    text = "I do not know."
                out.append(text)
            return out


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def make_data(where: Path, seed: int, n_mc: int, n_gen: int, n_ppl: int) -> None:
    rnd = random.Random(seed)
    words = "alpha beta gamma delta épsilon zeta eta theta iota kappa λambda mu".split()
    for name, n in (("mc_a", n_mc), ("mc_b", n_mc // 2 + 3)):
        rows = []
        for i in range(n):
            k = rnd.choice([2, 3, 4])
            choices = [" ".join(rnd.choices(words, k=rnd.randint(1, 4))) for _ in range(k)]
            rows.append({"question": f"Q{i}: pick one of {', '.join(choices)}?", "choices": choices, "label": rnd.randrange(k)})
        _write_jsonl(where / f"{name}.jsonl", rows)
    rows = []
    for i in range(n_gen):
        a, b = rnd.randint(1, 999), rnd.randint(1, 999)
        rows.append({"question": f"{a}+{b}=?", "answer": f"{a} plus {b}\n#### {a + b:,}"})
    _write_jsonl(where / "gen.jsonl", rows)
    rows = [{"text": " ".join(rnd.choices(words, k=rnd.randint(3, 30)))} for _ in range(n_ppl)]
    _write_jsonl(where / "ppl.jsonl", rows)
    rows = []
    for i in range(n_ppl):
        ws = rnd.choices(words, k=rnd.randint(3, 9))
        rows.append({"text": " ".join(ws[:-1]), "last": ws[-1]})
    _write_jsonl(where / "lambada.jsonl", rows)


HEAD = "dataset_path: json\ntest_split: train\nmetadata:\n  version: 1.0\n"


def _data(name: str) -> str:
    return f"dataset_kwargs:\n  data_files:\n    train: data/{name}.jsonl\n"


TASKS = {
    "toy_mc_a": _data("mc_a") + "output_type: multiple_choice\ndoc_to_text: '{{question}}'\ndoc_to_choice: '{{choices}}'\n"
    "doc_to_target: '{{label}}'\nmetric_list:\n  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n"
    "  - metric: acc_norm\n    aggregation: mean\n    higher_is_better: true\n",
    "toy_gsm": _data("gen") + "output_type: generate_until\ndoc_to_text: 'Question: {{question}}\\nAnswer:'\n"
    "doc_to_target: '{{answer}}'\ngeneration_kwargs:\n  until: ['Question:']\n  do_sample: false\n"
    "metric_list:\n  - metric: exact_match\n    aggregation: mean\n    higher_is_better: true\n    ignore_case: true\n"
    "    ignore_punctuation: false\n    regexes_to_ignore: [',', '\\$', '(?s).*#### ', '\\.$']\n"
    "filter_list:\n  - name: strict-match\n    filter:\n      - function: regex\n        regex_pattern: '#### (\\-?[0-9\\.\\,]+)'\n"
    "      - function: take_first\n  - name: flexible-extract\n    filter:\n      - function: regex\n        group_select: -1\n"
    "        regex_pattern: '(-?[$0-9.,]{2,})|(-?[0-9]+)'\n      - function: take_first\n",
    "toy_ppl": _data("ppl") + "output_type: loglikelihood_rolling\ndoc_to_text: ''\ndoc_to_target: '{{text}}'\n"
    "metric_list:\n  - metric: word_perplexity\n  - metric: byte_perplexity\n  - metric: bits_per_byte\n",
    "toy_lambada": _data("lambada") + "output_type: loglikelihood\ndoc_to_text: '{{text}}'\ndoc_to_target: ' {{last}}'\n"
    "metric_list:\n  - metric: perplexity\n    aggregation: perplexity\n    higher_is_better: false\n"
    "  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n",
}
TASKS["toy_mc_b"] = TASKS["toy_mc_a"].replace("data/mc_a", "data/mc_b")
GROUP = (
    "group: toy_group\ntask: [toy_mc_a, toy_mc_b]\naggregate_metric_list:\n  - metric: acc\n    aggregation: mean\n"
    "    weight_by_size: true\n  - metric: acc_norm\n    aggregation: mean\n    weight_by_size: false\nmetadata:\n  version: 2\n"
)

FOLDERS = {
    # name: (seed, n_mc, n_gen, n_ppl, tasks, extra args)
    "mixed": (1, 40, 30, 25, "toy_group,toy_gsm,toy_ppl,toy_lambada", []),
    "limited": (2, 17, 9, 6, "toy_group,toy_gsm,toy_lambada,toy_ppl", ["--limit", "12"]),
}


def run_folder(name: str) -> None:
    from lm_eval.__main__ import cli_evaluate

    seed, n_mc, n_gen, n_ppl, tasks, extra = FOLDERS[name]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "data").mkdir()
        (work / "tasks").mkdir()
        make_data(work / "data", seed, n_mc, n_gen, n_ppl)
        for task, body in TASKS.items():
            (work / "tasks" / f"{task}.yaml").write_text(f"task: {task}\n" + HEAD + body, encoding="utf-8")
        (work / "tasks" / "toy_group.yaml").write_text(GROUP, encoding="utf-8")
        argv = ["lm_eval", "--model", "hashlm", "--tasks", tasks, "--include_path", "tasks", "--log_samples",
                "--output_path", "out", "--seed", "0", *extra]
        cwd = os.getcwd()
        os.chdir(work)
        sys.argv = argv
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                cli_evaluate()
        finally:
            os.chdir(cwd)
        dest = OUT / name
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(work / "out", dest)
        lines = buf.getvalue().splitlines()
        rows = [i for i, line in enumerate(lines) if line.startswith("|")]
        table = "\n".join(lines[rows[0]:rows[-1] + 1]) + "\n"  # both tables and the blank line between
        (dest / "table.md").write_text(table, encoding="utf-8")
        (dest / "command.txt").write_text(" ".join(argv) + "\n", encoding="utf-8")


if __name__ == "__main__":
    register_fake_lm()
    OUT.mkdir(parents=True, exist_ok=True)
    for folder in sys.argv[1:] or FOLDERS:
        run_folder(folder)
        print("wrote", OUT / folder)
