"""The compiled METEOR table cache: built on first use, read back by later loads with the
same numbers, rebuilt when damaged, skipped when the cache directory is unwritable."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pycocoevalcap")

from nlgmetrics import METEOR, _core  # noqa: E402
from nlgmetrics.metrics import meteor_resources as mr  # noqa: E402

HYPS = ["a man is riding a horse on the beach", "two dogs play in the snow", "the running men were fast"]
REFS = [["a person rides a horse along the shore"], ["dogs playing in snow"], ["the man runs quickly"]]


@pytest.fixture()
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("NLGMETRICS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(mr, "_CACHE", {})
    return tmp_path / "cache"


def scores():
    m = METEOR(modules=("exact", "stem", "synonym"))
    return m.sentence_scores(HYPS, REFS).tolist(), m.corpus_score(HYPS, REFS).score


def test_first_load_writes_the_cache_and_later_loads_read_it(fresh):
    parsed = scores()
    (path,) = fresh.glob("meteor-en-nopara-*.bin")
    assert path == mr.cache_file(mr.meteor_dir(), False)
    assert not list(fresh.glob("*.tmp"))
    mr._CACHE.clear()
    loaded = mr.load_resources(paraphrases=False)
    assert not loaded.has_paraphrases
    mr._CACHE.clear()
    assert scores() == parsed


def test_a_damaged_cache_is_rebuilt(fresh):
    mr.load_resources(paraphrases=False)
    path = mr.cache_file(mr.meteor_dir(), False)
    size = path.stat().st_size
    path.write_bytes(path.read_bytes()[: size // 2])
    with pytest.raises(Exception):
        _core.MeteorResources.load_cache(str(path))
    mr._CACHE.clear()
    want = scores()
    assert path.stat().st_size == size
    mr._CACHE.clear()
    assert scores() == want


def test_an_unwritable_cache_dir_only_costs_the_parse(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("NLGMETRICS_CACHE_DIR", str(blocker / "sub"))
    monkeypatch.setattr(mr, "_CACHE", {})
    assert mr.load_resources(paraphrases=False) is mr.load_resources(paraphrases=False)


def test_cache_location_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("NLGMETRICS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert mr.cache_dir() == tmp_path / "nlgmetrics"
    name = mr.cache_file(mr.meteor_dir(), True).name
    assert name.startswith("meteor-en-para-pycocoevalcap") and name.endswith(f"-f{_core.MeteorResources.cache_format}.bin")
    assert os.sep not in name
