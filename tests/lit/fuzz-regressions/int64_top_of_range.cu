// Found by coalesce-fuzz-models (docs/fuzzing.md): countSectors computed
// `ByteAddr + BytesPerLane` in int64_t, which overflows (undefined behaviour)
// for a lane whose byte offset is near INT64_MAX. Only a sanitizer sees it:
// run `build-fuzz/bin/coalesce-fuzz-analysis tests/lit/fuzz-regressions/*.cu`.
// Here: the analysis finishes (exit 0 with --exit-zero).
// RUN: %lint --block=32 %s

__global__ void top_of_range(char *p) {
  p[9223372036854775807LL - threadIdx.x] = 0;
}
