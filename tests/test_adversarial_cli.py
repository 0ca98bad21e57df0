"""The command line under hostile input: every subcommand, every registered metric.

The subcommands come from the parser and the metrics from the registry, so a new one is
probed the day it is added. Whatever the input, a run ends with one of the documented
statuses (0 success, 1 data error, 2 usage error), a failed run prints exactly one line
on stderr (no traceback, never "internal error") and nothing on stdout, and ``--format
json`` output is strict JSON (no NaN or Infinity). Runs are in-process (``main(argv)``
with captured stdio); broken pipes, closed descriptors and SIGINT run in a subprocess.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nlgmetrics.cli import checks
from nlgmetrics.cli.main import build_parser, main, subparsers
from nlgmetrics.registry import available

PARSER = build_parser()
# `nlgmetrics sacrebleu` promises sacrebleu's own output and exit codes byte for byte
# (tests/test_compat_sacrebleu.py); its hostile inputs are probed at the end of this file.
FOREIGN = {"sacrebleu"}
SUBCOMMANDS = {name: p for name, p in subparsers(PARSER).items() if name not in FOREIGN}
METRICS = [e.name for e in available()]
STATUSES = {0, 1, 2}


# -- running the CLI in-process ------------------------------------------------------------
def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out_bytes = io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    fake_in = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    fake_out = io.TextIOWrapper(out_bytes, encoding="utf-8", write_through=True)
    sys.stdin, sys.stdout, sys.stderr = fake_in, fake_out, io.StringIO()
    try:
        code = main([str(a) for a in argv])
        fake_out.flush()
        out, err = out_bytes.getvalue().decode("utf-8"), sys.stderr.getvalue()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return code, out, err


def _reject_constant(token: str) -> None:
    raise AssertionError(f"non-JSON constant {token} in the output")


def strict_json(text: str) -> None:
    """The whole text is one JSON document, or JSON lines; never NaN/Infinity tokens."""
    try:
        json.loads(text, parse_constant=_reject_constant)
        return
    except json.JSONDecodeError:
        pass
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines, "no JSON output"
    for line in lines:
        json.loads(line, parse_constant=_reject_constant)


def check(argv: list[str], stdin: bytes = b"", allowed: set[int] = STATUSES) -> tuple[int, str, str]:
    """Run and assert the promises of every command line; return the result."""
    code, out, err = run(argv, stdin)
    where = f"argv={argv!r} -> {code}, stderr={err[-500:]!r}"
    assert code in allowed, where
    assert "Traceback" not in err, where
    assert "internal error" not in err, where
    if code != 0:
        lines = err.strip("\n").split("\n")
        assert len(lines) == 1 and lines[0].startswith("nlgmetrics: "), where
        assert out == "", where
    else:
        if _wants_json(argv) and out.strip():
            strict_json(out)
        if str(argv[0]) != "compare":  # compare explains its test on stderr, as sacrebleu
            assert all(line.startswith("nlgmetrics: ") for line in err.splitlines()), where  # one line per warning
    return code, out, err


def _wants_json(argv: list[str]) -> bool:
    argv = [str(a) for a in argv]
    return any(a in ("-f", "--format") and i + 1 < len(argv) and argv[i + 1] == "json" for i, a in enumerate(argv))


# -- hostile files ---------------------------------------------------------------------------
GOOD_HYP = "The cat sat on the mat .\nIt is raining today !\nA third line here .\n"
GOOD_REF = "The cat is sitting on the mat .\nIt rains today .\nA third line there .\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    f: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        f[name] = d / name
        f[name].write_bytes(data)

    put("hyp.txt", GOOD_HYP.encode())
    put("ref.txt", GOOD_REF.encode())
    put("ref2.txt", GOOD_HYP.encode())
    put("empty.txt", b"")
    put("blank_lines.txt", b"\n\n\n")
    put("one_line.txt", b"only one line\n")
    put("invalid_utf8.txt", b"fine\nbro\xffken\nthird\n")
    put("surrogate.txt", b"a\n\xed\xa0\x80 encoded surrogate\nc\n")
    put("nul.txt", b"a\x00b\nc\x00\nd\n")
    put("crlf.txt", GOOD_HYP.replace("\n", "\r\n").encode())
    put("bom.txt", b"\xef\xbb\xbf" + GOOD_HYP.encode())
    put("quotes.txt", b'"\n"a\nb"\n')
    put("no_newline.txt", GOOD_HYP.rstrip("\n").encode())
    put("huge_line.txt", b"x" * 1_000_000 + b"\n" + (b"word " * 5000) + b"\nend\n")
    put("truncated.gz", gzip.compress(GOOD_HYP.encode())[:20])
    put("corrupt.gz", GOOD_HYP.encode())
    put("bad_crc.gz", (lambda z: z[:-8] + b"\0\0\0\0" + z[-4:])(gzip.compress(GOOD_HYP.encode())))
    put("good.gz", gzip.compress(GOOD_HYP.encode()))
    f["missing.txt"] = d / "missing.txt"
    f["directory"] = d / "a_directory"
    f["directory"].mkdir()
    # JSON lines
    rec = lambda p, r: json.dumps({"prediction": p, "references": r})  # noqa: E731
    put("good.jsonl", "\n".join(rec(h, [r]) for h, r in zip(GOOD_HYP.splitlines(), GOOD_REF.splitlines())).encode() + b"\n")
    put("refs_object.jsonl", (rec("a man", {"391895": "a man"}) + "\n").encode())
    put("refs_number.jsonl", (rec("a man", 3) + "\n").encode())
    put("refs_mixed.jsonl", (rec("a man", ["a", None]) + "\n").encode())
    put("refs_empty.jsonl", (rec("a man", []) + "\n").encode())
    put("not_object.jsonl", b"[1, 2]\n")
    put("bad_json.jsonl", b'{"prediction": "a", \n')
    put("deep.jsonl", b"[" * 100_000 + b"\n")
    put("nan.jsonl", b'{"prediction": NaN, "references": ["a"]}\n')
    # classification
    put("clf.tsv", b"y_true\ty_score\ty_pred\n1\t0.9\t1\n0\t0.2\t0\n1\t0.6\t1\n0\t0.7\t1\n")
    put("clf_quote.tsv", b'text\ty_true\ty_pred\nhello\t1\t1\n"\t0\t1\nfoo\t1\t1\nbar\t0\t0\n')
    put("clf_crlf.tsv", b"y_true\ty_score\r\n1\t0.9\r\n0\t0.2\r\n1\t0.6\r\n0\t0.7\r\n")
    put("clf_nan.tsv", b"y_true\ty_score\n1\tnan\n0\t0.2\n")
    put("clf_inf.tsv", b"y_true\ty_score\n1\tinf\n0\t0.2\n")
    put("clf_empty_label.tsv", b"y_true\ty_score\n\t0.3\n0\t0.2\n")
    put("clf_ragged.tsv", b"y_true\ty_score\n1\t0.3\t9\n0\t0.2\n")
    put("clf_header_only.tsv", b"y_true\ty_score\n")
    put("clf_null.jsonl", b'{"y_true": null, "y_score": 0.5}\n{"y_true": 1, "y_score": 0.4}\n')
    put("clf_dict.jsonl", b'{"y_true": {"a": 1}, "y_score": 0.5}\n{"y_true": 1, "y_score": 0.4}\n')
    put("clf_bool_score.jsonl", b'{"y_true": 0, "y_score": true}\n{"y_true": 1, "y_score": 0.4}\n')
    put("clf_one_class.tsv", b"y_true\ty_score\n1\t0.3\n1\t0.2\n")
    put("labels.txt", b"1\n0\n1\n0\n")
    put("scores.txt", b"0.9\n0.2\n0.6\n0.7\n")
    # human judgments
    put("human.tsv", b"system\tscore\nhyp.txt\t1.0\nref2.txt\t2.0\nhyp_b.txt\t3.5\n")
    put("hyp_b.txt", b"The cat .\nIt is .\nA line .\n")
    put("human_nan.tsv", b"system\tscore\nhyp.txt\tnan\nref2.txt\t2.0\nhyp_b.txt\t3.5\n")
    put("human_dup.tsv", b"system\tscore\nhyp.txt\t1\nhyp.txt\t2\nhyp_b.txt\t3.5\n")
    put("human_seg.tsv", b"system\tline\tscore\nhyp.txt\tx\t1.0\n")
    # COCO
    put("coco_ann.json", json.dumps({"images": [{"id": 1}, {"id": 2}], "annotations": [
        {"image_id": 1, "id": 1, "caption": "a man riding a horse"}, {"image_id": 2, "id": 2, "caption": "a red bus on a street"}]}).encode())
    put("coco_res.json", json.dumps([{"image_id": 1, "caption": "a man on a horse"}, {"image_id": 2, "caption": "a bus"}]).encode())
    # TREC run and qrels (nlgmetrics retrieval)
    put("run.trec", b"q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 0.5 t\n")
    put("qrels.trec", b"q1 0 d2 1\nq2 0 d3 2\nq2 0 d4 -1\n")
    # text-to-SQL (nlgmetrics sql): a database folder, gold and predicted queries
    (d / "db" / "t").mkdir(parents=True)
    conn = sqlite3.connect(d / "db" / "t" / "t.sqlite")
    conn.executescript("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2);")
    conn.close()
    f["db"] = d / "db"
    put("gold.sql", b"SELECT a FROM t\tt\nSELECT count(*) FROM t\tt\n")
    put("pred.sql", b"SELECT a FROM t ORDER BY a\nSELECT 1; DROP TABLE t\n")
    put("preferences.txt", b"2\n1\n1.5\n")  # judge verdicts (nlgmetrics judge; its own probes: tests/test_cli_judge.py)
    return f


HOSTILE_TEXT = ["empty.txt", "blank_lines.txt", "one_line.txt", "invalid_utf8.txt", "surrogate.txt", "nul.txt", "crlf.txt",
                "bom.txt", "quotes.txt", "no_newline.txt", "huge_line.txt", "truncated.gz", "corrupt.gz", "bad_crc.gz",
                "good.gz", "missing.txt", "directory"]
HOSTILE_JSONL = ["good.jsonl", "refs_object.jsonl", "refs_number.jsonl", "refs_mixed.jsonl", "refs_empty.jsonl", "not_object.jsonl",
                 "bad_json.jsonl", "deep.jsonl", "nan.jsonl", "empty.txt", "invalid_utf8.txt", "truncated.gz", "directory"]
HOSTILE_TABLES = ["clf_crlf.tsv", "clf_quote.tsv", "clf_nan.tsv", "clf_inf.tsv", "clf_empty_label.tsv", "clf_ragged.tsv", "clf_header_only.tsv",
                  "clf_null.jsonl", "clf_dict.jsonl", "clf_bool_score.jsonl", "clf_one_class.tsv", "nul.txt", "quotes.txt"]


def recipe(name: str, f: dict[str, Path]) -> list:
    """A valid command line of each subcommand; an unknown (new) subcommand gets its
    required options filled with a text file, and is probed all the same."""
    known = {
        "score": ["score", "-r", f["ref.txt"], "-i", f["hyp.txt"], "-f", "json"],
        "compare": ["compare", "-r", f["ref.txt"], "-i", f["hyp.txt"], f["ref2.txt"], "--paired-bs", "-pbsn", "5", "-f", "json"],
        "correlate": ["correlate", "-r", f["ref.txt"], "-i", f["hyp.txt"], f["ref2.txt"], f["hyp_b.txt"], "--human", f["human.tsv"], "-cin", "5", "-f", "json"],
        "classify": ["classify", "-i", f["clf.tsv"], "-f", "json"],
        "coco": ["coco", "-a", f["coco_ann.json"], "-R", f["coco_res.json"], "-f", "json"],
        "report": ["report", "-r", f["ref.txt"], "-i", f["hyp.txt"], f["ref2.txt"], "-m", "bleu", "-cin", "5", "-o", "-"],
        "list": ["list"],
        "retrieval": ["retrieval", "-q", f["qrels.trec"], "-r", f["run.trec"], "-f", "json"],
        "sql": ["sql", "--gold", f["gold.sql"], "--pred", f["pred.sql"], "--db", f["db"], "-f", "json"],
        "lm-eval": ["lm-eval", str(Path(__file__).parent / "goldens" / "lm_eval_folders" / "limited"), "-t", "toy_gsm", "-f", "json"],
        "judge": ["judge", "win-rate", f["preferences.txt"], "-f", "json"],
    }
    if name in known:
        return known[name]
    argv: list = [name]
    for a in SUBCOMMANDS[name]._actions:
        if a.required and a.option_strings:
            argv += [a.option_strings[0], f["hyp.txt"]]
    return argv


def file_options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Options whose values name files (by metavar or name)."""
    words = ("FILE", "REF", "HYP", "HTML", "JSON", "TSV", "PATH", "DF")
    dests = {"input", "references", "jsonl", "human", "annotations", "results", "labels", "scores", "predictions", "cider_df", "output"}
    out = []
    for a in parser._actions:
        if not a.option_strings or a.nargs == 0:
            continue
        mv = a.metavar if isinstance(a.metavar, str) else ""
        if a.dest in dests or any(w in mv.upper() for w in words):
            out.append(a)
    return out


def with_option(argv: list, action: argparse.Action, values: list) -> list:
    """``argv`` with ``action``'s value(s) replaced by ``values`` (or added)."""
    out = list(argv)
    strings = set(action.option_strings)
    for i, tok in enumerate(out):
        if str(tok) in strings:
            j = i + 1
            while j < len(out) and not str(out[j]).startswith("-"):
                j += 1
            return out[: i + 1] + values + out[j:]
    return out + [action.option_strings[0], *values]


# -- every subcommand --------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_recipe_runs(name, files):
    """The baseline of the probes below is a valid run (so a probe's error is its own)."""
    if name not in ("score", "compare", "correlate", "classify", "coco", "report", "list", "retrieval", "sql", "lm-eval", "judge"):
        check(recipe(name, files))  # a new subcommand: the promises hold, whatever the status
        return
    code, out, err = check(recipe(name, files))
    assert code == 0, err
    assert out.strip()


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_hostile_files_for_every_file_option(name, files):
    base = recipe(name, files)
    parser = SUBCOMMANDS[name]
    pool = HOSTILE_TABLES + HOSTILE_TEXT if name == "classify" else HOSTILE_JSONL + HOSTILE_TEXT if name == "score" else HOSTILE_TEXT
    if name == "report":  # a report that succeeds draws plots (about a second): keep the failing inputs
        pool = [h for h in pool if h not in ("crlf.txt", "bom.txt", "no_newline.txt", "good.gz", "quotes.txt")]
    for action in file_options(parser):
        if action.dest == "output":
            for bad in ("missing_dir/x.html", files["directory"]):
                check(with_option(base, action, [Path(files["directory"]) / "no" / "x.html" if bad != files["directory"] else bad]))
            continue
        for hostile in pool:
            argv = with_option(base, action, [files[hostile]])
            if name == "score" and action.dest == "jsonl":
                argv = ["score", "--jsonl", files[hostile], "-f", "json"]
            check(argv)


BAD_NUMBERS = ["-1", "0", "nan", "inf", "-inf", "1e300", "99999999999999999999", "abc", ""]


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_out_of_range_numbers_for_every_numeric_option(name, files):
    base = recipe(name, files)
    for action in checks.numeric_actions(SUBCOMMANDS[name]):
        n = action.nargs if isinstance(action.nargs, int) else 1
        for bad in BAD_NUMBERS:
            check(base + [action.option_strings[0], *([bad] * n)])


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_numeric_option_has_a_range(name):
    """A numeric flag without a range would accept NaN, infinities and negative counts."""
    missing = [checks.flag(a) for a in checks.numeric_actions(SUBCOMMANDS[name]) if a.dest not in checks.RANGES]
    assert not missing, f"{name}: numeric options without a range in cli/checks.py RANGES: {missing}"


def test_mode_rules_name_real_options():
    """The rules tying options to modes name options their subcommand has (none went stale)."""
    for command, rules in checks._MODE_RULES.items():
        assert command in SUBCOMMANDS, command
        dests = {a.dest for a in SUBCOMMANDS[command]._actions}
        for rule in rules:
            assert set(rule.dests) <= dests, (command, set(rule.dests) - dests)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_usage_noise(name, files):
    """Unknown flags, missing values, stray positionals: usage errors, one line."""
    base = recipe(name, files)
    for extra in (["--no-such-flag"], ["stray"], ["-f"], ["--format", "yaml"], ["\udcff"], ["--", "x"]):
        code, _, _ = check(base + extra)
        assert code == 2, (name, extra)
    code, _, _ = check([name, "--no-such-flag"])
    assert code == 2


def test_no_arguments_and_unknown_subcommand():
    assert check([])[0] == 2
    assert check(["frobnicate"])[0] == 2


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_help_returns_0(name):
    code, out, err = run([name, "--help"])
    assert code == 0 and out.startswith(f"usage: nlgmetrics {name}") and err == ""


# -- every registered metric ------------------------------------------------------------------------
@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_on_hostile_text(metric, files):
    for hostile in HOSTILE_TEXT:
        check(["score", "-m", metric, "-r", files["ref.txt"], "-i", files[hostile], "-f", "json"])
        check(["score", "-m", metric, "-r", files[hostile], "-i", files["hyp.txt"], "-f", "json"])
    for hostile in HOSTILE_JSONL:
        check(["score", "-m", metric, "--jsonl", files[hostile], "-f", "json"])
    check(["score", "-m", metric, "-r", files["ref.txt"], "-f", "json"], stdin=b"\xff\xfe\n")


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_in_every_mode(metric, files):
    base = ["score", "-m", metric, "-r", files["ref.txt"], "-i", files["hyp.txt"]]
    for mode in (["-f", "json"], ["--sentence-level", "-f", "json"], ["--confidence", "-cin", "3", "-f", "json"],
                 ["--chunk-size", "2", "-f", "json"], ["-f", "tsv"], ["-b"]):
        check(base + mode)
    for sub in (["compare", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], "--paired-bs", "-pbsn", "3", "-f", "json"],
                ["correlate", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], files["hyp_b.txt"], "--human", files["human.tsv"], "-cin", "0", "-f", "json"]):
        check(sub + ["-m", metric])


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_on_empty_and_blank_input_gives_strict_json(metric, files):
    for f in ("empty.txt", "blank_lines.txt"):
        for mode in ([], ["--sentence-level"]):
            check(["score", "-m", metric, "-r", files[f], "-i", files[f], "-f", "json", *mode])


# -- the reproductions of issue 15 -----------------------------------------------------------------
def test_contradictory_options_are_usage_errors(files):
    base = ["score", "-r", files["ref.txt"], "-i", files["hyp.txt"]]
    cases = [
        ["--nltk-smoothing", "method2"],  # sacrebleu flavour
        ["-m", "rouge", "--rouge-flavour", "coco", "--rouge-types", "rouge1"],
        ["--bleu-flavour", "nltk", "-lc"],
        ["--bleu-flavour", "nltk", "-tok", "13a"],
        ["-m", "rouge", "--rouge-alpha", "0.3"],  # a rouge155 option with rouge-score
        ["-m", "nist", "--nist-zero-division", "zero"],  # an nltk option with mteval
        ["-m", "meteor", "--meteor-flavour", "nltk", "--meteor-delta", "0.5"],
        ["-m", "chrf", "--ter-normalized"],  # another metric's flag
        ["-m", "cider", "--cider-flavour", "cider", "--cider-sigma", "3"],  # CIDEr-D's length penalty
        ["--smooth-value", "0.5"],  # exp smoothing takes no value
        ["--confidence-n", "10"],  # without --confidence
        ["--seed", "3"],
        ["-m", "self_bleu", "--sentence-level"],
        ["-m", "self_bleu", "--chunk-size", "2"],
        ["-m", "self_bleu", "--confidence"],
        ["--confidence", "--sentence-level"],
        ["-b", "-f", "json"],
    ]
    for extra in cases:
        code, _, err = check(base + extra)
        assert code == 2, (extra, err)
    code, _, err = check(["compare", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], "--paired-ar", "-pbsn", "5"])
    assert code == 2 and "--paired-bs-n" in err
    code, _, err = check(["compare", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], "--paired-ar", "--resampling", "poisson"])
    assert code == 2 and "--resampling" in err
    code, _, err = check(["compare", "-m", "self_bleu", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], "--paired-bs"])
    assert code == 2 and "self_bleu" in err
    code, _, err = check(["classify", "-i", files["clf.tsv"], "--bins", "10"])
    assert code == 2 and "--streaming binned" in err


def test_option_ranges_are_usage_errors_naming_the_option(files):
    cases = [
        (["score", "-r", files["ref.txt"], "-i", files["hyp.txt"], "-w", "-1"], "--width"),
        (["score", "-r", files["ref.txt"], "-i", files["hyp.txt"], "--confidence", "-cin", "1000000000000"], "--confidence-n"),
        (["score", "-r", files["ref.txt"], "-i", files["hyp.txt"], "--n-threads", str(2**64)], "--n-threads"),
        (["report", "-r", files["ref.txt"], "-i", files["hyp.txt"], "-o", "-", "--confidence-n", "0"], "--confidence-n"),
        (["report", "-r", files["ref.txt"], "-i", files["hyp.txt"], "-o", "-", "--alpha", "5"], "--alpha"),
        (["compare", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], "--paired-bs", "-pbsn", "10000000000"], "--paired-bs-n"),
        (["score", "-r", files["ref.txt"], "-i", files["hyp.txt"], "-s", "floor", "-sv", "-1"], "--smooth-value"),
        (["score", "-m", "meteor", "-r", files["ref.txt"], "-i", files["hyp.txt"], "--meteor-alpha", "2"], "--meteor-alpha"),
        (["score", "-m", "chrf", "-r", files["ref.txt"], "-i", files["hyp.txt"], "--chrf-beta", "nan"], "--chrf-beta"),
        (["classify", "-i", files["clf.tsv"], "--max-fpr", "0"], "--max-fpr"),
        (["classify", "-i", files["clf.tsv"], "--streaming", "binned", "--score-range", "1", "0"], "--score-range"),
    ]
    for argv, option in cases:
        code, _, err = check(argv)
        assert code == 2 and option in err, (argv, err)


def test_one_system_is_a_usage_error(files):
    code, _, err = check(["compare", "-r", files["ref.txt"], "-i", files["hyp.txt"], "--paired-bs"])
    assert code == 2 and "baseline and at least one system" in err


def test_data_errors_name_the_file_and_line(files):
    cases = [
        (["score", "-r", files["ref.txt"], "-i", files["truncated.gz"]], ("truncated.gz", "gzip")),
        (["score", "-r", files["ref.txt"], "-i", files["bad_crc.gz"], "--chunk-size", "1"], ("bad_crc.gz",)),
        (["score", "-r", files["ref.txt"], "-i", files["invalid_utf8.txt"]], ("invalid_utf8.txt", "line 2")),
        (["score", "--jsonl", files["refs_object.jsonl"]], ("refs_object.jsonl:1", "references")),
        (["score", "--jsonl", files["refs_mixed.jsonl"]], ("refs_mixed.jsonl:1",)),
        (["score", "-m", "cider", "--cider-df", files["hyp.txt"], "-r", files["ref.txt"], "-i", files["hyp.txt"]], ("--cider-df", "hyp.txt")),
        (["score", "-m", "cider", "--cider-df", files["missing.txt"], "-r", files["ref.txt"], "-i", files["hyp.txt"]], ("--cider-df", "missing")),
        (["classify", "-i", files["clf_null.jsonl"]], ("clf_null.jsonl:1", "null")),
        (["classify", "-i", files["clf_nan.tsv"]], ("clf_nan.tsv:2",)),
        (["correlate", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], files["hyp_b.txt"], "--human", files["human_nan.tsv"]], ("human_nan.tsv:2", "nan")),
        (["correlate", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], files["hyp_b.txt"], "--human", files["human_dup.tsv"]], ("human_dup.tsv:3",)),
    ]
    for argv, needles in cases:
        code, _, err = check(argv)
        assert code == 1, (argv, err)
        for needle in needles:
            assert needle in err, (argv, needle, err)


def test_tsv_lone_quote_keeps_every_row(files):
    """A ``"`` in a TSV field is text: 4 lines in, 4 samples scored (csv's quoting joined rows)."""
    code, out, _ = check(["classify", "-i", files["clf_quote.tsv"], "-f", "json"])
    assert code == 0
    res = json.loads(out)
    assert res["n_samples"] == 4
    assert res["confusion_matrix"] == [[1, 1], [0, 2]]


def test_crlf_tsv_is_read_as_lf(files):
    code, out, _ = check(["classify", "-i", files["clf_crlf.tsv"], "-f", "json"])
    assert code == 0 and json.loads(out)["n_samples"] == 4 and json.loads(out)["roc_auc"] == 0.75


def test_jsonl_references_object_is_not_scored_by_key(files, tmp_path):
    code, _, err = check(["score", "-m", "chrf", "--jsonl", files["refs_object.jsonl"]])
    assert code == 1 and "references" in err


def test_json_output_has_no_nan(files, tmp_path):
    """Undefined values are null in JSON (a correlation of constant human scores)."""
    flat = tmp_path / "flat.tsv"
    flat.write_text("hyp.txt\t1\nref2.txt\t1\nhyp_b.txt\t1\n")
    check(["correlate", "-r", files["ref.txt"], "-i", files["hyp.txt"], files["ref2.txt"], files["hyp_b.txt"], "--human", flat, "-cin", "0", "-f", "json"])
    for metric in METRICS:
        check(["score", "-m", metric, "-r", files["blank_lines.txt"], "-i", files["blank_lines.txt"], "--sentence-level", "-f", "json"])


# -- interrupts, memory, internal errors: the guard -------------------------------------------------
@pytest.mark.parametrize("exc, status, text", [
    (KeyboardInterrupt(), 130, "interrupted"),
    (MemoryError(), 1, "out of memory"),
    (RecursionError("deep"), 1, "nested too deeply"),
    (LookupError("Resource wordnet not found"), 2, "WordNet"),
    (BrokenPipeError(32, "Broken pipe"), 141, None),
])
def test_guard_maps_every_ending(exc, status, text, files, monkeypatch):
    cli_main = sys.modules["nlgmetrics.cli.main"]

    def boom(*a, **k):
        raise exc

    monkeypatch.setattr(cli_main, "_score", boom)
    code, out, err = run(["score", "-r", files["ref.txt"], "-i", files["hyp.txt"]])
    assert code == status
    assert "Traceback" not in err
    if text is None:
        assert err == ""
    else:
        assert err.count("\n") == 1 and text in err


def test_unexpected_exception_is_one_line(files, monkeypatch):
    cli_main = sys.modules["nlgmetrics.cli.main"]
    monkeypatch.setattr(cli_main, "_score", lambda *a, **k: 1 / 0)
    code, out, err = run(["score", "-r", files["ref.txt"], "-i", files["hyp.txt"]])
    assert code == 1 and err.count("\n") == 1 and "internal error: ZeroDivisionError" in err


# -- subprocesses: pipes, closed descriptors, SIGINT ------------------------------------------------
def _cli(args: list, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nlgmetrics", *map(str, args)], capture_output=True, timeout=120, **kw)


@pytest.fixture(scope="module")
def long_corpus(tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("long")
    hyp, ref = d / "hyp.txt", d / "ref.txt"
    hyp.write_text("the cat sat on the mat today\n" * 40_000)
    ref.write_text("the cat is on the mat today\n" * 40_000)
    return hyp, ref


def test_broken_pipe_exits_quietly(long_corpus):
    hyp, ref = long_corpus
    cmd = f"{sys.executable} -m nlgmetrics score -r {ref} -i {hyp} --sentence-level -f json | head -c 10; echo \"status=${{PIPESTATUS[0]}}\""
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert r.stdout.endswith("status=141\n"), r.stdout[-200:]
    assert r.stderr == ""


def test_closed_stdout_and_stdin(files):
    script = f"{sys.executable} -m nlgmetrics score -r {files['ref.txt']} -i {files['hyp.txt']} >&-"
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "stdout is closed" in r.stderr
    for args in (["score", "-r", files["ref.txt"]], ["classify"], ["score", "-r", files["ref.txt"], "-i", "-"]):
        r = subprocess.run(["bash", "-c", f"{sys.executable} -m nlgmetrics {' '.join(map(str, args))} <&-"], capture_output=True, text=True, timeout=120)
        assert r.returncode in (1, 2) and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr


def test_sigint_exits_130_with_one_line(files):
    """Ctrl-C while the command waits for its input (a pipe that never ends)."""
    start = time.monotonic()
    _cli(["--version"])
    startup = time.monotonic() - start  # interrupt once the run is past its imports
    p = subprocess.Popen([sys.executable, "-m", "nlgmetrics", "score", "-r", str(files["ref.txt"]), "-m", "bleu"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(b"a first line\n")
    p.stdin.flush()
    time.sleep(2 * startup + 1.0)
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        raise
    assert p.returncode == 130, err
    assert err.decode().strip() == "nlgmetrics: interrupted"
    assert out == b""


def test_nltk_meteor_without_wordnet_is_one_line(files, tmp_path, monkeypatch):
    """With no WordNet anywhere nltk looks, the error says how to install it offline."""
    import nltk

    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    code, out, err = check(["score", "-m", "meteor", "--meteor-flavour", "nltk", "-r", files["ref.txt"], "-i", files["hyp.txt"]])
    assert code == 2 and "WordNet" in err and "corpora/wordnet" in err


# -- generated inputs ------------------------------------------------------------------------------
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

# any text a line can hold: every code point but the newline and lone surrogates (which
# UTF-8 cannot encode), with the hostile ones made likely
_FIELD = st.text(st.one_of(st.sampled_from(['"', "'", "\r", "\x00", "\u2028", "\ufeff", " ", "\\", "{", "}"]),
                           st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\t")), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_FIELD, min_size=2, max_size=8))
def test_generated_tsv_rows_are_counted_exactly(texts, tmp_path):
    """Whatever a text column holds, one line in is one sample scored."""
    labels = [i % 2 for i in range(len(texts))]
    path = tmp_path / "gen.tsv"
    body = "".join(f"{t}\t{y}\t{(y + i) % 2}\n" for i, (t, y) in enumerate(zip(texts, labels)))
    path.write_bytes(("text\ty_true\ty_pred\n" + body).encode("utf-8"))
    code, out, err = check(["classify", "-i", path, "-f", "json"])
    if code == 0:
        assert json.loads(out)["n_samples"] == len(texts)
    else:  # only a blank-looking line may be refused, and it is named
        assert f"{path}:" in err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hyps=st.lists(_FIELD, min_size=0, max_size=6), data=st.data())
def test_generated_lines_score_or_fail_cleanly(hyps, data, tmp_path):
    refs = data.draw(st.lists(_FIELD, min_size=len(hyps), max_size=len(hyps)))
    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_bytes("".join(x + "\n" for x in hyps).encode("utf-8"))
    r.write_bytes("".join(x + "\n" for x in refs).encode("utf-8"))
    metric = data.draw(st.sampled_from(METRICS))
    mode = data.draw(st.sampled_from([[], ["--sentence-level"], ["--chunk-size", "2"]]))
    check(["score", "-m", metric, "-r", r, "-i", h, "-f", "json", *mode])


def _non_default_values(action: argparse.Action) -> list[list[str]]:
    """Command-line values of ``action`` other than its default, each valid on its own."""
    if action.nargs == 0:
        return [[]]
    if action.choices:
        return [[str(c)] for c in action.choices if c != action.default]
    rng = checks.RANGES.get(action.dest)
    if rng is not None:
        picks = {rng.lo if not rng.lo_open else rng.lo + 0.5, min(rng.hi, 3) if rng.hi != checks.INF else 3}
        cast = int if action.type is int else float
        return [[str(cast(v))] for v in sorted(picks) if cast(v) != action.default and rng.holds(cast(v))]
    return [["x"]]


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_flag_with_every_metric(metric, files):
    """Each metric option, at each valid non-default value, with each metric: a score, or
    one line (a flag another metric or flavour reads is a usage error naming it)."""
    base = ["score", "-m", metric, "-r", files["ref.txt"], "-i", files["hyp.txt"], "-f", "json"]
    for dest, action in checks.metric_dests(SUBCOMMANDS["score"]).items():
        if dest in ("cider_df", "bertscore_baseline", "bleurt_checkpoint", "bertscore_model"):
            continue  # files: probed by the hostile-file tests
        for values in _non_default_values(action):
            check(base + [action.option_strings[0], *values])


SACREBLEU_STATUSES = {0, 1, 2, 17}  # sacrebleu 2.6's: success, data error, usage error, no test set


@pytest.mark.parametrize("hostile", ["empty", "nul", "invalid_utf8", "missing", "directory", "mismatched"])
def test_the_sacrebleu_command_fails_as_sacrebleu_does_never_with_a_traceback(hostile, tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\na dog\n", encoding="utf-8")
    hyp.write_text("the cat sat on a mat\nthe dog\n", encoding="utf-8")
    if hostile == "empty":
        hyp.write_text("", encoding="utf-8")
    elif hostile == "nul":
        hyp.write_bytes(b"the cat\x00sat\na dog\n")
    elif hostile == "invalid_utf8":
        hyp.write_bytes(b"the cat \xff\xfe sat\na dog\n")
    elif hostile == "missing":
        hyp = tmp_path / "absent.txt"
    elif hostile == "directory":
        hyp = tmp_path
    elif hostile == "mismatched":
        hyp.write_text("only one line\n", encoding="utf-8")
    for extra in ([], ["-m", "bleu", "chrf", "ter", "-f", "json"]):
        code, out, err = run(["sacrebleu", str(ref), "-i", str(hyp), *extra])
        assert code in SACREBLEU_STATUSES, (hostile, code, err)
        assert "Traceback" not in err, (hostile, err)
        if code == 0 and extra:
            json.loads(out, parse_constant=_reject_constant)
