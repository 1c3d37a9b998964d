#!/usr/bin/env bash
# The wheel's CI check: builds the wheel from a copy of this checkout, installs
# it into a fresh virtual environment and checks it (tests/wheel/test_wheel.py):
# same output as the CMake build on sample_kernels/ with no LLVM on PATH, in
# LD_LIBRARY_PATH or (in a private mount namespace) on disk; ldd shows glibc
# only; pre-commit installs the hook from the wheel and, with
# `pre-commit try-repo`, from source.
#
#   tools/wheel/build_and_check.sh [--cmake-lint BIN] [--work DIR]
#
# BIN: the CMake build's coalesce-lint to compare with (default
# build/bin/coalesce-lint). DIR: where the copy, the wheel (DIR/dist) and the
# tools environment go (default: a temporary directory, removed afterwards).
# The copy holds the tracked and untracked, not ignored, files: what you
# would commit. Prints the time of each step; ctest runs it as the test
# `wheel` (label wheel).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cmake_lint=$root/build/bin/coalesce-lint
work=
while (($#)); do
  case $1 in
    --cmake-lint) cmake_lint=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "usage: $0 [--cmake-lint BIN] [--work DIR]" >&2; exit 2 ;;
  esac
done
[[ -x $cmake_lint ]] || { echo "build_and_check: no CMake build at $cmake_lint (tools/bootstrap.sh)" >&2; exit 2; }
if [[ -z $work ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
start=$SECONDS

# The sources, as a git repository (pre-commit try-repo needs one).
src=$work/src
rm -rf "$src" "$work/dist"
mkdir -p "$src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
  xargs -0 cp --parents -t "$src")
git -C "$src" init -q
git -C "$src" add -A
git -C "$src" -c user.name=coalesce-ci -c user.email=ci@example.invalid -c commit.gpgsign=false \
  commit -q -m "coalesce-lint sources for the wheel check"

# ccache serves pre-commit's builds from the wheel's only if they agree on
# what it hashes besides the sources: the compiler's name (scikit-build-core
# otherwise takes Python's, which differs between a pyenv and Debian's
# python3) and the locale variables.
export CXX=${CXX:-c++} LC_ALL=C

echo "--- building the wheel"
t=$SECONDS
# ccache hashes paths inside the copy relative to the build directory: the
# objects serve the clone that pre-commit makes of it, and the next run.
CCACHE_BASEDIR=$work "$src/tools/wheel/build_wheel.sh" --tools "$work/tools" "$work/dist"
echo "    $((SECONDS - t)) s"

python3 "$root/tests/wheel/test_wheel.py" \
  --wheel "$(ls "$work"/dist/coalesce_lint-*.whl)" --cmake-lint "$cmake_lint" \
  --project "$root" --hook-repo "$src" --built-from "$src"
echo "build_and_check: $((SECONDS - start)) s in all"
