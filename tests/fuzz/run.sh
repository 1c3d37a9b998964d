#!/usr/bin/env bash
# Builds the libFuzzer harnesses (build-fuzz/, clang-22, ASan + UBSan) and runs
# them for a given time each, the way docs/fuzzing.md records it.
#
#   tests/fuzz/run.sh [SECONDS] [models|analysis|both]     (default: 1200 both)
#
# The two run side by side, one core each, at nice 10. Seeds: the models
# harness starts from tests/fuzz/regressions/models/; the whole-file harness
# from sample_kernels/ and every .cu under tests/lit/. Corpora and findings go
# to $COALESCE_FUZZ_WORK (default build-fuzz/fuzz-work): corpus-<name>/,
# findings-<name>/ (crash-*, timeout-*, oom-*) and <name>.log.
#
# COALESCE_FUZZ_KNOWN (ModelsFuzzer.cpp) lists findings already reported, so
# the search goes on past them; the default is none (all findings are fixed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${COALESCE_FUZZ_BUILD_DIR:-$root/build-fuzz}
work=${COALESCE_FUZZ_WORK:-$build/fuzz-work}
seconds=${1:-1200}
which=${2:-both}
export COALESCE_FUZZ_KNOWN=${COALESCE_FUZZ_KNOWN-}

if [[ ! -f $build/build.ninja ]]; then
  CC=clang-22 CXX=clang++-22 cmake -S "$root" -B "$build" -G Ninja \
    -DCOALESCE_FUZZ=ON -DCOALESCE_BUILD_TESTS=OFF
fi
ninja -C "$build" coalesce-fuzz-models coalesce-fuzz-analysis

mkdir -p "$work"/{corpus-models,corpus-analysis,findings-models,findings-analysis,seeds-analysis}
cp "$root"/tests/fuzz/regressions/models/* "$work/corpus-models/"
cp "$root"/sample_kernels/*.cu "$root"/sample_kernels/*.cuh "$work/seeds-analysis/"
find "$root/tests/lit" -name '*.cu' -exec cp {} "$work/seeds-analysis/" \;

pids=()
if [[ $which == models || $which == both ]]; then
  nice -n 10 "$build/bin/coalesce-fuzz-models" -fork=1 -ignore_crashes=1 \
    -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$work/findings-models/" "$work/corpus-models" \
    >"$work/models.log" 2>&1 &
  pids+=($!)
fi
if [[ $which == analysis || $which == both ]]; then
  nice -n 10 "$build/bin/coalesce-fuzz-analysis" -fork=1 -ignore_crashes=1 \
    -ignore_timeouts=1 -ignore_ooms=1 -timeout=30 -max_len=20000 \
    -rss_limit_mb=4096 -dict="$root/tests/fuzz/cuda.dict" \
    -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$work/findings-analysis/" "$work/corpus-analysis" \
    "$work/seeds-analysis" >"$work/analysis.log" 2>&1 &
  pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p" || true; done
for name in models analysis; do
  [[ -f $work/$name.log ]] || continue
  echo "== $name: $(grep -E '^#[0-9]+:' "$work/$name.log" | tail -n 1)"
  ls "$work/findings-$name"
done
