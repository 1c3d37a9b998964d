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
# coalesce-lint needs libzstd.a; libz.a comes with zlib1g-dev); python3-pip
# (NVIDIA's nvdisasm wheel, below); chromium (the html-report test opens the
# page in headless Chromium, docs/html-report.md). The CUDA toolkit is
# optional: without one the analyzer parses with its built-in minimal CUDA
# header.
#
# The compiler witness (docs/witness.md) compiles each file with the
# toolkit's nvcc and reads the result with nvdisasm. A toolkit without
# nvdisasm (some CUDA 13 installs) gets NVIDIA's nvidia-cuda-nvdisasm wheel
# from PyPI, unpacked into $build/nvdisasm/bin, where CMake finds it and
# builds it in as the default.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${COALESCE_BUILD_DIR:-$root/build}

packages=(
  build-essential cmake ninja-build git python3 python3-jsonschema
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  nlohmann-json3-dev libgtest-dev libbenchmark-dev pre-commit
  libclang-rt-22-dev hyperfine python3-venv libzstd-dev zlib1g-dev python3-pip
  chromium
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

# nvdisasm for the compiler witness, when the toolkit has none.
nvdisasm_wheel="nvidia-cuda-nvdisasm==13.2.86"
cuda_bin=${CUDA_HOME:-/usr/local/cuda}/bin
if [[ -x $cuda_bin/nvcc && ! -x $cuda_bin/nvdisasm && ! -x $build/nvdisasm/bin/nvdisasm ]]; then
  echo "bootstrap: fetching $nvdisasm_wheel (nvdisasm for the compiler witness)"
  tmp=$(mktemp -d)
  if python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "$nvdisasm_wheel"; then
    mkdir -p "$build/nvdisasm/bin"
    python3 - "$tmp" "$build/nvdisasm/bin" <<'PY'
import glob, os, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith("/bin/nvdisasm"))
    out = os.path.join(sys.argv[2], "nvdisasm")
    with z.open(name) as src, open(out, "wb") as dst:
        dst.write(src.read())
    os.chmod(out, 0o755)
PY
  else
    echo "bootstrap: warning: could not fetch $nvdisasm_wheel; the compiler witness is off" >&2
  fi
  rm -rf "$tmp"
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
