// A tile padded by hand by one element, [16][17], under a 16 x 16 block:
// each warp covers two rows, so the store conflicts at a pitch of 17 (rows
// 68 bytes apart put element 0 of the second row on bank 17 ... and element
// 15 on bank 0) and no padding removes both its conflict and the column
// read's (the store needs a pitch of 16 banks mod 32, the read an odd one).
// The rows without their padding, elements swizzled by row, remove both;
// the compile of the edited code confirms nvcc's instructions stay the same
// before the fix is offered (rules/docs/fix-swizzle.md). "after" is "before"
// as `coalesce-lint --fix` (with the compiler witness) rewrites it.
#include "harness.cuh"

__global__ void hand_padded_before(const float *in, float *out) {
  __shared__ float t[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = in[(blockIdx.x * 16 + ty) * 16 + tx]; // expect: load in 4/4; store t 2/1
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] = t[tx][ty]; // expect: load t 2/1; store out 4/4
}

__global__ void hand_padded_after(const float *in, float *out) {
  __shared__ float t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx ^ (ty & 15)] = in[(blockIdx.x * 16 + ty) * 16 + tx]; // expect: load in 4/4; store t 1/1
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] = t[tx][ty ^ (tx & 15)]; // expect: load t 1/1; store out 4/4
}

// What is offered without the compiler: one more element of padding, which
// fixes the column read and leaves the store 2-way.
__global__ void hand_padded_more(const float *in, float *out) {
  __shared__ float t[16][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = in[(blockIdx.x * 16 + ty) * 16 + tx]; // expect: load in 4/4; store t 2/1
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] = t[tx][ty]; // expect: load t 1/1; store out 4/4
}

int main() {
  const int blocks = 4096;
  float *in = sample::alloc<float>(size_t(blocks) * 256);
  float *out = sample::alloc<float>(size_t(blocks) * 256);
  const double B = double(blocks) * 256 * 4 * 2;
  sample::run("hand_padded_before", B, [&] { hand_padded_before<<<blocks, dim3(16, 16)>>>(in, out); });
  sample::run("hand_padded_after", B, [&] { hand_padded_after<<<blocks, dim3(16, 16)>>>(in, out); });
  sample::run("hand_padded_more", B, [&] { hand_padded_more<<<blocks, dim3(16, 16)>>>(in, out); });
  SAMPLE_CHECK(cudaFree(in));
  SAMPLE_CHECK(cudaFree(out));
  return 0;
}
