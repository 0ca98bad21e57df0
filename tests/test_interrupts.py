"""Ctrl-C at any moment of the command line's life (loading its modules, parsing, building
metrics, scoring, writing) ends it with status 130, at most one line on stderr, no
traceback, and no half-written output: stdout gets the whole result or nothing, an output
file is the whole page or absent, and no temporary file is left behind.

The child starts through the real entry (``nlgmetrics.__main__.run``, what ``[project.scripts]``
names) and says "ready" once the entry module is loaded: before that the interpreter is
still starting (site, runpy), which no program controls.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

INTERRUPTED = "nlgmetrics: interrupted\n"

# The entry as the console script runs it, announcing itself first.
ENTRY = "import os, sys\nfrom nlgmetrics.__main__ import run\n{before}os.write(1, b'ready\\n')\nrun()"

# Pauses the child for a while at the import of ``sys.argv[1]`` (a stage of the run),
# after saying so: the signal then lands in that stage for sure.
PAUSE_AT = """
import time
class _PauseAt:
    def __init__(self, name):
        self.name = name
    def find_spec(self, name, path=None, target=None):
        if name == self.name:
            os.write(1, b'pausing\\n')
            for _ in range(300):  # short sleeps: the handler runs between them, whichever thread got the signal
                time.sleep(0.1)
            os.write(1, b'pause over\\n')
        return None
sys.meta_path.insert(0, _PauseAt(sys.argv.pop(1)))
"""


def _spawn(argv, before="", cwd=REPO):
    code = ENTRY.format(before=before)
    proc = subprocess.Popen([sys.executable, "-c", code, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    assert proc.stdout.readline() == b"ready\n", proc.stderr.read()
    return proc


def _interrupt(proc, delay):
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out.decode(), err.decode()


@pytest.fixture
def one_line(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the cat sat on a mat\n")
    return str(ref), str(hyp)


def _full_run(argv, cwd=REPO):
    """The uninterrupted run: its stdout and stderr, and how long it took from "ready"."""
    proc = _spawn(argv, cwd=cwd)
    started = time.monotonic()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out.decode(), err.decode(), time.monotonic() - started


def _delays(duration, n=10):
    """From just after the entry is loaded to past the end of a normal run."""
    return [0.002, 0.01] + [duration * k / n for k in range(1, n + 3)]


def _check_ended_cleanly(code, out, err, whole_out, what, whole_err=""):
    assert "Traceback" not in err and "Fatal" not in err, (what, err)
    if code in (0, -signal.SIGINT):  # the run was over before the signal (-2: the interpreter's
        # last moments, its handlers removed: the default action, which a shell reports as 130)
        assert out == whole_out and err == whole_err, what
    else:
        assert code == 130, (what, code, err)
        assert err == INTERRUPTED, (what, err)  # one line, said once
        assert out in ("", whole_out), (what, out)  # nothing half written


def test_ctrl_c_at_any_moment_of_a_score_run(one_line):
    ref, hyp = one_line
    argv = ["score", "-m", "bleu", "chrf", "-r", ref, "-i", hyp]
    whole, _, duration = _full_run(argv)
    assert whole.startswith("BLEU = ")
    ended = set()
    for delay in _delays(duration):
        code, out, err = _interrupt(_spawn(argv), delay)
        _check_ended_cleanly(code, out, err, whole, f"SIGINT after {delay:.3f}s")
        ended.add(code)
    assert 130 in ended  # (a loaded machine may finish some runs before their signal)


def test_ctrl_c_at_any_moment_of_a_report_leaves_the_page_whole_or_absent(one_line, tmp_path):
    ref, hyp = one_line
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    page = out_dir / "report.html"
    argv = ["report", "-m", "bleu", "-r", ref, "-i", hyp, "-o", str(page), "--confidence-n", "50"]
    _, whole_err, duration = _full_run(argv)
    whole = page.read_bytes()
    assert whole.rstrip().endswith(b"</html>")
    for delay in _delays(duration, n=4):  # (a report takes seconds on a loaded machine)
        page.unlink(missing_ok=True)
        code, _, err = _interrupt(_spawn(argv), delay)
        _check_ended_cleanly(code, "", err, "", f"SIGINT after {delay:.3f}s", whole_err)
        left = sorted(p.name for p in out_dir.iterdir())
        assert left in ([], ["report.html"]), left  # no temporary file
        if left:  # a whole page (its timestamp may differ)
            written = page.read_bytes()
            assert written[:200] == whole[:200] and written.rstrip().endswith(b"</html>")


@pytest.mark.parametrize(
    "stage,argv_tail",
    [
        ("nlgmetrics.cli.main", []),  # the command line's modules loading (before any guard)
        ("nlgmetrics.cli.opts_bleu", []),  # building the metrics from the flags
        ("nlgmetrics.metrics.bleu", []),  # the metric's module (scoring)
        ("nlgmetrics.cli.jsonout", ["-f", "json"]),  # writing the JSON output
    ],
)
def test_ctrl_c_in_each_stage_exits_130_with_one_line(one_line, stage, argv_tail):
    ref, hyp = one_line
    proc = _spawn([stage, "score", "-m", "bleu", "-r", ref, "-i", hyp, *argv_tail], before=PAUSE_AT)
    assert proc.stdout.readline() == b"pausing\n"
    started = time.monotonic()
    code, out, err = _interrupt(proc, 0.0)
    assert (code, err, out) == (130, INTERRUPTED, "")
    assert time.monotonic() - started < 30  # promptly, not after the pause


def test_a_second_ctrl_c_ends_the_cleanup_silently(one_line):
    """The first Ctrl-C raises KeyboardInterrupt; one during its cleanup exits at once,
    without a second line."""
    ref, hyp = one_line
    proc = _spawn(["nlgmetrics.metrics.bleu", "score", "-m", "bleu", "-r", ref, "-i", hyp], before=PAUSE_AT)
    assert proc.stdout.readline() == b"pausing\n"
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    code, out, err = _interrupt(proc, 0.0)
    assert code == 130 and err in ("", INTERRUPTED) and out == ""


def test_the_console_scripts_are_the_guarded_entry():
    import tomllib

    with open(os.path.join(REPO, "pyproject.toml"), "rb") as fh:
        scripts = tomllib.load(fh)["project"]["scripts"]
    assert scripts == {"nlgmetrics": "nlgmetrics.__main__:run", "sacrebleu-nm": "nlgmetrics.__main__:run_sacrebleu"}


def test_the_entry_module_loads_nothing_before_its_handler():
    """What runs before the SIGINT handler is installed: the package's light __init__ and
    the entry module, which import no module the interpreter has not loaded already."""
    probe = "import sys\nbefore = set(sys.modules)\nimport nlgmetrics.__main__\nprint(sorted(set(sys.modules) - before))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60).stdout
    loaded = set(eval(out))
    assert {m for m in loaded if m.startswith("nlgmetrics")} == {"nlgmetrics", "nlgmetrics.__main__"}
    assert loaded <= {"nlgmetrics", "nlgmetrics.__main__", "__future__", "importlib", "importlib._bootstrap", "importlib._bootstrap_external", "warnings"}, loaded


def test_a_file_write_delivers_a_ctrl_c_once_the_file_is_in_place(tmp_path):
    """atomic_write (report -o, squad -o, --export-dir): a SIGINT during the write is held
    until the new file is whole and in place, then raised as KeyboardInterrupt."""
    import signal as signal_module

    from nlgmetrics.cli import outputs

    target = tmp_path / "page.html"
    target.write_bytes(b"old")
    real_fsync = os.fsync

    def fsync_interrupted(fd):
        signal_module.raise_signal(signal_module.SIGINT)  # lands mid-write
        real_fsync(fd)

    # Python's own handler for this test: another library in the process (a Spark session
    # started by an earlier test) may have put its own in place
    previous = signal_module.signal(signal_module.SIGINT, signal_module.default_int_handler)
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(os, "fsync", fsync_interrupted)
            with pytest.raises(KeyboardInterrupt):
                outputs.atomic_write(str(target), b"new page")
        assert target.read_bytes() == b"new page"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]  # no temporary left
        assert signal_module.getsignal(signal_module.SIGINT) is signal_module.default_int_handler  # restored
    finally:
        signal_module.signal(signal_module.SIGINT, previous)


def _wrapped_interrupt() -> int:
    """Ctrl-C while a class is built during an import: Python wraps the KeyboardInterrupt
    raised in ``__set_name__`` in a RuntimeError (seen when matplotlib was being imported)."""

    class Hook:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    type("Axis", (), {"converter": Hook()})
    return 0


def test_ctrl_c_wrapped_by_python_is_still_an_interrupt(capsys):
    from nlgmetrics.cli.guard import caused_by_interrupt, guarded

    try:
        _wrapped_interrupt()
    except RuntimeError as e:
        assert caused_by_interrupt(e)
    else:  # pragma: no cover
        raise AssertionError("Python no longer wraps KeyboardInterrupt in __set_name__")
    assert guarded(_wrapped_interrupt) == 130
    assert capsys.readouterr().err.strip().endswith("interrupted")
    # a plain error is still an internal error, not an interrupt
    assert not caused_by_interrupt(RuntimeError("x"))
    loop = RuntimeError("a")
    loop.__context__ = ValueError("b")
    loop.__context__.__context__ = loop
    assert not caused_by_interrupt(loop)
