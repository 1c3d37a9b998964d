// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | %records --launch | FileCheck %s --check-prefix=REC
// A block shape known in part (one dimension comes from the input). Warps
// are formed x fastest: when the known leading dimensions hold a multiple of
// 32 threads, every warp lies within them and the unknown dimension changes
// no warp's lanes, so the prediction is exact; when x is known but they do
// not, a warp spans the unknown dimension and the access is unknown (the
// usual assumption for an unknown shape, blockDim.x a multiple of 32, is
// known to be false there).

#include <cstdlib>

// (4, 8, ?), as llm.c's matmul_backward_bias_kernel9: a warp is 4 x 8
// threads of one z-slice. Reading the tile by (x, y) is conflict-free;
// assuming blockDim.x a multiple of 32 gave a false 8-way conflict.
__global__ void bias(float *out, const float *in) {
  __shared__ float part[32][8];
  part[threadIdx.z][threadIdx.y] = in[threadIdx.y];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.y * 4 + threadIdx.x] = part[threadIdx.x][threadIdx.y];
}
// REC: partial_shapes.cu:[[#@LINE-2]]:58: bias load shared 'part' `part[threadIdx.x][threadIdx.y]` 1/1 ok @?
// REC: partial_shapes.cu:[[#@LINE-3]]:3: bias store global 'out' {{.*}} 4/4 ok @?

// (64, ?, 1): a warp is half a row.
__global__ void pairs(float *p) { p[threadIdx.y * blockDim.x * 2 + threadIdx.x * 2] = 1; }
// CHECK: :[[@LINE-1]]:35: warning: global store to 'p' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart
// CHECK: note: blockDim partly known: the launch at partial_shapes.cu:[[#@LINE+22]] has block shape (64, ?, 1) (y: it depends on the value returned by 'atoi' at partial_shapes.cu:[[#@LINE+16]]); every warp lies within one row of 64 threads, so the unknown y does not change which threads share a warp; set {{--block=pairs=X,Y,Z|the check option Block=pairs=X,Y,Z}} to be exact

// (4, ?, 1): a warp spans 8 rows of y if there are 8, or several blocks'
// worth of z-slices if not: unknown, and why.
__global__ void narrow(float *p) { p[threadIdx.y * 64 + threadIdx.x] = 1; }
// CHECK: :[[@LINE-1]]:36: remark: global store to 'p' cannot be predicted: which threads share a warp is not known: the block shape is (4, ?, 1), and a warp spans the unknown y
// CHECK: note: blockDim partly known: the launch at partial_shapes.cu:[[#@LINE+17]] has block shape (4, ?, 1) (y: it depends on the value returned by 'atoi' at partial_shapes.cu:[[#@LINE+10]]); which threads share a warp depends on the unknown y;

// In the JSON output, the known dimensions.
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// JSON: "block_known_dims": [
// JSON-NEXT: 4,
// JSON-NEXT: 8,
// JSON-NEXT: null

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  float *a, *b;
  cudaMalloc(&a, 1 << 24);
  cudaMalloc(&b, 1 << 24);
  dim3 block(4, 8, n / 32);
  bias<<<64, block>>>(a, b);
  pairs<<<64, dim3(64, n)>>>(a);
  narrow<<<64, dim3(4, n)>>>(a);
}
