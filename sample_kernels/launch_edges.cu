// Whole launches, not only interior warps (issue 12): what real kernels do at
// the edges of a block and with the thread-index APIs, each averaged over
// every request the launch issues, as Nsight Compute counts them.
#include "harness.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define PARTICLES_PER_BOX 100

struct Particle { float x, y, z, q, vx, vy, vz, m; }; // 32 bytes

// Rodinia lavaMD's loop: 128 threads walk 100 particles, so the 4th warp runs
// with 4 active lanes. A lane reads one float of a 32-byte struct: a full warp
// touches 32 sectors, the last one 4: (32 + 32 + 32 + 4) / 4 = 25 per request.
__global__ void partial_last_warp(const Particle *__restrict__ boxes, float *__restrict__ out) {
  const Particle *box = boxes + blockIdx.x * PARTICLES_PER_BOX;
  int wtx = threadIdx.x;
  while (wtx < PARTICLES_PER_BOX) {
    out[blockIdx.x * PARTICLES_PER_BOX + wtx] = box[wtx].x; // expect: load boxes 25/3.25; store out 3.625/3.25
    wtx += blockDim.x;
  }
}

// hotspot3D's edge handling: the west neighbour of column 0 is itself, so
// lane 0 of the first warp reads c and every other lane c - 1: the first
// warp reads 128 aligned bytes (4 sectors), the others straddle 5.
__global__ void boundary_condition(const float *__restrict__ in, float *__restrict__ out) {
  int i = threadIdx.x;
  int c = blockIdx.x * blockDim.x + i;
  int w = (i == 0) ? c : c - 1;
  out[c] = in[w]; // expect: load in 4.75/4; store out 4/4
}

// pathfinder's flag set inside a loop and tested after it: the lanes that
// set it are those below 64, on every iteration.
__global__ void loop_set_flag(const float *__restrict__ in, float *__restrict__ out) {
  bool computed = false;
  float v = 0;
  for (int k = 0; k < 4; k++) {
    if (threadIdx.x < 64) {
      v += in[k * blockDim.x + threadIdx.x]; // expect: load in 4/4
      computed = true;
    }
  }
  if (computed)
    out[blockIdx.x * blockDim.x + threadIdx.x] = v; // expect: store out 4/4
}

// A reduction written with cooperative groups: the rank in the block, the
// rank in a 32-thread tile and the tile's index among the block's tiles.
__global__ void cooperative_groups_ranks(const float *__restrict__ in, float *__restrict__ out,
                                         float *__restrict__ per_tile) {
  __shared__ float partial[256];
  cg::thread_block cta = cg::this_thread_block();
  unsigned rank = cta.thread_rank();
  partial[rank] = in[blockIdx.x * cta.size() + rank]; // expect: load in 4/4; store partial 1/1
  cg::sync(cta);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  if (tile.thread_rank() == 0)
    per_tile[blockIdx.x * 8 + tile.meta_group_rank()] = partial[rank]; // expect: load partial 1/1; store per_tile 1/1
  if (cta.thread_rank() == 0)
    out[blockIdx.x] = partial[0]; // expect: load partial 1/1; store out 1/1
}

// Rodinia particlefilter's search: every lane scans the same CDF (one
// address per request: 1 sector, however many lanes are still searching),
// then reads at the index it found, which depends on the data.
__global__ void search_loop(const float *__restrict__ cdf, const float *__restrict__ u,
                            const float *__restrict__ xs, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float target = u[i]; // expect: load u 4/4
  int index = -1;
  for (int x = 0; x < n; x++) {
    if (cdf[x] >= target) { // expect: load cdf 1/1
      index = x;
      break;
    }
  }
  if (index == -1)
    index = n - 1;
  out[i] = xs[index]; // expect: load xs unknown; store out 4/4
}

int main() {
  const int boxes = 4096, n = 1 << 20, block = 128;
  Particle *p = sample::alloc<Particle>(boxes * PARTICLES_PER_BOX);
  float *in = sample::alloc<float>(n);
  float *out = sample::alloc<float>(n);
  float *tiles = sample::alloc<float>(n / 32);
  sample::run("partial_last_warp", double(boxes) * PARTICLES_PER_BOX * 8,
              [&] { partial_last_warp<<<boxes, block>>>(p, out); });
  sample::run("boundary_condition", 2.0 * n * 4,
              [&] { boundary_condition<<<n / block, block>>>(in, out); });
  sample::run("loop_set_flag", 2.0 * n * 4, [&] { loop_set_flag<<<n / block, block>>>(in, out); });
  sample::run("cooperative_groups_ranks", 2.0 * n * 4,
              [&] { cooperative_groups_ranks<<<n / 256, 256>>>(in, out, tiles); });
  sample::run("search_loop", 3.0 * n * 4,
              [&] { search_loop<<<n / block, block>>>(in, in, in, out, 64); });
  return 0;
}
