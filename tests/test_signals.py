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
