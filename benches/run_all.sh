#!/usr/bin/env bash
# Run every side-by-side benchmark once, sequentially, and collect their markdown output
# in benches/results/. BENCHMARKS.md is assembled from these files.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
. .venv/bin/activate
mkdir -p benches/results
run() {
    local name=$1; shift
    echo "== $name: python $*" >&2
    { echo "<!-- python $* -->"; python "$@"; } > "benches/results/$name.md" 2> "benches/results/$name.log" || echo "   $name failed (see benches/results/$name.log)" >&2
}
run speed benches/bench_speed.py --repeat 3
run startup benches/bench_startup.py --markdown
run bleu benches/bench_bleu.py --sizes 10000 100000
run chrf benches/bench_chrf.py --synthetic 100000
run ter benches/bench_ter.py --synthetic 10000 --peer-synthetic 2000 --peer-rows 8
run rouge benches/bench_rouge.py --n 100000 --peer-n 5000
run wer benches/bench_wer.py --segments 100000
run nist benches/bench_nist.py --segments 20000
run nltk_bleu benches/bench_nltk_bleu.py --systems 4 --repeat 1
run caption benches/bench_caption.py --repeat 1
run meteor benches/bench_meteor.py
run diversity benches/bench_diversity.py
run significance benches/bench_significance.py
run classification benches/bench_classification.py --n 10000000 --stream-n 200000000 --exact-stream-n 20000000
run torchmetrics benches/bench_torchmetrics.py --systems 2 --slow-segments 1000
run parent benches/bench_parent.py --systems tgen zhang  # needs NLGMETRICS_PARENT_REFERENCE (a google-research/language checkout)
run scale benches/bench_scale.py --n 10000000 --dask-n 500000
run mbr benches/bench_mbr.py --candidates 1024
run bertscore benches/bench_bertscore.py --n 1000
python benches/assemble.py
