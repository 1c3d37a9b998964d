// Seeds 001 and 004: copy vs strided copy vs naive transpose vs the tiled
// transposes through shared memory, without and with padding. Block 32 x 8
// (TILE_DIM x BLOCK_ROWS), each thread handles 4 rows of a 32 x 32 tile.
#include "harness.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void copy_coalesced(const float *__restrict__ in, float *__restrict__ out,
                               int rows, int cols) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y + j < rows && x < cols) {
      out[(y + j) * cols + x] = in[(y + j) * cols + x]; // expect: load in 4/4; store out 4/4
    }
  }
}

__global__ void copy_strided(const float *__restrict__ in, float *__restrict__ out,
                             int rows, int cols) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y + j < rows && x < cols) {
      out[(y + j) * cols + x] = in[x * cols + (y + j)]; // expect: load in 32/4; store out 4/4
    }
  }
}

__global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out,
                                int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < rows && x < cols) {
    out[x * rows + y] = in[y * cols + x]; // expect: load in 4/4; store out 32/4
  }
}

// Seed 001's tiled transpose: coalesced global accesses, but reading the tile
// down a column hits one bank 32 times.
__global__ void transpose_tiled(const float *__restrict__ A, float *__restrict__ B,
                                int N, int M) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if ((y + j) < N && x < M) {
      tile[threadIdx.y + j][threadIdx.x] = A[(y + j) * M + x]; // expect: load A 4/4; store tile 1/1
    }
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if ((y + j) < M && x < N) {
      B[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j]; // expect: load tile 32/1; store B 4/4
    }
  }
}

// Seed 004's transpose_shared: the +1 padding makes the column read
// conflict-free (gcd(33, 32) = 1).
__global__ void transpose_shared(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y + j < rows && x < cols) {
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x]; // expect: load in 4/4; store tile 1/1
    }
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (y + j < cols && x < rows) {
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j]; // expect: load tile 1/1; store out 4/4
    }
  }
}

int main() {
  const int rows = 4096, cols = 4096;
  float *in = sample::alloc<float>(size_t(rows) * cols);
  float *out = sample::alloc<float>(size_t(rows) * cols);
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  dim3 naiveGrid(cols / TILE_DIM, rows / BLOCK_ROWS);
  const double B = 2.0 * rows * cols * sizeof(float);
  sample::run("copy_coalesced", B, [&] { copy_coalesced<<<grid, block>>>(in, out, rows, cols); });
  sample::run("copy_strided", B, [&] { copy_strided<<<grid, block>>>(in, out, rows, cols); });
  sample::run("transpose_naive", B, [&] { transpose_naive<<<naiveGrid, block>>>(in, out, rows, cols); });
  sample::run("transpose_tiled", B, [&] { transpose_tiled<<<grid, block>>>(in, out, rows, cols); });
  sample::run("transpose_shared", B, [&] { transpose_shared<<<grid, block>>>(in, out, rows, cols); });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
