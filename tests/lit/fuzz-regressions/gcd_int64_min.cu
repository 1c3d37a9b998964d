// Found while reproducing the models fuzzer's findings (docs/fuzzing.md):
// gcd64 negates its arguments, which overflows (undefined behaviour) for a
// symbolic coefficient of INT64_MIN (Poly::symbolicGcd from divRemFloor).
// Only a sanitizer sees it: `build-fuzz/bin/coalesce-fuzz-analysis %s`.
// Here: the analysis finishes.
// RUN: %lint --block=32 %s

__global__ void gcd_min(char *p, long long n) {
  p[(n * (-9223372036854775807LL - 1) + threadIdx.x) / 32] = 0;
}
