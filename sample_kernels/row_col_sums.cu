// Seed 002: one thread per row walks along its row (lanes are a whole row
// apart: 32 sectors per request, every iteration) versus one thread per column
// (lanes are neighbours: 4); and `blockIdx.x + blockDim.x * threadIdx.x`,
// which spreads the lanes blockDim.x elements apart.
#include "harness.cuh"

__global__ void row_sums(const float *a, float *sums, int H, int W) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < H) {
    float s = 0.0f;
    for (int j = 0; j < W; ++j)
      s += a[row * W + j]; // expect: load a 32/4
    sums[row] = s; // expect: store sums 4/4
  }
}

__global__ void col_sums(const float *a, float *sums, int H, int W) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < W) {
    float s = 0.0f;
    for (int i = 0; i < H; ++i)
      s += a[i * W + col]; // expect: load a 4/4
    sums[col] = s; // expect: store sums 4/4
  }
}

__global__ void increment_coalesced(float *a) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  a[idx] += 1; // expect: load a 4/4; store a 4/4
}

__global__ void increment_transposed(float *a) {
  int idx = blockIdx.x + blockDim.x * threadIdx.x;
  a[idx] += 1; // expect: load a 32/4; store a 32/4
}

int main() {
  const int H = 4096, W = 1024;
  float *a = sample::alloc<float>(size_t(H) * W);
  float *sums = sample::alloc<float>(H);
  sample::run("row_sums", double(H) * W * sizeof(float), [&] { row_sums<<<H / 256, 256>>>(a, sums, H, W); });
  sample::run("col_sums", double(H) * W * sizeof(float), [&] { col_sums<<<W / 256, 256>>>(a, sums, H, W); });
  const int n = 1 << 20;
  sample::run("increment_coalesced", 2.0 * n * sizeof(float), [&] { increment_coalesced<<<n / 256, 256>>>(a); });
  sample::run("increment_transposed", 2.0 * n * sizeof(float), [&] { increment_transposed<<<n / 256, 256>>>(a); });
  return 0;
}
