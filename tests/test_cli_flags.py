"""Command-line habits: repeated -i/-m add up (score, compare, correlate); reference-free
metrics need no -r; their numbers are the Python API's."""

from __future__ import annotations

import json

import pytest

import nlgmetrics as nm
from nlgmetrics.cli.main import main

HYPS = ["the cat sat on the mat", "the cat sat on the mat", "a dog ran in the park", "it is raining today"]
REFS = ["the cat is on the mat", "a cat sat on a mat", "a dog runs in a park", "it rains today"]


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, lines in (("h1", HYPS), ("h2", list(reversed(HYPS))), ("ref", REFS)):
        out[name] = tmp_path / f"{name}.txt"
        out[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _json(capsys):
    return json.loads(capsys.readouterr().out)


def test_repeated_m_and_i_add_up(files, capsys):
    base = ["score", "-r", str(files["ref"]), "-f", "json"]
    assert main(base + ["-i", str(files["h1"]), "-m", "bleu", "-m", "chrf"]) == 0
    rows = _json(capsys)
    assert [r["name"] for r in rows] == ["BLEU", "chrF2"]
    assert rows[0]["score"] == nm.BLEU().corpus_score(HYPS, [[r] for r in REFS]).score
    assert rows[1]["score"] == nm.CHRF().corpus_score(HYPS, [[r] for r in REFS]).score
    assert main(base + ["-i", str(files["h1"]), "-i", str(files["h2"])]) == 0
    rows = _json(capsys)
    assert [r["system"] for r in rows] == [str(files["h1"]), str(files["h2"])]
    assert rows[1]["score"] == nm.BLEU().corpus_score(list(reversed(HYPS)), [[r] for r in REFS]).score
    # a single -m replaces the default (not bleu + chrf)
    assert main(base + ["-i", str(files["h1"]), "-m", "chrf"]) == 0
    assert [r["name"] for r in _json(capsys)] == ["chrF2"]
    # the same for compare
    assert main(["compare", "-r", str(files["ref"]), "-i", str(files["h1"]), "-i", str(files["h2"]), "-m", "bleu", "-m", "ter", "--paired-bs", "--paired-bs-n", "20", "-f", "json"]) == 0
    rows = _json(capsys)
    assert len(rows) == 2 and set(rows[0]) >= {"BLEU", "TER"}
    assert rows[1]["TER"]["score"] == nm.TER().corpus_score(list(reversed(HYPS)), [[r] for r in REFS]).score


@pytest.mark.parametrize("name", ["distinct", "self_bleu"])
def test_reference_free_metrics_need_no_r(files, capsys, name):
    assert main(["score", "-i", str(files["h1"]), "-m", name, "-f", "json"]) == 0
    (row,) = _json(capsys)
    assert row["score"] == nm.load(name).corpus_score(HYPS).score
    # a metric that compares still asks for -r (usage error, one line)
    assert main(["score", "-i", str(files["h1"]), "-m", name, "-m", "bleu"]) == 2
    err = capsys.readouterr().err
    assert "-r" in err and err.count("\n") == 1


def test_reference_free_comet_needs_no_r(tmp_path, capsys):
    pytest.importorskip("torch")
    from conftest import REPO

    gold = REPO / "tests" / "goldens" / "comet"
    src = ["你好 世界", "今天 下雨", "猫 坐 在 垫子 上"]
    hyp, source = tmp_path / "h.txt", tmp_path / "s.txt"
    hyp.write_text("hello world\nit rains today\nthe cat sat on the mat\n", encoding="utf-8")
    source.write_text("\n".join(src) + "\n", encoding="utf-8")
    argv = ["score", "-m", "comet", "--comet-model", str(gold / "kiwi-mt-src"), "--comet-encoder", str(gold / "xlmr-tiny"),
            "--comet-device", "cpu", "--source", str(source), "-i", str(hyp), "-f", "json"]
    assert main(argv) == 0
    (row,) = _json(capsys)
    want = nm.COMET(gold / "kiwi-mt-src", encoder=gold / "xlmr-tiny", device="cpu").corpus_score(
        ["hello world", "it rains today", "the cat sat on the mat"], None, sources=src).score
    assert row["score"] == want
    # a model that reads references still needs -r
    argv[4] = str(gold / "da-sparsemax-avg")
    assert main(argv) == 2
    assert "-r" in capsys.readouterr().err
