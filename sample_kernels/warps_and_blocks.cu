// How warps are formed from 2-D blocks (linear thread id in groups of 32),
// a kernel launched with two block shapes, and exact averages over blocks.
#include "harness.cuh"

__device__ float load_at(const float *p, int i) {
  return p[i]; // expect(by_value_helper): load in 4/4
}

// One kernel, two launches: with blockDim.x = 16 a warp covers two rows of
// 16 floats (2 sectors each); with 32 x 8 one row of 32 floats.
__global__ void copy2d(const float *in, float *out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = in[y * width + x]; // expect: load in 4/4; store out 4/4
  // Reading the transpose: lanes with the same x share a sector.
  out[x * width + y] = in[y * width + x] + 1.0f;
  // expect(block=16x16): store out 16/4; load in 4/4
  // expect(block=32x8): store out 32/4; load in 4/4
}

// blockDim.x = 48: warps straddle rows at different places, so the warps of
// one block differ (warp 1 is 16 floats of one row and 16 of the next).
__global__ void straddle(const float *in, float *out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = in[y * width + x]; // expect: load in 4/4; store out 4/4
}

// Each block starts 3 floats after the previous one: 12*b mod 32 bytes, so
// one block in eight is aligned (4 sectors) and seven are not (5): 4.875.
__global__ void block_offset(const float *in, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * 3 + threadIdx.x]; // expect: load in 4.875/4; store out 4/4
}

__global__ void by_value_helper(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = load_at(in, i); // expect: store out 4/4
}

int main() {
  const int W = 4096, H = 1024;
  float *in = sample::alloc<float>(size_t(W) * W);
  float *out = sample::alloc<float>(size_t(W) * W);
  const double B = 2.0 * W * H * sizeof(float);
  sample::run("copy2d 16x16", B, [&] { copy2d<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(in, out, W); });
  sample::run("copy2d 32x8", B, [&] { copy2d<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(in, out, W); });
  sample::run("straddle", B, [&] { straddle<<<dim3(W / 48, H / 4), dim3(48, 4)>>>(in, out, W); });
  sample::run("block_offset", 2.0 * 1024 * 32 * sizeof(float), [&] { block_offset<<<1024, 32>>>(in, out); });
  sample::run("by_value_helper", B, [&] { by_value_helper<<<W * H / 256, 256>>>(in, out); });
  return 0;
}
