// Constant memory: the constant cache serves one address per request, so a
// read of a __constant__ table (an LDC) costs one constant-cache request per
// distinct address among the active lanes (ideal 1). Each kernel has one
// line whose lanes read different addresses, so that verify mode can give
// that line the kernel's idc__requests (docs/verify.md). Measured on an H200
// before this file: cst[k] 1, cst[lane] 32, cst[lane / 8] 4 (four adjacent
// words: addresses count, not cache lines), cst[(lane / 16) * 100] 2,
// cst[lane * 32] 32.
#include "harness.cuh"

__constant__ float cst[1024];
__constant__ double cst_d[256];
__constant__ float4 cst_v[64];
struct Params {
  int n;
  float scale;
};
__constant__ Params params;

// A run-time index, the same on every lane: one request (the ideal).
__global__ void c_uniform(float *out, int k) {
  int l = threadIdx.x;
  float v = cst[k]; // expect: load cst 1/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 4/4
}

__global__ void c_lane(float *out) {
  int l = threadIdx.x;
  float v = cst[l]; // expect: load cst 32/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 4/4
}

__global__ void c_four(float *out) {
  int l = threadIdx.x;
  float v = cst[l / 8]; // expect: load cst 4/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 4/4
}

__global__ void c_two(float *out) {
  int l = threadIdx.x;
  float v = cst[(l / 16) * 100]; // expect: load cst 2/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 4/4
}

__global__ void c_stride(float *out) {
  int l = threadIdx.x;
  float v = cst[l * 32]; // expect: load cst 32/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 4/4
}

// Compile-time offsets: operands of the instructions that use them, or one
// LDC with an immediate address; at most one request each. (On one line with
// the store: the compiler attributes such loads to the line that uses them.)
__global__ void c_operand(float *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[4] * params.scale + l;
  // expect: load cst 1/1; load params 1/1; store out 4/4
}

// Only the active lanes count: 8 lanes, 8 addresses.
__global__ void c_some_lanes(float *out) {
  int l = threadIdx.x;
  float v = 0;
  if (l < 8)
    v = cst[l]; // expect: load cst 8/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 4/4
}

// 8-byte reads (LDC.64): 8 distinct doubles.
__global__ void c_double(double *out) {
  int l = threadIdx.x;
  double v = cst_d[l / 4]; // expect: load cst_d 8/1
  out[blockIdx.x * 32 + l] = v; // expect: store out 8/8
}

// A float4 is two LDC.64 (offsets 0 and 8), each reading 4 addresses. The
// read and the store share a line: nvcc places the LDCs of a float4 copied
// to a local variable on the line that uses it (measured on an H200).
__global__ void c_float4(float4 *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst_v[l / 8]; // expect: load cst_v 4/1; store out 16/16
}

// A loop: every iteration's LDC reads 32 addresses, 128 bytes apart.
__global__ void c_loop(float *out, int n) {
  int l = threadIdx.x;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += cst[j * 32 + l]; // expect: load cst 32/1
  out[blockIdx.x * 32 + l] = s; // expect: store out 4/4
}

int main() {
  const int blocks = 64, n = blocks * 32;
  float *out = sample::alloc<float>(n);
  double *out_d = sample::alloc<double>(n);
  float4 *out_v = sample::alloc<float4>(n);
  const double bytes = n * sizeof(float);
  sample::run("c_uniform", bytes, [&] { c_uniform<<<blocks, 32>>>(out, 3); });
  sample::run("c_lane", bytes, [&] { c_lane<<<blocks, 32>>>(out); });
  sample::run("c_four", bytes, [&] { c_four<<<blocks, 32>>>(out); });
  sample::run("c_two", bytes, [&] { c_two<<<blocks, 32>>>(out); });
  sample::run("c_stride", bytes, [&] { c_stride<<<blocks, 32>>>(out); });
  sample::run("c_operand", bytes, [&] { c_operand<<<blocks, 32>>>(out); });
  sample::run("c_some_lanes", bytes, [&] { c_some_lanes<<<blocks, 32>>>(out); });
  sample::run("c_double", 2 * bytes, [&] { c_double<<<blocks, 32>>>(out_d); });
  sample::run("c_float4", 4 * bytes, [&] { c_float4<<<blocks, 32>>>(out_v); });
  sample::run("c_loop", bytes, [&] { c_loop<<<blocks, 32>>>(out, 8); });
  cudaFree(out);
  cudaFree(out_d);
  cudaFree(out_v);
  return 0;
}
