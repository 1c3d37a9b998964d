#!/usr/bin/env bash
# Installs everything coalesce-lint needs on Debian 12 (bookworm), then
# configures and builds it in build/. Safe to run again: it installs only
# what is missing and rebuilds only what changed.
#
#   tools/bootstrap.sh [--no-build]
#
# Packages: LLVM/Clang 22 (bookworm-security) for libTooling, clang-tidy and
# lit/FileCheck; nlohmann-json; GoogleTest; Python 3 with jsonschema (SARIF
# validation); pre-commit (hook test); libclang-rt-22-dev (libFuzzer and the
# sanitizers, docs/fuzzing.md) and hyperfine (tools/bench/bench.py);
# python3-venv and libzstd-dev (the wheel: tools/wheel/, a statically linked
# coalesce-lint needs libzstd.a; libz.a comes with zlib1g-dev). The CUDA
# toolkit is optional: without one the analyzer parses with its built-in
# minimal CUDA header.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${COALESCE_BUILD_DIR:-$root/build}

packages=(
  build-essential cmake ninja-build git python3 python3-jsonschema
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  nlohmann-json3-dev libgtest-dev libbenchmark-dev pre-commit
  libclang-rt-22-dev hyperfine python3-venv libzstd-dev zlib1g-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -q
  "${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

[[ ${1:-} == --no-build ]] && exit 0

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
