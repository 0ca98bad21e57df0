"""`nlgmetrics score` with several metrics and systems reads, decodes, splits and checks
each input file once, for every metric (docs/cli.md, "Several metrics in one run"); the
numbers are those of one metric per run."""

from __future__ import annotations

import builtins
import collections
import io
import json
import os
import sys

import pytest

from nlgmetrics.cli import main

HYP_A = ["The cat sat on the mat.", "It is raining today!", "Das ist gut.", "a b c d e f"]
HYP_B = ["A cat sat on a mat.", "It rains today!", "Das ist sehr gut.", "a b c d"]
REF_1 = ["The cat is sitting on the mat.", "It rains today.", "Das ist gut.", "a b c d e f g"]
REF_2 = ["A cat sits on the mat.", "Rain today.", "Das ist prima.", "a c d e"]
METRICS = ["bleu", "chrf", "ter", "rouge", "nist", "chrf++"]


@pytest.fixture()
def corpus(tmp_path):
    for name, lines in (("a.txt", HYP_A), ("b.txt", HYP_B), ("r1.txt", REF_1), ("r2.txt", REF_2)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [{"prediction": h, "references": [r], "table": [["name", w]]} for h, r, w in zip(HYP_A, REF_1, ["cat", "rain", "gut", "a"])]
    (tmp_path / "d2t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return tmp_path


class _Counts:
    """Counts opens of the test's files and the CLI's input steps while a run lasts."""

    def __init__(self, monkeypatch, directory):
        self.opened: collections.Counter[str] = collections.Counter()
        self.streams = 0
        self.orientation_checks = 0
        real_open = builtins.open

        def counting_open(file, *args, **kwargs):
            if isinstance(file, (str, os.PathLike)) and os.path.dirname(os.path.abspath(file)) == str(directory):
                self.opened[os.path.basename(file)] += 1
            return real_open(file, *args, **kwargs)

        import nlgmetrics._inputs as inputs
        import nlgmetrics.metrics.base as base

        real_streams, real_orientation = inputs.references_from_streams, base.check_orientation

        def counting_streams(streams):
            self.streams += 1
            return real_streams(streams)

        def counting_orientation(*args, **kwargs):
            self.orientation_checks += 1
            return real_orientation(*args, **kwargs)

        monkeypatch.setattr(builtins, "open", counting_open)
        monkeypatch.setattr(inputs, "references_from_streams", counting_streams)
        monkeypatch.setattr(base, "check_orientation", counting_orientation)


def _json(capsys, argv) -> list[dict]:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_each_file_is_read_once_for_every_metric_and_system(corpus, monkeypatch, capsys):
    monkeypatch.chdir(corpus)
    alone = {(name, sys_name): r for name in METRICS for r in _json(capsys, ["score", "-r", "r1.txt", "-r", "r2.txt", "-i", "a.txt", "b.txt", "-m", name, "-f", "json"])
             for sys_name in [r["system"]]}
    counts = _Counts(monkeypatch, corpus)
    together = _json(capsys, ["score", "-r", "r1.txt", "-r", "r2.txt", "-i", "a.txt", "b.txt", "-m", *METRICS, "-f", "json"])
    monkeypatch.undo()
    assert counts.opened == {"a.txt": 1, "b.txt": 1, "r1.txt": 1, "r2.txt": 1}
    assert counts.streams == 1  # the references are put in segment order once, for all
    assert counts.orientation_checks == 0  # one reference file per stream: oriented by construction
    # systems in the order given, then metrics in the order given; numbers as one metric per run
    assert [(r["system"], r["name"]) for r in together] == [(s, alone[m, s]["name"]) for s in ("a.txt", "b.txt") for m in METRICS]
    for r in together:
        name = METRICS[[alone[m, r["system"]]["name"] for m in METRICS].index(r["name"])]
        assert r == alone[name, r["system"]]


def test_stdin_is_read_once(corpus, monkeypatch, capsys):
    monkeypatch.chdir(corpus)
    counts = _Counts(monkeypatch, corpus)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((corpus / "a.txt").read_bytes())))
    piped = _json(capsys, ["score", "-r", "r1.txt", "-m", "bleu", "chrf", "ter", "-f", "json"])
    monkeypatch.undo()
    assert counts.opened == {"r1.txt": 1}
    assert [r["system"] for r in piped] == ["-"] * 3
    assert piped == [{**r, "system": "-"} for r in _json(capsys, ["score", "-r", str(corpus / "r1.txt"), "-i", str(corpus / "a.txt"), "-m", "bleu", "chrf", "ter", "-f", "json"])]


def test_jsonl_is_read_once_with_a_metric_that_reads_the_tables(corpus, monkeypatch, capsys):
    """PARENT also reads each line's table: from the lines already read, not the file again
    (so a table read from stdin works too)."""
    monkeypatch.chdir(corpus)
    counts = _Counts(monkeypatch, corpus)
    from_file = _json(capsys, ["score", "--jsonl", "d2t.jsonl", "-m", "parent", "bleu", "parent", "-f", "json"])
    monkeypatch.undo()
    assert counts.opened == {"d2t.jsonl": 1}
    assert [r["name"] for r in from_file] == ["PARENT", "BLEU", "PARENT"]  # tables read from the same lines twice
    assert from_file[0] == from_file[2]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((corpus / "d2t.jsonl").read_bytes())))
    from_stdin = _json(capsys, ["score", "--jsonl", "-", "-m", "parent", "bleu", "parent", "-f", "json"])
    assert from_stdin == [{**r, "system": "-"} for r in from_file]
