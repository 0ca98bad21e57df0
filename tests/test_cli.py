"""The command line: formats, stdin, exit codes, and the official WMT22 BLEU figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import CORPORA, REPO
from wmt import OFFICIAL_TOKENIZER, PAIRS, official_scores


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nlgmetrics.cli", *args], input=stdin, capture_output=True, cwd=REPO, timeout=300
    )


@pytest.fixture()
def files(tmp_path):
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("The cat sat on the mat.\nIt is raining today!\n", encoding="utf-8")
    ref.write_text("The cat is sitting on the mat.\nIt rains today.\n", encoding="utf-8")
    return hyp, ref


def test_text_output_and_stdin(files):
    hyp, ref = files
    r = run("score", "-r", str(ref), stdin=hyp.read_bytes())
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    assert lines[0] == "BLEU = 32.47 66.7/40.0/25.0/16.7 (BP = 1.000 ratio = 1.000 hyp_len = 12 ref_len = 12)"
    assert lines[1].startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:")
    assert r.stderr == b""


def test_json_is_always_a_list(files):
    hyp, ref = files
    r = run("score", "-r", str(ref), "-i", str(hyp), "--format", "json")
    data = json.loads(r.stdout)
    assert isinstance(data, list) and len(data) == 1
    assert data[0]["name"] == "BLEU" and data[0]["score"] == pytest.approx(32.46679154750991, rel=1e-12)
    assert data[0]["counts"] == [8, 4, 2, 1]
    assert data[0]["signature_fields"]["tok"] == "13a"
    r2 = run("score", "-r", str(ref), "-i", str(hyp), str(hyp), "-f", "json", "--short")
    data2 = json.loads(r2.stdout)
    assert len(data2) == 2 and data2[0]["signature"].startswith("#:1|c:mixed|e:no|tok:13a|s:exp|v:")


def test_sentence_level_jsonl(files):
    hyp, ref = files
    r = run("score", "-r", str(ref), "-i", str(hyp), "--sentence-level", "-f", "json")
    rows = [json.loads(x) for x in r.stdout.decode().splitlines()]
    assert [x["segment"] for x in rows] == [1, 2]
    assert rows[0]["score"] == pytest.approx(42.383656282787796, rel=1e-12)


def test_tsv_and_options(files):
    hyp, ref = files
    r = run("score", "-r", str(ref), "-i", str(hyp), "-f", "tsv", "-lc", "-tok", "intl", "-s", "floor")
    lines = r.stdout.decode().splitlines()
    assert lines[0] == "system\tmetric\tscore\tsignature"
    assert "case:lc|eff:no|tok:intl|smooth:floor[0.10]" in lines[1]


def test_jsonl_input():
    r = run("score", "--jsonl", "examples/e2e/sample.jsonl", "-m", "bleu", "-f", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)[0]["signature_fields"]["nrefs"] == "var"


def test_usage_errors_exit_2(files):
    hyp, ref = files
    for args in (["score", "--bogus"], ["score", "-i", str(hyp)], ["score", "-r", str(ref), "-i", str(hyp), "-m", "blue"],
                 ["score", "-r", str(ref), "-i", str(hyp), "-tok", "13b"]):
        r = run(*args)
        assert r.returncode == 2, args
        assert r.stdout == b""
        err = r.stderr.decode().strip().splitlines()
        assert len(err) == 1 and err[0].startswith("nlgmetrics: error:"), err


def test_data_errors_exit_1(files, tmp_path):
    hyp, ref = files
    short = tmp_path / "short.txt"
    short.write_text("one line\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine\nbro\xffken\n")
    cases = {
        (str(short), str(ref)): "has 2 lines but the system output has 1",
        (str(bad), str(ref)): "invalid UTF-8 at line 2, byte 4",
        (str(tmp_path / "missing.txt"), str(ref)): "No such file",
    }
    for (h, r_), message in cases.items():
        r = run("score", "-r", r_, "-i", h)
        assert r.returncode == 1
        err = r.stderr.decode().strip().splitlines()
        assert len(err) == 1 and message in err[0], err
        assert "Traceback" not in r.stderr.decode()


def test_list():
    r = run("list")
    assert r.returncode == 0
    out = r.stdout.decode()
    assert "bleu" in out and "13a" in out and "unicode" in out


@pytest.mark.parametrize("pair", PAIRS)
def test_official_wmt22_bleu_reproduced(pair):
    """automatic-scores.tsv `bleu-all` (all references) for every system of the pair."""
    official = official_scores("bleu-all")
    d = CORPORA / "wmt22" / pair
    tgt = pair.split("-")[1]
    refs = sorted(str(p) for p in d.glob(f"*.ref.*.{tgt}"))
    systems = sorted(d.glob("system-outputs/*"))
    args = ["score", "-f", "json", "-tok", OFFICIAL_TOKENIZER[pair], "-i", *map(str, systems)]
    for r in refs:
        args += ["-r", r]
    out = run(*args)
    assert out.returncode == 0, out.stderr
    checked = 0
    for row in json.loads(out.stdout):
        system = row["system"].split(".hyp.")[1][: -len(tgt) - 1]
        if (pair, system) in official:
            assert row["score"] == pytest.approx(official[(pair, system)], abs=1e-4), system
            checked += 1
    assert checked >= 10
