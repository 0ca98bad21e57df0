#!/usr/bin/env bash
# Set up, then score the bundled E2E sample with every metric available.
set -euo pipefail
cd "$(dirname "$0")/.."
# [meteor]: METEOR 1.5 reads its synonym and paraphrase tables from the pycocoevalcap package.
scripts/setup.sh meteor >&2
# shellcheck disable=SC1091
. .venv/bin/activate
# Text metrics, and PARENT, which also reads each row's "table" (the meaning representation).
metrics=$(python -c "import nlgmetrics; print(' '.join(e.name for e in nlgmetrics.available() if e.kind in ('text', 'data-to-text')))")
# The E2E sample has several references per input: the WER family then scores against
# the closest one (it takes a single reference by default).
set -x
nlgmetrics score --jsonl examples/e2e/sample.jsonl --edit-multi-ref best -m $metrics
