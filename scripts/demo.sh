#!/usr/bin/env bash
# Set up, then score the bundled E2E sample (examples/e2e: a system's outputs for 10 inputs,
# 6 to 39 human references each, and each input's meaning representation) with every metric
# that fits it, and write an HTML report to open in a browser (demo-output/report.html).
set -euo pipefail
cd "$(dirname "$0")/.."
# [meteor]: METEOR 1.5 reads its synonym and paraphrase tables from the pycocoevalcap package.
# [report]: the HTML report's plots (matplotlib).
scripts/setup.sh meteor,report >&2
# shellcheck disable=SC1091
. .venv/bin/activate
# The metrics a data-to-text paper reports on E2E: the E2E NLG Challenge's five (BLEU, NIST,
# METEOR, ROUGE, CIDEr), chrF++, TER, PARENT (which also reads each input's meaning
# representation, the "table") and the outputs' diversity, among those this install can
# build (the others are named on stderr with the extra they need). The QA, LLM and speech
# scorers read the same shapes but answer other questions; `nlgmetrics list` shows them all.
fits="bleu nist meteor rouge cider chrf++ ter parent distinct self_bleu"
metrics=$(python scripts/buildable_metrics.py --among "$fits" text data-to-text)
# rougeLsum is left out: it splits sentences at newlines, and these one-line texts have none
# (it would equal rougeL).
echo "== scores of the bundled E2E sample (examples/e2e/sample.jsonl)" >&2
set -x
# shellcheck disable=SC2086
nlgmetrics score --jsonl examples/e2e/sample.jsonl --rouge-types rouge1 rouge2 rougeL -m $metrics
{ set +x; } 2>/dev/null

# The report reads one reference per line per file: the first 6 references of each input
# (every input has at least 6), so its numbers differ a little from the scores above.
out=demo-output
mkdir -p "$out"
n_refs=$(python - "$out" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open("examples/e2e/sample.jsonl", encoding="utf-8")]
n = min(len(row["references"]) for row in rows)
for k in range(n):
    with open(f"{sys.argv[1]}/reference-{k + 1}.txt", "w", encoding="utf-8") as f:
        f.writelines(row["references"][k] + "\n" for row in rows)
print(n)
EOF
)
refs=()
for k in $(seq 1 "$n_refs"); do refs+=(-r "$out/reference-$k.txt"); done
echo "== HTML report (intervals, per-segment scores, the segments that differ most)" >&2
set -x
nlgmetrics report -i examples/e2e/baseline-output.txt --names TGen "${refs[@]}" \
    -m bleu chrf++ meteor rouge ter cider --rouge-types rouge1 rouge2 rougeL \
    --title "E2E sample: the TGen baseline, $n_refs references per input" --quiet -o "$out/report.html"
{ set +x; } 2>/dev/null
echo
echo "Open the report in a browser: $PWD/$out/report.html"
