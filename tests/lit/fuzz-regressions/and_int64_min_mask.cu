// Found by coalesce-fuzz-models (docs/fuzzing.md): `x & M` negated M in
// int64_t (IntOps.cpp bitopConst), which overflows for M = INT64_MIN; the
// release build then said "the lanes straddle a multiple of
// -9223372036854775808". `x & INT64_MIN` is 0 or INT64_MIN by the sign of
// n + threadIdx.x, which the tool does not know: it says so.
// Under a sanitizer: `build-fuzz/bin/coalesce-fuzz-analysis %s`.
// RUN: %lint --block=32 %s | FileCheck %s
// CHECK: :[[@LINE+4]]:3: remark: global store to 'p' cannot be predicted: '&' with INT64_MAX or INT64_MIN (a mask at the sign bit) on a value not known per lane
// CHECK-NOT: straddle

__global__ void mask_min(char *p, long long n) {
  p[(n + threadIdx.x) & (-9223372036854775807LL - 1)] = 0;
}
