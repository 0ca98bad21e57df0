"""What a user gets from ``pip install nlgmetrics``: run against the installed wheel.

``scripts/release_check.sh`` installs the built wheel into a fresh virtual environment
(no checkout on the path) and runs this file there with ``NLGMETRICS_EXPECT_INSTALLED=1``;
the main suite runs it too, against the editable install. Nothing here needs a test
dependency beyond pytest: the numbers the wheel prints are compared with the checkout's
by the script (`cmp` of the CLI's JSON), and every value here must be finite and in range.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import importlib.metadata
import importlib.util
import json
import math
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import nlgmetrics

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "e2e" / "sample.jsonl"
PACKAGE = Path(nlgmetrics.__file__).resolve().parent


def _sample() -> tuple[list[str], list[list[str]], list[object]]:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r["prediction"] for r in rows], [r["references"] for r in rows], [r.get("table") for r in rows]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nlgmetrics", *args], capture_output=True, text=True, timeout=300)


def test_the_package_comes_from_where_it_should():
    installed = "site-packages" in PACKAGE.parts
    if os.environ.get("NLGMETRICS_EXPECT_INSTALLED") == "1":
        assert installed, f"expected the installed wheel, imported {PACKAGE}"
        assert not PACKAGE.is_relative_to(REPO)
    else:
        assert PACKAGE == REPO / "python" / "nlgmetrics"


def test_one_version_everywhere():
    from nlgmetrics import _core

    version = importlib.metadata.version("nlgmetrics")
    assert nlgmetrics.__version__ == _core.__version__ == version
    assert nlgmetrics.bleu(["a b c d"], [["a b c d"]]).signature.format().endswith(f"version:nlgmetrics-{version}")
    run = _cli("--version")
    assert run.returncode == 0 and run.stdout.strip() == f"nlgmetrics {version}"


def test_typing_files_ship_and_the_stubs_cover_the_native_module():
    from nlgmetrics import _core

    assert (PACKAGE / "py.typed").is_file()
    stub = PACKAGE / "_core.pyi"
    assert stub.is_file()
    declared = {
        node.name if not isinstance(node, ast.AnnAssign) else node.target.id
        for node in ast.parse(stub.read_text(encoding="utf-8")).body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) or (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name))
    }
    public = {name for name in dir(_core) if not name.startswith("_")}
    assert public - declared == set(), "native functions without a stub in _core.pyi"
    assert declared - public - {"__version__"} == set(), "stubs for functions the native module lacks"


def _available_text_metrics() -> list:
    entries = []
    for entry in nlgmetrics.available():
        if entry.kind not in ("text", "data-to-text", "simplification"):
            continue
        try:
            entry.factory
        except ImportError:  # an extra's module that this environment lacks
            continue
        entries.append(entry)
    return entries


def test_every_text_metric_scores_the_bundled_sample():
    predictions, references, tables = _sample()
    scored = []
    for entry in _available_text_metrics():
        # Single-reference measures (the WER family, PER) score the closest of several.
        takes_multi_ref = "multi_ref" in inspect.signature(entry.factory).parameters
        options = {"multi_ref": "best"} if takes_multi_ref else {}
        try:
            metric = nlgmetrics.load(entry.name, **options)
            if entry.kind == "data-to-text":
                score = metric.corpus_score(predictions, references, tables=tables)
            elif entry.kind == "simplification":  # SARI: the first reference stands in for the source
                score = metric.corpus_score(predictions, references, sources=[r[0] if isinstance(r, list) else r for r in references])
            elif entry.name in ("distinct", "self_bleu"):
                score = metric.corpus_score(predictions)
            else:
                score = metric.corpus_score(predictions, references)
        except nlgmetrics.MissingExtraError:
            continue
        assert math.isfinite(score.score), entry.name
        assert score.score >= 0, entry.name
        assert "version:nlgmetrics-" in score.signature.format(), entry.name
        scored.append(entry.name)
    # The core install alone scores the sacrebleu family, ROUGE, CIDEr, the WER family and PARENT.
    assert {"bleu", "chrf", "ter", "rouge", "cider", "wer", "cer", "parent"} <= set(scored)


def test_streaming_and_merging_work_from_the_wheel():
    predictions, references, _ = _sample()
    bleu = nlgmetrics.BLEU()
    whole = bleu.corpus_score(predictions, references).score
    bleu.reset().update(predictions[:4], references[:4]).update(predictions[4:], references[4:])
    assert bleu.compute().score == whole


def test_the_command_line_scores_and_lists(tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    run = _cli("score", "-i", str(hyp), "-r", str(ref), "-m", "bleu", "chrf", "--format", "json")
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert [round(r["score"], 6) for r in results] == [100.0, 100.0]
    listing = _cli("list")
    assert listing.returncode == 0 and "bleu" in listing.stdout


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="the [report] extra is not installed here")
def test_the_report_is_written(tmp_path):
    predictions, references, _ = _sample()
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(predictions) + "\n", encoding="utf-8")
    ref.write_text("\n".join(r[0] for r in references) + "\n", encoding="utf-8")
    out = tmp_path / "report.html"
    run = _cli("report", "-r", str(ref), "-i", str(hyp), "-m", "bleu", "chrf", "-o", str(out), "--quiet")
    assert run.returncode == 0, run.stderr
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "BLEU" in html


def test_every_compat_and_integration_module_imports():
    names = []
    compat = importlib.util.find_spec("nlgmetrics.compat")
    if compat is not None:
        names += [f"nlgmetrics.compat.{m.name}" for m in pkgutil.iter_modules(compat.submodule_search_locations)]
    for name in names:
        importlib.import_module(name)


@pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="the [pandas] extra is not installed here")
def test_the_pandas_face_gives_the_core_numbers():
    import pandas as pd

    from nlgmetrics.integrations.pandas import score_frame

    predictions, references, _ = _sample()
    frame = pd.DataFrame({"hyp": predictions, "ref": [r[0] for r in references]})
    columns = score_frame(frame, prediction="hyp", references="ref", metrics=["chrf", "ter"])
    assert columns["chrf"].tolist() == nlgmetrics.CHRF().sentence_scores(predictions, [[r[0]] for r in references]).tolist()
    assert columns["ter"].tolist() == nlgmetrics.TER().sentence_scores(predictions, [[r[0]] for r in references]).tolist()


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="the [dask] extra is not installed here")
def test_dask_partitions_give_the_local_number():
    import dask
    import dask.bag

    import nlgmetrics.integrations.dask

    predictions, references, _ = _sample()
    bag = dask.bag.from_sequence(list(zip(predictions, references)), npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        bleu, cider = nlgmetrics.integrations.dask.score(bag, [nlgmetrics.BLEU(), nlgmetrics.CIDEr()])
    assert bleu.score == nlgmetrics.BLEU().corpus_score(predictions, references).score
    assert cider.score == nlgmetrics.CIDEr().corpus_score(predictions, references).score


@pytest.mark.skipif(importlib.util.find_spec("tqdm") is None, reason="the [report] extra is not installed here")
def test_progress_chunks_give_the_same_number():
    from nlgmetrics.engines.progress import chunked_stats

    predictions, references, _ = _sample()
    bleu = nlgmetrics.BLEU()
    assert bleu.score_stats(chunked_stats(bleu, predictions, references, chunk_size=3).total()).score == bleu.corpus_score(predictions, references).score
