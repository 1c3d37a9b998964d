// Stand-in (benchmark input): helpers shared by the trainer's kernels.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

inline void check(cudaError_t E, const char *File, int Line) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(E), File, Line);
    std::exit(1);
  }
}
#define CHECK(E) check((E), __FILE__, __LINE__)

__device__ inline float warpSum(cg::thread_block_tile<32> &Warp, float V) {
  return cg::reduce(Warp, V, cg::plus<float>());
}
