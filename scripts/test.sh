#!/usr/bin/env bash
# Set up with the test dependencies, then run the Rust core's tests and the Python suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
# shellcheck disable=SC1091
. .venv/bin/activate
cargo test --release -p nlgmetrics-core
python -m pytest "$@"
