"""Differential test: NIST("mteval") against mteval-v13a.pl, as the script prints it (``%.4f``):
every segment's NIST (``-d 2``, weights from the whole corpus), the document/system NIST and
the individual and cumulative 1..9-gram NIST tables.

No package registry ships mteval-v13a.pl, so CI compares with the script's printed output
stored in tests/goldens/nist_mteval/differential.json.gz, made once by running the original
(scripts/goldens/make_mteval_differential_goldens.py, which names the script's commit). With
``NLGMETRICS_MTEVAL=/path/to/mteval-v13a.pl`` (and Perl with XML::Twig) the last test also
runs the script live on freshly generated segments.

Campaign (run once, 2026-11-26; everything it printed is the golden file):
- 12 generated corpora x 400 adversarial segments (tests/differential/mteval_adversarial.py,
  seeds 0-11), lowercased and ``-c``: 9,600 segment scores + 24 x 19 corpus-level values,
  0 differences (and 2,400 more segments, seeds 100-102, checked live the same way);
- two WMT22 zh-en systems against references A+B (1,875 segments each), lowercased and
  ``-c``, and two E2E systems (references padded to 45 sets): 0 differences.
Before this campaign nlgmetrics tokenized like sacrebleu's 13a and differed on ~90% of the
generated segments: the script reads escaped SGML, so a literal ``&amp;``/``&quot;`` and
``<skipped>`` stay text, only a literal ``&lt;``/``&gt;`` is decoded, and Perl's ``\\s``
keeps U+001C..U+001F inside tokens (fixed in ``tokenize_mteval_sgml``).

Why ``%.4f`` strings: the script prints nothing finer, and it sums information weights in
Perl's hash order, so only the printed digits are defined.
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest

from differential import mteval_perl as M
from differential.mteval_adversarial import corpus
from differential.parity_results import record

GOLDENS = Path(__file__).parent / "goldens" / "nist_mteval" / "differential.json.gz"


@lru_cache(maxsize=1)
def goldens() -> list[dict]:
    with gzip.open(GOLDENS, "rt", encoding="utf-8") as f:
        return json.load(f)["runs"]


def _real_inputs(run: dict) -> tuple[list[str], list[list[str]]]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "goldens"))
    from make_mteval_differential_goldens import e2e_inputs, wmt_inputs

    return (wmt_inputs if run["kind"] == "wmt22" else e2e_inputs)(run["system"])


def _differences(runs, inputs):
    total, diffs = 0, []
    for run in runs:
        hyps, refs = inputs(run)
        n, d = M.nist_differences(run["printed"], M.ours_nist(hyps, refs, run["case_sensitive"]))
        total += n
        diffs += [(run.get("seed", run.get("system")), run["case_sensitive"], *x) for x in d]
    return total, diffs


def test_generated_segments_equal_mteval():
    runs = [r for r in goldens() if r["kind"] == "adversarial"]
    assert len(runs) == 24
    n, diffs = _differences(runs, lambda r: (r["hyps"], r["refs"]))
    assert n == 24 * (400 + 19)
    assert diffs == []
    record(metric="NIST", flavour="mteval (generated)", reference="mteval-v13a.pl (goldens)",
           inputs="12 x 400 generated adversarial segments, lowercased and -c: segment, system, 1..9-gram values",
           values=n, max_diff=0.0)


def test_real_corpora_equal_mteval():
    runs = [r for r in goldens() if r["kind"] in ("wmt22", "e2e")]
    assert {r["kind"] for r in runs} == {"wmt22", "e2e"}
    n, diffs = _differences(runs, _real_inputs)
    assert n > 4 * 1875
    assert diffs == []
    record(metric="NIST", flavour="mteval", reference="mteval-v13a.pl (goldens)",
           inputs="2 WMT22 zh-en systems (refs A+B, lowercased and -c) and 2 E2E systems: segment, system, 1..9-gram values",
           values=n, max_diff=0.0)


def test_goldens_hold_what_matters():
    """The golden runs exercise the rules they were built for."""
    runs = [r for r in goldens() if r["kind"] == "adversarial"]
    text = "\n".join(h for r in runs[:2] for h in r["hyps"])
    for needle in ("&amp;", "&lt;", "<skipped>", "\x1c", "\u3000", "3,000.50", " 0 ", "\u00c9"):
        assert needle in text, needle
    # -c changes the numbers
    assert runs[0]["printed"]["document"] != runs[1]["printed"]["document"]
    assert any(h == "" for r in runs for h in r["hyps"])


def test_sacrebleu_style_bleu_against_mteval_bleu():
    """mteval's BLEU next to nlgmetrics' BLEU (13a, exp smoothing): equal to the printed 4
    decimals on the WMT22 systems; not mteval's tokenization (entities, ASCII-only
    lowercasing), so the generated corpora differ, by at most the bound below."""
    real = [r for r in goldens() if r["kind"] == "wmt22"]
    for r in real:
        hyps, refs = _real_inputs(r)
        assert M.ours_bleu(hyps, refs, r["case_sensitive"]) == r["printed"]["document"]["BLEU"], r["system"]
    worst = 0.0
    for r in (r for r in goldens() if r["kind"] == "adversarial"):
        worst = max(worst, abs(float(M.ours_bleu(r["hyps"], r["refs"], r["case_sensitive"])) - float(r["printed"]["document"]["BLEU"])))
    assert worst < 0.016
    record(metric="BLEU", flavour="sacrebleu vs mteval-v13a", reference="mteval-v13a.pl (goldens)",
           inputs=f"{len(real)} WMT22 zh-en system scores equal at 4 decimals; 24 generated corpora differ by up to {worst:.4f}",
           values=len(real), max_diff=0.0)


@pytest.mark.skipif(not M.perl_available(), reason="set NLGMETRICS_MTEVAL to a copy of mteval-v13a.pl (Perl with XML::Twig)")
def test_live_generated_segments_equal_mteval():
    hyps, refs = corpus(300, seed=991)
    for cs in (False, True):
        printed = M.run(M.script_path(), hyps, refs, cs)
        n, diffs = M.nist_differences(printed, M.ours_nist(hyps, refs, cs))
        assert n == 300 + 19
        assert diffs == []
