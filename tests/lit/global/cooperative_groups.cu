// Cooperative groups (issue 12): the thread block's and a tile's ranks, the
// tile's index among the block's tiles, a tile of a tile, groups passed to
// device functions (by value and by reference), in 1-D and 2-D blocks. Each
// is what the CUDA Programming Guide defines: block rank = x + y * bx, tile
// rank = parent rank % N, meta_group_rank = parent rank / N.
// With CUDA's own header: sample_kernels/launch_edges.cu.
// RUN: %lint %s 2>&1 | FileCheck %s %if tidy %{ %} %else %{--check-prefixes=CHECK,CLI%} --implicit-check-not=warning: --implicit-check-not=remark:
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void store_rank(const cg::thread_block &block, float *out, float v) {
  // 2-D block of 16 x 16: the rank is x + 16 y, consecutive in a warp.
  out[blockIdx.x * block.size() + block.thread_rank()] = v;
}

__device__ void per_tile(cg::thread_block_tile<32> tile, float *out, float v) {
  if (tile.thread_rank() == 0)
    out[blockIdx.x * 8 + tile.meta_group_rank()] = v;
}

__global__ void ranks(const float *in, float *out, float *tiles, float *halves) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float s[256];
  // A 2-D block: the rank walks the tile row by row.
  s[cta.thread_rank()] = in[blockIdx.x * 256 + cta.thread_rank()];
  cg::sync(cta);
  store_rank(cta, out, s[cta.thread_rank()]);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  per_tile(tile, tiles, s[tile.thread_rank()]);
  // A tile of 16 of a tile of 32: lanes 0 and 16 of each warp store, to
  // neighbouring elements: one sector.
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(tile);
  if (half.thread_rank() == 0)
    halves[blockIdx.x * 16 + tile.meta_group_rank() * 2 + half.meta_group_rank()] = 1.0f;
  // A value exchanged between lanes is data: a store at it is unknown.
  // CHECK-DAG: :[[@LINE+2]]:3: remark: global store to 'out' cannot be predicted: the value `tile.shfl_down(...)` exchanges between lanes
  int other = tile.shfl_down(cta.thread_rank(), 1);
  out[other] = 0;
}
void launch(const float *i, float *o, float *t, float *h) { ranks<<<64, dim3(16, 16)>>>(i, o, t, h); }
// CLI: coalesce-lint: 8 accesses in 1 kernel: 0 warnings, 1 remark
