"""Ctrl-C during a long core call: KeyboardInterrupt (never a Rust panic), promptly, with
Python's signal handling intact afterwards; the CLI exits 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

# A pairwise WER matrix of long segments: minutes of core work if not interrupted.
LONG_CALL = textwrap.dedent(
    """
    import signal, sys, time
    from nlgmetrics import load
    m = load("wer")
    cands = ["the cat sat on the mat and then %d more words here " % i * 40 for i in range(3000)]
    print("start", flush=True)
    t = time.monotonic()
    try:
        m.pairwise(cands, cands)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", round(time.monotonic() - t, 2), flush=True)
    # the handler is Python's again, and the next core call runs normally
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert m.corpus_score(["a b c"], ["a b d"]).score > 0
    try:
        signal.raise_signal(signal.SIGINT)
        time.sleep(0.1)
        print("no second interrupt", flush=True)
    except KeyboardInterrupt:
        print("second interrupt", flush=True)
    """
)


def start_and_interrupt(args, *, delay=0.5, **kw):
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, **kw)
    try:
        line = proc.stdout.readline() if kw.get("wait_for_start", True) else ""
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        return proc.returncode, line + out, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_ctrl_c_in_a_long_core_call_raises_keyboard_interrupt():
    code, out, err, waited = start_and_interrupt([sys.executable, "-c", LONG_CALL])
    assert code == 0, err
    lines = out.split("\n")
    assert lines[0] == "start"
    assert lines[1].startswith("interrupted"), out
    assert "second interrupt" in out
    assert "Panic" not in err and "panicked" not in err, err
    assert waited < 20, f"the call ran on for {waited:.1f}s after SIGINT"


def test_cli_exits_130_on_ctrl_c(tmp_path):
    lines = ["the cat sat on the mat and then %d more words here " % i * 40 for i in range(3000)]
    hyp = tmp_path / "h.txt"
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref = tmp_path / "r.txt"
    ref.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    script = "import sys; print('start', flush=True); from nlgmetrics.cli.main import main; sys.exit(main(sys.argv[1:]))"
    args = [sys.executable, "-c", script, "score", "-m", "ter", "-i", str(hyp), "-r", str(ref), "--confidence", "--confidence-n", "100000"]
    code, out, err, waited = start_and_interrupt(args, delay=2.0)
    assert code == 130, (code, err)
    assert "Traceback" not in err and "Panic" not in err, err
    assert waited < 20


# One long call per family, each a single huge input (one segment, one score vector), so
# the core must check for Ctrl-C inside the work on one item, not only between items.
# Each runs for seconds to minutes if not interrupted.
_SETUP = """
import random, sys, time
import numpy as np
import nlgmetrics
rng = random.Random(0)
def words(n, vocab):
    return " ".join(f"w{rng.randrange(vocab)}" for _ in range(n))
"""
SINGLE_ITEM_CALLS = {
    # bit-parallel Levenshtein of a 300,000 x 300,000-word pair: ~40 s
    "wer": ("a, b = words(300_000, 50), words(300_000, 50)", "nlgmetrics.load('wer').corpus_score([a], [b])"),
    # rouge-score's LCS of a 300,000 x 300,000-word pair: ~10 s
    "rouge_l": ("a, b = words(300_000, 50), words(300_000, 50)",
                "nlgmetrics.load('rouge', rouge_types=['rougeL']).corpus_score([a], [b])"),
    # character and word n-grams of an 18,000,000-word segment and its reference (3,000,000
    # random words six times over): ~4 s (3,000,000 words now take 0.6 s, which ends before
    # the signal, 1 s after the start)
    "chrf": ("a, b = words(3_000_000, 1000), words(3_000_000, 1000)\na, b = ' '.join([a] * 6), ' '.join([b] * 6)",
             "nlgmetrics.load('chrf').corpus_score([a], [b])"),
    # n-gram counts of a 20,000,000-word segment and its reference: ~3.5 s (5M words now
    # take about 1 s, which can end before the signal)
    "bleu": ("a, b = words(20_000_000, 10), words(20_000_000, 10)", "nlgmetrics.load('bleu').corpus_score([a], [b])"),
    # TER on a 300,000-word pair with 20 swapped word pairs: 20 shift rounds, each a banded
    # edit distance over the whole pair (15M cells): ~4 s
    "ter": ("b = words(300_000, 1_000_000).split(); a = list(b)\n"
            "for k in range(1, 21): a[k * 14_000], a[k * 14_000 + 1] = a[k * 14_000 + 1], a[k * 14_000]\n"
            "a, b = ' '.join(a), ' '.join(b)", "nlgmetrics.load('ter').corpus_score([a], [[b]])"),
    # a CIDEr-D document-frequency table of 200,000 images: ~30 s
    "cider_fit": ("refs = [[words(10, 5000) for _ in range(5)] for _ in range(200_000)]\nfrom nlgmetrics.tasks.rewards import CiderDF",
                  "CiderDF.fit(refs)"),
    # a ROC curve over 60,000,000 scores: ~6 s (10,000,000 now take 0.9 s)
    "roc_curve": ("g = np.random.default_rng(0); y = g.integers(0, 2, 60_000_000, dtype=np.int8); s = g.random(60_000_000)\n"
                  "from nlgmetrics.classification import roc_curve", "roc_curve(y, s)"),
}
_CALL = """
{setup}
print("start", flush=True)
try:
    {call}
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
"""
# Ctrl-C must arrive within this long from any long call (time.monotonic is one clock
# for every process on Linux, so the child's stamp is compared with the moment of sending).
INTERRUPT_LATENCY_S = 1.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="compares CLOCK_MONOTONIC across processes")
@pytest.mark.parametrize("family", sorted(SINGLE_ITEM_CALLS))
def test_ctrl_c_inside_one_huge_item_arrives_within_a_second(family):
    setup, call = SINGLE_ITEM_CALLS[family]
    script = _SETUP + _CALL.format(setup=setup, call=call)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert proc.stdout.readline() == "start\n", proc.stderr.read()
        time.sleep(1.0)  # well inside the core call
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err[-2000:]
    assert out.startswith("interrupted"), (out, err[-2000:])
    assert "panicked" not in err and "Panic" not in err, err
    latency = float(out.split()[1]) - sent
    assert latency < INTERRUPT_LATENCY_S, f"{family}: KeyboardInterrupt came {latency:.2f}s after SIGINT"
