// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Whole structs copied to and from shared memory. The compiler places shared
// arrays itself, 16-byte aligned, so a copy uses pieces as wide as the
// element's offset allows (up to 16 bytes), whatever the struct's own
// alignment: a 32-byte struct of doubles is two STS.128 (8 wavefronts per
// request, ideal 4: 32 lanes x 16 bytes), a 16-byte struct of floats one
// STS.128 with no conflict (4/4). Through a pointer parameter only the
// struct's alignment is known: four LDG.64. Measured on an H200
// (sample_kernels/struct_copies.cu).

struct D4 { double v, x, y, z; };
struct F4 { float a, b, c, d; };
struct F3 { float x, y, z; };
struct F2 { float x, y; };

__global__ void copy_d4(const D4 *in, D4 *out) {
  __shared__ D4 sh[32];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * 32 + t];
  // CHECK-DAG: :[[@LINE-1]]:11: warning: global load from 'in' uses 32 sectors per request (ideal 8)
  // CHECK-DAG: :[[@LINE-2]]:3: warning: shared store to 'sh' has a 2-way bank conflict: 8 wavefronts per request (ideal 4)
  __syncthreads();
  out[blockIdx.x * 32 + t] = sh[31 - t];
  // CHECK-DAG: :[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 8)
  // CHECK-DAG: :[[@LINE-2]]:30: warning: shared load from 'sh' has a 2-way bank conflict: 8 wavefronts per request (ideal 4)
}

// No warning for the shared side: one STS.128 per lane, 4 wavefronts, ideal 4.
__global__ void copy_f4(const F4 *in, F4 *out) {
  __shared__ F4 sh[32];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * 32 + t];
  // CHECK-DAG: :[[@LINE-1]]:11: warning: global load from 'in' uses 16 sectors per request (ideal 4)
  __syncthreads();
  out[blockIdx.x * 32 + t] = sh[31 - t];
  // CHECK-DAG: :[[@LINE-1]]:3: warning: global store to 'out' uses 16 sectors per request (ideal 4)
}
// The D4 store to shared memory is two instructions, the F4 one.
// JSON: "expression": "sh[t]",
// JSON: "instructions_per_access": 2,
// JSON: "expression": "sh[t]",
// JSON: "instructions_per_access": 1,

// 12-byte elements are only 4-byte aligned: three STS, conflict-free.
// Odd 8-byte elements (offsets 16 t + 8) are 8-byte aligned: STS.64.
__global__ void narrower(const F3 *in3, F2 *in2, float *out) {
  __shared__ F3 s3[32];
  __shared__ F2 s2[64];
  int t = threadIdx.x;
  s3[t] = in3[blockIdx.x * 32 + t];
  // CHECK-DAG: :[[@LINE-1]]:11: warning: global load from 'in3' uses 12 sectors per request (ideal 4)
  s2[2 * t + 1] = in2[blockIdx.x * 32 + t];
  // CHECK-DAG: :[[@LINE-1]]:19: warning: global load from 'in2' uses 8 sectors per request (ideal 4)
  // CHECK-DAG: :[[@LINE-2]]:3: warning: shared store to 's2' has a 2-way bank conflict: 4 wavefronts per request (ideal 2)
  __syncthreads();
  out[t] = s3[t].x + s2[t].y;
  // CHECK-DAG: :[[@LINE-1]]:22: warning: shared load from 's2' has a 2-way bank conflict: 2 wavefronts per request (ideal 1)
}
