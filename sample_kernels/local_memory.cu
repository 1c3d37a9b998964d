// Local memory: per-thread arrays indexed at run time, which the compiler
// keeps in local memory (ptxas -v reports their stack frame). The hardware
// interleaves the lanes' private arrays by 4-byte words, so a request costs
// 4 sectors per word when every lane uses the same offset (the ideal) and up
// to a sector per lane when the offsets differ (model/LocalModel.h). Each
// kernel fills its array with a run-time stride (one STL per element, as
// the compiler cannot merge them), then reads it once. Measured on an H200
// before this file: t[k] float 4, double 8, float4 16, char 4; t[lane % 4 +
// k] 16; t[lane + k] 32; double t[lane % 2 + k] 16; 8 active lanes 1.
#include "harness.cuh"

__global__ void l_uniform(float *out, int n, int s, int k) {
  float t[256];
  for (int i = 0; i < n; ++i)
    t[i * s] = threadIdx.x + i; // expect: store t 4/4
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[k]; // expect: load t 4/4; store out 4/4
}

__global__ void l_four_words(float *out, int n, int s, int k) {
  float t[256];
  for (int i = 0; i < n; ++i)
    t[i * s] = threadIdx.x + i; // expect: store t 4/4
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[threadIdx.x % 4 + k]; // expect: load t 16/4; store out 4/4
}

__global__ void l_per_lane(float *out, int n, int s, int k) {
  float t[256];
  for (int i = 0; i < n; ++i)
    t[i * s] = threadIdx.x + i; // expect: store t 4/4
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[threadIdx.x % 32 + k]; // expect: load t 32/4; store out 4/4
}

__global__ void l_double_pairs(double *out, int n, int s, int k) {
  double t[128];
  for (int i = 0; i < n; ++i)
    t[i * s] = threadIdx.x + i; // expect: store t 8/8
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[threadIdx.x % 2 + k]; // expect: load t 16/8; store out 8/8
}

__global__ void l_float4(float4 *out, int n, int s, int k) {
  float4 t[64];
  for (int i = 0; i < n; ++i)
    t[i * s] = make_float4(threadIdx.x, i, 1, 2); // expect: store t 16/16
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[k]; // expect: load t 16/16; store out 16/16
}

__global__ void l_some_lanes(float *out, int n, int s, int k) {
  float t[256];
  for (int i = 0; i < n; ++i)
    t[i * s] = threadIdx.x + i; // expect: store t 4/4
  if (threadIdx.x % 32 < 8)
    out[blockIdx.x * blockDim.x + threadIdx.x] = t[k]; // expect: load t 1/1; store out 1/1
}

int main(int argc, char **argv) {
  const int blocks = 64, threads = 64, n = blocks * threads;
  float *out = sample::alloc<float>(n);
  double *out_d = sample::alloc<double>(n);
  float4 *out_v = sample::alloc<float4>(n);
  const double bytes = n * sizeof(float);
  sample::run("l_uniform", bytes, [&] { l_uniform<<<blocks, threads>>>(out, 200, 1, 7); });
  sample::run("l_four_words", bytes, [&] { l_four_words<<<blocks, threads>>>(out, 200, 1, 7); });
  sample::run("l_per_lane", bytes, [&] { l_per_lane<<<blocks, threads>>>(out, 200, 1, 7); });
  sample::run("l_double_pairs", 2 * bytes,
              [&] { l_double_pairs<<<blocks, threads>>>(out_d, 100, 1, 7); });
  sample::run("l_float4", 4 * bytes, [&] { l_float4<<<blocks, threads>>>(out_v, 50, 1, 7); });
  sample::run("l_some_lanes", bytes, [&] { l_some_lanes<<<blocks, threads>>>(out, 200, 1, 7); });
  cudaFree(out);
  cudaFree(out_d);
  cudaFree(out_v);
  return 0;
}
