// Launch shapes the host code makes known only in part or per branch, and a
// helper that only dereferences the address it is given (docs/launches.md,
// docs/model.md). The program runs without arguments: LAUNCH_Z and WIDE in
// the environment would change its shapes, and the analysis, which cannot
// know them, covers each case.
#include "harness.cuh"

constexpr int Blocks = 1024;

// dim3(4, 8, z) with z from the environment (4 by default), as llm.c's
// matmul_backward_bias_kernel9: a warp is 4 x 8 threads of one z-slice, so
// reading the tile by (x, y) is conflict-free whatever z is. Assuming
// blockDim.x a multiple of 32, as for a shape not known at all, gave an
// 8-way conflict and a padding fix-it. Both configurations (z = 4, and z
// not known) give these numbers.
__global__ void slice_reduce(float *out, const float *in) {
  __shared__ float part[32][8];
  part[threadIdx.z][threadIdx.y] = in[blockIdx.x * 8 + threadIdx.y]; // expect: store part 1/1; load in 1/1
  __syncthreads();
  const int slice = blockIdx.x * blockDim.z + threadIdx.z;
  out[slice * 32 + threadIdx.y * 4 + threadIdx.x] = part[threadIdx.x][threadIdx.y]; // expect: load part 1/1; store out 4/4
}

// A block size chosen by a branch the host code cannot decide, and an
// argument computed from it: each side is analysed with its own stride (the
// run takes the 256-thread side: 4 sectors).
__global__ void strided_fill(float *p, int stride) {
  p[(blockIdx.x * blockDim.x + threadIdx.x) * stride] = 1.0f; // expect(block=512): store p 8/4 // expect(block=256): store p 4/4
}

// A helper that only dereferences the address it is given: the finding is
// shown at the caller's argument (in gather_quads), the record stays here, where
// Nsight Compute puts the LDG.E.128.
struct alignas(16) Quad {
  float x, y, z, w;
};
__device__ Quad load_quad(const float *address) {
  return *reinterpret_cast<const Quad *>(address); // expect: load in 32/16
}

__global__ void gather_quads(float *out, const float *in) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  const Quad q = load_quad(in + 8 * i);
  out[i] = q.x + q.y + q.z + q.w; // expect: store out 4/4
}

int main() {
  const char *Z = std::getenv("LAUNCH_Z");
  const int z = Z ? std::atoi(Z) : 4;
  float *in = sample::alloc<float>(8 * size_t(Blocks) * 256);
  float *out = sample::alloc<float>(size_t(Blocks) * 256);
  const dim3 block(4, 8, z);
  sample::run("slice_reduce", 8.0 * Blocks * 32 * z, [&] { slice_reduce<<<Blocks, block>>>(out, in); });
  const int threads = std::getenv("WIDE") ? 512 : 256;
  sample::run("strided_fill", 4.0 * Blocks * threads, [&] {
    strided_fill<<<Blocks / (threads / 256), threads>>>(out, threads / 256);
  });
  sample::run("gather_quads", 20.0 * Blocks * 256, [&] { gather_quads<<<Blocks, 256>>>(out, in); });
  return 0;
}
