"""METEOR 1.5 on long, highly repetitive segments: memory and refusals.

Every repetition of a word in the hypothesis is a candidate match for every repetition in
the reference, so candidates grow with the product of repeat counts. The aligner keeps the
candidates (16 bytes each) and, per reference word, only the beam's 40 best extensions
(not every candidate of every kept path), which is what the jar's beam search keeps, so
numbers are unchanged. A pair with more than ``MAX_CANDIDATES`` (20,000,000) one-word
candidates is refused with ``ResourceLimitError`` after counting them from word counts,
before any is built.

Each case runs in a fresh interpreter with a timeout (a hang fails, it does not block) and
reports the growth of its peak resident set over the interpreter with METEOR loaded.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO

pytest.importorskip("pycocoevalcap")

_RUN = r"""
import sys, time
from nlgmetrics import METEOR
from nlgmetrics.errors import ResourceLimitError
n, shape = int(sys.argv[1]), sys.argv[2]
words = "the cat sat on the mat".split()
hyp = " ".join(words[i % len(words)] for i in range(n))
ref = {
    "short": "a cat sat on the mat near the door",
    "long-repetitive": " ".join(words[(i * 5) % len(words)] for i in range(n)),
    "stems": " ".join(["cats"] * n),
}[shape]
if shape == "stems":
    hyp = " ".join(["cat"] * n)
m = METEOR(tokenize="none")
m.corpus_score(["warm up"], [["warm up"]])
def peak_kib():
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1])
def rss_kib():
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS:")).split()[1])
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")
before = rss_kib()
try:
    result = repr(m.corpus_score([hyp], [[ref]]).score)
except ResourceLimitError as e:
    result = "ResourceLimitError: " + str(e)
print(result)
print(peak_kib() - before)
"""


def run(n: int, shape: str, timeout: int = 300) -> tuple[str, float]:
    out = subprocess.run([sys.executable, "-c", _RUN, str(n), shape], capture_output=True, text=True, cwd=REPO, timeout=timeout)
    assert out.returncode == 0, out.stderr[-2000:]
    result, growth = out.stdout.strip().split("\n")[-2:]
    return result, int(growth) / 1024


def test_a_100k_word_repetitive_hypothesis_finishes_in_linear_memory():
    result, growth_mib = run(100_000, "short")
    score = float(result)
    assert 0 < score < 0.01  # 9 reference words against 100,000
    # Measured 12 MiB: the hypothesis' words and word data, candidates (~0.7 MB) and 40
    # paths (keeping every extension of every path would hold 40 x 33,000 proposals of
    # 56 bytes, 74 MB, at each "the").
    assert growth_mib < 40, growth_mib


def test_a_pair_beyond_the_candidate_cap_is_refused_before_building_it():
    # 100,000 x 100,000 words over 5 word types: 2.2e9 exact candidates (36 GB), counted from
    # word counts and refused before any is built.
    result, growth_mib = run(100_000, "long-repetitive")
    assert result.startswith("ResourceLimitError: "), result
    assert "100000-word hypothesis" in result and "20000000" in result, result
    assert growth_mib < 40, growth_mib  # measured 17 MiB: the words, not the candidates


def test_stem_candidates_count_towards_the_cap():
    # No exact match at all: "cat" x "cats" is a stem and a synonym match (WordNet's morph),
    # 5,000 x 5,000 of each, 50,000,000 candidates: refused up front too.
    result, growth_mib = run(5_000, "stems")
    assert result.startswith("ResourceLimitError: ") and "at least 50000000 candidate" in result, result
    assert growth_mib < 40, growth_mib


def test_below_the_cap_long_repetitive_pairs_are_scored():
    # 3,000 x 3,000 words over 5 word types: 2,000,000 candidates, scored.
    result, growth_mib = run(3_000, "long-repetitive")
    assert 0 < float(result) <= 1, result
    assert growth_mib < 80, growth_mib  # measured 32 MiB: 2,000,000 candidates of 16 bytes


# The jar's statistics and score (run once with scripts/goldens/meteor_jar.py) for
# n x n-word pairs over 5 word types: 118 s for n = 300 and 379 s for n = 1000 on a loaded
# 2-core machine; nlgmetrics takes well under a second.
JAR_REPETITIVE = {
    300: ([300, 300, 150, 150, 150, 150, 150, 150] + [0] * 12 + [245, 300, 300], 0.42381729741220175),
    1000: ([1000, 1000, 500, 501, 498, 498, 500, 500] + [0] * 12 + [826, 998, 998], 0.4213663492121242),
}


@pytest.mark.parametrize("n", sorted(JAR_REPETITIVE))
def test_a_repetitive_pair_equals_the_jar(n):
    """The beam keeps the same 40 extensions as the jar (the best of each step as they are
    generated, not all of them sorted)."""
    from nlgmetrics import METEOR

    words = "the cat sat on the mat".split()
    hyp = " ".join(words[i % 6] for i in range(n))
    ref = " ".join(words[(i * 5) % 6] for i in range(n))
    m = METEOR(tokenize="none")
    stats, score = JAR_REPETITIVE[n]
    assert m.stats([hyp], [[ref]]).counts[0, :23].tolist() == stats
    assert m.sentence_scores([hyp], [[ref]])[0] == score
