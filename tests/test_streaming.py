"""Streaming: chunked readers match the whole-file reader, chunked scores equal corpus
scores to the last bit for every metric, and memory does not grow with the input."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CORPORA, REPO
from wmt import by_segment, load_pair

from nlgmetrics import CiderDF, CIDEr, InvalidInputError, InvalidTextError, LengthMismatchError, available, load
from nlgmetrics.io.chunks import iter_chunks, iter_jsonl_chunks, iter_lines
from nlgmetrics.io.text import read_lines
from nlgmetrics.engines.streaming import score_chunks, score_files
from registry_cases import ONE_REF as ONE_REF_METRICS

# metrics that score one reference per segment (constructor multi_ref="error")
ONE_REF = ONE_REF_METRICS
# not a (prediction, references) metric: Self-BLEU scores a set of generations
NOT_PAIRS = {"self_bleu"}
N_SEG = 400
TEXT_METRICS = sorted(e.name for e in available() if e.text and e.name not in NOT_PAIRS)


# -- readers --------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(
    data=st.lists(st.sampled_from([b"a", b"b c", b" ", b"\n", b"\r", b"\t", "\u2028".encode(), "é".encode(), b"\xef\xbb\xbf"]), max_size=40),
    block=st.integers(1, 16),
)
def test_iter_lines_equals_read_lines(tmp_path_factory, data, block):
    path = tmp_path_factory.mktemp("lines") / "f.txt"
    path.write_bytes(b"".join(data))
    whole = read_lines(str(path))
    blocks = list(iter_lines(str(path), block_bytes=block))
    assert [line for b in blocks for line in b] == whole


def test_gzip_and_invalid_utf8_messages(tmp_path):
    raw = b"first\nsecond ok\nbad \xff here\n"
    plain = tmp_path / "x.txt"
    plain.write_bytes(raw)
    gz = tmp_path / "x.txt.gz"
    gz.write_bytes(gzip.compress(raw))
    for p in (plain, gz):
        with pytest.raises(InvalidTextError) as whole:
            read_lines(str(p))
        with pytest.raises(InvalidTextError) as streamed:
            list(iter_lines(str(p), block_bytes=4))
        assert str(streamed.value) == str(whole.value) == f"{p}: invalid UTF-8 at line 3, byte 5"


def test_chunks_of_parallel_files_and_length_mismatch(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("".join(f"a{i}\n" for i in range(10)))
    b.write_text("".join(f"b{i}\n" for i in range(10)))
    chunks = list(iter_chunks([str(a), str(b)], 4))
    assert [len(c[0]) for c in chunks] == [4, 4, 2]
    assert chunks[2] == [["a8", "a9"], ["b8", "b9"]]
    b.write_text("".join(f"b{i}\n" for i in range(7)))
    with pytest.raises(LengthMismatchError, match=r"a has 10, .*b has 7"):
        list(iter_chunks([str(a), str(b)], 4))


def test_jsonl_chunks_skip_blank_lines_and_name_bad_lines(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"prediction": "a", "references": ["b", "c"]}\n\n{"prediction": "d", "reference": "e"}\n')
    assert list(iter_jsonl_chunks(str(p), 1)) == [(["a"], [["b", "c"]]), (["d"], [["e"]])]
    p.write_text('{"prediction": "a", "references": ["b"]}\nnot json\n')
    with pytest.raises(InvalidInputError, match=r"x.jsonl:2: invalid JSON"):
        list(iter_jsonl_chunks(str(p), 5))


# -- exact scores ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def wmt_files(tmp_path_factory):
    pair = load_pair("zh-en")
    hyps = next(iter(pair.systems.values()))[:N_SEG]
    refs = [stream[:N_SEG] for stream in pair.refs]
    d = tmp_path_factory.mktemp("wmt")
    (d / "hyp.gz").write_bytes(gzip.compress(("\n".join(hyps) + "\n").encode()))
    for k, stream in enumerate(refs):
        (d / f"ref{k}.txt").write_text("\n".join(stream) + "\n", encoding="utf-8")
    return d, hyps, by_segment(refs)


@pytest.mark.parametrize("name", TEXT_METRICS)
def test_streamed_score_equals_corpus_score(wmt_files, name):
    d, hyps, refs = wmt_files
    ref_files = [str(d / "ref0.txt")] if name in ONE_REF else [str(d / "ref0.txt"), str(d / "ref1.txt")]
    refs = [r[:1] for r in refs] if name in ONE_REF else refs
    whole = load(name).corpus_score(hyps, refs)
    streamed = score_files(load(name), str(d / "hyp.gz"), ref_files, chunk_size=97)
    assert streamed.score == whole.score
    if hasattr(whole, "types"):  # ROUGE: P/R/F of every type, numpy's pairwise means
        assert streamed.types == whole.types
    assert streamed.signature.format() == whole.signature.format()
    assert streamed.stats.n_segments == N_SEG


def test_cider_two_passes_on_coco_captions_equal_one_pass():
    refs = [json.loads(line)["references"] for line in (CORPORA / "captioning_coco" / "references.jsonl").read_text().splitlines()[:800]]
    system = sorted((CORPORA / "captioning_coco" / "systems").glob("*.tsv"))[0]
    hyps = [line.split("\t")[-1] for line in system.read_text(encoding="utf-8").splitlines()[1:801]]
    chunks = [(hyps[i:i + 64], refs[i:i + 64]) for i in range(0, 800, 64)]
    whole = CIDEr().corpus_score(hyps, refs)
    assert score_chunks(CIDEr(), lambda: iter(chunks)).score == whole.score
    # a precomputed table skips the first pass (one-shot iterables then suffice)
    df = CiderDF.fit(refs)
    assert score_chunks(CIDEr(), iter(chunks), tables={0: df}).score == whole.score
    with pytest.raises(InvalidInputError, match="two passes"):
        score_chunks(CIDEr(), iter(chunks))


def test_several_metrics_in_one_pass_and_empty_input(tmp_path):
    h, r = tmp_path / "h", tmp_path / "r"
    h.write_text("the cat sat\na dog\n")
    r.write_text("the cat sat down\nthe dog\n")
    bleu, chrf = score_files([load("bleu"), load("chrf")], str(h), [str(r)], chunk_size=1)
    assert bleu.score == load("bleu").corpus_score(["the cat sat", "a dog"], ["the cat sat down", "the dog"]).score
    assert chrf.score == load("chrf").corpus_score(["the cat sat", "a dog"], ["the cat sat down", "the dog"]).score
    h.write_text("")
    r.write_text("")
    with pytest.raises(InvalidInputError, match="nothing to score"):
        score_files(load("bleu"), str(h), [str(r)])


# -- command line ---------------------------------------------------------------------
def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nlgmetrics.cli", *args], input=stdin, capture_output=True, cwd=REPO, timeout=300)


def test_cli_chunked_output_equals_whole_file_output(wmt_files):
    d, _, _ = wmt_files
    args = ["score", "-i", str(d / "hyp.gz"), "-r", str(d / "ref0.txt"), "-r", str(d / "ref1.txt"), "-m", "bleu", "chrf", "ter", "rouge", "cider", "--format", "json"]
    whole = cli(*args)
    chunked = cli(*args, "--chunk-size", "50")
    assert whole.returncode == 0 and chunked.returncode == 0, chunked.stderr
    assert json.loads(chunked.stdout) == json.loads(whole.stdout)


def test_cli_streaming_errors(wmt_files):
    d, _, _ = wmt_files
    r = cli("score", "-r", str(d / "ref0.txt"), "-m", "cider", "--chunk-size", "10", stdin=b"a\n")
    assert r.returncode == 2 and b"not stdin" in r.stderr
    r = cli("score", "-i", str(d / "hyp.gz"), "-r", str(d / "ref0.txt"), "--chunk-size", "10", "--sentence-level")
    assert r.returncode == 2
    short = d / "short.txt"
    short.write_text("one line\n")
    r = cli("score", "-i", str(d / "hyp.gz"), "-r", str(short), "--chunk-size", "10")
    assert r.returncode == 1 and b"different lengths" in r.stderr


# -- the memory bound -----------------------------------------------------------------
# Stated bound (README "Streaming"): with --chunk-size N the peak resident memory is the
# interpreter with numpy and the core (~70 MiB here) plus O(N x segment size), whatever
# the number of lines. Checked by scoring inputs of 200k and 800k lines (the peak settles after a few chunks,
# once thread pools and allocator arenas exist): it may not grow with the input, and stays
# under 160 MiB with N = 10,000 (about 110 MiB measured).
BOUND_MIB = 160
GROWTH_MIB = 16

# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across fork + exec (the test runner's).
_PEAK = """
import re, sys
from nlgmetrics.cli import main
code = main(sys.argv[1:])
status = open("/proc/self/status").read()
print(int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024, file=sys.stderr)
sys.exit(code)
"""


def _write_large(path: Path, n: int, noisy: bool) -> None:
    words = "the of and a to in is that for it as was with on be by at this had not are but from or have".split()
    block = []
    for i in range(1000):
        line = [words[(i * 7 + j * 3) % len(words)] for j in range(12)]
        if noisy:
            line[i % 12] = "x"
        block.append(" ".join(line))
    text = ("\n".join(block) + "\n").encode()
    with path.open("wb") as fh:
        for _ in range(n // 1000):
            fh.write(text)


def _peak_mib(hyp: Path, ref: Path) -> tuple[int, str]:
    r = subprocess.run([sys.executable, "-c", _PEAK, "score", "-i", str(hyp), "-r", str(ref), "-m", "bleu", "--chunk-size", "10000", "--format", "json"],
                       capture_output=True, cwd=REPO, timeout=600)
    assert r.returncode == 0, r.stderr
    return int(r.stderr.decode().split()[-1]), r.stdout.decode()


def test_memory_does_not_grow_with_the_input(tmp_path):
    peaks = []
    for n in (200_000, 800_000):
        hyp, ref = tmp_path / f"h{n}", tmp_path / f"r{n}"
        _write_large(hyp, n, noisy=True)
        _write_large(ref, n, noisy=False)
        peak, out = _peak_mib(hyp, ref)
        assert json.loads(out)[0]["sys_len"] == 12 * n  # every line was read and scored
        peaks.append(peak)
    assert peaks[1] < BOUND_MIB, peaks
    assert peaks[1] - peaks[0] < GROWTH_MIB, peaks


def test_ordered_values_are_dropped_past_the_limit_so_memory_stays_bounded(monkeypatch):
    """Totals keep per-segment values in order (for np.mean's bits) only up to
    SEQUENCE_LIMIT_BYTES; past it a stream keeps sums alone and scores the exactly rounded
    mean, within numpy's pairwise bound of the ordered value."""
    import math

    import numpy as np

    from nlgmetrics.stats import _totals as stats_module

    hyps = [f"a cat number {i} sat on mat {i % 7}" for i in range(400)]
    refs = [[f"the cat {i} sat on the mat {i % 5}"] for i in range(400)]
    rouge = load("rouge", rouge_types=["rougeL"])
    whole = rouge.corpus_score(hyps, refs)
    limit = 3 * 8 * 100  # 100 segments of rougeL's P, R and F
    monkeypatch.setattr(stats_module, "SEQUENCE_LIMIT_BYTES", limit)
    total = None
    for start in range(0, 400, 50):
        piece = rouge.stats(hyps[start:start + 50], refs[start:start + 50]).total()
        total = piece if total is None else total + piece
        assert total.sequence is None or total.sequence.nbytes <= limit
    assert total.sequence is None and total.n_segments == 400
    streamed = rouge.score_stats(total)
    f = rouge.sentence_scores(hyps, refs)
    assert float(streamed.score) == math.fsum(f) / len(f)  # the exactly rounded mean
    ulp = np.spacing(float(whole.score))
    assert abs(float(streamed.score) - float(whole.score)) <= 20 * ulp
