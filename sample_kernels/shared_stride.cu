// Seed 004: bank conflicts by stride. Lane t reads smem[(t * S) % 1024]; the
// bank is (t * S) % 32, so a stride S costs gcd(S, 32) wavefronts per request
// (1, 2, 1, 4, 8, 16, 32, 1 for S = 1, 2, 3, 4, 8, 16, 32, 33).
#include "harness.cuh"

template <int S> __global__ void smem_stride_test(float *out) {
  __shared__ float smem[1024];
  smem[threadIdx.x] = threadIdx.x; // expect: store smem 1/1
  __syncthreads();
  int idx = (threadIdx.x * S) % 1024;
  out[blockIdx.x * blockDim.x + threadIdx.x] = smem[idx];
  // expect: store out 4/4
  // expect(smem_stride_test<1>): load smem 1/1
  // expect(smem_stride_test<2>): load smem 2/1
  // expect(smem_stride_test<3>): load smem 1/1
  // expect(smem_stride_test<4>): load smem 4/1
  // expect(smem_stride_test<8>): load smem 8/1
  // expect(smem_stride_test<16>): load smem 16/1
  // expect(smem_stride_test<32>): load smem 32/1
  // expect(smem_stride_test<33>): load smem 1/1
}

template <int S> void one(float *out, int blocks) {
  char L[40];
  std::snprintf(L, sizeof L, "smem_stride_test<%d>", S);
  sample::run(L, double(blocks) * 256 * sizeof(float), [&] { smem_stride_test<S><<<blocks, 256>>>(out); });
}

int main() {
  const int blocks = 4096;
  float *out = sample::alloc<float>(blocks * 256);
  one<1>(out, blocks);
  one<2>(out, blocks);
  one<3>(out, blocks);
  one<4>(out, blocks);
  one<8>(out, blocks);
  one<16>(out, blocks);
  one<32>(out, blocks);
  one<33>(out, blocks);
  return 0;
}
