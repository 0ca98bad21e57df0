"""``method="sacrebleu"`` against sacrebleu 2.6.0 itself, for every metric sacrebleu offers
(BLEU, chrF, chrF++, TER): the bootstrap confidence interval (``corpus_score(n_bootstrap=N)``
/ ``--confidence``), the paired bootstrap (``--paired-bs``) and paired approximate
randomization (``--paired-ar``, with and without its bootstrap intervals), compared with ==
on WMT22 systems (one and two references) and on generated corpora, through the Python API,
``nlgmetrics score --confidence``, ``compare`` and ``report``.

sacrebleu scores chrF and TER resamples from float32 statistics in float32 arithmetic and
averages them in float32 (see ``nlgmetrics/_sacrebleu_float32.py``); these tests are what
shows the emulation is exact.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
from dataclasses import dataclass

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.significance import PairedTest

from differential.parity_results import record
from nlgmetrics import BLEU, CHRF, TER
from nlgmetrics.cli import main
from nlgmetrics.engines.significance import bootstrap_ci, paired_test
from wmt import by_segment, load_pair

# name -> (sacrebleu metric, nlgmetrics metric); sacrebleu's CLI flags for the same metric
METRICS = {
    "BLEU": (SacreBLEU, BLEU, {}),
    "chrF": (SacreCHRF, CHRF, {}),
    "chrF++": (SacreCHRF, CHRF, {"word_order": 2}),
    "TER": (SacreTER, TER, {}),
}


def _pair(name: str):
    sb_cls, nm_cls, options = METRICS[name]
    return sb_cls(**options), nm_cls(**options)


@dataclass
class Corpus:
    label: str
    streams: list[list[str]]  # sacrebleu's references: one list per reference stream
    systems: list[tuple[str, list[str]]]  # baseline first

    @property
    def refs(self) -> list[list[str]]:
        return by_segment(self.streams)


def _wmt(pair: str, n_refs: int, n_systems: int, n_segments: int, max_ref_words: int | None = None) -> Corpus:
    """The first segments of a WMT22 pair; with ``max_ref_words``, only segments whose
    references are that short (TER in sacrebleu costs seconds on long WMT segments)."""
    p = load_pair(pair)
    streams = p.refs[:n_refs]
    keep = [i for i in range(len(streams[0])) if max_ref_words is None or all(len(s[i].split()) <= max_ref_words for s in streams)][:n_segments]
    systems = [(name, [p.systems[name][i] for i in keep]) for name in sorted(p.systems)[:n_systems]]
    return Corpus(f"WMT22 {pair}, {n_refs} ref(s), {len(keep)} segments", [[s[i] for i in keep] for s in streams], systems)


@pytest.fixture(scope="module")
def wmt_corpora(corpora) -> dict[str, list[Corpus]]:
    """Per metric, the WMT22 corpora it is tested on (TER on short segments)."""
    long = [_wmt("zh-en", 1, 4, 200), _wmt("zh-en", 2, 3, 150), _wmt("ja-en", 1, 3, 150)]
    short = [_wmt("zh-en", 1, 3, 120, max_ref_words=12), _wmt("zh-en", 2, 3, 120, max_ref_words=12)]
    return {"BLEU": long, "chrF": long, "chrF++": long, "TER": short}


def _generated(seed: int) -> Corpus:
    """A small random corpus: 1-3 references, empty lines, punctuation, repeated words."""
    r = random.Random(seed)
    words = "a b c d the cat dog sat on mat , . ! ( ) x-y 's".split()
    n, n_refs, empty = r.randint(1, 40), 1 + seed % 3, (0.0, 0.15, 0.5)[seed % 3]

    def line() -> str:
        return "" if r.random() < empty else " ".join(r.choice(words) for _ in range(r.randint(1, 14)))

    streams = [[line() for _ in range(n)] for _ in range(n_refs)]
    return Corpus(f"generated #{seed}", streams, [(f"s{i}", [line() for _ in range(n)]) for i in range(3)])


GENERATED = [_generated(seed) for seed in range(12)]


def _sacrebleu_ci(name: str, corpus: Corpus, hyps: list[str], n: int):
    """sacrebleu's (score, mean, ci), or None where sacrebleu itself fails: its
    ``statistics.mean`` cannot mix the float32 scores of some resamples with the Python
    floats of others (a resample of only empty references)."""
    sb, _ = _pair(name)
    try:
        s = sb.corpus_score(hyps, corpus.streams, n_bootstrap=n)
    except TypeError:
        return None
    return s.score, s._mean, s._ci


def _paired_rows(name: str, corpus: Corpus, test: str, n: int, n_conf: int | None):
    sb, nm = _pair(name)
    sigs, want = PairedTest(corpus.systems, {name: sb}, corpus.streams, test_type=test, n_samples=n, n_ar_confidence=n_conf or -1)()
    got = paired_test(nm, corpus.refs, corpus.systems[0], corpus.systems[1:], test=test, n_samples=n, method="sacrebleu", ar_confidence_n=n_conf)
    (key,) = [k for k in want if k != "System"]
    return [(w.score, w.p_value, w.mean, w.ci) for w in want[key]], [(g.score, g.p_value, g.mean, g.ci) for g in got.systems], got, key


@pytest.mark.parametrize("name", list(METRICS))
def test_confidence_intervals_equal_sacrebleu(wmt_corpora, name, monkeypatch):
    values = 0
    for seed, corpus in zip([12345, 7, 12345], wmt_corpora[name]):
        monkeypatch.setenv("SACREBLEU_SEED", str(seed))
        for _, hyps in corpus.systems[:2]:
            want = _sacrebleu_ci(name, corpus, hyps, 1000)
            nm = _pair(name)[1]
            got = bootstrap_ci(nm, nm.stats(hyps, corpus.refs), seed=seed, method="sacrebleu")
            assert (got.score.score, got.mean, got.ci) == want, (corpus.label, name)
            values += 3
    record(metric=f"{name} bootstrap CI", flavour="method=sacrebleu", reference="sacrebleu 2.6.0 corpus_score(n_bootstrap=1000)",
           inputs=f"{'; '.join(c.label for c in wmt_corpora[name])}: score, mean, half-width", values=values, max_diff=0.0)


@pytest.mark.parametrize("test,n,n_conf", [("bs", 1000, None), ("ar", 1500, None), ("ar", 500, 300)])
@pytest.mark.parametrize("name", list(METRICS))
def test_paired_tests_equal_sacrebleu(wmt_corpora, name, test, n, n_conf):
    values = 0
    corpora = wmt_corpora[name][:2]
    for corpus in corpora:
        want, got, res, key = _paired_rows(name, corpus, test, n, n_conf)
        assert got == want, (corpus.label, name)
        assert res.metric == key  # labelled by the score's name (chrF2++), as sacrebleu's columns
        values += sum(v is not None for row in got for v in row)
    record(metric=f"{name} paired {test}" + (" + CI" if n_conf else ""), flavour="method=sacrebleu", reference="sacrebleu 2.6.0 PairedTest",
           inputs=f"{'; '.join(c.label for c in corpora)}: score, p-value, mean, half-width of every system", values=values, max_diff=0.0)


@pytest.mark.parametrize("name", list(METRICS))
def test_generated_corpora_equal_sacrebleu(name):
    values = sacrebleu_failed = 0
    for corpus in GENERATED:
        hyps = corpus.systems[0][1]
        want = _sacrebleu_ci(name, corpus, hyps, 200)
        nm = _pair(name)[1]
        got = bootstrap_ci(nm, nm.stats(hyps, corpus.refs), n_resamples=200, method="sacrebleu")
        if want is None:
            sacrebleu_failed += 1
            # sacrebleu raises; here the mean is statistics.mean of the same scores as floats
            assert got.scores.dtype == np.float64 and got.mean == statistics.mean(got.scores.tolist())
        else:
            assert (got.score.score, got.mean, got.ci) == want, corpus.label
            values += 3
        for test, n, n_conf in [("bs", 200, None), ("ar", 300, 100)]:
            want_rows, got_rows, _, _ = _paired_rows(name, corpus, test, n, n_conf)
            assert got_rows == want_rows, (corpus.label, test)
            values += sum(v is not None for row in got_rows for v in row)
    assert sacrebleu_failed < len(GENERATED)
    record(metric=f"{name} bootstrap CI and paired tests", flavour="method=sacrebleu (generated)", reference="sacrebleu 2.6.0",
           inputs=f"{len(GENERATED)} generated corpora (1-3 references, up to half empty lines)", values=values, max_diff=0.0)


def test_ter_randomization_sums_averaged_lengths_as_sacrebleu():
    """Three references make TER's average reference lengths thirds: their sums depend on the
    order of additions, and sacrebleu's is NumPy's matrix product."""
    r = random.Random(5)
    words = "a b c d e f g".split()
    n = 300
    streams = [[" ".join(r.choice(words) for _ in range(r.randint(1, 9))) for _ in range(n)] for _ in range(3)]
    systems = [(f"s{i}", [" ".join(r.choice(words) for _ in range(r.randint(1, 9))) for _ in range(n)]) for i in range(3)]
    corpus = Corpus("thirds", streams, systems)
    assert any(x % 1 not in (0.0, 0.5) for x in TER().stats(systems[0][1], corpus.refs).sums[:, 0])
    want, got, _, _ = _paired_rows("TER", corpus, "ar", 3000, None)
    assert got == want


# -- command line ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def cli_files(wmt_corpora, tmp_path_factory):
    corpus = wmt_corpora["TER"][0]
    d = tmp_path_factory.mktemp("sig_cli")
    (d / "ref.txt").write_text("\n".join(corpus.streams[0]) + "\n", encoding="utf-8")
    names = []
    for name, hyps in corpus.systems:
        (d / f"{name}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        names.append(f"{name}.txt")
    return d, names, corpus


def _sacrebleu_cli(d, args):
    return subprocess.run([sys.executable, "-m", "sacrebleu", "--no-color", *args], cwd=d, capture_output=True, text=True, check=True).stdout


def _ours(d, args, capsys, monkeypatch):
    monkeypatch.chdir(d)
    assert main(args) == 0
    return capsys.readouterr().out


ALL_METRICS = ["-m", "bleu", "chrf", "ter", "--chrf-word-order", "2"]


@pytest.mark.parametrize("test", [["--paired-bs", "-pbsn", "300"], ["--paired-ar", "-parn", "500"]])
def test_compare_tables_equal_sacrebleus(cli_files, test, capsys, monkeypatch):
    d, names, _ = cli_files
    for fmt in ("text", "latex"):
        theirs = _sacrebleu_cli(d, ["ref.txt", "-i", *names, *ALL_METRICS, *test, "-f", fmt, "-w", "4"])
        ours = _ours(d, ["compare", "-r", "ref.txt", "-i", *names, *ALL_METRICS, *test, "-f", fmt, "-w", "4", "--method", "sacrebleu"], capsys, monkeypatch)
        table = theirs.split("\n\n")[0] if fmt == "text" else theirs.split("\\end{tabular}")[0]
        assert ours.startswith(table), fmt


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_compare_json_equals_sacrebleus_values(cli_files, test, capsys, monkeypatch):
    """sacrebleu's own ``-f json`` cannot print its float32 chrF/TER results (a TypeError);
    the values it computes are compared instead, exactly."""
    d, names, corpus = cli_files
    n = {"bs": "300", "ar": "500"}[test]
    flag = ["--paired-bs", "-pbsn", n] if test == "bs" else ["--paired-ar", "-parn", n]
    rows = json.loads(_ours(d, ["compare", "-r", "ref.txt", "-i", *names, *ALL_METRICS, *flag, "-f", "json", "--method", "sacrebleu"], capsys, monkeypatch))
    files = [(f"Baseline: {names[0]}" if i == 0 else n_, h) for i, (n_, (_, h)) in enumerate(zip(names, corpus.systems))]
    metrics = {"BLEU": SacreBLEU(), "chrF2++": SacreCHRF(word_order=2), "TER": SacreTER()}
    _, want = PairedTest(files, metrics, corpus.streams, test_type=test, n_samples=int(n))()
    assert [r["system"] for r in rows] == want["System"]
    for label in metrics:
        for row, w in zip(rows, want[label]):
            got = row[label]
            assert (got["score"], got["p_value"], got["mean"], got["ci"]) == (w.score, w.p_value, w.mean, w.ci), label


@pytest.mark.parametrize("metric", [["-m", "chrf"], ["-m", "chrf", "--chrf-word-order", "2"], ["-m", "ter"], ["-m", "bleu"]])
def test_score_confidence_equals_sacrebleu(cli_files, metric, capsys, monkeypatch):
    d, names, corpus = cli_files
    args = ["-i", names[1], *metric, "--confidence", "-cin", "400", "-w", "4"]
    theirs = _sacrebleu_cli(d, ["ref.txt", *args, "-f", "text"]).splitlines()[0]
    ours = json.loads(_ours(d, ["score", "-r", "ref.txt", *args, "--method", "sacrebleu", "-f", "json"], capsys, monkeypatch))[0]
    name = {"chrf": "chrF", "ter": "TER", "bleu": "BLEU"}[metric[1]] + ("++" if len(metric) > 2 else "")
    want = _sacrebleu_ci(name, Corpus("", [corpus.streams[0]], []), corpus.systems[1][1], 400)
    assert (ours["score"], ours["confidence_mean"], ours["confidence_ci"]) == want
    text = _ours(d, ["score", "-r", "ref.txt", *args, "--method", "sacrebleu"], capsys, monkeypatch)
    # sacrebleu's text line is "chrF2++|<signature> = 48.4269 (μ = 48.4450 ± 2.6579)"
    assert text.splitlines()[0].split(" = ", 1)[1] == theirs.split(" = ", 1)[1]
    assert theirs.startswith(text.split(" = ", 1)[0] + "|")


def test_report_uses_sacrebleus_numbers(cli_files, capsys, monkeypatch):
    from test_report import cells, value

    d, names, corpus = cli_files
    _ours(d, ["report", "-r", "ref.txt", "-i", *names, "-m", "chrf", "ter", "--chrf-word-order", "2", "-cin", "300", "--method", "sacrebleu", "-o", "report.html"], capsys, monkeypatch)
    cs = cells((d / "report.html").read_text(encoding="utf-8"))
    for metric, name in [("chrf", "chrF++"), ("ter", "TER")]:
        files = [(f, hyps) for f, (_, hyps) in zip(names, corpus.systems)]
        _, paired = PairedTest(files, {name: _pair(name)[0]}, corpus.streams, test_type="bs", n_samples=300)()
        (key,) = [k for k in paired if k != "System"]
        for (f, hyps), w in zip(files, paired[key]):
            _, mean, ci = _sacrebleu_ci(name, corpus, hyps, 300)
            assert value(cs, field="confidence-mean", system=f, metric=metric) == mean
            assert value(cs, field="confidence-ci", system=f, metric=metric) == ci
            if w.p_value is not None:
                assert value(cs, field="p-value", system=f, metric=metric) == w.p_value


@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("eps_smoothing", [False, True])
@pytest.mark.parametrize("beta", [2, 1, 0.5, 3.0])
def test_float32_chrf_equals_sacrebleus_on_arbitrary_totals(beta, eps_smoothing, word_order):
    """The float32 emulation against sacrebleu's own ``_compute_f_score`` on float32 totals:
    zero counts in any position (Python-float eps paths), and totals beyond 2**24."""
    from nlgmetrics._sacrebleu_float32 import chrf_scores

    rng = np.random.default_rng(int(beta * 10) + eps_smoothing + word_order)
    width = 3 * (6 + word_order)
    scale = rng.choice([1, 997, 3 * 10**7], size=(400, 1))
    totals = (rng.integers(0, 6, size=(400, width)) * rng.integers(0, 2, size=(400, width)) * scale).astype(np.float32)
    totals[:20] = 0  # empty resamples: sacrebleu returns Python floats there
    sb = SacreCHRF(beta=beta, eps_smoothing=eps_smoothing, word_order=word_order)
    want = np.array([sb._compute_f_score(row) for row in totals])
    got = chrf_scores(totals, beta, eps_smoothing)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    # without the empty rows every score is a float32, as sacrebleu's
    rest = chrf_scores(totals[20:], beta, eps_smoothing)
    assert rest.dtype == np.array([sb._compute_f_score(row) for row in totals[20:]]).dtype


def test_float32_ter_equals_sacrebleus_on_arbitrary_totals():
    from nlgmetrics._sacrebleu_float32 import ter_scores

    rng = np.random.default_rng(3)
    totals = np.column_stack([rng.integers(0, 50, 500) * rng.choice([1, 10**6], 500), rng.integers(1, 40, 500) / rng.choice([1, 2, 3, 7], 500)]).astype(np.float32)
    totals[:5, 1] = 0
    totals[:2, 0] = 0
    sb = SacreTER()
    want = np.array([sb._compute_score_from_stats(row).score for row in totals])
    got = ter_scores(totals)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert ter_scores(totals[5:]).dtype == np.float32
