// A value read twice in one statement is loaded once: nvcc keeps it in a
// register (common subexpression elimination), so Nsight Compute counts one
// request for it. coalesce-lint lists the second read with no number of its
// own and names the load it reuses; the line's figures are those of the
// loads that are issued.
#include "harness.cuh"

constexpr int T = 16;

// A 5-point stencil written as in diffusion codes: the centre appears three
// times in one statement, the neighbours once.
__global__ void stencil(const float *in, float *out, float k) {
  __shared__ float t[T + 2][T + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int g = (blockIdx.x * T + ty) * T + tx;
  t[ty + 1][tx + 1] = in[g]; // expect: load in 4/4; store t 2/1
  __syncthreads();
  // (Rows of 18 floats: a warp's two rows overlap on two banks, 2-way.)
  out[g] = t[ty + 1][tx + 1] + k * (t[ty][tx + 1] + t[ty + 2][tx + 1] - 2.0f * t[ty + 1][tx + 1]) + // expect: store out 4/4; load t 2/1; load t 2/1; load t 2/1; load t none
           k * (t[ty + 1][tx] + t[ty + 1][tx + 2] - 2.0f * t[ty + 1][tx + 1]);
  // expect: load t 2/1; load t 2/1; load t none
}

// A global value squared: one load of in[i + 1] (5 sectors, misaligned).
__global__ void square_shifted(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1] * in[i + 1]; // expect: load in 5/4; load in none; store out 4/4
}

int main() {
  const int blocks = 4096;
  float *in = sample::alloc<float>(size_t(blocks) * T * T + 64);
  float *out = sample::alloc<float>(size_t(blocks) * T * T);
  const double B = 2.0 * blocks * T * T * sizeof(float);
  sample::run("stencil", B, [&] { stencil<<<blocks, dim3(T, T)>>>(in, out, 0.25f); });
  sample::run("square_shifted", B, [&] { square_shifted<<<blocks, 256>>>(in, out); });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
