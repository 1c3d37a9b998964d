// Found by coalesce-fuzz-models (docs/fuzzing.md): `x & M` computed M + 1 in
// int64_t (IntOps.cpp bitopConst), which overflows for M = INT64_MAX; the
// release build then reported "bit operation with a negative mask" for a
// positive mask.
// `x & INT64_MAX` is x, but n may be negative: the tool does not model the
// sign bit, says so, and does not call the mask negative.
// Under a sanitizer: `build-fuzz/bin/coalesce-fuzz-analysis %s`.
// RUN: %lint --block=32 %s | FileCheck %s
// CHECK: :[[@LINE+3]]:3: remark: global store to 'p' cannot be predicted: '&' with INT64_MAX or INT64_MIN (a mask at the sign bit) on a value not known per lane

__global__ void mask_max(char *p, long long n) {
  p[(n + threadIdx.x) & 0x7fffffffffffffffLL] = 0;
}
