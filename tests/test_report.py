"""``nlgmetrics report``: the HTML opens in a real headless browser offline, without console
errors, and shows the numbers the command line prints as JSON."""

from __future__ import annotations

import csv
import io
import json
import os
from html.parser import HTMLParser

import numpy as np
import pytest

from browser import Page, chromium, render
from test_significance_helpers import write_wmt_systems
from nlgmetrics.cli import main
from nlgmetrics.report.data import display_names
from nlgmetrics.report.export import exports_of, table_cells
from nlgmetrics.report.highlight import differing_words, highlighted_html, match_orders

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
    import re

    page = text_report.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "<link" not in page and " src=" not in page  # figures are inline SVG, the script inline
    assert "http://" not in page and "https://" not in page
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert len(scripts) == 1 and scripts[0][0] == ""  # one inline script, nothing it loads
    for fetcher in ("fetch", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "import(", "src", "href", "location", "open("):
        assert fetcher not in scripts[0][1], fetcher
    assert page.count("<figure><svg") >= 5 and page.count("<figure><svg") == page.count("</svg>")
    exports = [s.split('"', 1)[0] for s in page.split(' href="')[1:]]
    assert all(s.startswith("data:") for s in exports)
    assert sum(s.startswith("data:image/png;base64,") for s in exports) == page.count("<figure><svg")  # each figure's PNG
    # every table's CSV and LaTeX
    assert sum(s.startswith("data:text/csv;") for s in exports) == sum(s.startswith("data:application/x-tex;") for s in exports) == page.count("<table")


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


def test_segment_table_holds_every_segment_score(text_report, wmt_dir, capsys, monkeypatch):
    d, names = wmt_dir
    cs = cells(text_report.read_text())
    # the segment scores `score --sentence-level` prints (BLEU with effective order, as sacrebleu)
    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names, "-m", "bleu", "chrf", "ter", "--sentence-level", "-f", "json"], capsys, monkeypatch, d)
    assert code == 0
    metric_of = {"BLEU": "bleu", "chrF": "chrf", "TER": "ter"}
    scored = [json.loads(line) for line in out.splitlines()]
    assert len(scored) == 3 * 3 * 300
    shown = {(c["system"], c["metric"], int(c["segment"])): float(c["value"]) for c in cs if c.get("field") == "segment"}
    for r in scored:
        assert shown[(r["system"], metric_of[r["metric"]], r["segment"])] == r["score"]


def test_segments_that_differ_most_are_compare_mts_examples(text_report, wmt_dir):
    from nlgmetrics.analysis import sentence_examples

    d, names = wmt_dir
    page = text_report.read_text()
    cs = cells(page)
    refs = (d / "ref.txt").read_text().splitlines()
    outputs = {n: (d / n).read_text().splitlines() for n in names}
    for other in names[1:]:
        a_wins, b_wins = sentence_examples(refs, outputs[names[0]], outputs[other], count=5, tokenize="13a")
        for side, examples in (("a", a_wins), ("b", b_wins)):
            rows = [c for c in cs if c.get("field") == "example-sentbleu" and c["side"] == side and c["system"] == other]
            assert [int(c["segment"]) for c in rows] == [e.segment + 1 for e in examples]
            assert [float(c["value"]) for c in rows] == [e.score_b for e in examples]
            base = {(int(c["segment"]), float(c["value"])) for c in cs if c.get("field") == "example-sentbleu" and c["side"] == side and c["system"] == names[0]}
            assert all((e.segment + 1, e.score_a) in base for e in examples)
        assert all(e.score_a > e.score_b for e in a_wins) and all(e.score_b > e.score_a for e in b_wins)
    assert page.count('class="d"') + page.count(' d"') > 0  # the words the two outputs do not share are marked


def test_highlighting_marks_the_longest_shared_ngram():
    got = match_orders("the cat sat on a mat today", ["a cat sat on the mat", "today"])
    assert got == [("the", 1), ("cat", 3), ("sat", 3), ("on", 3), ("a", 1), ("mat", 1), ("today", 1)]
    assert match_orders("x y", ["z"]) == [("x", 0), ("y", 0)]
    assert highlighted_html("<b> ok", ["ok"]) == '&lt;b&gt; <span class="m1">ok</span>'
    assert "empty" in highlighted_html("", ["ref"])
    assert differing_words("the cat sat on the mat", "a cat sat on mat") == [True, False, False, False, True, False]
    assert differing_words("x y", "x y") == [False, False] and differing_words("", "a") == []
    assert highlighted_html("a b", ["b"], other="a c") == 'a <span class="m1 d">b</span>'


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


# -- the segment table's script, and the table exports --------------------------------------
_ROWS = "Array.prototype.slice.call(document.querySelector('table.sortable').tBodies[0].rows)"


def _visible_segments(page) -> list[int]:
    return page.evaluate(f"{_ROWS}.filter(function (r) {{ return !r.hidden && r.offsetParent !== null; }}).map(function (r) {{ return +r.cells[0].textContent; }})")


@NEEDS_BROWSER
def test_segment_table_sorts_and_filters_in_the_browser(text_report, wmt_dir, tmp_path):
    d, names = wmt_dir
    cs = cells(text_report.read_text())
    bleu = {int(c["segment"]): float(c["value"]) for c in cs if c.get("field") == "segment" and c["metric"] == "bleu" and c["system"] == names[1]}
    refs = (d / "ref.txt").read_text().splitlines()
    outputs = [(d / n).read_text().splitlines() for n in names]
    with Page(text_report, tmp_path / "browser") as page:
        assert _visible_segments(page) == list(range(1, 301))  # the files' order before any click
        heading = page.evaluate("Array.prototype.map.call(document.querySelector('table.sortable').tHead.rows[0].cells, function (h) { return h.textContent; })")
        column = heading.index(f"BLEU {display_names(names)[names[1]]}") + 1
        selector = f"table.sortable thead th:nth-child({column})"
        page.click(selector)  # ascending: by the exact value, ties in the files' order
        assert _visible_segments(page) == sorted(bleu, key=lambda i: (bleu[i], i))
        assert page.evaluate(f"document.querySelector('{selector}').getAttribute('aria-sort')") == "ascending"
        page.click(selector)  # descending
        assert _visible_segments(page) == sorted(bleu, key=lambda i: (-bleu[i], i))
        page.click("table.sortable thead th:nth-child(1)")  # back to segment order
        assert _visible_segments(page) == list(range(1, 301))
        word = "battery"
        page.type("input.filter", word)
        expected = [i + 1 for i in range(300) if word in " ".join([refs[i], *(o[i] for o in outputs)]).lower()]
        assert 0 < len(expected) < 300
        assert _visible_segments(page) == expected
        assert page.evaluate("document.querySelector('.filter-count').textContent") == f"{len(expected)} of 300 rows"
        page.click(selector)  # sorting keeps the filter
        assert _visible_segments(page) == sorted(expected, key=lambda i: (bleu[i], i))
        assert page.console_messages() == [] and page.requests == []


@NEEDS_BROWSER
def test_without_scripts_every_row_is_shown(text_report, tmp_path):
    with Page(text_report, tmp_path / "browser", scripts=False) as page:
        assert _visible_segments(page) == list(range(1, 301))
        assert page.evaluate("document.querySelectorAll('input.filter').length") == 0  # no box that would do nothing
        assert page.evaluate("document.querySelectorAll('a.export').length") == 2 * page.evaluate("document.querySelectorAll('table').length")


def _exported_tables(page_html: str) -> list[tuple[str, list[list[tuple[str, str]]], bytes, bytes]]:
    """(name, the table's cells, its CSV, its LaTeX) for each table of a page, in order."""
    import re

    tables = re.findall(r"<table.*?</table>", page_html, re.S)
    files = list(exports_of(page_html).items())
    assert len(files) == 2 * len(tables)
    return [(files[2 * k][0], table_cells(t), files[2 * k][1], files[2 * k + 1][1]) for k, t in enumerate(tables)]


def _check_booktabs(tex: str, n_columns: int, n_rows: int) -> None:
    """A well-formed booktabs tabular: rules in order, every row with the columns of the spec,
    LaTeX's special characters escaped, braces balanced."""
    import re

    lines = [line for line in tex.splitlines() if not line.startswith("%")]
    spec = re.fullmatch(r"\\begin\{tabular\}\{([lr]+)\}", lines[0])
    assert spec and len(spec.group(1)) == n_columns
    assert lines[1] == r"\toprule" and lines[3] == r"\midrule" and lines[-2:] == [r"\bottomrule", r"\end{tabular}"]
    rows = [lines[2], *lines[4:-2]]
    assert len(rows) == n_rows + 1
    for row in rows:
        assert row.endswith(r" \\")
        body = row[:-3]
        assert len(re.split(r"(?<!\\)&", body)) == n_columns
        plain = body
        for math in (r"$\mu$", r"$\pm$", r"$\Delta$", r"$\geq$", r"$\leq$", r"$\cdot$", "$-$", r"$\times$", r"$\div$", r"$\rightarrow$", r"$^\circ$"):
            plain = plain.replace(math, "")
        assert not re.search(r"(?<!\\)[%#_$](?![^$]*\$)", plain)
        depth = 0
        for i, ch in enumerate(body):
            if ch in "{}" and (i == 0 or body[i - 1] != "\\"):
                depth += 1 if ch == "{" else -1
                assert depth >= 0
        assert depth == 0


def test_every_table_exports_csv_with_exact_numbers_and_booktabs_latex(text_report, wmt_dir, capsys, monkeypatch, tmp_path):
    d, names = wmt_dir
    page = text_report.read_text()
    exported = _exported_tables(page)
    assert len(exported) >= 15
    for name, rows, csv_bytes, tex_bytes in exported:
        parsed = list(csv.reader(io.StringIO(csv_bytes.decode("utf-8"))))
        assert parsed[0] == [text for text, _ in rows[0]], name
        assert len(parsed) == len(rows), name
        for got, cells_of_row in zip(parsed[1:], rows[1:]):
            assert got == [value for _, value in cells_of_row]  # data-value: the exact number
        _check_booktabs(tex_bytes.decode("utf-8"), len(rows[0]), len(rows) - 1)
    # the CSV's numbers are the command line's
    (systems_csv,) = [c for n, _, c, _ in exported if n == "bleu-systems.csv"]
    table_rows = list(csv.DictReader(io.StringIO(systems_csv.decode("utf-8"))))
    code, out, _ = _run(["score", "-r", "ref.txt", "-i", *names, "-m", "bleu", "--confidence", "-cin", N_RESAMPLES, "-f", "json"], capsys, monkeypatch, d)
    by_system = {r["system"]: r for r in json.loads(out)}
    for shown_name, row in zip(names, table_rows):
        expected = by_system[shown_name]
        assert float(row["BLEU"]) == expected["score"] and float(row["95% lower"]) == expected["confidence_lower"]
        assert float(row["± ci"]) == expected["confidence_ci"] and float(row["μ"]) == expected["confidence_mean"]
    (segments_csv,) = [c for n, _, c, _ in exported if n == "segments.csv"]
    seg_rows = list(csv.reader(io.StringIO(segments_csv.decode("utf-8"))))
    assert len(seg_rows) == 301 and seg_rows[1][1] == (d / "ref.txt").read_text().splitlines()[0]


def test_export_dir_writes_the_files_the_page_links(wmt_dir, capsys, monkeypatch, cancer_dir):
    d, names = wmt_dir
    code, page, err = _run(["report", "-r", "ref.txt", "-i", *names[:2], "-m", "bleu", "-cin", "20", "-o", "-", "--export-dir", "tables"], capsys, monkeypatch, d)
    assert code == 0 and "table files to tables" in err
    files = exports_of(page)
    assert sorted(p.name for p in (d / "tables").iterdir() if p.name != ".nlgmetrics-exports") == sorted(files)
    assert all((d / "tables" / n).read_bytes() == data for n, data in files.items())
    code, page, _ = _run(["report", "--labels", "y.txt", "--scores", "logreg.txt", "radius.txt", "-cin", "20", "-o", "-", "--export-dir", "cls"], capsys, monkeypatch, cancer_dir)
    assert code == 0
    for name, rows, csv_bytes, tex_bytes in _exported_tables(page):
        assert list(csv.reader(io.StringIO(csv_bytes.decode("utf-8"))))[1:] == [[v for _, v in r] for r in rows[1:]], name
        _check_booktabs(tex_bytes.decode("utf-8"), len(rows[0]), len(rows) - 1)
    assert sorted(p.name for p in (cancer_dir / "cls").iterdir() if p.name != ".nlgmetrics-exports") == sorted(exports_of(page))


def test_latex_escapes_what_tex_treats_specially():
    from nlgmetrics.report.export import latex_escape, to_latex

    assert latex_escape(r"50% of #1 & {x}_y $ ~ ^ \ <b>") == r"50\% of \#1 \& \{x\}\_y \$ \textasciitilde{} \textasciicircum{} \textbackslash{} \textless{}b\textgreater{}"
    assert latex_escape("μ ± Δ") == r"$\mu$ $\pm$ $\Delta$"
    tex = to_latex([[("system", "system"), ("BLEU", "BLEU")], [("a_b", "a_b"), ("12.50", "12.5")], [("c", "c"), ("–", "")]])
    assert tex.splitlines()[1:] == [r"\begin{tabular}{lr}", r"\toprule", r"system & BLEU \\", r"\midrule", r"a\_b & 12.50 \\", r"c & -- \\", r"\bottomrule", r"\end{tabular}"]


def test_examples_section_without_examples_or_a_second_system():
    from nlgmetrics import load
    from nlgmetrics.report import render_text, text_report

    refs = [["the cat sat on the mat"], ["a dog barks"], ["hello world"]]
    systems = [("a.txt", ["the cat sat on a mat", "the dog barks", "hello world"]), ("b.txt", ["a cat is on the mat", "a dog barks", "hi world"])]
    report = text_report([("bleu", load("bleu"))], systems, refs, n_resamples=20, show_progress=False)
    page = render_text(report, top_k=1)
    cs = cells(page)
    assert [(c["side"], c["segment"]) for c in cs if c.get("field") == "example-difference"] == [("a", "1"), ("b", "2")]
    assert "--top-k 0" in render_text(report, top_k=0) and 'data-field="example-difference"' not in render_text(report, top_k=0)
    single = text_report([("bleu", load("bleu"))], systems[:1], refs, n_resamples=20, show_progress=False)
    assert "nothing to compare" in render_text(single)
