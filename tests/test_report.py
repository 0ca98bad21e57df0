"""``nlgmetrics report``: the HTML opens in a real headless browser offline, without console
errors, and shows the numbers the command line prints as JSON."""

from __future__ import annotations

import csv
import json
import os
from html.parser import HTMLParser

import numpy as np
import pytest

from browser import chromium, render
from test_significance_helpers import write_wmt_systems
from nlgmetrics.cli import main
from nlgmetrics.report.highlight import highlighted_html, match_orders

NEEDS_BROWSER = pytest.mark.skipif(
    chromium() is None and not os.environ.get("NLGMETRICS_REQUIRE_BROWSER"),
    reason="chromium is not installed (scripts/test.sh installs it and requires it)",
)
N_RESAMPLES = "200"


class _Cells(HTMLParser):
    """Every element with a data-field attribute: its data-* attributes and its text."""

    def __init__(self):
        super().__init__()
        self.cells: list[dict[str, str]] = []
        self._open: list[dict[str, str] | None] = []

    def handle_starttag(self, tag, attrs):
        d = {k[5:]: v for k, v in attrs if k.startswith("data-")}
        cell = d if "field" in d else None
        if cell is not None:
            cell["_text"] = ""
            self.cells.append(cell)
        if tag not in ("img", "br", "meta", "input"):
            self._open.append(cell)

    def handle_endtag(self, tag):
        if self._open and tag not in ("img", "br", "meta", "input"):
            self._open.pop()

    def handle_data(self, data):
        for cell in self._open:
            if cell is not None:
                cell["_text"] += data


def cells(dom: str) -> list[dict[str, str]]:
    p = _Cells()
    p.feed(dom)
    return p.cells


def value(cs, **where) -> float:
    (hit,) = [c for c in cs if all(c.get(k) == v for k, v in where.items())]
    return float(hit["value"])


def text(cs, **where) -> str:
    (hit,) = [c for c in cs if all(c.get(k) == v for k, v in where.items())]
    return hit["_text"]


def _run(args, capsys, monkeypatch, cwd) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


# -- text generation ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def wmt_dir(corpora, tmp_path_factory):
    return write_wmt_systems(corpora, tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def text_report(wmt_dir):
    d, names = wmt_dir
    here = os.getcwd()
    os.chdir(d)  # relative paths: system names as the other commands print them
    try:
        assert main(["report", "-r", "ref.txt", "-i", *names, "-m", "bleu", "chrf", "ter", "rouge", "-cin", N_RESAMPLES, "-o", "report.html"]) == 0
    finally:
        os.chdir(here)
    return d / "report.html"


def test_report_is_self_contained(text_report):
    page = text_report.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page
    assert "http://" not in page and "https://" not in page
    assert ' src="' not in page  # figures are inline SVG ...
    assert page.count("<figure><svg") >= 5 and page.count("<figure><svg") == page.count("</svg>")
    exports = [s.split('"', 1)[0] for s in page.split(' href="')[1:]]
    assert len(exports) == page.count("<figure><svg")  # ... each with its PNG to save
    assert all(s.startswith("data:image/png;base64,") for s in exports)


@NEEDS_BROWSER
def test_browser_renders_offline_and_shows_the_cli_numbers(text_report, wmt_dir, capsys, monkeypatch, tmp_path):
    d, names = wmt_dir
    shown = render(text_report, tmp_path / "browser")
    assert shown.console == []
    assert shown.page_requests == []
    png = shown.screenshot.read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 50_000  # a page of tables and plots, not a blank one
    cs = cells(shown.dom)

    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names, "-m", "bleu", "chrf", "ter", "rouge", "--confidence", "-cin", N_RESAMPLES, "-f", "json"], capsys, monkeypatch, d)
    assert code == 0
    metric_of = {"BLEU": "bleu", "chrF2": "chrf", "TER": "ter", "ROUGE": "rouge"}
    scored = json.loads(out)
    assert len(scored) == 12
    for r in scored:
        where = {"system": r["system"], "metric": metric_of[r["name"]]}
        assert value(cs, field="score", **where) == r["score"]
        assert value(cs, field="overview", **where) == r["score"]
        assert value(cs, field="confidence-mean", **where) == r["confidence_mean"]
        assert value(cs, field="confidence-ci", **where) == r["confidence_ci"]
        assert value(cs, field="confidence-lower", **where) == r["confidence_lower"]
        assert value(cs, field="confidence-upper", **where) == r["confidence_upper"]
        assert text(cs, field="ci-signature", metric=where["metric"]) == r["signature"]
        assert f"{r['score']:.2f}" == text(cs, field="score", **where)

    code, out, _ = _run(["compare", "-r", "ref.txt", "-i", *names, "-m", "bleu", "chrf", "ter", "rouge", "--paired-bs", "-pbsn", N_RESAMPLES, "-f", "json"], capsys, monkeypatch, d)
    assert code == 0
    label_of = {"bleu": "BLEU", "chrf": "chrF2", "ter": "TER", "rouge": "ROUGE"}  # compare labels the scores as sacrebleu does
    compared = {row["system"].removeprefix("Baseline: "): row for row in json.loads(out)}
    significant = 0
    for system in names[1:]:
        for metric, label in label_of.items():
            p = compared[system][label]["p_value"]
            assert value(cs, field="p-value", system=system, metric=metric) == p
            significant += p < 0.05
            base = compared[names[0]][label]["score"]
            assert value(cs, field="delta", system=system, metric=metric) == compared[system][label]["score"] - base
    assert significant > 0  # the real systems differ: the markers are exercised
    assert shown.dom.count('data-significant="true"') == significant

    # ROUGE's plain signature too (its score is a mean: resampled with the segment count)
    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names, "-m", "rouge", "-f", "json"], capsys, monkeypatch, d)
    for r in json.loads(out):
        assert value(cs, field="score", system=r["system"], metric="rouge") == r["score"]
        assert text(cs, field="signature", metric="rouge") == r["signature"]

    # BLEU's brevity statistics
    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names, "-m", "bleu", "-f", "json"], capsys, monkeypatch, d)
    for r in json.loads(out):
        assert value(cs, field="bp", system=r["system"], metric="bleu") == r["bp"]
        assert value(cs, field="sys_len", system=r["system"], metric="bleu") == r["sys_len"]
        assert value(cs, field="ref_len", system=r["system"], metric="bleu") == r["ref_len"]


def test_segments_that_differ_most(text_report, wmt_dir, capsys, monkeypatch):
    d, names = wmt_dir
    cs = cells(text_report.read_text())
    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names, "-m", "bleu", "--sentence-level", "-f", "json"], capsys, monkeypatch, d)
    seg = {}
    for line in out.splitlines():
        r = json.loads(line)
        seg[(r["system"], r["segment"])] = r["score"]
    n = 300
    base = np.array([seg[(names[0], i)] for i in range(1, n + 1)])
    for system in names[1:]:
        other = np.array([seg[(system, i)] for i in range(1, n + 1)])
        expected = np.argsort(-np.abs(other - base), kind="stable")[:5] + 1
        shown = [int(c["segment"]) for c in cs if c.get("field") == "segment" and c["system"] == system]
        assert shown == expected.tolist()
        for i in shown:
            assert value(cs, field="segment", system=system, segment=str(i)) == seg[(system, i)]
            base_cells = [float(c["value"]) for c in cs if c.get("field") == "segment" and c["system"] == names[0] and c["segment"] == str(i)]
            assert base_cells and set(base_cells) == {seg[(names[0], i)]}


def test_highlighting_marks_the_longest_shared_ngram():
    got = match_orders("the cat sat on a mat today", ["a cat sat on the mat", "today"])
    assert got == [("the", 1), ("cat", 3), ("sat", 3), ("on", 3), ("a", 1), ("mat", 1), ("today", 1)]
    assert match_orders("x y", ["z"]) == [("x", 0), ("y", 0)]
    assert highlighted_html("<b> ok", ["ok"]) == '&lt;b&gt; <span class="m1">ok</span>'
    assert "empty" in highlighted_html("", ["ref"])


def test_report_to_stdout_and_errors(wmt_dir, capsys, monkeypatch):
    d, names = wmt_dir
    code, out, err = _run(["report", "-r", "ref.txt", "-i", names[0], "-m", "bleu", "-cin", "20", "-o", "-", "--title", "One <system>"], capsys, monkeypatch, d)
    assert code == 0 and out.startswith("<!DOCTYPE html>") and "One &lt;system&gt;" in out and err == ""
    (d / "short.txt").write_text("one line\n")
    assert _run(["report", "-r", "ref.txt", "-i", names[0], "short.txt", "-o", "x.html"], capsys, monkeypatch, d)[0] == 1
    # usage errors (exit 2): no systems, a system given twice
    assert _run(["report", "-r", "ref.txt", "-o", "x.html"], capsys, monkeypatch, d)[0] == 2
    assert _run(["report", "-r", "ref.txt", "-i", names[0], names[0], "-o", "x.html"], capsys, monkeypatch, d)[0] == 2
    assert _run(["report", "-i", names[0], "-o", "x.html"], capsys, monkeypatch, d)[0] == 2  # no references
    assert _run(["report", "-r", "ref.txt", "-i", names[0]], capsys, monkeypatch, d)[0] == 2  # no -o
    assert _run(["report", "-r", "ref.txt", "-i", names[0], "--chunk-size", "0", "-o", "x.html"], capsys, monkeypatch, d)[0] == 2
    code, _, err = _run(["report", "-r", "ref.txt", "-i", names[0], "-m", "nope", "-o", "x.html"], capsys, monkeypatch, d)
    assert code == 2 and "unknown metric" in err
    assert not (d / "x.html").exists()


# -- classification -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def cancer_dir(corpora, tmp_path_factory):
    with open(corpora / "classification_sklearn" / "breast_cancer_oof.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    d = tmp_path_factory.mktemp("classify")
    (d / "y.txt").write_text("".join(r["y_true"] + "\n" for r in rows))
    (d / "logreg.txt").write_text("".join(r["p_logreg"] + "\n" for r in rows))
    (d / "radius.txt").write_text("".join(r["score_mean_radius_rounded"] + "\n" for r in rows))
    for name, col in [("logreg", "p_logreg"), ("radius", "score_mean_radius_rounded")]:
        lines = ["y_true\ty_score\ty_pred"] + [f"{r['y_true']}\t{r[col]}\t{int(float(r[col]) >= 0.5)}" for r in rows]
        (d / f"{name}.tsv").write_text("\n".join(lines) + "\n")
    return d


@NEEDS_BROWSER
def test_classification_report_in_the_browser(cancer_dir, capsys, monkeypatch, tmp_path):
    d = cancer_dir
    code, _, _ = _run(["report", "--labels", "y.txt", "--scores", "logreg.txt", "radius.txt", "-o", "cls.html"], capsys, monkeypatch, d)
    assert code == 0
    shown = render(d / "cls.html", tmp_path / "browser", height=1600)
    assert shown.console == [] and shown.page_requests == []
    assert len(shown.screenshot.read_bytes()) > 30_000
    cs = cells(shown.dom)
    for name in ("logreg", "radius"):
        code, out, _ = _run(["classify", "-i", f"{name}.tsv", "-f", "json"], capsys, monkeypatch, d)
        expected = json.loads(out)
        for key in ("roc_auc", "average_precision", "accuracy", "balanced_accuracy", "precision", "recall", "f1"):
            assert value(cs, field=key, system=f"{name}.txt") == expected[key], key
        shown_cm = [[value(cs, field="confusion", system=f"{name}.txt", row=str(i), col=str(j)) for j in range(2)] for i in range(2)]
        assert shown_cm == expected["confusion_matrix"]


def test_classification_report_errors(cancer_dir, capsys, monkeypatch):
    d = cancer_dir
    (d / "three.txt").write_text("0\n1\n2\n")
    (d / "s3.txt").write_text("0.1\n0.2\n0.3\n")
    (d / "bad.txt").write_text("0.1\nnan\n0.3\n")
    (d / "word.txt").write_text("0.1\nhigh\n0.3\n")
    (d / "y3.txt").write_text("0\n1\n1\n")
    cases = [
        (["--labels", "three.txt", "--scores", "s3.txt"], "one score per class"),
        (["--labels", "y.txt", "--scores", "s3.txt"], "3 scores"),
        (["--labels", "y3.txt", "--scores", "bad.txt"], "not finite"),
        (["--labels", "y3.txt", "--scores", "word.txt"], "not a number"),
        (["--labels", "y3.txt", "--scores", "s3.txt", "--pos-label", "7"], "pos_label"),
    ]
    for args, message in cases:
        code, _, err = _run(["report", *args, "-o", "c.html"], capsys, monkeypatch, d)
        assert code == 1 and message in err, (args, err)
    usage = [  # usage errors exit 2
        (["--labels", "y3.txt"], "--scores"),
        (["--labels", "y3.txt", "--scores", "s3.txt", "--predictions", "y3.txt", "y3.txt"], "--predictions"),
        (["--labels", "y3.txt", "--scores", "s3.txt", "-m", "bleu"], "--metrics only applies"),
    ]
    for args, message in usage:
        code, _, err = _run(["report", *args, "-o", "c.html"], capsys, monkeypatch, d)
        assert code == 2 and message in err, (args, err)
    # given predictions are used instead of the threshold
    (d / "p3.txt").write_text("1\n1\n1\n")
    code, out, _ = _run(["report", "--labels", "y3.txt", "--scores", "s3.txt", "--predictions", "p3.txt", "-o", "-"], capsys, monkeypatch, d)
    cs = cells(out)
    assert code == 0 and value(cs, field="accuracy", system="s3.txt") == 2 / 3


# -- the browser harness itself -------------------------------------------------------------
@NEEDS_BROWSER
def test_harness_sees_console_errors_and_network_requests(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><p>x</p><img src="http://example.invalid/a.png"><script>console.error("broken page")</script></body></html>')
    shown = render(bad, tmp_path / "browser", height=300)
    assert any("broken page" in m for m in shown.console)
    assert shown.page_requests == ["http://example.invalid/a.png"]


def test_metrics_without_intervals_are_still_reported(wmt_dir, capsys, monkeypatch):
    d, names = wmt_dir
    code, page, _ = _run(["report", "-r", "ref.txt", "-i", *names[:2], "-m", "self_bleu", "distinct", "-cin", "20", "-o", "-"], capsys, monkeypatch, d)
    assert code == 0
    cs = cells(page)
    assert "the metric has no per-segment statistics" in page  # Self-BLEU scores outputs against each other
    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names[:2], "-m", "self_bleu", "distinct", "-f", "json"], capsys, monkeypatch, d)
    for r in json.loads(out):
        metric = "self_bleu" if "self" in r["name"].lower() else "distinct"
        assert value(cs, field="score", system=r["system"], metric=metric) == r["score"]
        assert text(cs, field="signature", metric=metric) == r["signature"]


def test_classification_report_with_three_classes_matches_scikit_learn(corpora, capsys, monkeypatch, tmp_path):
    from sklearn import metrics as skm

    with open(corpora / "classification_sklearn" / "wine_oof.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    y = np.array([int(r["y_true"]) for r in rows])
    probs = np.array([[float(r[f"p_{k}"]) for k in range(3)] for r in rows])
    noisy = np.clip(probs + np.random.default_rng(3).normal(0, 0.3, probs.shape), 1e-3, None)
    noisy = noisy / noisy.sum(axis=1, keepdims=True)  # multi-class ROC AUC takes probabilities
    (tmp_path / "y.txt").write_text("".join(f"{v}\n" for v in y))
    for name, p in (("model", probs), ("noisy", noisy)):
        (tmp_path / f"{name}.txt").write_text("".join(" ".join(repr(float(x)) for x in row) + "\n" for row in p))
    code, out, err = _run(["report", "--labels", "y.txt", "--scores", "model.txt", "noisy.txt", "-cin", "50", "-o", "-"], capsys, monkeypatch, tmp_path)
    assert code == 0, err
    cs = cells(out)
    for name, p in (("model.txt", probs), ("noisy.txt", noisy)):
        pred = p.argmax(axis=1)
        assert value(cs, field="accuracy", system=name) == skm.accuracy_score(y, pred)
        assert value(cs, field="f1", system=name) == skm.f1_score(y, pred, average="macro")
        assert value(cs, field="roc_auc", system=name) == pytest.approx(skm.roc_auc_score(y, p, multi_class="ovr"), rel=1e-12)
        f1s = skm.f1_score(y, pred, average=None)
        for k in range(3):
            assert value(cs, field="class-f1", system=name, label=str(k)) == f1s[k]
            assert value(cs, field="class-roc-auc", system=name, label=str(k)) == pytest.approx(skm.roc_auc_score(y == k, p[:, k]), rel=1e-12)
        (interval,) = [c for c in cs if c.get("field") == "roc_auc-interval" and c.get("system") == name]
        assert float(interval["lower"]) <= value(cs, field="roc_auc", system=name) <= float(interval["upper"])
    p_noisy = value(cs, field="p-roc-auc-bootstrap", system="noisy.txt")
    assert 0.0 <= p_noisy <= 1.0
    assert out.count("<figure><svg") == 2 * 2 + 2  # one-vs-rest ROC and PR per scorer, a confusion matrix each


def test_binary_classification_report_has_delong_and_intervals(cancer_dir, capsys, monkeypatch):
    from nlgmetrics.classification.delong import delong_test

    d = cancer_dir
    code, out, _ = _run(["report", "--labels", "y.txt", "--scores", "logreg.txt", "radius.txt", "-cin", "40", "-o", "-"], capsys, monkeypatch, d)
    assert code == 0
    cs = cells(out)
    y = np.array([int(v) for v in (d / "y.txt").read_text().split()])
    logreg, radius = (np.array([float(v) for v in (d / f).read_text().split()]) for f in ("logreg.txt", "radius.txt"))
    assert value(cs, field="p-roc-auc-delong", system="radius.txt") == delong_test(y, radius, logreg).p_value
    assert [c for c in cs if c.get("field") == "f1-interval" and c.get("system") == "logreg.txt"]
