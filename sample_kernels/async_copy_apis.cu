// requires: CUDA toolkit headers
// The copy APIs of libcu++ (cuda::memcpy_async with a per-thread pipeline) and
// of cooperative groups (the block copies a tile together): both compile to
// one LDGSTS per thread (4 bytes here: the alignment the compiler can prove),
// through the inline PTX of the toolkit's headers, and cost what the
// equivalent cp.async costs (sample_kernels/async_copies.cu).
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include "harness.cuh"

namespace cg = cooperative_groups;

// libcu++: a per-thread pipeline.
__global__ void cuda_memcpy_async(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[t], &in[i], sizeof(float), pipe); // expect: load in 4/4; store s 1/1
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[i] = s[255 - t]; // expect: load s 1/1; store out 4/4
  pipe.consumer_release();
}

// Cooperative groups: the block copies 256 floats together.
__global__ void cg_memcpy_async(const float *in, float *out) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, in + blockIdx.x * 256, sizeof(float) * 256); // expect: load in 4/4; store s 1/1
  cg::wait(block);
  int t = threadIdx.x;
  out[blockIdx.x * 256 + t] = s[255 - t]; // expect: load s 1/1; store out 4/4
}

int main() {
  const int blocks = 512, n = blocks * 256;
  float *in = sample::alloc<float>(n), *out = sample::alloc<float>(n);
  sample::run("cuda_memcpy_async", n * 8.0, [&] { cuda_memcpy_async<<<blocks, 256>>>(in, out); });
  sample::run("cg_memcpy_async", n * 8.0, [&] { cg_memcpy_async<<<blocks, 256>>>(in, out); });
  return 0;
}
