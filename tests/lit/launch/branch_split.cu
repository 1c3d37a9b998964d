// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | %records --launch | FileCheck %s --check-prefix=REC
// A block shape that depends on a branch the host code cannot decide (a
// environment variable, an argument) is analysed once per side: the walk runs
// again with the branch taking each side, so values computed after it (the
// kernel's arguments) stay consistent with that side.

// Four lanes in x, eight in y: a warp is 4 x 8 threads. Reading the tile by
// (x, y) is conflict-free; if blockDim.x were a multiple of 32 (what the tool
// assumes when it does not know the shape), x would span the warp and the
// 8-float row pitch would give an 8-way conflict.
__global__ void reduce_cols(float *out, const float *in) {
  __shared__ float part[32][8];
  part[threadIdx.z][threadIdx.y] = in[threadIdx.y];
  __syncthreads();
  out[threadIdx.y * 4 + threadIdx.x] = part[threadIdx.x][threadIdx.y];
}
// REC: branch_split.cu:[[#@LINE-2]]:40: reduce_cols load shared 'part' `part[threadIdx.x][threadIdx.y]` 1/1 ok @(4,8,24) when `getenv("SMALL") != nullptr` at branch_split.cu:[[#@LINE+40]] is true
// REC: branch_split.cu:[[#@LINE-3]]:40: reduce_cols load shared 'part' `part[threadIdx.x][threadIdx.y]` 1/1 ok @(4,8,32) when `getenv("SMALL") != nullptr` at branch_split.cu:[[#@LINE+39]] is false

// The stride follows the block size: with 512 threads, lanes are 8 bytes
// apart (a finding); with 256, 4 bytes apart (none). Pairing 512 with the
// other side's stride would be a false finding.
__global__ void strided(float *p, int stride) { p[threadIdx.x * stride] = 0; }
// CHECK: :[[@LINE-1]]:49: warning: global store to 'p' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart
// CHECK: note: assuming blockDim = (512, 1, 1) from the launch at branch_split.cu:[[#@LINE+37]] when `argc > 1` at branch_split.cu:[[#@LINE+36]] is true
// REC: branch_split.cu:[[#@LINE-3]]:49: strided store global 'p' `p[threadIdx.x * stride]` 8/4 uncoalesced @(512,1,1) when `argc > 1` at branch_split.cu:[[#@LINE+35]] is true
// REC: branch_split.cu:[[#@LINE-4]]:49: strided store global 'p' `p[threadIdx.x * stride]` 4/4 ok @(256,1,1) when `argc > 1` at branch_split.cu:[[#@LINE+34]] is false

// One side known, the other not (it comes from the input): the known side
// is analysed, the other keeps its reason.
__global__ void rows(float *p, int w) { p[threadIdx.x * w] = 0; }
// CHECK: :[[@LINE-1]]:41: warning: global store to 'p' uses 12 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (512, 1, 1) from the launch at branch_split.cu:[[#@LINE+35]] when `n > 512` at branch_split.cu:[[#@LINE+33]] is true
// CHECK: note: blockDim unknown: the launch at branch_split.cu:[[#@LINE+34]] has a block shape that is not known statically (it depends on the value returned by 'atoi' at branch_split.cu:[[#@LINE+30]])

// Neither side known: nothing to split on, the reason stays.
__global__ void unsplit(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:37: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: blockDim unknown: the launch at branch_split.cu:[[#@LINE+36]] has a block shape that is not known statically (it depends on a value that differs between the branches at branch_split.cu:[[#@LINE+32]]);

// Two branches, four shapes (a column read: 32 sectors in each).
__global__ void grid2(float *p) { p[threadIdx.x * 64 + threadIdx.y] = 0; }
// CHECK: :[[@LINE-1]]:35: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (32, 2, 1) from the launch at branch_split.cu:[[#@LINE+39]] when `argc > 2` at branch_split.cu:[[#@LINE+34]] is true and `argv[1][0] == 'a'` at branch_split.cu:[[#@LINE+35]] is true
// CHECK-DAG: note: assuming blockDim = (32, 4, 1) from the launch at branch_split.cu:[[#@LINE+38]] when `argc > 2` at branch_split.cu:[[#@LINE+33]] is true and `argv[1][0] == 'a'` at branch_split.cu:[[#@LINE+34]] is false
// CHECK-DAG: note: assuming blockDim = (64, 2, 1) from the launch at branch_split.cu:[[#@LINE+37]] when `argc > 2` at branch_split.cu:[[#@LINE+32]] is false and `argv[1][0] == 'a'` at branch_split.cu:[[#@LINE+33]] is true
// CHECK-DAG: note: assuming blockDim = (64, 4, 1) from the launch at branch_split.cu:[[#@LINE+36]] when `argc > 2` at branch_split.cu:[[#@LINE+31]] is false and `argv[1][0] == 'a'` at branch_split.cu:[[#@LINE+32]] is false

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  float *a, *b;
  cudaMalloc(&a, 1 << 24);
  cudaMalloc(&b, 1 << 24);

  const int block_size = getenv("SMALL") != nullptr ? 768 : 1024;
  dim3 block = {4, 8, (unsigned)block_size / 32};
  reduce_cols<<<1, block>>>(a, b);

  const int threads = argc > 1 ? 512 : 256;
  strided<<<1, threads>>>(a, threads / 256);

  int n = atoi(argv[1]);
  int t = n;
  if (n > 512)
    t = 512;
  rows<<<1, t>>>(a, 3);

  int u;
  if (argc > 3)
    u = n * 2;
  else
    u = n + 1;
  unsplit<<<1, u>>>(a);

  int bx, by;
  bx = argc > 2 ? 32 : 64;
  if (argv[1][0] == 'a')
    by = 2;
  else
    by = 4;
  grid2<<<1, dim3(bx, by)>>>(a);
}
