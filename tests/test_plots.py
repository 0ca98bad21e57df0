"""Plot functions: the arrays they draw, the figures they return, and their errors."""

from __future__ import annotations

import csv
import subprocess
import sys

import numpy as np
import pytest
import sklearn.metrics as skm
from matplotlib.figure import Figure
from scipy import stats as sst

from nlgmetrics import BLEU
from nlgmetrics.report import plots
from nlgmetrics.errors import InvalidInputError, LengthMismatchError, MissingExtraError
from nlgmetrics.engines.significance import bootstrap_ci


@pytest.fixture(scope="module")
def cancer(corpora):
    with open(corpora / "classification_sklearn" / "breast_cancer_oof.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    y = np.array([int(r["y_true"]) for r in rows])
    return y, np.array([float(r["p_logreg"]) for r in rows]), np.array([float(r["score_mean_radius_rounded"]) for r in rows])


def test_roc_curve_draws_sklearns_curve(cancer):
    y, p, radius = cancer
    fig, ax = plots.roc_curve(y, p, label="logreg")
    assert isinstance(fig, Figure) and ax.figure is fig
    fpr, tpr, _ = skm.roc_curve(y, p)
    line = ax.lines[0]
    assert np.array_equal(line.get_xdata(), fpr) and np.array_equal(line.get_ydata(), tpr)
    assert f"{skm.roc_auc_score(y, p):.4f}" in ax.get_legend().get_texts()[0].get_text()
    # a second scorer drawn into the same axes (ties: the rounded radius score)
    fig2, ax2 = plots.roc_curve(y, radius, label="radius", ax=ax)
    assert fig2 is fig and ax2 is ax
    fpr, tpr, _ = skm.roc_curve(y, radius)
    assert np.array_equal(ax.lines[2].get_xdata(), fpr) and np.array_equal(ax.lines[2].get_ydata(), tpr)


def test_pr_curve_draws_sklearns_curve_as_steps(cancer):
    y, _, radius = cancer
    fig, ax = plots.pr_curve(y, radius)
    precision, recall, _ = skm.precision_recall_curve(y, radius)
    line = ax.lines[0]
    assert line.get_drawstyle() == "steps-post"
    assert np.array_equal(line.get_xdata(), recall) and np.array_equal(line.get_ydata(), precision)
    assert f"AP = {skm.average_precision_score(y, radius):.4f}" in ax.get_legend().get_texts()[0].get_text()


def test_pr_curve_with_string_labels(cancer):
    y, p, _ = cancer
    names = np.where(y == 1, "benign", "malignant")
    _, ax = plots.pr_curve(names, p, pos_label="benign")
    precision, recall, _ = skm.precision_recall_curve(names, p, pos_label="benign")
    assert np.array_equal(ax.lines[0].get_xdata(), recall) and np.array_equal(ax.lines[0].get_ydata(), precision)


def test_confusion_matrix_shows_the_counts(cancer):
    y, p, _ = cancer
    cm = skm.confusion_matrix(y, (p >= 0.5).astype(int))
    fig, ax = plots.confusion_matrix(cm, ["malignant", "benign"])
    assert np.array_equal(ax.images[0].get_array(), cm)
    assert sorted(t.get_text() for t in ax.texts) == sorted(str(v) for v in cm.ravel())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["malignant", "benign"]
    with pytest.raises(InvalidInputError):
        plots.confusion_matrix(np.zeros((2, 3)))
    with pytest.raises(LengthMismatchError):
        plots.confusion_matrix(cm, ["a"])


@pytest.fixture(scope="module")
def bleu_ci():
    m = BLEU()
    hyps = ["the cat sat on the mat", "a dog ran off", "hello there friend", "it is raining", "nothing here"] * 4
    refs = [["the cat is on the mat"], ["the dog ran away"], ["hi there friend"], ["it rains"], ["something here"]] * 4
    return bootstrap_ci(m, m.stats(hyps, refs), n_resamples=300, seed=7)


def test_bootstrap_distribution_bins_every_resample(bleu_ci):
    fig, ax = plots.bootstrap_distribution(bleu_ci, bins=25)
    assert isinstance(fig, Figure)
    heights = [patch.get_height() for patch in ax.patches]
    assert len(heights) == 25 and sum(heights) == 300
    counts, _ = np.histogram(bleu_ci.scores, bins=25)
    assert heights == counts.tolist()
    marks = [line.get_xdata()[0] for line in ax.lines]
    assert marks == [bleu_ci.score.score, bleu_ci.lower, bleu_ci.upper]


def test_system_bars_heights_and_intervals(bleu_ci):
    fig, ax = plots.system_bars_ci({"a": bleu_ci, "b": bleu_ci})
    assert [p.get_height() for p in ax.patches] == [bleu_ci.score.score] * 2
    (segments,) = [c.get_segments() for c in ax.collections]
    assert [tuple(s[:, 1]) for s in segments] == [(bleu_ci.lower, bleu_ci.upper)] * 2
    _, ax = plots.system_bars(["x", "y", "z"], [1.0, 2.0, 3.0])
    assert [p.get_height() for p in ax.patches] == [1.0, 2.0, 3.0] and not ax.collections
    with pytest.raises(LengthMismatchError):
        plots.system_bars(["x"], [1.0, 2.0])
    with pytest.raises(InvalidInputError):
        plots.system_bars(["x"], [1.0], lower=[0.5])


def test_segment_histogram_uses_shared_bins():
    rng = np.random.default_rng(3)
    a, b = rng.normal(30, 10, 500), rng.normal(40, 5, 300)
    b[0] = np.nan  # undefined segment scores are left out, not binned
    fig, ax = plots.segment_histogram({"a": a, "b": b}, bins=15, metric="BLEU")
    edges = np.histogram_bin_edges(np.concatenate([a, b[1:]]), bins=15)
    for patch, values in zip(ax.patches, [a, b[1:]]):
        xy = patch.get_xy()
        counts, _ = np.histogram(values, bins=edges)
        # step outline: (left edge, height), (right edge, height) for each bin
        assert xy[1:-1:2, 1].tolist() == counts.tolist() and np.array_equal(xy[1:-1:2, 0], edges[:-1])
    assert "mean" in ax.get_legend().get_texts()[0].get_text()


def test_metric_human_scatter_matches_scipy():
    rng = np.random.default_rng(5)
    human = rng.normal(size=80)
    metric = human + rng.normal(scale=0.5, size=80)
    fig, ax = plots.metric_human_scatter(metric, human, metric="BLEU", human="DA")
    offsets = ax.collections[0].get_offsets()
    assert np.array_equal(offsets[:, 0], human) and np.array_equal(offsets[:, 1], metric)
    r = sst.pearsonr(metric, human).statistic
    tau = sst.kendalltau(metric, human).statistic
    assert f"r = {r:.3f}" in ax.get_title() and f"τ = {tau:.3f}" in ax.get_title()
    with pytest.raises(LengthMismatchError):
        plots.metric_human_scatter([1.0, 2.0], [1.0])
    with pytest.raises(InvalidInputError):
        plots.metric_human_scatter([[1.0]], [[1.0]])


def test_png_is_a_png(bleu_ci):
    fig, _ = plots.bootstrap_distribution(bleu_ci)
    assert plots.to_png(fig).startswith(b"\x89PNG\r\n\x1a\n")


def test_missing_matplotlib_names_the_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails as if absent
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[report\]"):
        plots.system_bars(["x"], [1.0])
    # the command says so before scoring anything: a usage error naming the extra
    from nlgmetrics.cli import main

    (tmp_path / "y.txt").write_text("0\n1\n")
    (tmp_path / "s.txt").write_text("0.2\n0.9\n")
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--labels", "y.txt", "--scores", "s.txt", "-o", "r.html"]) == 2
    assert "nlgmetrics[report]" in capsys.readouterr().err and not (tmp_path / "r.html").exists()


def test_no_pyplot_and_cheap_import():
    code = (
        "import sys, nlgmetrics\n"
        "assert not any(m.split('.')[0] in ('matplotlib', 'tqdm') for m in sys.modules), 'import nlgmetrics loaded plotting'\n"
        "from nlgmetrics.report import plots\n"
        "plots.system_bars(['a'], [1.0])\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_histogram_range_is_robust_to_outliers_and_marks_the_overflow():
    from nlgmetrics.report.plots import robust_range, segment_histogram

    rng = np.random.default_rng(0)
    ter = np.concatenate([rng.uniform(20, 80, 500), [400.0, 380.0, 390.0]])
    lo, hi = robust_range(ter)
    assert lo == ter.min() and hi < 200  # a few TERs of 400 do not stretch the axis
    fig, ax = segment_histogram({"sys": ter}, metric="TER")
    assert ax.get_xlim()[1] < 200
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("3 segment(s) >") for t in labels)
    bleu = np.concatenate([rng.uniform(0, 60, 500), [100.0] * 7])
    assert robust_range(bleu) == (bleu.min(), 100.0)  # a bounded score is shown whole
