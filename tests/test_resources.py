"""Resource bounds: sizes the user controls (resample counts, pairwise matrices) are
checked before allocating, so the interpreter never aborts; refusals are
``ResourceLimitError`` (a ``MemoryError``) naming what was asked."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO
from nlgmetrics import _core, available, load
from nlgmetrics.errors import InvalidOptionError, NlgMetricsError, ResourceLimitError
from nlgmetrics.engines.significance import bootstrap_ci, paired_test_stats, poisson_totals

HUGE = 10**12


@pytest.fixture(scope="module")
def bleu_stats():
    m = load("bleu")
    return m, m.stats(["the cat sat", "a dog ran"], [["the cat sat"], ["the dog ran"]])


def test_resample_counts_beyond_memory_are_refused_up_front(bleu_stats):
    m, st = bleu_stats
    with pytest.raises(ResourceLimitError, match="n_resamples=1000000000000"):
        bootstrap_ci(m, st, n_resamples=HUGE)
    with pytest.raises(ResourceLimitError, match="n_resamples"):
        bootstrap_ci(m, st, n_resamples=HUGE, method="sacrebleu")
    with pytest.raises(ResourceLimitError, match="n_resamples"):
        poisson_totals(m, st, n_resamples=HUGE)
    for test in ("bs", "ar"):
        with pytest.raises(ResourceLimitError, match="n_samples"):
            paired_test_stats(m, st, [("sys", st)], test=test, n_samples=HUGE)
    with pytest.raises(ResourceLimitError, match="ar_confidence_n"):
        paired_test_stats(m, st, [("sys", st)], test="ar", n_samples=10, ar_confidence_n=HUGE)
    assert issubclass(ResourceLimitError, MemoryError) and issubclass(ResourceLimitError, NlgMetricsError)


NEURAL = {"bertscore", "bleurt"}  # need model weights; their pairwise goes through the same check
TEXT_METRICS = sorted(e.name for e in available() if e.text and e.name not in NEURAL)


@pytest.mark.parametrize("name", TEXT_METRICS)
def test_pairwise_matrices_beyond_memory_are_refused(name):
    m = load(name)
    if not hasattr(m, "pairwise"):
        pytest.skip(f"{name} has no pairwise matrix")
    texts = ["w"] * 2_000_000  # 4e12 pairs: terabytes
    with pytest.raises((ResourceLimitError, InvalidOptionError)) as err:
        m.pairwise(texts, texts)
    if isinstance(err.value, InvalidOptionError):  # reference-free metrics have no matrix
        assert "pairwise() is not defined" in str(err.value)
    else:
        assert "2000000 x 2000000 pairwise" in str(err.value)


def test_core_result_tables_are_checked_before_allocating():
    # The bindings' own sizes: an index matrix of 1e12 x 10 int64 (80 TB) and one whose
    # size overflows the address space.
    with pytest.raises(ResourceLimitError, match="result table"):
        _core.sig_multinomial_indices(1, HUGE, 10, 1)
    with pytest.raises(ResourceLimitError, match="address space"):
        _core.sig_randomization_mask(1, 2**62, 2**10, 1)
    with pytest.raises(ResourceLimitError, match="pairwise"):
        _core.bleu_pairwise(["a"] * 3_000_000, ["a"] * 3_000_000, "13a", False, 4, "exp", None, False, 1)


def test_cli_huge_confidence_n_is_a_one_line_error(tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat\n", encoding="utf-8")
    (tmp_path / "h2.txt").write_text("a cat sat\n", encoding="utf-8")
    ref.write_text("the cat sat\n", encoding="utf-8")
    for args in (["score", "-m", "bleu", "--confidence", "--confidence-n", str(HUGE)],
                 ["compare", "-m", "bleu", "--paired-bs", "--paired-bs-n", str(HUGE)]):
        inputs = ["-i", str(hyp), str(tmp_path / "h2.txt")] if args[0] == "compare" else ["-i", str(hyp)]
        out = subprocess.run([sys.executable, "-m", "nlgmetrics.cli", *args, *inputs, "-r", str(ref)],
                             capture_output=True, text=True, cwd=REPO, timeout=120)
        # the command line bounds resample counts up front (a usage error naming the flag);
        # the API's memory check behind it is tested above
        assert out.returncode == 2, (args, out.returncode, out.stderr)
        assert out.stderr.count("\n") == 1 and args[3] in out.stderr, out.stderr


LONG_WORDS = 8_000
# One segment pair of LONG_WORDS words, scored in a fresh interpreter; prints the growth of
# the peak resident set (KiB) over the interpreter with the metric built and warmed up
# (Linux: the peak is reset through /proc/self/clear_refs).
_MEASURE = r"""
import random, sys, nlgmetrics
name, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(0)
vocab = [f"w{i}" for i in range(3000)]
hyp = " ".join(rng.choice(vocab) for _ in range(n))
ref = " ".join(rng.choice(vocab) for _ in range(n))
entry = {e.name: e for e in nlgmetrics.available()}[name]
options = {"multi_ref": "best"} if name in ("wer", "cer", "mer", "wil", "wip", "per") else {}
metric = nlgmetrics.load(name, **options)
def peak_kib():
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1])
def rss_kib():
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS:")).split()[1])
metric.corpus_score(["warm up"], [["warm up"]]) if entry.kind == "text" and name not in ("distinct", "self_bleu") else None
with open("/proc/self/clear_refs", "w") as fh:  # the peak so far (loading tables) is not the segment's
    fh.write("5")
before = rss_kib()
if entry.kind == "data-to-text":
    metric.corpus_score([hyp], [[ref]], tables=[[["name", "w1"]]])
elif name in ("distinct", "self_bleu"):
    metric.corpus_score([hyp, ref])
else:
    metric.corpus_score([hyp], [[ref]])
print(peak_kib() - before)
"""
@pytest.mark.parametrize("name", [e.name for e in available() if e.kind in ("text", "data-to-text")])
def test_memory_stays_linear_on_a_long_segment(name):
    run = subprocess.run([sys.executable, "-c", _MEASURE, name, str(LONG_WORDS)], capture_output=True, text=True, cwd=REPO, timeout=300)
    if run.returncode != 0 and "MissingExtraError" in run.stderr:
        pytest.skip(f"{name}: its extra is not installed")
    assert run.returncode == 0, run.stderr[-2000:]
    growth_mib = int(run.stdout.split()[-1]) / 1024
    assert growth_mib < 150, (name, growth_mib)


# A 100,000-word TER pair: a few swapped words (shifts) and substitutions, so the
# shift search runs over the whole segment. sacrebleu keeps (n+1) rows of m+1 cells
# (a pointer each) plus up to 10,000 cached rows: 408 MiB and 30 s at 4,000 words,
# so about 250 GiB and hours here; it is not run on this input.
_TER_LONG = r"""
import random, resource, sys, nlgmetrics
n = int(sys.argv[1])
rng = random.Random(0)
hyp = [f"w{rng.randrange(3000)}" for _ in range(n)]
ref = list(hyp)
for k in (10, n // 2, n - 20):
    ref[k], ref[k + 1] = ref[k + 1], ref[k]
for k in range(500, n, 2003):
    ref[k] = "zz"
metric = nlgmetrics.load("ter")
metric.corpus_score(["warm up"], [["warm up"]])
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")
def kib(field):
    return int(next(l for l in open("/proc/self/status") if l.startswith(field)).split()[1])
before = kib("VmRSS:")
out = metric.corpus_score([" ".join(hyp)], [[" ".join(ref)]])
print(out.num_edits, kib("VmHWM:") - before)
"""


def ter_table_bytes(n: int, m: int) -> int:
    """The bound of crates/nlgmetrics-core/src/text/ter.rs: the band (5 bytes a cell)
    plus the per-word bookkeeping."""
    beam = max(25, -(-m // (2 * max(n, 1))) + 25)
    return 5 * (2 * (m + 1) + min(2 * beam, m + 1) * n) + 24 * n + 8 * m


def test_ter_memory_is_linear_on_a_100k_word_segment():
    n = 100_000
    run = subprocess.run([sys.executable, "-c", _TER_LONG, str(n)], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    edits, growth_kib = map(int, run.stdout.split())
    # 3 swaps (one shift each) and one substitution every 2,003 words: TER finds them all
    assert edits == 3 + len(range(500, n, 2003))
    bound = ter_table_bytes(n, n) + 2 * 8 * n * 8  # the table, and the texts as tokens and ids
    assert growth_kib * 1024 < bound + (40 << 20), (growth_kib / 1024, bound / 2**20)
    # ... where a quadratic table would need 5 bytes x 10^10 cells = 47 GiB
    assert bound < 5 * (n + 1) ** 2 / 500


def test_ter_band_bound_holds_for_unequal_lengths():
    # the beam widens for a reference over 50 times longer than the hypothesis (sacrebleu's
    # numbers on such pairs: tests/test_ter.py::test_very_unequal_lengths_widen_the_band),
    # and the table stays linear: under 100 bytes a word of the longer side
    for n, m in [(10, 100_000), (1, 10**6), (100_000, 10), (3, 60_000)]:
        assert ter_table_bytes(n, m) < 100 * (max(n, m) + 1), (n, m)
    m = load("ter")
    assert m.corpus_score(["w1 w2 w3"], [[" ".join(f"w{i % 7}" for i in range(60_000))]]).num_edits > 0


# Every public function taking a size (a count, an order, a chunk or bin count), with sizes
# no machine has, under an address-space limit so a real allocation attempt shows up as
# a MemoryError instead of swapping: each must answer or raise a typed error
# (ResourceLimitError included), within seconds.
_ABSURD_SIZES = r"""
import resource, signal, sys, tempfile, os
resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
import numpy as np
import nlgmetrics
from nlgmetrics import meta, progress, streaming
from nlgmetrics.analysis import ngram_differences
from nlgmetrics.classification import BinnedCurves
from nlgmetrics.errors import NlgMetricsError
from nlgmetrics.metrics.cider import CiderDF
from nlgmetrics.engines.significance import bootstrap_ci, paired_test_stats, poisson_totals

d = tempfile.mkdtemp()
hyp, ref = os.path.join(d, "h.txt"), os.path.join(d, "r.txt")
open(hyp, "w").write("a b c\nb c d\n")
open(ref, "w").write("a b d\nb c d\n")
preds, refs = ["a b c", "b c d"], [["a b d"], ["b c d"]]
bleu = nlgmetrics.load("bleu")
st = bleu.stats(preds, refs)
probes = {
    "BinnedCurves(n_bins)": lambda s: BinnedCurves(n_bins=s).update([0, 1], [0.2, 0.8]).compute(),
    "CIDEr(n)": lambda s: nlgmetrics.load("cider", n=s).corpus_score(preds, refs),
    "CiderDF.fit(n)": lambda s: CiderDF.fit(refs, n=s, tokenize="none"),
    "bleu(max_ngram_order)": lambda s: nlgmetrics.load("bleu", max_ngram_order=s).corpus_score(preds, refs),
    "chrf(char_order)": lambda s: nlgmetrics.load("chrf", char_order=s).corpus_score(preds, refs),
    "chrf(word_order)": lambda s: nlgmetrics.load("chrf", word_order=s).corpus_score(preds, refs),
    "distinct(n)": lambda s: nlgmetrics.load("distinct", n=s).corpus_score(preds),
    "nist(max_order)": lambda s: nlgmetrics.load("nist", max_order=s).corpus_score(preds, refs),
    "meteor(max_order?)": lambda s: nlgmetrics.load("rouge", rouge_types=[f"rouge{s}"]).corpus_score(preds, refs),
    "ngram_differences(max_n, top)": lambda s: ngram_differences([r[0] for r in refs], preds, preds, max_n=s, top=s),
    "segment_level(n_resamples)": lambda s: meta.segment_level([0.1, 0.5, 0.9], [1.0, 2.0, 4.0], n_resamples=s),
    "bootstrap_ci(n_resamples)": lambda s: bootstrap_ci(bleu, st, n_resamples=s),
    "poisson_totals(n_resamples)": lambda s: poisson_totals(bleu, st, n_resamples=s),
    "paired_test_stats(n_samples)": lambda s: paired_test_stats(bleu, st, [("b", st)], test="bs", n_samples=s),
    "chunk_ranges(chunk_size)": lambda s: progress.chunk_ranges(10, s),
    "chunked_stats(chunk_size)": lambda s: progress.chunked_stats(bleu, preds, refs, chunk_size=s, show=False),
    "score_files(chunk_size)": lambda s: streaming.score_files(bleu, hyp, [ref], chunk_size=s),
    "iter_pair_chunks(chunk_size)": lambda s: list(streaming.iter_pair_chunks(hyp, [ref], chunk_size=s)),
}
class Slow(Exception):
    pass
def alarm(*_):
    raise Slow()
signal.signal(signal.SIGALRM, alarm)
bad = []
for name, probe in probes.items():
    for size in (10**12, 2**63, 2**70):
        signal.alarm(20)
        try:
            probe(size)
        except NlgMetricsError:
            pass
        except BaseException as e:
            bad.append(f"{name} with {size}: {type(e).__name__}: {str(e)[:200]}")
        finally:
            signal.alarm(0)
print("\n".join(bad))
"""


def test_absurd_sizes_through_every_public_function_taking_one():
    run = subprocess.run([sys.executable, "-c", _ABSURD_SIZES], capture_output=True, text=True, cwd=REPO, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "", run.stdout
