// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The classic tiled transpose with a (32, 8) block and a loop over the tile's
// rows: reading a [32][32] tile down a column puts all 32 words in one bank
// (32-way, every iteration); padding to [32][33] spreads them over all banks.
// The global reads and writes are row-major and coalesced. (The padding
// fix-it note: transpose_padding_fix.cu.)

#define TILE 32
#define ROWS 8
#define N 1024

__global__ void transpose_naive(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK: :[[@LINE-1]]:28: warning: shared load from 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

__global__ void transpose_padded(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  float *a, *b;
  dim3 grid(N / TILE, N / TILE), block(TILE, ROWS);
  transpose_naive<<<grid, block>>>(a, b);
  transpose_padded<<<grid, block>>>(a, b);
}
