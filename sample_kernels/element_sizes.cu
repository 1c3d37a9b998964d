// Seed 001's data-type table in sectors: a coalesced warp moves 32 x sizeof(T)
// bytes (char 1 sector, half 2, float 4, double and float2 8, float4 and
// double2 16 with one 128-bit instruction); at stride 2 the span doubles
// (char: 2, half: 4, float: 8, double: 16, float4: 32).
#include "harness.cuh"
#include <cuda_fp16.h>

template <class T>
__global__ void copy_elems(const T *__restrict__ in, T *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  // expect(copy_elems<char>): load in 1/1; store out 1/1
  // expect(copy_elems<__half>): load in 2/2; store out 2/2
  // expect(copy_elems<float>): load in 4/4; store out 4/4
  // expect(copy_elems<double>): load in 8/8; store out 8/8
  // expect(copy_elems<float2>): load in 8/8; store out 8/8
  // expect(copy_elems<float4>): load in 16/16; store out 16/16
  // expect(copy_elems<double2>): load in 16/16; store out 16/16
}

template <class T>
__global__ void copy_stride2(const T *__restrict__ in, T *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
  // expect(copy_stride2<char>): load in 2/1; store out 1/1
  // expect(copy_stride2<__half>): load in 4/2; store out 2/2
  // expect(copy_stride2<float>): load in 8/4; store out 4/4
  // expect(copy_stride2<double>): load in 16/8; store out 8/8
  // expect(copy_stride2<float4>): load in 32/16; store out 16/16
}

// Seed 001's vectorized copy: one 128-bit load and store per thread.
__global__ void vectorized_copy(const float4 *__restrict__ input,
                                float4 *__restrict__ output, int n4) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n4) {
    output[idx] = input[idx]; // expect: store output 16/16; load input 16/16
  }
}

template <class T> void both(const char *Name, void *in, void *out, int n) {
  char L[64];
  std::snprintf(L, sizeof L, "copy_elems<%s>", Name);
  sample::run(L, 2.0 * n * sizeof(T), [&] { copy_elems<T><<<n / 256, 256>>>((const T *)in, (T *)out); });
}

template <class T> void strided(const char *Name, void *in, void *out, int n) {
  char L[64];
  std::snprintf(L, sizeof L, "copy_stride2<%s>", Name);
  sample::run(L, 2.0 * n * sizeof(T), [&] { copy_stride2<T><<<n / 256, 256>>>((const T *)in, (T *)out); });
}

int main() {
  const int n = 1 << 20;
  void *in = sample::alloc<double2>(2 * size_t(n));
  void *out = sample::alloc<double2>(n);
  both<char>("char", in, out, n);
  both<__half>("half", in, out, n);
  both<float>("float", in, out, n);
  both<double>("double", in, out, n);
  both<float2>("float2", in, out, n);
  both<float4>("float4", in, out, n);
  both<double2>("double2", in, out, n);
  strided<char>("char", in, out, n);
  strided<__half>("half", in, out, n);
  strided<float>("float", in, out, n);
  strided<double>("double", in, out, n);
  strided<float4>("float4", in, out, n);
  sample::run("vectorized_copy", 2.0 * n * sizeof(float4), [&] {
    vectorized_copy<<<n / 256, 256>>>((const float4 *)in, (float4 *)out, n);
  });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
