// Shared-memory reductions (the classic sequence): interleaved addressing with
// a divergent `tid % (2*s)` test, interleaved addressing with
// `index = 2 * s * tid` (bank conflicts that grow with s), and sequential
// addressing `sdata[tid] += sdata[tid + s]` (conflict-free). Per-request
// numbers are averages over the loop's iterations and the block's warps;
// warps with no active lane issue no request.
#include "harness.cuh"

__global__ void reduce_interleaved_divergent(const float *g_idata, float *g_odata) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i]; // expect: load g_idata 4/4; store sdata 1/1
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s]; // expect: load sdata 1/1; load sdata 1/1; store sdata 1/1
    }
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0]; // expect: load sdata 1/1; store g_odata 1/1
}

__global__ void reduce_interleaved_conflicts(const float *g_idata, float *g_odata) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i]; // expect: load g_idata 4/4; store sdata 1/1
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s]; // expect: load sdata 3.917/1; load sdata 3.917/1; store sdata 3.917/1
    }
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0]; // expect: load sdata 1/1; store g_odata 1/1
}

__global__ void reduce_sequential(const float *g_idata, float *g_odata) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i]; // expect: load g_idata 4/4; store sdata 1/1
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s]; // expect: load sdata 1/1; load sdata 1/1; store sdata 1/1
    }
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0]; // expect: load sdata 1/1; store g_odata 1/1
}

int main() {
  const int n = 1 << 22, block = 256;
  float *in = sample::alloc<float>(n);
  float *out = sample::alloc<float>(n / block);
  const size_t shmem = block * sizeof(float);
  const double B = double(n) * sizeof(float);
  sample::run("reduce_interleaved_divergent", B,
              [&] { reduce_interleaved_divergent<<<n / block, block, shmem>>>(in, out); });
  sample::run("reduce_interleaved_conflicts", B,
              [&] { reduce_interleaved_conflicts<<<n / block, block, shmem>>>(in, out); });
  sample::run("reduce_sequential", B, [&] { reduce_sequential<<<n / block, block, shmem>>>(in, out); });
  return 0;
}
