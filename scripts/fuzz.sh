#!/usr/bin/env bash
# Fresh random examples for every property-based test (CI draws the same fixed examples each
# run: tests/conftest.py). Run before a stop; a failure prints the example and a
# @reproduce_failure line: turn it into a plain test beside the property.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
. .venv/bin/activate
mapfile -t files < <(grep -l "^from hypothesis\|^import hypothesis" tests/*.py)
NLGMETRICS_HYPOTHESIS=fuzz python -m pytest "${files[@]}" "$@"
