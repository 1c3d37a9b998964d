#!/usr/bin/env bash
# Counts the shared-memory loads nvcc emits for tile_reads.cu in each layout
# (usage: probe.sh [ARCH], default sm_90). Needs nvcc and nvdisasm (the
# toolkit's, or the one tools/bootstrap.sh puts in build/nvdisasm/bin).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
arch=${1:-sm_90}
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
nvdisasm=$(command -v nvdisasm || true)
[[ -x ${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm ]] && nvdisasm=${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm
[[ -z $nvdisasm && -x $root/build/nvdisasm/bin/nvdisasm ]] && nvdisasm=$root/build/nvdisasm/bin/nvdisasm
[[ -n $nvdisasm ]] || { echo "probe.sh: no nvdisasm" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nvcc" --version | tail -1
for s in 0 1 2 3 4; do
  "$nvcc" -arch="$arch" -cubin -O3 -DSWIZZLE=$s -o "$tmp/t$s.cubin" "$here/tile_reads.cu"
  counts=$("$nvdisasm" "$tmp/t$s.cubin" | grep -oE "LDS(\.[0-9A-Z]+)*" | sort | uniq -c |
           awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
  case $s in
    0) name="as written" ;;
    1) name="4-float chunks ^ (row & 7), (b + i) ^ x" ;;
    2) name="8-float chunks ^ ((row >> 2) & 3), (b + i) ^ x" ;;
    3) name="4-float chunks ^ (row & 7), (b ^ x) + i (another layout)" ;;
    4) name="8-float chunks ^ ((row >> 2) & 3), (b ^ x) + i" ;;
  esac
  echo "$name: $counts"
done
