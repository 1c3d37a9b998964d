// Register tiles in one-dimensional shared arrays, as SGEMM-style kernels
// write them: A's tile stored transposed from float4 loads, each thread's
// row of 8 floats read element by element (nvcc merges them: two LDS.128).
// The stores conflict. The XOR swizzle of 32-byte chunks coalesce-lint
// offers writes the reads `(b ^ bits) + i`; nvcc keeps them merged here, as
// the compile of the edited code shows before the fix is offered (the source
// alone cannot tell: rules/docs/fix-swizzle.md). Each "after" kernel is its
// "before" as `coalesce-lint --fix` (with the compiler witness) rewrites it;
// verify mode measures both.
#include "harness.cuh"

#define BM 128

// BK = 16: a warp's stores touch 8 rows of 4 column groups, a 4-way
// conflict. No padding that keeps the reads 16-byte aligned separates four
// groups (it halves the conflict at best); the swizzle removes it.
__global__ void tile16_before(const float4 *in, float *out) {
  __shared__ float As[BM * 16];
  int t = threadIdx.x, r = t / 4, c = t % 4;
  for (int off = 0; off < BM; off += 64) {
    float4 v = in[(blockIdx.x * BM + r + off) * 4 + c]; // expect: load in 16/16
    As[(c * 4 + 0) * BM + r + off] = v.x; // expect: store As 4/1
    As[(c * 4 + 1) * BM + r + off] = v.y; // expect: store As 4/1
    As[(c * 4 + 2) * BM + r + off] = v.z; // expect: store As 4/1
    As[(c * 4 + 3) * BM + r + off] = v.w; // expect: store As 4/1
  }
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + (t / 16) * 8 + i]; // expect: load As 2/2
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

__global__ void tile16_after(const float4 *in, float *out) {
  __shared__ float As[BM * 16];
  int t = threadIdx.x, r = t / 4, c = t % 4;
  for (int off = 0; off < BM; off += 64) {
    float4 v = in[(blockIdx.x * BM + r + off) * 4 + c]; // expect: load in 16/16
    As[(c * 4 + 0) * BM + ((r + off) ^ ((((c * 4 + 0) >> 2) & 3) << 3))] = v.x; // expect: store As 1/1
    As[(c * 4 + 1) * BM + ((r + off) ^ ((((c * 4 + 1) >> 2) & 3) << 3))] = v.y; // expect: store As 1/1
    As[(c * 4 + 2) * BM + ((r + off) ^ ((((c * 4 + 2) >> 2) & 3) << 3))] = v.z; // expect: store As 1/1
    As[(c * 4 + 3) * BM + ((r + off) ^ ((((c * 4 + 3) >> 2) & 3) << 3))] = v.w; // expect: store As 1/1
  }
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + ((((t / 16) * 8) ^ (((k >> 2) & 3) << 3)) + i)]; // expect(source): load As unknown // expect(witness): load As 2/2
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

// BK = 8 (two column groups, 2-way): padding by 4 floats and the swizzle both
// remove the conflict; the swizzle, offered first, needs no memory.
__global__ void tile8_before(const float4 *in, float *out) {
  __shared__ float As[BM * 8];
  int t = threadIdx.x, r = t / 2, c = t % 2;
  float4 v = in[(blockIdx.x * BM + r) * 2 + c]; // expect: load in 16/16
  As[(c * 4 + 0) * BM + r] = v.x; // expect: store As 2/1
  As[(c * 4 + 1) * BM + r] = v.y; // expect: store As 2/1
  As[(c * 4 + 2) * BM + r] = v.z; // expect: store As 2/1
  As[(c * 4 + 3) * BM + r] = v.w; // expect: store As 2/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + (t / 16) * 8 + i]; // expect: load As 2/2
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

__global__ void tile8_after(const float4 *in, float *out) {
  __shared__ float As[BM * 8];
  int t = threadIdx.x, r = t / 2, c = t % 2;
  float4 v = in[(blockIdx.x * BM + r) * 2 + c]; // expect: load in 16/16
  As[(c * 4 + 0) * BM + (r ^ ((((c * 4 + 0) >> 1) & 3) << 3))] = v.x; // expect: store As 1/1
  As[(c * 4 + 1) * BM + (r ^ ((((c * 4 + 1) >> 1) & 3) << 3))] = v.y; // expect: store As 1/1
  As[(c * 4 + 2) * BM + (r ^ ((((c * 4 + 2) >> 1) & 3) << 3))] = v.z; // expect: store As 1/1
  As[(c * 4 + 3) * BM + (r ^ ((((c * 4 + 3) >> 1) & 3) << 3))] = v.w; // expect: store As 1/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + ((((t / 16) * 8) ^ (((k >> 1) & 3) << 3)) + i)]; // expect(source): load As unknown // expect(witness): load As 2/2
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

int main() {
  const int blocks = 1024;
  float4 *in = sample::alloc<float4>(size_t(blocks) * BM * 4);
  float *out = sample::alloc<float>(size_t(blocks) * 256);
  const double B16 = double(blocks) * (BM * 16 + 256) * 4;
  const double B8 = double(blocks) * (BM * 8 + 256) * 4;
  sample::run("tile16_before", B16, [&] { tile16_before<<<blocks, 256>>>(in, out); });
  sample::run("tile16_after", B16, [&] { tile16_after<<<blocks, 256>>>(in, out); });
  sample::run("tile8_before", B8, [&] { tile8_before<<<blocks, 256>>>(in, out); });
  sample::run("tile8_after", B8, [&] { tile8_after<<<blocks, 256>>>(in, out); });
  SAMPLE_CHECK(cudaFree(in));
  SAMPLE_CHECK(cudaFree(out));
  return 0;
}
