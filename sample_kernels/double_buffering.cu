// Double buffering: a loop whose trip count is a run-time size alternates
// between two shared tiles with `buf = 1 - buf` (or `buf ^= 1`), filling
// one while reading the other. The tool follows such a toggling variable through the loop
// (it is buf0 in even iterations and 1 - buf0 in odd ones), so the
// accesses through `tile[buf]` and `tile[1 - buf]` keep their numbers
// instead of becoming unknown.
#include "harness.cuh"

constexpr int T = 256;

__device__ void stage(float *dst, const float *src) {
  dst[threadIdx.x] = src[threadIdx.x]; // expect: load in 4/4; store tile 1/1; load in 4/4; store tile 1/1
}

__global__ void ping_pong(const float *in, float *out, int steps) {
  __shared__ float tile[2][T];
  int t = threadIdx.x;
  int buf = 0;
  tile[0][t] = in[blockIdx.x * T + t]; // expect: load in 4/4; store tile 1/1
  __syncthreads();
  float acc = 0.0f;
  for (int k = 1; k < steps; ++k) {
    tile[1 - buf][t] = in[(k * gridDim.x + blockIdx.x) * T + t]; // expect: load in 4/4; store tile 1/1
    acc += tile[buf][(t * 2) % T]; // expect: load tile 2/1
    __syncthreads();
    buf = 1 - buf;
  }
  out[blockIdx.x * T + t] = acc + tile[0][t]; // expect: store out 4/4; load tile 1/1
}

// The next tile is staged by a helper that receives the row as a pointer.
__global__ void staged(const float *in, float *out, int steps) {
  __shared__ float tile[2][T];
  int t = threadIdx.x;
  int buf = 0;
  stage(tile[0], in + blockIdx.x * T);
  __syncthreads();
  float acc = 0.0f;
  for (int k = 1; k < steps; ++k) {
    stage(tile[1 - buf], in + (k * gridDim.x + blockIdx.x) * T);
    acc += tile[buf][(t * 4) % T]; // expect: load tile 4/1
    __syncthreads();
    buf = 1 - buf;
  }
  out[blockIdx.x * T + t] = acc; // expect: store out 4/4
}

// The same toggle written `buf ^= 1`, the other tile `buf ^ 1`.
__global__ void xor_toggle(const float *in, float *out, int steps) {
  __shared__ float tile[2][T];
  int t = threadIdx.x;
  int buf = 0;
  tile[0][t] = in[blockIdx.x * T + t]; // expect: load in 4/4; store tile 1/1
  __syncthreads();
  float acc = 0.0f;
  for (int k = 1; k < steps; ++k) {
    tile[buf ^ 1][t] = in[(k * gridDim.x + blockIdx.x) * T + t]; // expect: load in 4/4; store tile 1/1
    acc += tile[buf][(t * 8) % T]; // expect: load tile 8/1
    __syncthreads();
    buf ^= 1;
  }
  out[blockIdx.x * T + t] = acc; // expect: store out 4/4
}

int main(int argc, char **argv) {
  const int steps = sample::runtime_size("steps", argc, argv, 1, 8);
  const int blocks = 1024;
  float *in = sample::alloc<float>(size_t(blocks) * T * steps);
  float *out = sample::alloc<float>(size_t(blocks) * T);
  const double B = double(blocks) * T * steps * sizeof(float);
  sample::run("ping_pong", B, [&] { ping_pong<<<blocks, T>>>(in, out, steps); });
  sample::run("staged", B, [&] { staged<<<blocks, T>>>(in, out, steps); });
  sample::run("xor_toggle", B, [&] { xor_toggle<<<blocks, T>>>(in, out, steps); });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
