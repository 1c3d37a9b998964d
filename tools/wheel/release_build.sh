#!/usr/bin/env bash
# The release build of the wheel for this machine's architecture, as the
# release workflow runs it (.github/workflows/release-wheels.yml: x86-64 and
# aarch64, each in a debian:bookworm container) and as it runs here:
#
#   tools/wheel/release_build.sh [--tag vX.Y.Z] [--out DIR]     (default DIR: dist/)
#
# 1. set-up: tools/bootstrap.sh --no-build (Debian 12's packages, LLVM/Clang
#    22 with its static libraries included; installs only what is missing,
#    as root or through sudo);
# 2. the wheel: tools/wheel/build_wheel.sh (pip wheel, auditwheel repair:
#    manylinux_2_36_<arch> on Debian 12);
# 3. the smoke test: tests/wheel/smoke_test.py installs it into a fresh
#    virtual environment and runs it with no LLVM visible;
# 4. the version: the CMake project's, the wheel's (name and metadata) and
#    `--version`'s agree, and equal the tag when there is one (--tag, or in
#    the workflow the pushed tag), checked before the build as well.
#
# DIR receives the wheel, which is also the last line printed. Architecture-
# neutral: it builds for `uname -m`. Nothing is uploaded; the workflow does
# that.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tag=
# In GitHub Actions, a tag push names its tag.
if [[ ${GITHUB_REF_TYPE:-} == tag ]]; then
  tag=$GITHUB_REF_NAME
fi
out=$root/dist
while (($#)); do
  case $1 in
    --tag) tag=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--tag vX.Y.Z] [--out DIR]" >&2; exit 2 ;;
  esac
done

fail() { echo "release_build: $*" >&2; exit 1; }

version=$(sed -n 's/^project(coalesce-lint VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
[[ -n $version ]] || fail "no project(coalesce-lint VERSION ...) in CMakeLists.txt"
if [[ -n $tag && $tag != "v$version" ]]; then
  fail "the tag $tag is not v$version, the version in CMakeLists.txt"
fi
arch=$(uname -m)
echo "release_build: coalesce-lint $version for $arch${tag:+ (tag $tag)}"
start=$SECONDS

echo "--- set-up: tools/bootstrap.sh --no-build"
t=$SECONDS
"$root/tools/bootstrap.sh" --no-build
echo "    $((SECONDS - t)) s"

echo "--- building the wheel: tools/wheel/build_wheel.sh"
t=$SECONDS
# A directory of its own, so that the one wheel in it is this build's.
built=$(mktemp -d)
trap 'rm -rf "$built"' EXIT
"$root/tools/wheel/build_wheel.sh" "$built"
wheels=("$built"/coalesce_lint-*.whl)
((${#wheels[@]} == 1)) || fail "expected one wheel, got: ${wheels[*]}"
wheel=${wheels[0]}
echo "    $((SECONDS - t)) s"

echo "--- smoke test: tests/wheel/smoke_test.py"
t=$SECONDS
# It checks the wheel's version (name, metadata, --version) against $version,
# which matched the tag above, and hides the tree the wheel was built from.
python3 "$root/tests/wheel/smoke_test.py" --wheel "$wheel" --version "$version" \
  --project "$root" --built-from "$root"
echo "    $((SECONDS - t)) s"

mkdir -p "$out"
cp "$wheel" "$out/"
wheel=$(cd "$out" && pwd)/$(basename "$wheel")
(cd "$out" && sha256sum "$(basename "$wheel")")
echo "release_build: $((SECONDS - start)) s in all"
echo "$wheel"
