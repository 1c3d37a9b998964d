// RUN: %lint --block=256 %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --block=256 --format=json %s | FileCheck %s --check-prefix=JSON
// The arithmetic of a register tile (`acc[m * TN + n] += a[m] * b[n]` in
// loops the compiler unrolls) issues no memory request and changes no value
// the analysis tracks: the interpreter skips it (interp/Inert.cpp). These
// kernels pin that skipping changes nothing: the loads and stores around
// it, the accesses inside such arithmetic that are requests (a global
// operand, a per-thread array indexed at run time), and a float that
// becomes an index.

// A tile as in tiled GEMMs: shared loads into registers, the outer product
// through pointers to the register arrays, the tile stored at the end.
template <int TM, int TN>
__device__ void outer_product(const float *a, const float *b, float *acc) {
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      acc[m * TN + n] += a[m] * b[n];
}

template <int TM, int TN>
__global__ void tile(const float *A, const float *B, float *C, int K) {
  __shared__ float As[8 * 256];
  __shared__ float Bs[8 * 256];
  float acc[TM * TN] = {0.0f};
  float a[TM], b[TN];
  for (int k = 0; k < K; k += 8) {
    for (int d = 0; d < 8; ++d) {
      for (int m = 0; m < TM; ++m)
        a[m] = As[d * 256 + (threadIdx.x / 16) * TM + m];
      for (int n = 0; n < TN; ++n)
        b[n] = Bs[d * 256 + (threadIdx.x % 16) * TN + n];
      // A row of TN floats per lane in a loop unrolled completely: two LDS.128.
      // CHECK: :[[@LINE-2]]:16: warning: tile<8, 8>: shared load from 'Bs' has a 2-way bank conflict: 8 wavefronts per request (ideal 4)
      outer_product<TM, TN>(a, b, acc);
    }
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(threadIdx.x / 16 * TM + m) * 1024 + threadIdx.x % 16 * TN + n] = acc[m * TN + n];
      // CHECK: :[[@LINE-1]]:7: warning: tile<8, 8>: global store to 'C' uses 32 sectors per request (ideal 4)
}
template __global__ void tile<8, 8>(const float *, const float *, float *, int);
// JSON: "expression": "As[d * 256 + (threadIdx.x / 16) * TM + m]"
// JSON: "verdict": "ok"

// A loop that runs no iteration the first time it is reached.
__global__ void triangle(float *out) {
  float acc[8] = {};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < i; ++j)
      acc[j] += 1.0f;
  out[threadIdx.x] = acc[0] + acc[7];
}
// JSON: "expression": "out[threadIdx.x]"
// JSON: "kernel": "triangle"
// JSON: "verdict": "ok"

// Negative: an operand in global memory makes the statement a request.
__global__ void reads_global(const float *in, float *out) {
  float acc[4] = {};
  for (int i = 0; i < 4; ++i)
    acc[i] += in[threadIdx.x * 32 + i] * 2.0f;
  // CHECK: :[[@LINE-1]]:15: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart
  out[threadIdx.x] = acc[0];
}

// Negative: a per-thread array of 512 bytes indexed at run time is in
// local memory: its load and store are requests (all lanes at one offset:
// 4 sectors per request, the ideal).
__global__ void big_runtime(float *out, int k) {
  float big[128] = {};
  for (int i = 0; i < 4; ++i)
    big[k + i] += 1.0f;
  out[threadIdx.x] = big[0];
}
// JSON: "expression": "big[k + i]"
// JSON: "op": "load"
// JSON: "requests_per_warp": 4
// JSON: "sectors_per_request": 4
// JSON: "space": "local"
// JSON: "expression": "big[k + i]"
// JSON: "op": "store"
// JSON: "space": "local"

// Negative: a float accumulated in a loop and used as an index stays
// unknown, for the reason it had before.
__global__ void float_index(const float *in, float *out) {
  float s = 0.0f;
  for (int i = 0; i < 4; ++i)
    s += 0.5f * i;
  out[(int)s + threadIdx.x] = in[threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted: index computed from a floating-point value `s`
}
