"""Start-up cost: which modules a fresh interpreter loads for a first corpus BLEU and for
``nlgmetrics score -m bleu``; and the totals path behind it (core-summed totals, no
numpy) equal to the per-segment statistics summed.

Module sets, not timings: speed is measured in benches/bench_speed.py.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.stats import SegmentStats, Stats

# Heavy modules a corpus BLEU of plain lists must not load (numpy, and the standard
# modules that cost a fresh interpreter most: dataclasses brings inspect, ast, dis).
NOT_FOR_CORPUS_BLEU = ["numpy", "dataclasses", "inspect", "typing", "re", "nlgmetrics.stats._segments"]


def _modules_after(code: str, *args: str) -> set[str]:
    probe = f"{code}\nimport sys\nloaded = sorted(sys.modules)\nimport json\nprint(json.dumps(loaded))"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env, timeout=120, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_import_and_corpus_bleu_load_no_heavy_module():
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps = ["the cat sat on the mat", "a dog barked at the cat ."]
    refs = [["the cat sat on a mat", "a cat sat", "the cat"], ["the dog barked at a cat .", "a dog barked", "a dog"]]
    want = sacrebleu.corpus_bleu(hyps, [list(r) for r in zip(*refs)])
    loaded = _modules_after(
        "import sys\n"
        "want = eval(sys.argv[1])  # a dict literal (json would load re)\n"
        "import nlgmetrics\n"
        f"s = nlgmetrics.bleu({hyps!r}, {refs!r})\n"
        "assert s.score == want['score'], (s.score, want)\n"
        "assert s.counts == want['counts'] and s.totals == want['totals'] and s.bp == want['bp'], (s.counts, s.totals)\n"
        "assert str(s.signature).startswith('nrefs:3|case:mixed|eff:no|tok:13a|smooth:exp|'), s.signature\n"
        "assert s.to_dict()['counts'] == want['counts']",
        repr({"score": want.score, "counts": want.counts, "totals": want.totals, "bp": want.bp}),
    )
    assert "nlgmetrics.metrics.bleu" in loaded  # the probe did score
    assert sorted(set(NOT_FOR_CORPUS_BLEU) & loaded) == []


def test_import_alone_loads_no_metric():
    loaded = _modules_after("import nlgmetrics")
    assert sorted(m for m in loaded if m.startswith("nlgmetrics.")) == []
    assert "numpy" not in loaded


def test_streaming_bleu_update_and_compute_load_no_numpy():
    loaded = _modules_after(
        "import nlgmetrics\n"
        "m = nlgmetrics.BLEU()\n"
        "m.update(['the cat sat'], [['the cat sat on the mat']])\n"
        "m.update(['a dog'], [['a dog barked']])\n"
        "assert m.compute().sys_len == 5"
    )
    assert "numpy" not in loaded


def test_sentence_scores_still_return_arrays():
    loaded = _modules_after(
        "import nlgmetrics, numpy\n"
        "s = nlgmetrics.sentence_bleu(['the cat sat'], [['the cat sat on the mat']])\n"
        "assert isinstance(s, numpy.ndarray) and s.dtype == numpy.float64"
    )
    assert "numpy" in loaded


# What `nlgmetrics score` on text files and text output must not load: numpy; the standard
# modules dearest to a fresh interpreter (dataclasses brings inspect, ast, dis; typing;
# shutil, which argparse imports for the terminal width); json and gzip (JSON output,
# --jsonl and .gz input only); the readers, streaming, significance and report code of
# other modes and subcommands.
NOT_FOR_CLI_SCORE = [
    "numpy", "dataclasses", "inspect", "ast", "typing", "shutil", "json", "gzip", "zlib",
    "nlgmetrics.io.chunks", "nlgmetrics.engines.streaming", "nlgmetrics.engines.two_phase", "nlgmetrics.engines.significance",
    "nlgmetrics.cli.compare", "nlgmetrics.cli.correlate", "nlgmetrics.cli.classify", "nlgmetrics.cli.coco",
    "nlgmetrics.cli.report", "nlgmetrics.cli.jsonout", "nlgmetrics.cli.sacrebleu_cli", "nlgmetrics.report",
    "nlgmetrics.stats._segments",
]


@pytest.mark.parametrize("extra", [["-b"], ["-lc", "-tok", "intl", "-w", "3"], ["--smooth-method", "floor", "--smooth-value=0.5"]])
def test_cli_score_loads_only_what_it_needs(tmp_path, extra):
    text = tmp_path / "one.txt"
    text.write_text("the cat sat on the mat\n")
    loaded = _modules_after(
        "import sys\n"
        "from nlgmetrics.cli import main\n"
        f"assert main(['score', '-m', 'bleu', '-r', sys.argv[1], '-i', sys.argv[1], *{extra!r}]) == 0",
        str(text),
    )
    assert "nlgmetrics.metrics.bleu" in loaded  # the probe did score
    assert sorted(set(NOT_FOR_CLI_SCORE) & loaded) == []


def test_cli_program_run_loads_only_what_it_needs(tmp_path):
    """`python -m nlgmetrics score` (the program's own run: garbage collection deferred
    through start-up, then frozen) prints the score and loads no more."""
    text = tmp_path / "one.txt"
    text.write_text("the cat sat on the mat\n")
    loaded = _modules_after(
        "import gc, io, runpy, sys\n"
        "sys.argv = ['nlgmetrics', 'score', '-m', 'bleu', '-r', sys.argv[1], '-i', sys.argv[1], '-b']\n"
        "out, sys.stdout = sys.stdout, io.StringIO()\n"
        "try:\n"
        "    runpy.run_module('nlgmetrics', run_name='__main__')\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "printed, sys.stdout = sys.stdout.getvalue(), out\n"
        "assert printed == '100.00\\n', printed\n"
        "assert gc.isenabled() and gc.get_freeze_count() > 0",
        str(text),
    )
    assert sorted(set(NOT_FOR_CLI_SCORE) & loaded) == []


def test_cli_json_output_and_gz_input_load_their_modules(tmp_path):
    import gzip

    text = tmp_path / "one.txt.gz"
    with gzip.open(text, "wt") as f:
        f.write("the cat sat on the mat\n")
    loaded = _modules_after(
        "import sys\n"
        "from nlgmetrics.cli import main\n"
        "assert main(['score', '-m', 'bleu', '-r', sys.argv[1], '-i', sys.argv[1], '-f', 'json']) == 0",
        str(text),
    )
    assert {"json", "gzip"} <= loaded


def test_stream_help_names_the_readers_chunk_size():
    from nlgmetrics.cli import stream
    from nlgmetrics.io import chunks

    assert stream.DEFAULT_CHUNK_SIZE == chunks.DEFAULT_CHUNK_SIZE


def test_full_parser_still_has_every_subcommand():
    from nlgmetrics.cli.main import COMMANDS, build_parser, subparsers

    assert tuple(subparsers(build_parser())) == COMMANDS
    for name in COMMANDS:
        assert tuple(subparsers(build_parser(name))) == (name,)


# -- the totals path ----------------------------------------------------------------


def _corpus(n: int, seed: int) -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(seed)
    words = np.array("the a cat dog sat on mat , . ! über naïve 猫 it's don't".split())
    hyps = [" ".join(rng.choice(words, rng.integers(0, 12))) for _ in range(n)]
    refs = [[" ".join(rng.choice(words, rng.integers(1, 12))) for _ in range(rng.integers(1, 4))] for _ in range(n)]
    return hyps, refs


@pytest.mark.parametrize("options", [{}, {"lowercase": True}, {"tokenize": "intl"}, {"max_ngram_order": 6}, {"tokenize": "char"}])
def test_core_totals_equal_summed_segment_statistics(options):
    hyps, refs = _corpus(300, 7)
    metric = nlgmetrics.BLEU(**options)
    summed = metric.stats(hyps, refs).total()
    total = metric._total(hyps, refs)
    assert total == summed
    assert total.counts.dtype == np.uint64 and list(total.counts) == list(summed.counts)
    assert total.ref_counts == frozenset({1, 2, 3}) and total.n_segments == 300
    assert metric.corpus_score(hyps, refs).score == metric.score_stats(summed).score


def test_totals_path_refuses_what_the_validating_path_refuses():
    metric = nlgmetrics.BLEU()
    with pytest.raises(nlgmetrics.LengthMismatchError):
        metric.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(nlgmetrics.InputTypeError):
        metric.corpus_score(["a", 3], [["a"], ["b"]])
    with pytest.raises(nlgmetrics.EmptyInputError):  # the one empty rule (metrics/base.empty_input)
        metric.corpus_score([], [])


def test_stats_immutable_pickles_and_replaces():
    stats = Stats("k", ("a", "b"), (3, 4), n_segments=2, ref_counts=frozenset({1}))
    assert stats.counts.dtype == np.uint64 and stats.counts.tolist() == [3, 4]
    with pytest.raises(AttributeError):
        stats.key = "other"  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(stats))
    assert again == stats and again.counts.tolist() == [3, 4]
    moved = stats.replace(key="k2")
    assert moved.key == "k2" and moved.counts.tolist() == [3, 4] and moved.n_segments == 2
    assert (stats + Stats("k", ("a", "b"), np.array([1, 1], np.uint64))).counts.tolist() == [4, 5]
    with pytest.raises(TypeError):
        stats.replace(nothing=1)


def test_segment_stats_keeps_its_public_home():
    assert SegmentStats.__module__ == "nlgmetrics.stats"
    seg = nlgmetrics.BLEU().stats(["the cat"], [["the cat"]])
    assert isinstance(seg, SegmentStats)
    assert pickle.loads(pickle.dumps(seg)).total() == seg.total()
