"""The documentation: every ```python block of every page runs (blocks of a page share
one namespace, in order), every ```bash block of `nlgmetrics` commands runs after them
in the same directory, every test a page cites exists, and the site builds with
``mkdocs build --strict``."""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

DOCS = REPO / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
BLOCK = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)
CITED_TEST = re.compile(r"(tests/test_\w+\.py)::(test_\w+)")


def blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(page.read_text(encoding="utf-8")) if lang == language]


def test_there_are_pages():
    assert len(PAGES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    namespace: dict = {"__name__": "__docs__"}
    for i, code in enumerate(blocks(page, "python")):
        try:
            exec(compile(code, f"{page.name}[python block {i}]", "exec"), namespace)
        except Exception as e:  # name the page and block, then fail with the real error
            raise AssertionError(f"{page.relative_to(DOCS)} python block {i} failed: {e!r}") from e
    for i, script in enumerate(blocks(page, "bash")):
        for line in script.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if shlex.split(line, comments=True)[0] != "nlgmetrics":
                continue  # setup commands (pip, scripts/) are not run here
            # through a shell, for redirections; the command is this interpreter's nlgmetrics
            command = f"{shlex.quote(sys.executable)} -m {line.strip()}"
            run = subprocess.run(command, shell=True, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                 env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
            assert run.returncode == 0, f"{page.name} bash block {i}: {line!r} failed: {run.stderr}"
            assert run.stdout.strip(), f"{page.name} bash block {i}: {line!r} printed nothing"


def test_cited_tests_exist():
    cited = {m for page in PAGES for m in CITED_TEST.findall(page.read_text(encoding="utf-8"))}
    assert cited, "the pages cite no test"
    missing = []
    for path, name in sorted(cited):
        file = REPO / path
        names = {n.name for n in ast.parse(file.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)} if file.exists() else set()
        if name not in names:
            missing.append(f"{path}::{name}")
    assert not missing, f"docs cite tests that do not exist: {missing}"


def test_site_builds_strict(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "metrics" / "bleu" / "index.html").exists()
