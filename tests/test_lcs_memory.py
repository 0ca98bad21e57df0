"""LCS tracebacks on long pairs stay in linear memory (crates/nlgmetrics-core/src/text/rouge_lcs.rs,
`checkpointed_trace`): ROUGE-1.5.5's ROUGE-L/W and rouge-score's rougeLsum mark the words of one
LCS without keeping the (m+1) x (n+1) table, so a 60,000-word pair is scored under an address-space
cap where the table alone would need 14 GiB (ROUGE-1.5.5, u32 cells) or 450 MiB (bit rows).

That the marked words are the whole table's, step for step, is checked in the core on generated
inputs with blocks small enough to force every level of checkpoints
(`text::rouge_lcs::tests::checkpointed_traces_equal_the_whole_tables`, against the quadratic
`mark_lcs_dp` / `mark_wlcs_dp`); here the long-pair scores are checked against an independent
path: the LCS length of the bit-parallel kernel that keeps no trace (rouge-score's rougeL)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO

# The child caps its own address space (RLIMIT_AS) before importing anything heavy, then scores.
_CHILD = r"""
import json, random, resource, sys
cap = int(sys.argv[1]) << 20
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
import nlgmetrics
n, kind = int(sys.argv[2]), sys.argv[3]
rng = random.Random(n)
vocab = int(sys.argv[4])
a = " ".join(f"w{rng.randrange(vocab)}" for _ in range(n))
b = " ".join(f"w{rng.randrange(vocab)}" for _ in range(n + 137))
out = {}
plain = nlgmetrics.load("rouge", rouge_types=["rougeL", "rougeLsum"], n_threads=1)
for t, s in plain.corpus_score([a], [[b]]).types.items():
    out[t] = [s.precision, s.recall, s.fmeasure]
if kind == "rouge155":
    r = nlgmetrics.load("rouge", flavour="rouge155", rouge_types=["rougeL"], n_threads=1)
    s = r.corpus_score([a], [[b]]).types["rougeL"]
    out["155"] = [s.precision, s.recall, s.fmeasure]
if kind == "rougeW":
    # weight 1: every run counts its length, so the weighted LCS is the LCS
    r = nlgmetrics.load("rouge", flavour="rouge155", rouge_types=["rougeW", "rougeL"], weight=1.0, n_threads=1)
    t = r.corpus_score([a], [[b]]).types
    out["W"] = [t["rougeW"].precision, t["rougeW"].recall]
    out["L155"] = [t["rougeL"].precision, t["rougeL"].recall]
print(json.dumps(out))
"""


def run_capped(cap_mib: int, n: int, kind: str, vocab: int = 5000) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", _CHILD, str(cap_mib), str(n), kind, str(vocab)],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    return json.loads(run.stdout)


def test_60k_word_pair_scores_under_an_address_space_cap():
    # 2.5 GiB of address space (the interpreter, numpy, the thread pool's stacks included)
    out = run_capped(2560, 60_000, "rouge155")
    # one line each: the union LCS of rougeLsum is the LCS itself, so the traced marks
    # (checkpointed) count exactly what the untraced bit-parallel length counts
    assert out["rougeLsum"] == out["rougeL"]
    lcs_p, lcs_r, _ = out["rougeL"]
    assert 0.02 < lcs_p < 0.04
    # ROUGE-1.5.5 rounds to 5 digits; peer = the prediction, model = the reference
    p, r, f = out["155"]
    assert p == pytest.approx(round(lcs_p, 5), abs=1e-12) and r == pytest.approx(round(lcs_r, 5), abs=1e-12)
    assert f > 0


@pytest.mark.parametrize("vocab", [2, 40])
def test_small_alphabets_long_pairs(vocab):
    # long runs of matches (vocab 2) and sparse matches: the walk crosses many block borders
    out = run_capped(2560, 20_000, "rouge155", vocab)
    assert out["rougeLsum"] == out["rougeL"]
    assert out["155"][1] == pytest.approx(round(out["rougeL"][1], 5), abs=1e-12)


def test_rouge_w_long_pair_in_linear_memory():
    # 14,000 words: ROUGE-1.5.5's three whole tables (13 bytes a cell) would be 2.5 GiB,
    # over the cap; with weight 1 the weighted LCS is the LCS, so ROUGE-W = ROUGE-L
    out = run_capped(2560, 14_000, "rougeW")
    assert out["W"] == out["L155"]
    assert out["W"][1] == pytest.approx(round(out["rougeL"][1], 5), abs=1e-12)
