#!/usr/bin/env bash
# Create .venv (if needed) and install nlgmetrics from this checkout, building the Rust
# core. Usage: scripts/setup.sh [extra,...]   e.g. scripts/setup.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q "maturin>=1.5,<2"
# Build the extension in release mode and install the package in editable mode.
maturin develop --release -q ${extras:+--extras "$extras"}
