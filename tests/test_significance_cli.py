"""``nlgmetrics compare`` and ``score --confidence``: the table sacrebleu prints."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from tabulate import tabulate

from test_significance_helpers import write_wmt_systems
from nlgmetrics.cli import main
from nlgmetrics.cli.compare import fancy_grid, latex_booktabs


@pytest.fixture(scope="module")
def files(corpora, tmp_path_factory):
    return write_wmt_systems(corpora, tmp_path_factory.mktemp("cmp"))


def _sacrebleu(d, args):
    out = subprocess.run([sys.executable, "-m", "sacrebleu", "--no-color", *args], cwd=d, capture_output=True, text=True, check=True)
    return out.stdout


def _ours(d, args, capsys, monkeypatch):
    monkeypatch.chdir(d)
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
@pytest.mark.parametrize("fmt", ["text", "json", "latex"])
def test_compare_prints_sacrebleus_table(files, test, fmt, capsys, monkeypatch):
    d, names = files
    n = ["-pbsn", "300"] if test == "--paired-bs" else ["-parn", "500"]
    theirs = _sacrebleu(d, ["ref.txt", "-i", *names, "-m", "bleu", test, *n, "-f", fmt])
    ours = _ours(d, ["compare", "-r", "ref.txt", "-i", *names, "-m", "bleu", test, *n, "-f", fmt, "--method", "sacrebleu"], capsys, monkeypatch)
    if fmt == "json":  # sacrebleu's rows, each metric's cell also carrying the signature its numbers were made under
        rows = json.loads(ours)
        sigs = {row["BLEU"].pop("signature") for row in rows}
        assert rows == json.loads(theirs)
        assert len(sigs) == 1 and sigs.pop().startswith("nrefs:1|" + ("bs:300" if test == "--paired-bs" else "ar:500"))
        return
    table = theirs.split("\n\n")[0]
    assert ours.startswith(table + "\n\n")
    assert "Metric signatures" in ours and ("bs:" in ours or "ar:" in ours)


def test_score_confidence_equals_sacrebleu(files, capsys, monkeypatch):
    d, names = files
    theirs = _sacrebleu(d, ["ref.txt", "-i", names[0], "--confidence", "-cin", "500", "-f", "json"])
    ours = _ours(d, ["score", "-r", "ref.txt", "-i", names[0], "--confidence", "-cin", "500", "--method", "sacrebleu", "-f", "json", "-w", "1"], capsys, monkeypatch)
    t, o = json.loads(theirs), json.loads(ours)[0]
    assert round(o["confidence_mean"], 1) == t["confidence_mean"] and round(o["confidence_ci"], 1) == t["confidence_var"]
    assert o["signature"].rsplit("|", 1)[0] == t["signature"].rsplit("|", 1)[0]
    text = _ours(d, ["score", "-r", "ref.txt", "-i", names[0], "--confidence", "--seed", "3"], capsys, monkeypatch)
    assert "(μ = " in text and "bs:1000|seed:3|resampling:philox" in text


def test_usage_errors(files, capsys, monkeypatch):
    d, names = files
    monkeypatch.chdir(d)
    assert main(["compare", "-r", "ref.txt", "-i", *names]) == 2  # no test chosen
    assert main(["compare", "-r", "ref.txt", "-i", names[0], "--paired-bs"]) == 2  # one system: a usage error
    assert main(["compare", "-r", "ref.txt", "-i", *names, "--paired-bs", "-pbsn", "0"]) == 2
    assert main(["score", "-r", "ref.txt", "-i", names[0], "--confidence", "--sentence-level"]) == 2


@pytest.mark.parametrize("rows", [
    [["Baseline: a_b.txt", "36.0 (36.0 ± 5.4)"], ["x", "29.0 (29.0 ± 4.7)\n(p = 0.0010)*"]],
    [["s", "1.0\n(p = 0.5000)", "22.75"], ["a much longer system name & co", "3.5", "100.0 (99.1 ± 0.3)\n(p = 0.0001)*"]],
])
def test_table_renderers_equal_tabulate(rows):
    headers = ["System"] + [f"M{i}" for i in range(1, len(rows[0]))]
    kw = dict(headers=headers, colalign=("right",), stralign="center", numalign="center")
    assert fancy_grid(headers, rows) == tabulate(rows, tablefmt="fancy_grid", **kw)
    flat = [[c.replace("\n", " ") for c in r] for r in rows]
    assert latex_booktabs(headers, flat) == tabulate(flat, tablefmt="latex_booktabs", **kw)


def test_compare_poisson_and_default_method(files, capsys, monkeypatch):
    d, names = files
    out = _ours(d, ["compare", "-r", "ref.txt", "-i", *names, "--paired-bs", "-pbsn", "200", "--resampling", "poisson", "--seed", "9", "--short"], capsys, monkeypatch)
    assert "bs:200|rs:9|rsm:poisson" in out and "(p = " in out
    again = _ours(d, ["compare", "-r", "ref.txt", "-i", *names, "--paired-bs", "-pbsn", "200", "--resampling", "poisson", "--seed", "9", "--short", "--n-threads", "1"], capsys, monkeypatch)
    assert again == out
