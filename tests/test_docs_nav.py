"""The site's menus: metric pages grouped by task, and "Migrating" reaching every page that
tells a framework's users how to get their numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[1]
NAV = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
GROUPS = {"Translation", "Summarization and simplification", "Captioning and data-to-text", "Question answering and LLM evaluation",
          "Speech recognition", "Classification", "Learned (neural)", "Diversity and language models"}


def _section(title: str) -> list:
    return next(entry[title] for entry in NAV if isinstance(entry, dict) and title in entry)


def _pages(entries) -> list[str]:
    if isinstance(entries, str):
        return [entries]
    out = []
    for entry in entries:
        for value in (entry.values() if isinstance(entry, dict) else [entry]):
            out += _pages(value)
    return out


def test_metrics_menu_is_grouped_by_task():
    metrics = _section("Metrics")
    assert {next(iter(e)) for e in metrics} == GROUPS
    listed = _pages(metrics)
    assert sorted(listed) == sorted(f"metrics/{p.name}" for p in (REPO / "docs" / "metrics").glob("*.md"))
    assert len(listed) == len(set(listed))


def test_migrating_reaches_every_framework_page():
    assert {"migration.md", "llm.md", "integrations.md"} <= set(_pages(_section("Migrating")))
    text = (REPO / "docs" / "migration.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#]+\.md)", text))
    # the pages written for a framework's users: the LLM toolchains, the packages they call, the official scripts
    framework_pages = {"llm.md", "integrations.md", "cjk.md", "metrics/rouge-packages.md", "metrics/squad.md", "metrics/cmrc2018.md",
                       "metrics/drop.md", "metrics/coqa.md", "metrics/lm-eval-qa.md", "metrics/lm-eval-aggregates.md",
                       "metrics/pass-at-k.md", "metrics/longbench-qa.md", "metrics/classification.md", "metrics/comet.md"}
    assert framework_pages - linked == set()
