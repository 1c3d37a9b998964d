// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Tree reductions over a 256-float block (8 warps), run iteration by
// iteration. With index = 2 * s * tid, iteration s has the active lanes
// 2 * s words apart:
//   s:        1    2    4    8    16   32   64   128
//   warps:    4    2    1    1    1    1    1    1     (12 requests)
//   ways:     2    4    8    8    8    4    2    1
// averaged over requests: (4*2 + 2*4 + 8 + 8 + 8 + 4 + 2 + 1) / 12 = 47/12.
// Sequential addressing (sdata[tid + s]) and the modulo-guarded interleaved
// form are conflict-free.

__global__ void reduce_strided(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    // CHECK-DAG: :[[@LINE-1]]:7: warning: shared load and store of 'sdata' each have a 3.917-way bank conflict: 3.917 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
    //
    // CHECK-DAG: :[[@LINE-3]]:23: warning: shared load from 'sdata' has a 3.917-way bank conflict: 3.917 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduce_sequential(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduce_divergent(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

int main() {
  float *a, *b;
  reduce_strided<<<64, 256>>>(a, b);
  reduce_sequential<<<64, 256>>>(a, b);
  reduce_divergent<<<64, 256>>>(a, b);
}
