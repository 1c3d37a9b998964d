#!/usr/bin/env bash
# CUTLASS's CuTe GEMM tutorials under Nsight Compute: the accesses the
# analysis answers in them since the call memo and the quotient rule for
# symbols of known range (docs/performance.md, docs/real-code.md, twentieth
# session) compared with what the GPU measures, as a user would run them.
#
#   tools/verify/cute_tutorials.sh prepare CORPUS DIR   # here: sources, headers, predictions
#   tools/verify/cute_tutorials.sh measure DIR          # on a GPU machine: build, ncu
#   tools/verify/cute_tutorials.sh compare DIR REC      # offline: against the recordings
#
# CORPUS holds the checkout as tools/survey/survey.py names it
# (NVIDIA+cutlass, at the manifest's commit 7107b05535f8). `prepare` copies
# the tutorials, CUTLASS's include/ and tools/util/include/ (29 MB) and the
# verify scripts into DIR (e.g. build-cute/, which git ignores, so that the
# device tool can carry it) and makes the predictions there with
# build/bin/coalesce-lint (--witness=off: P_<tutorial>.json). `measure`
# builds each tutorial with nvcc -O3 -lineinfo -arch=sm_90 and profiles its
# first launch for each of its two layouts (`N T`: gemm_nt, `T N`: gemm_tn)
# at 1024^3 into $OUT/<tutorial>_<NT|TN> (or DIR/rec without $OUT). The
# accesses lie in CuTe's headers (copy.hpp, axpby.hpp), placed on their
# lines by the binary's inlining chains (docs/verify.md).
#
# Not yet run on a GPU: no machine was lent on 2026-12-08 when it was
# written; the predictions it would compare are in docs/real-code.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lint=${COALESCE_LINT:-$root/build/bin/coalesce-lint}
TUTORIALS=${TUTORIALS:-"sgemm_1"}
SIZES="1024 1024 1024"
INCLUDES=(-Iexamples/cute/tutorial -Iinclude -I. -Itools/util/include)

usage() {
  sed -n '7,9p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

[ $# -ge 2 ] || usage
case "$1" in
prepare)
  [ $# -eq 3 ] || usage
  src="$2/NVIDIA+cutlass"
  dir=$3
  [ -d "$src/include/cute" ] || { echo "no CUTLASS checkout at $src" >&2; exit 1; }
  mkdir -p "$dir/src/examples/cute/tutorial" "$dir/src/tools/util" "$dir/verify"
  cp -r "$src/include" "$dir/src/"
  cp -r "$src/tools/util/include" "$dir/src/tools/util/"
  cp "$root"/tools/verify/*.py "$dir/verify/"
  for t in $TUTORIALS; do
    cp "$src/examples/cute/tutorial/$t.cu" "$dir/src/examples/cute/tutorial/"
    (cd "$dir/src" && "$lint" --format=json --exit-zero --witness=off \
      "examples/cute/tutorial/$t.cu" -- "${INCLUDES[@]}" > "../P_$t.json")
  done
  ;;
measure)
  dir=$(cd "$2" && pwd)
  out=${OUT:-$dir/rec}
  cd "$dir/src"
  for t in $TUTORIALS; do
    nvcc -O3 -lineinfo -arch=sm_90 -std=c++17 "${INCLUDES[@]}" \
      "examples/cute/tutorial/$t.cu" -o "$t"
    for trans in "N T" "T N"; do
      tag=${trans// /}
      python3 ../verify/coalesce_verify.py --predictions "../P_$t.json" \
        --prebuilt "./$t $SIZES $trans" --launch-count 1 --no-timing \
        --record "$out/${t}_$tag" "examples/cute/tutorial/$t.cu" | tee "$out/${t}_$tag.txt"
    done
  done
  ;;
compare)
  [ $# -eq 3 ] || usage
  dir=$(cd "$2" && pwd)
  rec=$(cd "$3" && pwd)
  cd "$dir/src"
  for t in $TUTORIALS; do
    for tag in NT TN; do
      python3 ../verify/coalesce_verify.py --predictions "../P_$t.json" \
        --measurements "$rec/${t}_$tag" "examples/cute/tutorial/$t.cu"
    done
  done
  ;;
*)
  usage
  ;;
esac
