// requires: CUDA toolkit headers
// wmma fragments loaded from and stored to shared memory, with two leading
// dimensions. On sm_90 nvcc loads a 16x16 half fragment with one LDSM.x4
// whose lanes give rows (lane % 16) * ldm + (lane / 16) * 8 (ldm 16: 8
// wavefronts, ldm 24: 4) and stores a float accumulator row major with four
// STS.64 at the mma C fragment's layout (ldm 16: 4 wavefronts each, ideal 2).
// One fragment load per kernel: Nsight Compute puts the LDSM on a line of
// the toolkit's mma.hpp, which verify mode gives back to the one load of
// the kernel that can have issued it.
#include <cuda_fp16.h>
#include <mma.h>
#include "harness.cuh"

using namespace nvcuda;

// matrix_a, row major, ldm 16: rows 32 bytes apart, two per bank group.
__global__ void wmma_load_a(float *out) {
  __shared__ __align__(128) __half a16[16 * 16];
  __shared__ __align__(128) float c[16 * 16];
  int t = threadIdx.x;
  for (int k = t; k < 16 * 16; k += blockDim.x)
    a16[k] = __float2half(k); // expect: store a16 1/1
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::fill_fragment(fb, __float2half(1.0f));
  wmma::load_matrix_sync(fa, a16, 16); // expect: load a16 8/4
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major); // expect: store c 4/2
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = c[t % 256]; // expect: load c 1/1; store out 4/4
}

// matrix_b, column major, ldm 24: rows 48 bytes apart, no conflict.
__global__ void wmma_load_b(float *out) {
  __shared__ __align__(128) __half b24[16 * 24];
  __shared__ __align__(128) float c[16 * 16];
  int t = threadIdx.x;
  for (int k = t; k < 16 * 24; k += blockDim.x)
    b24[k] = __float2half(k); // expect: store b24 1/1
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::fill_fragment(fa, __float2half(1.0f));
  wmma::load_matrix_sync(fb, b24, 24); // expect: load b24 4/4
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major); // expect: store c 4/2
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = c[t % 256]; // expect: load c 1/1; store out 4/4
}

int main() {
  const int blocks = 256;
  float *outf = sample::alloc<float>(blocks * 32);
  sample::run("wmma_load_a", blocks * 32 * 4.0, [&] { wmma_load_a<<<blocks, 32>>>(outf); });
  sample::run("wmma_load_b", blocks * 32 * 4.0, [&] { wmma_load_b<<<blocks, 32>>>(outf); });
  return 0;
}
