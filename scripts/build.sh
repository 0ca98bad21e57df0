#!/usr/bin/env bash
# Build the release artefacts into dist/: abi3 wheels (CPython >= 3.11) tagged manylinux2014
# (glibc >= 2.17, so Ubuntu 18.04+, RHEL/Rocky 7+ and most HPC clusters) for x86_64 and
# aarch64, cross-compiled with zig from the `ziglang` package on PyPI (no container), and the
# sdist. `auditwheel show` must confirm the manylinux_2_17 tag of every wheel.
#   scripts/build.sh                              # both architectures and the sdist
#   scripts/build.sh x86_64-unknown-linux-gnu     # one target (and the sdist)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)
venv=.venv-build
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q "maturin>=1.5,<2" "ziglang>=0.13" "auditwheel>=6"
zig_dir=$("$venv/bin/python" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))')
export PATH="$PWD/$venv/bin:$zig_dir:$PATH"
mkdir -p dist
for target in "${targets[@]}"; do
    # The standard library for another architecture comes with the one toolchain's rustup.
    rustup target list --installed | grep -qx "$target" || rustup target add "$target"
    maturin build --release --zig --compatibility manylinux2014 --target "$target" --out dist
done
maturin sdist --out dist
version=$("$venv/bin/python" -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
for target in "${targets[@]}"; do
    arch=${target%%-*}
    wheel=$(ls dist/nlgmetrics-"$version"-cp311-abi3-manylinux*"$arch".whl)
    auditwheel show "$wheel" | tr -d '\n' | grep -q "consistent with the following platform tag:.*\"manylinux_2_17_$arch\"" \
        || { echo "build.sh: $wheel is not manylinux_2_17_$arch:" >&2; auditwheel show "$wheel" >&2; exit 1; }
    echo "build.sh: $wheel (manylinux_2_17_$arch)"
done
ls dist/nlgmetrics-"$version".tar.gz
