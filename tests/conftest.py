"""Shared fixtures: where the real corpora live (``../shared/corpora`` beside the repo)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

try:  # the smoke suite through an installed wheel runs without hypothesis
    from hypothesis import settings as _hypothesis_settings
except ImportError:  # pragma: no cover
    _hypothesis_settings = None
if _hypothesis_settings is not None:
    # CI draws the same examples on every run (derandomize: the seed comes from each test's
    # name), so a red CI is a defect this machine can reproduce, never a new random draw.
    # NLGMETRICS_HYPOTHESIS=fuzz draws fresh examples each run: scripts/fuzz.sh, before a stop.
    _hypothesis_settings.register_profile("ci", derandomize=True)
    _hypothesis_settings.register_profile("fuzz", derandomize=False)
    _hypothesis_settings.load_profile(os.environ.get("NLGMETRICS_HYPOTHESIS", "ci"))

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"


@pytest.fixture(scope="session")
def corpora() -> Path:
    if not CORPORA.is_dir():
        raise RuntimeError(f"the test corpora are missing: expected {CORPORA} (set NLGMETRICS_SHARED)")
    return CORPORA


def read_lines(path: Path) -> list[str]:
    """Lines split on \\n only and right-stripped, as sacrebleu's CLI reads them."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


@pytest.fixture(scope="session")
def spark():
    """One local Spark session for every Spark test module (a JVM is slow to start)."""
    pytest.importorskip("pyspark")
    import warnings

    from pyspark.sql import SparkSession

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    import signal

    # SparkContext puts its own SIGINT handler in place (it cancels jobs); the session lives
    # for the rest of the run, so later tests of Ctrl-C would see Spark's handler
    previous_sigint = signal.getsignal(signal.SIGINT)
    session = (
        SparkSession.builder.master("local[2]").appName("nlgmetrics-tests")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4").config("spark.driver.bindAddress", "127.0.0.1")
        # the address executors send results to: without it a task result over the direct
        # limit (1 MiB, fetched from the driver's block manager) is lost where the host
        # name does not resolve to this address
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    signal.signal(signal.SIGINT, previous_sigint)
    yield session
    session.stop()
