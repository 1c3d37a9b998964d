// Seed 001's grid-stride patterns: the loop counter advances by the whole grid
// each iteration, so every iteration is coalesced (4 sectors per request);
// the warp sum is published by one lane per warp with an atomic.
#include "harness.cuh"

__global__ void reduce_coalesced(const float *input, float *output, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  float sum = 0.0f;
  for (int i = idx; i < n; i += stride) {
    sum += input[i]; // expect: load input 4/4
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(output, sum); // expect: atomic output 1/1
  }
}

// A grid-stride loop over float4 with a row-major 2-D index.
__global__ void scale_rows(float4 *data, int rows, int cols4, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols4;
       i += blockDim.x * gridDim.x) {
    int r = i / cols4, c = i % cols4;
    float4 v = data[r * cols4 + c]; // expect: load data 16/16
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    data[r * cols4 + c] = v; // expect: store data 16/16
  }
}

int main() {
  const int n = 1 << 22;
  float *in = sample::alloc<float>(n);
  float *sum = sample::alloc<float>(1);
  sample::run("reduce_coalesced", double(n) * sizeof(float), [&] { reduce_coalesced<<<1024, 256>>>(in, sum, n); });
  const int rows = 2048, cols4 = 512;
  sample::run("scale_rows", 2.0 * rows * cols4 * sizeof(float4),
              [&] { scale_rows<<<512, 256>>>((float4 *)in, rows, cols4, 0.5f); });
  return 0;
}
