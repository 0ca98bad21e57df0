"""CLI start-up: every subcommand's ``--help`` and a run on a one-line input, each in a
fresh process (``python -m nlgmetrics ...``), median of N runs.

Reports wall milliseconds and CPU milliseconds (user + system of the child, which a
loaded machine inflates less than wall time), next to a bare interpreter (``python -c
pass``), ``import numpy`` and ``import nlgmetrics`` + one corpus BLEU; the markdown table
gives each row's CPU as a multiple of the bare interpreter's and its distance to numpy's
import, both measured in the same run (a loaded machine inflates every row alike). The
goal (issue #35): every row under 100 ms wall on an idle machine.

    python benches/bench_startup.py [--runs 11] [--markdown] [--only score squad]

Run it with PYTHONPATH pointing at another checkout's python/ to time that one.

The children compile each module once into a private bytecode cache (PYTHONPYCACHEPREFIX, a
temporary folder; the warm-up run fills it), as an installed package has its ``.pyc``
files: a PYTHONDONTWRITEBYTECODE environment would otherwise time the compiler on every run.
Every subcommand of ``nlgmetrics`` (cli/main.py's COMMANDS) and the ``sacrebleu-nm``
script have a ``--help`` row and a one-line row; a subcommand without a row stops the bench.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

SENTENCE = "the cat sat on the mat"


def _inputs(d: str) -> dict[str, str]:
    """One-line inputs of every subcommand, written to ``d``."""
    files = {
        "ref": (SENTENCE + "\n"),
        "hyp": ("the cat sat on a mat\n"),
        "hyp2": ("a cat sat on the mat\n"),
        "hyp3": ("the cat sat\n"),
        "human": "system\tscore\nhyp\t0.5\nhyp2\t0.7\nhyp3\t0.2\n",
        "labels.tsv": "y_true\ty_pred\n1\t1\n",
        "refs.jsonl": json.dumps({"image_id": 1, "references": [SENTENCE]}) + "\n",
        "caps.tsv": "1\tthe cat sat on a mat\n",
        "squad.json": json.dumps({"version": "1.1", "data": [{"title": "t", "paragraphs": [{"context": SENTENCE, "qas": [
            {"id": "q1", "question": "who sat?", "answers": [{"text": "the cat", "answer_start": 0}]}]}]}]}),
        "squad_pred.json": json.dumps({"q1": "the cat"}),
        "cmrc.json": json.dumps({"version": "v1.0", "data": [{"title": "t", "paragraphs": [{"id": "p", "context": "2008年，猫坐在垫子上", "qas": [
            {"id": "q1", "question": "哪一年？", "answers": [{"text": "2008年", "answer_start": 0}]}]}]}]}, ensure_ascii=False),
        "cmrc_pred.json": json.dumps({"q1": "2008年"}, ensure_ascii=False),
        "qrels.txt": "q1 0 d1 1\n", "run.txt": "q1 Q0 d1 1 1.5 tag\n",
        "gold.sql": "SELECT 1\tone\n", "pred.sql": "SELECT 1\n",
        "preferences.txt": "2\n",
    }
    paths = {}
    for name, text in files.items():
        paths[name] = os.path.join(d, name)
        with open(paths[name], "w", encoding="utf-8") as fh:
            fh.write(text)
    paths["page"] = os.path.join(d, "page.html")
    paths["db"] = os.path.join(d, "db")
    os.makedirs(os.path.join(paths["db"], "one"), exist_ok=True)
    with contextlib.closing(sqlite3.connect(os.path.join(paths["db"], "one", "one.sqlite"))) as db:  # a 0-byte file is refused
        db.execute("CREATE TABLE t (x)")
        db.commit()
    return paths


def _runs(p: dict[str, str]) -> list[tuple[str, list[str]]]:
    """(row, arguments after ``python``) for every row of the table."""
    nm = ["-m", "nlgmetrics"]
    one_line = {
        "score": ["score", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"]],
        "compare": ["compare", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"], p["hyp2"], "--paired-bs"],
        "correlate": ["correlate", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"], p["hyp2"], p["hyp3"], "--human", p["human"], "--names", "hyp", "hyp2", "hyp3"],
        "list": ["list"],
        "classify": ["classify", "-i", p["labels.tsv"]],
        "coco": ["coco", "-a", p["refs.jsonl"], "-R", p["caps.tsv"]],
        "report": ["report", "-m", "bleu", "-r", p["ref"], "-i", p["hyp"], "-o", p["page"], "--overwrite"],
        "sacrebleu": ["sacrebleu", p["ref"], "-i", p["hyp"]],
        "squad": ["squad", p["squad.json"], p["squad_pred.json"]],
        "cmrc2018": ["cmrc2018", p["cmrc.json"], p["cmrc_pred.json"]],
        "retrieval": ["retrieval", p["qrels.txt"], p["run.txt"]],
        "sql": ["sql", "--gold", p["gold.sql"], "--pred", p["pred.sql"], "--db", p["db"]],
        "lm-eval": ["lm-eval", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "goldens", "lm_eval_folders", "limited"), "-t", "toy_gsm"],
        "judge": ["judge", "win-rate", p["preferences.txt"]],
    }
    from nlgmetrics.cli.main import COMMANDS

    missing = set(COMMANDS) - set(one_line)
    if missing:
        raise SystemExit(f"no one-line row for: {', '.join(sorted(missing))}")
    rows = [
        (FLOORS["pass"], ["-c", "pass"]),
        (FLOORS["numpy"], ["-c", "import numpy"]),
        ("import nlgmetrics + one corpus BLEU", ["-c", f"import nlgmetrics; nlgmetrics.bleu([{SENTENCE!r}], [[{SENTENCE!r}]])"]),
        ("nlgmetrics --help", [*nm, "--help"]),
    ]
    for command, argv in one_line.items():
        rows.append((f"nlgmetrics {command} --help", [*nm, command, "--help"]))
        rows.append((f"nlgmetrics {command}, one line", [*nm, *argv]))
    script = ["-c", "import sys; from nlgmetrics.__main__ import run_sacrebleu; sys.argv[0] = 'sacrebleu-nm'; run_sacrebleu()"]
    rows.append(("sacrebleu-nm --help", [*script, "--help"]))
    rows.append(("sacrebleu-nm REF < HYP, one line", [*script, p["ref"], "<", p["hyp"]]))
    return rows


# The rows every other row is read against (the interpreter alone; numpy's import).
FLOORS = {"pass": "python -c pass (the interpreter alone)", "numpy": "python -c 'import numpy' (what the numpy rows pay for it)"}


def _ratio(cpu: float, floor: float | None) -> str:
    return f"{cpu / floor:.1f}" if floor else "—"


def _minus(cpu: float, floor: float | None) -> str:
    return f"{cpu - floor:+.0f}" if floor else "—"


def _time(args: list[str], runs: int, cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``runs`` fresh processes (after one warm-up);
    ``"<", FILE`` at the end of ``args`` is the child's stdin."""
    stdin_path = None
    if len(args) >= 2 and args[-2] == "<":
        args, stdin_path = args[:-2], args[-1]
    walls, cpus = [], []
    for i in range(runs + 1):
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=stdin, env=env)
        if stdin_path:
            stdin.close()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"failed ({done.returncode}): {' '.join(args)}\n{done.stderr.decode()[-1000:]}")
        if i:  # the first run warms the file cache
            walls.append(wall * 1e3)
            cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--markdown", action="store_true", help="a BENCHMARKS.md table")
    ap.add_argument("--only", nargs="+", default=None, metavar="TEXT", help="only the rows whose name contains one of these")
    opts = ap.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as d:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONSTARTUP")}
        env["PYTHONPYCACHEPREFIX"] = os.path.join(d, "pycache")
        runs = [(name, args) for name, args in _runs(_inputs(d)) if opts.only is None or any(t in name for t in opts.only)]
        rows = [(name, *_time(args, opts.runs, d, env)) for name, args in runs]
    load_after = os.getloadavg()[0]
    floors = {key: cpu for name, _, cpu in rows for key, row in FLOORS.items() if name == row}
    if opts.markdown:
        print(f"### CLI start-up (Python {platform.python_version()}, median of {opts.runs} fresh processes, load average {load:.1f} before, {load_after:.1f} after)\n")
        # On a loaded machine wall time measures the queue for a core; the child's CPU time
        # is what an idle machine's wall time would be (start-up runs on one thread).
        # The floors measured in this run: a loaded machine inflates every row alike, so a
        # row's ratio to the bare interpreter travels between machines; its numbers do not.
        print("| command | wall ms | CPU ms | CPU × `python -c pass` | CPU − `import numpy` ms | under 100 ms (CPU) |")
        print("|---|---:|---:|---:|---:|---|")
        for name, wall, cpu in rows:
            print(f"| {name} | {wall:.0f} | {cpu:.0f} | {_ratio(cpu, floors.get('pass'))} | {_minus(cpu, floors.get('numpy'))} | {'yes' if cpu < 100 else 'no'} |")
    else:
        print(f"load average {load:.1f} -> {load_after:.1f}")
        for name, wall, cpu in rows:
            print(f"{name:<45} {wall:8.1f} ms wall {cpu:8.1f} ms CPU  {_ratio(cpu, floors.get('pass'))} × python -c pass")


if __name__ == "__main__":
    main()
