// The edges of a known grid (issue 12): a bounds check against a known size
// that cuts off part of the last block, a branch taken by one block, a clamp
// that bites on one lane of the whole launch, the last pass of a grid-stride
// loop, a 2D tile cut on two sides, and warp votes. Every figure is the
// average over all requests of the launch and the launch's totals, as Nsight
// Compute counts them; the grids are small so that the edge weighs.
#include "harness.cuh"

#define FULL_MASK 0xffffffffu

// 4 blocks of 256 threads over 1000 elements: the last block's 8th warp
// keeps 8 lanes (32 bytes: 1 sector). 31 requests of 4 sectors and one of
// 1: 125 / 32 = 3.90625 per request.
__global__ void tail_guard(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i]; // expect: load in 3.906/3.906; store out 3.906/3.906
}

// Block 0 writes every other float; the others copy. 8 of the 32 warps take
// the first branch.
__global__ void first_block(const float *__restrict__ in, float *__restrict__ out) {
  if (blockIdx.x == 0)
    out[2 * threadIdx.x] = in[threadIdx.x]; // expect: load in 4/4; store out 8/4
  else
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f; // expect: store out 4/4
}

// in[i + 1] straddles 5 sectors; on the launch's last lane the clamp repeats
// lane 30's element, and that warp reads 124 bytes in 4 sectors:
// (31 * 5 + 4) / 32 = 4.96875.
__global__ void edge_clamp(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[min(i + 1, n - 1)]; // expect: load in 4.969/4; store out 4/4
}

// 8 blocks of 128 threads stride over 3000 elements: two full passes, then
// blocks 0..6 and the first 56 threads of block 7 (a full warp and one of 24
// lanes): 94 requests, 93 of 4 sectors and one of 3: 375 / 94.
__global__ void grid_stride_tail(const float *__restrict__ in, float *__restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = 2.0f * in[i]; // expect: load in 3.989/3.989; store out 3.989/3.989
}

// A 100 x 50 image in 32 x 8 tiles: the right column of tiles keeps 4 lanes
// per warp (16 bytes, 1 sector), the bottom row 2 of its 8 rows. Rows are
// 400 bytes apart, so odd rows straddle a sector boundary (5 sectors):
// 150 full-width requests (675 sectors) and 50 narrow ones (50): 725 / 200.
__global__ void tile_edges(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x]; // expect: load in 3.625/3.25; store out 3.625/3.25
}

// Warp votes: the warps whose lanes all pass the check take the first
// branch (31 warps, 4 sectors each); the edge warp takes the second with 8
// lanes (1 sector).
__global__ void vote_guard(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned all = __ballot_sync(FULL_MASK, i < n);
  if (all == FULL_MASK)
    out[i] = in[i]; // expect: load in 4/4; store out 4/4
  else if (i < n)
    out[i] = -in[i]; // expect: load in 1/1; store out 1/1
}

int main() {
  float *in = sample::alloc<float>(4096);
  float *out = sample::alloc<float>(4096);
  sample::run("tail_guard", 2.0 * 1000 * 4, [&] { tail_guard<<<4, 256>>>(in, out, 1000); });
  sample::run("first_block", 2.0 * 1024 * 4, [&] { first_block<<<4, 256>>>(in, out); });
  sample::run("edge_clamp", 2.0 * 1024 * 4, [&] { edge_clamp<<<4, 256>>>(in, out, 1024); });
  sample::run("grid_stride_tail", 2.0 * 3000 * 4,
              [&] { grid_stride_tail<<<8, 128>>>(in, out, 3000); });
  sample::run("tile_edges", 2.0 * 100 * 50 * 4,
              [&] { tile_edges<<<dim3(4, 7), dim3(32, 8)>>>(in, out, 100, 50); });
  sample::run("vote_guard", 2.0 * 1000 * 4, [&] { vote_guard<<<4, 256>>>(in, out, 1000); });
  return 0;
}
