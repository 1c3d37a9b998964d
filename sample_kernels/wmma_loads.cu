// requires: CUDA toolkit headers
// wmma fragments loaded from and stored to shared memory, with two leading
// dimensions. On sm_90 nvcc loads a 16x16 half fragment with one LDSM.x4
// whose lanes give rows (lane % 16) * ldm + (lane / 16) * 8 (ldm 16: 8
// wavefronts, ldm 24: 4) and stores a float accumulator with four STS.64;
// the analysis does not model the fragments' layout yet: unknown.
#include <cuda_fp16.h>
#include <mma.h>
#include "harness.cuh"

// wmma fragments loaded from shared memory with two leading dimensions.
__global__ void wmma_loads(float *out) {
  using namespace nvcuda;
  __shared__ __align__(128) __half a16[16 * 16];
  __shared__ __align__(128) __half a24[16 * 24];
  __shared__ __align__(128) float c[16 * 16];
  int t = threadIdx.x;
  for (int k = t; k < 16 * 24; k += blockDim.x) {
    a24[k] = __float2half(k); // expect: store a24 1/1
    if (k < 256)
      a16[k] = __float2half(k); // expect: store a16 1/1
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a16, 16); // expect: call a16 unknown
  wmma::load_matrix_sync(fb, a24, 24); // expect: call a24 unknown
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major); // expect: call c unknown
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = c[t % 256]; // expect: load c 1/1; store out 4/4
}

int main() {
  const int blocks = 256;
  float *outf = sample::alloc<float>(blocks * 32);
  sample::run("wmma_loads", blocks * 32 * 4.0, [&] { wmma_loads<<<blocks, 32>>>(outf); });
  return 0;
}
