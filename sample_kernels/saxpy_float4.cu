// Seed 000: matrix SAXPY with float4 loads, coalesced (16 sectors per request)
// versus column-major (32 sectors per request). Row-major M x K floats.
#include "harness.cuh"

__global__ void saxpy_coalesced(float *xs, const float *ys, int M, int K, float a) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int nthreads = blockDim.x * gridDim.x;
  float4 xsReg;
  float4 ysReg;
  int start = tid * 4;
  int step = nthreads * 4;
  int numel = M * K;
  for (int i = start; i < numel; i += step) {
    xsReg = *(float4 *)(xs + i); // expect: load xs 16/16
    ysReg = *(float4 *)(ys + i); // expect: load ys 16/16
    xsReg.x = a * xsReg.x + ysReg.x;
    xsReg.y = a * xsReg.y + ysReg.y;
    xsReg.z = a * xsReg.z + ysReg.z;
    xsReg.w = a * xsReg.w + ysReg.w;
    *(float4 *)(xs + i) = xsReg; // expect: store xs 16/16
  }
}

__global__ void saxpy_strided(float *xs, const float *ys, int M, int K, float a) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int nthreads = blockDim.x * gridDim.x;
  float4 xsReg;
  float4 ysReg;
  int start = 4 * tid;
  int step = 4 * nthreads;
  int numel = M * K;
  for (int i = start; i < numel; i += step) {
    // col major access
    int col = i / K;
    int row = i % K;
    int strided_offset = col * 4 + row * K;
    xsReg = *(float4 *)(xs + strided_offset); // expect: load xs 32/16
    ysReg = *(float4 *)(ys + strided_offset); // expect: load ys 32/16
    xsReg.x = a * xsReg.x + ysReg.x;
    xsReg.y = a * xsReg.y + ysReg.y;
    xsReg.z = a * xsReg.z + ysReg.z;
    xsReg.w = a * xsReg.w + ysReg.w;
    *(float4 *)(xs + strided_offset) = xsReg; // expect: store xs 32/16
  }
}

int main() {
  const int M = 4096, K = 4096;
  float *xs = sample::alloc<float>(size_t(M) * K);
  float *ys = sample::alloc<float>(size_t(M) * K);
  const double Bytes = 3.0 * M * K * sizeof(float);
  sample::run("saxpy_coalesced", Bytes, [&] { saxpy_coalesced<<<1024, 256>>>(xs, ys, M, K, 2.0f); });
  sample::run("saxpy_strided", Bytes, [&] { saxpy_strided<<<1024, 256>>>(xs, ys, M, K, 2.0f); });
  cudaFree(xs);
  cudaFree(ys);
  return 0;
}
