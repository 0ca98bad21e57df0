"""Progress bars and chunked extraction: same statistics bit for bit, bars only on terminals."""

from __future__ import annotations

import io
import json
import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_significance_helpers import wmt_systems
from nlgmetrics import load
from nlgmetrics.cli import main
from nlgmetrics.errors import InvalidInputError, InvalidOptionError
from nlgmetrics.engines.progress import SEGMENT_LOCAL, ChunkedMetric, chunk_ranges, chunked_stats, enabled, segment_local, track

# one configuration per segment-local class (SEGMENT_LOCAL), by registry name and options
LOCAL = [
    ("bleu", {}),
    ("chrf", {}),
    ("ter", {}),
    ("wer", {}),
    ("cer", {}),
    ("mer", {}),
    ("wil", {}),
    ("wip", {}),
    ("per", {}),
    ("rouge", {}),
    ("meteor", {}),
]


@pytest.fixture(scope="module")
def wmt(corpora):
    ref, systems = wmt_systems(corpora, "zh-en", n_systems=1, n_segments=240)
    return next(iter(systems.values())), [[r] for r in ref]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _same(a, b) -> None:
    assert a.key == b.key and a.count_fields == b.count_fields and a.sum_fields == b.sum_fields
    assert a.counts.dtype == b.counts.dtype and np.array_equal(a.counts, b.counts)
    assert (a.sums is None) == (b.sums is None)
    if a.sums is not None:
        assert a.sums.tobytes() == b.sums.tobytes()  # bit for bit, NaN included
    assert a.total() == b.total()


def test_every_segment_local_class_is_covered():
    covered = set()
    for name, opts in LOCAL:
        m = load(name, **opts)
        covered.add(f"{type(m).__module__}:{type(m).__qualname__}")
    assert covered == set(SEGMENT_LOCAL)


@pytest.mark.parametrize("name,opts", LOCAL, ids=[n for n, _ in LOCAL])
def test_chunked_statistics_are_bit_identical(wmt, name, opts):
    hyps, refs = wmt
    m = load(name, **opts)
    assert segment_local(m)
    whole = m.stats(hyps, refs)
    chunked = chunked_stats(m, hyps, refs, chunk_size=37, show=False)
    _same(chunked, whole)
    assert m.score_stats(chunked).score == m.score_stats(whole).score
    assert np.array_equal(m._sentence_scores(chunked), m.sentence_scores(hyps, refs), equal_nan=True)


@pytest.mark.parametrize("name", ["cider", "nist", "distinct"])
def test_corpus_fitted_metrics_are_extracted_in_one_piece(wmt, name):
    hyps, refs = wmt
    m = load(name)
    assert not segment_local(m)
    chunked = chunked_stats(m, hyps, refs, chunk_size=10, show=False)
    _same(chunked, m.stats(hyps, refs))
    # the wrapper scores them through their own corpus path
    assert ChunkedMetric(m, chunk_size=10, show=False).corpus_score(hyps, refs).score == m.corpus_score(hyps, refs).score


class _RecordingBar:
    """Stands in for tqdm.tqdm: records what the bar was told."""

    made: list["_RecordingBar"] = []

    def __init__(self, total=None, desc=None, unit=None, file=None, **kw):
        self.total, self.desc, self.unit, self.file = total, desc, unit, file
        self.updates: list[int] = []
        self.closed = False
        _RecordingBar.made.append(self)

    def update(self, n):
        self.updates.append(n)

    def close(self):
        self.closed = True


def test_track_yields_the_chunks_and_draws_only_on_a_terminal():
    chunks = [[1, 2, 3], [4], [5, 6]]
    quiet = io.StringIO()
    assert list(track(chunks, total=6, stream=quiet)) == chunks  # not a terminal: no bar
    assert quiet.getvalue() == ""
    term = _Terminal()
    assert list(track(iter(chunks), total=6, desc="bleu", stream=term)) == chunks
    drawn = term.getvalue()
    assert "bleu" in drawn and "/6" in drawn  # a real tqdm bar was drawn on the terminal
    forced = io.StringIO()
    list(track(chunks, total=6, show=True, stream=forced))
    assert "/6" in forced.getvalue()


def test_track_advances_by_chunk_size(monkeypatch):
    import tqdm

    monkeypatch.setattr(tqdm, "tqdm", _RecordingBar)
    _RecordingBar.made.clear()
    ranges = chunk_ranges(10, 4)
    assert ranges == [(0, 4), (4, 8), (8, 10)]
    term = _Terminal()
    assert list(track(ranges, total=10, desc="chrf", size=lambda r: r[1] - r[0], stream=term)) == ranges
    (bar,) = _RecordingBar.made
    assert (bar.total, bar.desc, bar.file, bar.updates, bar.closed) == (10, "chrf", term, [4, 4, 2], True)
    # chunked extraction drives the bar with the segment counts of its chunks
    _RecordingBar.made.clear()
    m = load("bleu")
    chunked_stats(m, ["a b"] * 5, [["a b c"]] * 5, chunk_size=2, show=True, stream=term)
    (bar,) = _RecordingBar.made
    assert (bar.total, bar.updates) == (5, [2, 2, 1])


def test_enabled_follows_terminal_and_quiet():
    assert enabled(_Terminal())
    assert not enabled(_Terminal(), quiet=True)
    assert not enabled(io.StringIO())

    class Closed(io.StringIO):
        def isatty(self):
            raise ValueError("I/O operation on closed file")

    assert not enabled(Closed())


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "8"])
def test_bad_chunk_size_is_a_typed_error(bad):
    with pytest.raises(InvalidOptionError):
        chunk_ranges(5, bad)


def test_chunked_metric_is_seen_as_the_metric():
    m = load("bleu")
    w = ChunkedMetric(m, chunk_size=3, show=False)
    assert isinstance(w, type(m)) and w.key == m.key and w.name == m.name


@pytest.fixture(scope="module")
def files(wmt, tmp_path_factory):
    hyps, refs = wmt
    d = tmp_path_factory.mktemp("progress")
    (d / "ref.txt").write_text("\n".join(r[0] for r in refs) + "\n")
    (d / "hyp.txt").write_text("\n".join(hyps) + "\n")
    return d


def _score(d, args, capsys, monkeypatch, terminal=None):
    monkeypatch.chdir(d)
    if terminal is not None:
        monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["score", "-r", "ref.txt", "-i", "hyp.txt", "-f", "json", *args]) == 0
    monkeypatch.undo()
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


@pytest.mark.parametrize("extra", [[], ["--confidence", "-cin", "200"], ["--confidence", "-cin", "200", "--method", "sacrebleu"]])
def test_cli_results_do_not_depend_on_chunking(files, capsys, monkeypatch, extra):
    metrics = ["-m", "bleu", "chrf", "ter"]
    whole, err = _score(files, [*metrics, *extra], capsys, monkeypatch)
    assert err == ""  # stderr is not a terminal: no bar, one core call per batch
    term = _Terminal()
    # On a terminal, extraction runs in chunks behind the bar (score's own --chunk-size
    # switches on streaming instead: tests/test_streaming.py).
    monkeypatch.setattr("nlgmetrics.engines.progress.DEFAULT_CHUNK_SIZE", 7)
    chunked, _ = _score(files, [*metrics, *extra], capsys, monkeypatch, terminal=term)
    assert chunked == whole
    assert "/240" in term.getvalue()  # the bar was drawn on the terminal, over 240 segments
    term = _Terminal()
    quiet, _ = _score(files, [*metrics, *extra, "--quiet"], capsys, monkeypatch, terminal=term)
    assert quiet == whole and term.getvalue() == ""


def test_cli_rejects_a_bad_chunk_size(files, capsys, monkeypatch):
    monkeypatch.chdir(files)
    assert main(["score", "-r", "ref.txt", "-i", "hyp.txt", "--chunk-size", "0"]) == 2
    assert "chunk-size" in capsys.readouterr().err


def test_report_numbers_do_not_depend_on_chunking(wmt):
    from nlgmetrics.report import text_report

    hyps, refs = wmt
    systems = [("a", hyps), ("b", hyps[::-1])]
    metrics = [("bleu", load("bleu")), ("ter", load("ter"))]
    whole = text_report(metrics, systems, refs, n_resamples=50, show_progress=False)
    chunked = text_report(metrics, systems, refs, n_resamples=50, chunk_size=31, show_progress=True)
    for mw, mc in zip(whole.metrics, chunked.metrics):
        for rw, rc in zip(mw.rows, mc.rows):
            assert (rw.score, rw.mean, rw.ci, rw.lower, rw.upper, rw.p_value) == (rc.score, rc.mean, rc.ci, rc.lower, rc.upper, rc.p_value)
            assert np.array_equal(rw.bootstrap, rc.bootstrap) and np.array_equal(rw.segments, rc.segments)


_words = st.lists(st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "Katze", "猫", "!", "on-line", ""]), max_size=12).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(st.tuples(_words, st.lists(_words, min_size=1, max_size=3)), min_size=1, max_size=25),
    chunk_size=st.integers(1, 30),
    name=st.sampled_from(["bleu", "chrf", "ter", "wer", "cer", "per", "rouge"]),
)
def test_chunking_never_changes_statistics(pairs, chunk_size, name):
    m = load(name)
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    if name in ("ter", "wer", "cer", "per"):  # single-reference metrics (per/wer take one)
        refs = [r[:1] for r in refs]
    try:
        whole = m.stats(hyps, refs)
    except InvalidInputError:  # e.g. empty references where the flavour rejects them
        with pytest.raises(InvalidInputError):
            chunked_stats(m, hyps, refs, chunk_size=chunk_size, show=False)
        return
    _same(chunked_stats(m, hyps, refs, chunk_size=chunk_size, show=False), whole)


def _run_on_terminal(args, cwd) -> tuple[str, str]:
    """Run the CLI with stderr on a real pseudo-terminal (100 columns); (stdout, terminal output)."""
    import fcntl
    import pty
    import select
    import struct
    import subprocess
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    p = subprocess.Popen([sys.executable, "-m", "nlgmetrics", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    # Drain both the terminal and stdout: a report is larger than a pipe's buffer, so reading
    # stdout only at the end would leave the child blocked on its write.
    seen, out = b"", b""
    open_fds = {master, p.stdout.fileno()}
    deadline = time.monotonic() + 300
    try:
        while open_fds and time.monotonic() < deadline:
            ready, _, _ = select.select(list(open_fds), [], [], 0.5)
            for fd in ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    open_fds.discard(fd)
                elif fd == master:
                    seen += chunk
                else:
                    out += chunk
            if not ready and p.poll() is not None and master in open_fds and p.stdout.fileno() not in open_fds:
                break
        assert not open_fds or p.poll() is not None, f"nlgmetrics {' '.join(args)} did not finish in 300 s"
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        p.stdout.close()
        os.close(master)
    out = out.decode()
    return out, seen.decode(errors="replace")


def test_bar_on_a_real_terminal(files, capsys, monkeypatch):
    args = ["score", "-r", "ref.txt", "-i", "hyp.txt", "-m", "ter", "-f", "json"]
    out, terminal = _run_on_terminal(args, files)
    assert "hyp.txt ter:" in terminal and "/240 [" in terminal  # the system and the metric
    piped, err = _score(files, ["-m", "ter"], capsys, monkeypatch)
    assert json.loads(out) == piped and err == ""
    out, terminal = _run_on_terminal([*args, "--quiet"], files)
    assert terminal == "" and json.loads(out) == piped


def test_report_bars_name_the_system_and_metric_and_cover_resampling_and_plots(wmt, monkeypatch):
    import tqdm

    from nlgmetrics.report import render_text, text_report

    monkeypatch.setattr(tqdm, "tqdm", _RecordingBar)
    hyps, refs = wmt
    systems = [("out/wmt22.zh-en.hyp.sysA.en", hyps), ("out/wmt22.zh-en.hyp.sysB.en", hyps[::-1])]
    metrics = [("bleu", load("bleu")), ("chrf", load("chrf"))]
    _RecordingBar.made.clear()
    report = text_report(metrics, systems, refs, n_resamples=20, chunk_size=100, show_progress=True)
    bars = [(b.desc, b.total, b.updates, b.closed) for b in _RecordingBar.made]
    assert bars == [
        ("sysA bleu", 240, [100, 100, 40], True), ("sysB bleu", 240, [100, 100, 40], True),
        ("bleu bootstrap", 3, [1, 1, 1], True),  # each system's interval, then the paired test
        ("sysA chrf", 240, [100, 100, 40], True), ("sysB chrf", 240, [100, 100, 40], True),
        ("chrf bootstrap", 3, [1, 1, 1], True),
    ]
    # --names (or names=) are the labels when given
    _RecordingBar.made.clear()
    text_report(metrics[:1], systems, refs, n_resamples=20, show_progress=True, names={systems[0][0]: "Base", systems[1][0]: "Ours"})
    assert [b.desc for b in _RecordingBar.made] == ["Base bleu", "Ours bleu", "bleu bootstrap"]
    # rendering: one step per section (each metric's plots, lengths, examples, analyses, segments)
    _RecordingBar.made.clear()
    page = render_text(report, show_progress=True)
    (bar,) = _RecordingBar.made
    assert (bar.desc, bar.total, bar.updates, bar.closed) == ("report: plots and analyses", 8, [1] * 8, True)
    _RecordingBar.made.clear()
    assert render_text(report, show_progress=False) == page and _RecordingBar.made == []
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: no bar unless asked
    render_text(report)
    text_report(metrics[:1], systems, refs, n_resamples=20)
    assert _RecordingBar.made == []


def test_report_bars_on_a_real_terminal(files):
    args = ["report", "-r", "ref.txt", "-i", "hyp.txt", "-m", "ter", "-cin", "20", "-o", "-"]
    out, terminal = _run_on_terminal(args, files)
    assert out.startswith("<!DOCTYPE html>")
    assert "hyp ter" in terminal or "hyp.txt ter" in terminal  # the system and the metric
    assert "ter bootstrap" in terminal and "report: plots and analyses" in terminal
    out_quiet, terminal = _run_on_terminal([*args, "--quiet"], files)
    assert terminal == "" and out_quiet.startswith("<!DOCTYPE html>")


def _cli_bars(d, args, monkeypatch, capsys):
    """The bars a CLI run on a terminal makes: (label, total, updates, closed) each."""
    import tqdm

    monkeypatch.chdir(d)
    monkeypatch.setattr(tqdm, "tqdm", _RecordingBar)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.setattr("nlgmetrics.engines.progress.DEFAULT_CHUNK_SIZE", 100)
    _RecordingBar.made.clear()
    assert main(args) == 0
    monkeypatch.undo()
    capsys.readouterr()
    return [(b.desc, b.total, b.updates, b.closed) for b in _RecordingBar.made]


@pytest.fixture(scope="module")
def two_systems(wmt, tmp_path_factory):
    hyps, refs = wmt
    d = tmp_path_factory.mktemp("two_systems")
    (d / "out").mkdir()
    (d / "ref.txt").write_text("\n".join(r[0] for r in refs) + "\n")
    (d / "out" / "wmt22.zh-en.hyp.sysA.en").write_text("\n".join(hyps) + "\n")
    (d / "out" / "wmt22.zh-en.hyp.sysB.en").write_text("\n".join(hyps[::-1]) + "\n")
    return d


def test_score_bars_name_the_system_and_metric(files, two_systems, monkeypatch, capsys):
    sys_a, sys_b = "out/wmt22.zh-en.hyp.sysA.en", "out/wmt22.zh-en.hyp.sysB.en"
    bars = _cli_bars(two_systems, ["score", "-r", "ref.txt", "-i", sys_a, sys_b, "-m", "bleu", "chrf", "-f", "json"], monkeypatch, capsys)
    chunks = [100, 100, 40]
    assert bars == [
        ("sysA bleu", 240, chunks, True), ("sysA chrf", 240, chunks, True),  # systems, then metrics: score's order
        ("sysB bleu", 240, chunks, True), ("sysB chrf", 240, chunks, True),
    ]
    # one system: its file name (as the report shows one system); the metric as given to -m
    bars = _cli_bars(files, ["score", "-r", "ref.txt", "-i", "hyp.txt", "-m", "TER"], monkeypatch, capsys)
    assert bars == [("hyp.txt ter", 240, chunks, True)]
    # stdin is "-"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((files / "hyp.txt").read_bytes())))
    bars = _cli_bars(files, ["score", "-r", "ref.txt", "-m", "wer"], monkeypatch, capsys)
    assert bars == [("- wer", 240, chunks, True)]
    # a corpus-fitted metric is extracted in one piece: no bar to label
    assert _cli_bars(files, ["score", "-r", "ref.txt", "-i", "hyp.txt", "-m", "cider"], monkeypatch, capsys) == []


def test_compare_bars_name_the_system_and_metric(two_systems, monkeypatch, capsys):
    sys_a, sys_b = "out/wmt22.zh-en.hyp.sysA.en", "out/wmt22.zh-en.hyp.sysB.en"
    args = ["compare", "-r", "ref.txt", "-i", sys_a, sys_b, "-m", "bleu", "ter", "--paired-bs", "--paired-bs-n", "20", "-f", "json"]
    bars = _cli_bars(two_systems, args, monkeypatch, capsys)
    chunks = [100, 100, 40]
    assert bars == [
        ("sysA bleu", 240, chunks, True), ("sysB bleu", 240, chunks, True),  # metrics, then systems: compare's order
        ("sysA ter", 240, chunks, True), ("sysB ter", 240, chunks, True),
    ]
    assert _cli_bars(two_systems, [*args, "--quiet"], monkeypatch, capsys) == []
    # the bars change nothing: the same table as without a terminal
    monkeypatch.chdir(two_systems)
    assert main(args) == 0
    piped = json.loads(capsys.readouterr().out)
    import tqdm

    monkeypatch.setattr(tqdm, "tqdm", _RecordingBar)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.setattr("nlgmetrics.engines.progress.DEFAULT_CHUNK_SIZE", 7)
    assert main(args) == 0
    monkeypatch.undo()
    assert json.loads(capsys.readouterr().out) == piped


def test_cli_labels_without_the_report_modules(files):
    """score and compare label their bars with the report's display names, which live in
    nlgmetrics.engines.progress: their runs load no report module."""
    import subprocess

    probe = (
        "import sys\n"
        "from nlgmetrics.cli import main\n"
        "assert main(['score', '-r', 'ref.txt', '-i', 'hyp.txt', '-m', 'bleu', 'chrf']) == 0\n"
        "assert main(['compare', '-r', 'ref.txt', '-i', 'hyp.txt', 'ref.txt', '--paired-bs', '--paired-bs-n', '10']) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith('nlgmetrics.report')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=files, capture_output=True, text=True, timeout=300, check=True).stdout
    assert out.splitlines()[-1] == "[]"
    from nlgmetrics.engines.progress import display_names
    from nlgmetrics.report.data import display_names as report_names

    assert report_names is display_names  # one function: the report's labels and the CLI's agree
