#!/usr/bin/env bash
# Set up with the test dependencies, then run the Rust core's tests and the Python suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# The HTML report tests open reports in headless Chromium (Debian's package).
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium fonts-dejavu-core
fi
# The differential tests run the original programs: Stanford's PTBTokenizer jar (pycocoevalcap's).
if ! command -v java >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q default-jre-headless
fi
export NLGMETRICS_REQUIRE_BROWSER=1
scripts/setup.sh test
# shellcheck disable=SC1091
. .venv/bin/activate
cargo test --release -p nlgmetrics-core
python -m pytest "$@"
