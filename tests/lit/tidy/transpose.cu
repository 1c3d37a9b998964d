// A realistic file through the plugin and the CLI, with the same expectations:
// a naive transpose (uncoalesced store), a tiled one (32-way conflict on the
// column read of the tile), the padded tile (conflict-free), and a gather
// whose index comes from memory (unknown: a remark, which both report by
// default; ReportUnknown=false and --no-unknown turn it off).
//
// RUN: %tidy %s -- %cuda-flags \
// RUN:   | FileCheck %s --check-prefixes=CHECK,UNKNOWN --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not=note:
// RUN: %lint %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,UNKNOWN --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not=note:
// RUN: %tidy --config="{CheckOptions: {coalesce-uncoalesced-global.ReportUnknown: false}}" %s -- %cuda-flags \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not=note:
// RUN: %lint --no-unknown %s \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not=note:

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[x * rows + y + j] = in[(y + j) * cols + x];
  // CHECK: transpose.cu:[[@LINE-1]]:5: warning: global store to 'out' uses 32 sectors per request (ideal 4): lanes are 16384 bytes apart [coalesce-uncoalesced-global]
  // CHECK: transpose.cu:[[@LINE-2]]:5: note: lane 0 -> byte +0, lane 1 -> byte +16384, lane 2 -> byte +32768, ..., lane 31 -> byte +507904 (relative to lane 0); the lanes are spread by `x * rows`
  // CHECK: transpose.cu:[[@LINE-3]]:5: note: assuming blockDim = (32, 8, 1) from the launch at transpose.cu:[[#LAUNCH_NAIVE:]]; assuming 'out' points to the start of a cudaMalloc allocation (256-byte aligned)
  // CHECK: transpose.cu:[[@LINE-4]]:5: note: consecutive lanes walk down a column (a transposed access); stage the tile through shared memory or let threadIdx.x index the contiguous dimension: 4 sectors per request (8x fewer)
}

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK: transpose.cu:[[@LINE-1]]:31: warning: shared load from 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  // CHECK: transpose.cu:[[@LINE-2]]:31: note: lane 0 -> byte +0 (bank 0), lane 1 -> byte +128 (bank 0), lane 2 -> byte +256 (bank 0), ..., lane 31 -> byte +3968 (bank 0) (relative to lane 0)
  // CHECK: transpose.cu:[[@LINE-3]]:31: note: assuming blockDim = (32, 8, 1) from the launch at transpose.cu:[[#LAUNCH_NAIVE+1]]
  // CHECK: transpose.cu:[[#@LINE-13]]:35: note: padding the innermost dimension by 1 element (tile[TILE][TILE + 1]) gives 1 wavefront per request
}

__global__ void transpose_padded(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void gather(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
  // UNKNOWN: transpose.cu:[[@LINE-1]]:14: remark: global load from 'in' cannot be predicted: depends on data loaded by `idx[i]` [coalesce-uncoalesced-global]
  // UNKNOWN: transpose.cu:[[@LINE-2]]:14: note: assuming blockDim = (256, 1, 1) from the launch at transpose.cu:[[#LAUNCH_NAIVE+3]]
}

int main() {
  const int n = 4096;
  float *a, *b;
  int *idx;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&idx, n * sizeof(int));
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  transpose_naive<<<grid, block>>>(a, b, n, n);
  transpose_tiled<<<grid, block>>>(a, b, n, n);
  transpose_padded<<<grid, block>>>(a, b, n, n);
  gather<<<n / 256, 256>>>(a, idx, b, n);
}
